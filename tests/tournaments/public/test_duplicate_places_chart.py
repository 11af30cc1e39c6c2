"""The places chart of a duplicate tournament's standings page (the rules' worked example of
nine players, two rounds): after the last round, the standings' places; after the first,
that round's scored deals alone."""

import pytest

from tests.support import EXAMPLES
from tests.support.tournaments import import_text
from tournaments import selectors
from tournaments.duplicate.scoring import player_totals


@pytest.fixture
def nine(db):
    return import_text((EXAMPLES / "duplicate-variety-nine.json").read_text(encoding="utf-8"))


def test_the_places_after_each_round_count_the_deals_scored_up_to_it(client, nine):
    played = selectors.played(nine).disclosed()
    adjustments = selectors.round_adjustments(nine)
    standings = selectors.standings_of(played, selectors.adjustment_totals(adjustments))
    places = selectors.places_by_round(played, adjustments)
    assert places[-1] == {row.player: row.place for row in standings}
    first_round = [
        deal.board
        for deal in selectors.duplicate_deals(nine, played.rounds, played.deal_rulings())
        if deal.group.round == 1
    ]
    first = selectors.Played(
        nine, played.entrants, played.rounds[:1], played.tables[:1], [True], played.rulings
    )
    expected = selectors.standings_of(first, {}, player_totals(first_round))
    assert places[0] == {row.player: row.place for row in expected}
    assert client.get(f"/tournaments/{nine.key}/standings/").status_code == 200
