"""``manage.py bench_duplicate`` on a tiny size, without its database: a round's deals and
hand records drawn for every group, and its section of the figures file saying which bounds
are met."""

from bench import sections
from tournaments.management.commands import bench_duplicate
from tournaments.management.commands.bench_tournaments import seating


def test_a_rounds_deals_are_drawn_for_its_group_with_a_hand_record_of_every_hand():
    round_ = seating("variety", 8, 1)["rounds"][0]
    drawn = bench_duplicate.group_deals("variety", 1, round_)
    assert [(group.size, len(group.deals)) for group in drawn] == [(4, 8)]
    records = bench_duplicate.by_suits(drawn)
    assert len(records) == 8 and all(len(hands) == 4 for hands in records)
    for deal, hands in zip(drawn[0].deals, records, strict=True):
        for hand, record in zip(deal.dealt["hands"], hands, strict=True):
            assert sorted(card for suit in record.values() for card in suit) == sorted(hand)
    figures = bench_duplicate.drawing("variety", round_)
    assert figures["groups"] == [{"size": 4, "tables": 2, "deals": 8}]
    assert 0 < figures["median_ms"] <= figures["slowest_ms"]


def figures(ratio: float, small: int = 9, big: int = 9) -> dict:
    return {
        "game": "variety",
        "deals": {
            "groups": [{"size": 4, "tables": 50, "deals": 8}],
            "median_ms": 0.3,
            "slowest_ms": 0.5,
        },
        "queries": {"small": small, "big": big},
        "pages": {"duplicate_ms": 300.0 * ratio, "plain_ms": 300.0, "ratio": ratio},
    }


def test_its_section_gives_each_figure_with_its_verdict(tmp_path, monkeypatch):
    where = tmp_path / "latest.md"
    monkeypatch.setenv("BENCH_FIGURES", str(where))
    given = figures(2.5, big=10)
    sections.duplicate(given, players=200, rounds=8, ratio_most=2.0, deals_most=0.5)
    text = where.read_text(encoding="utf-8")
    assert "`python manage.py bench_duplicate --game variety --players 200 --rounds 8`" in text
    assert "| 9 and 10: MISSES |" in text
    assert "750 ms and 300 ms, ratio 2.50: MISSES" in text
    assert "50 tables of 4, 8 deals" in text and "0.30 ms and 0.50 ms: meets" in text
    assert not bench_duplicate.met(given)
    assert bench_duplicate.met(figures(1.5))
