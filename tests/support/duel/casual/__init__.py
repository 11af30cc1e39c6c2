"""Duel played casually: the same game with its engine and web parts alone, no robots and no
tournament parts, so that a test can register a game that is not played in tournaments
(``games.registry.register("duel", "tests.support.duel.casual")``)."""
