"""Duel: a throw-away two-player game that lives in the test suite only.

It is a complete game package, as ``games/<key>/`` would be, so that a test can register it
(``games.registry.register("duel", "tests.support.duel")``) and play it through the pages and in a
tournament: the proof that a new game needs nothing outside its own package. It has no
robots; ``casual/`` is the same game without its tournament parts either.
"""
