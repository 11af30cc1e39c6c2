"""A duplicate round's deals (tournaments/duplicate/deals.py, pure Python): the same for the
same seed, round, table size and deal, whoever sits where; a whole pack dealt by each game's
own rules; deal k dealt by seat (k − 1) mod n; hands shown by suit for the hand records."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import registry
from tournaments.duplicate.deals import by_suit, deal_seed, round_deals

GAMES = [
    ("fantan", {}, 4),
    ("fantan", {"players": 3}, 3),
    ("variety", {"cycle": "short"}, 4),
    ("leopard", {"deals": 2}, 2),
]


def options_of(game: str, raw: dict) -> dict:
    return registry.rules(game).read_options(raw)


@pytest.mark.parametrize("game, raw, seats", GAMES)
@given(seed=st.integers(0, 2**63), round_number=st.integers(1, 20))
def test_the_same_seed_round_and_size_give_the_same_deals_and_a_whole_pack(
    game, raw, seats, seed, round_number
):
    options = options_of(game, raw)
    deals = round_deals(game, options, seed=seed, round_number=round_number, seats=seats, count=3)
    again = round_deals(game, options, seed=seed, round_number=round_number, seats=seats, count=3)
    assert deals == again
    assert [d.dealer for d in deals] == [0, 1 % seats, 2 % seats]
    for deal in deals:
        cards = [c for hand in deal.dealt["hands"] for c in hand] + deal.dealt.get("stock", [])
        pack = registry.rules(game).deal(options, deal.dealer, 0)
        whole = [c for hand in pack["hands"] for c in hand] + pack.get("stock", [])
        assert Counter(cards) == Counter(whole)  # the game's whole pack, nothing else
        # and a record of it reads back as the game's own deal
        assert registry.rules(game).read_dealt(deal.dealt, options) is not None


@given(st.integers(0, 2**63))
def test_another_round_size_or_deal_gets_another_pack(seed):
    seeds = {
        deal_seed(seed, round_number, seats, number)
        for round_number in (1, 2)
        for seats in (3, 4)
        for number in (1, 2, 3)
    }
    assert len(seeds) == 12


@given(st.integers(0, 2**63), st.integers(1, 20), st.integers(2, 4), st.integers(1, 30))
def test_a_deals_seed_fits_where_a_table_stores_it(seed, round_number, seats, number):
    assert 0 <= deal_seed(seed, round_number, seats, number) < 2**62


def test_a_hand_record_shows_each_suit_high_to_low():
    assert by_suit(["2S", "AS", "TD", "KH", "3C", "JD"]) == {
        "S": ["AS", "2S"],
        "H": ["KH"],
        "D": ["JD", "TD"],
        "C": ["3C"],
    }
