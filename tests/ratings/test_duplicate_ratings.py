"""A duplicate tournament in the club's ratings (docs/rules/duplicate.md): each comparison of
a scored deal with two results or more (one seat of one deal of a round's group) is a rated
match of the players who held the same cards, ranked by their margins, equal margins sharing
the place; its tables are not rated as tables. A rebuild rates them as the imports did. The
ladder counts each player's duplicate matches and his page names them, his margin as his
points. The same queries for two tournaments as for one."""

import json
from collections import defaultdict
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Player
from ratings import ladder, pages, services, skill
from ratings.models import RatedMatch, Rating, RatingStep
from ratings.tournament_tables import TournamentTables
from tests.support import EXAMPLES
from tests.support.ratings import expected_skills
from tests.support.rules_pages import Node, Tree
from tests.support.tournaments import import_text
from tournaments.models import RoundTable

pytestmark = pytest.mark.django_db

VARIETY = json.loads((EXAMPLES / "duplicate-variety-nine.json").read_text())
FANTAN = json.loads((EXAMPLES / "duplicate-fantan-fifteen.json").read_text())


def comparisons(doc: dict) -> dict[tuple[int, int, int, int], dict[str, Fraction]]:
    """From a Выборы document, every (round, size, deal, seat) with two results or more:
    each player's margin there, his deal's score less the mean of the others' at his
    table. Every round but the last is over, so each deal any table played is scored."""
    found = {}
    for number, round_ in enumerate(doc["rounds"], start=1):
        by_size = defaultdict(list)
        for table in round_["tables"]:
            by_size[len(table["players"])].append(table)
        for size, tables in by_size.items():
            for deal in range(1, max(len(t["rows"]) for t in tables) + 1):
                played = [t for t in tables if len(t["rows"]) >= deal]
                for seat in range(size):
                    if len(played) < 2:
                        continue
                    margins = {}
                    for table in played:
                        scores = table["rows"][deal - 1]["scores"]
                        others = Fraction(sum(scores) - scores[seat], size - 1)
                        margins[table["players"][seat]] = scores[seat] - others
                    found[number, size, deal, seat] = margins
    return found


def places(margins: dict[str, Fraction]) -> dict[str, int]:
    return {
        name: 1 + sum(other > mine for other in margins.values()) for name, mine in margins.items()
    }


def rated_matches(tournament) -> list[dict[str, int]]:
    """Each rated match of the tournament: its players' places, by name."""
    found: dict[str, dict[str, int]] = defaultdict(dict)
    for key, name, rank in RatingStep.objects.filter(
        match__key__startswith=f"tournament:{tournament.pk}:"
    ).values_list("match__key", "player__name", "rank"):
        found[key][name] = rank
    return list(found.values())


def as_set(matches) -> list:
    return sorted(sorted(m.items()) for m in matches)


def snapshot(game: str) -> tuple:
    return (
        list(RatedMatch.objects.filter(game=game).values_list("key", "order")),
        sorted(
            Rating.objects.filter(game=game).values_list("player__name", "mu", "sigma", "matches")
        ),
    )


def first_round_only(doc: dict) -> dict:
    """The document with its second round left out: Мария's margins at the first round's
    seat 4 top each of its comparisons."""
    return {**doc, "rounds": doc["rounds"][:1], "rounds_planned": 1}


def test_each_comparison_with_two_results_is_a_match_ranked_by_margin_and_no_table_is():
    tournament = import_text(json.dumps(VARIETY, ensure_ascii=False))
    expected = comparisons(VARIETY)
    assert len(expected) == 28  # the first round's fourth deal has one result: no match
    imported = snapshot("variety")

    assert services.rebuild("variety") == len(expected)
    matches = rated_matches(tournament)
    assert as_set(matches) == as_set(places(m) for m in expected.values())
    tables = [{name for name in (t["players"])} for r in VARIETY["rounds"] for t in r["tables"]]
    assert not any(set(m) in tables for m in matches)
    table_keys = {
        f"tournament:{tournament.pk}:{pk}"
        for pk in RoundTable.objects.filter(round__tournament=tournament).values_list(
            "pk", flat=True
        )
    }
    assert not RatedMatch.objects.filter(key__in=table_keys).exists()
    # the import rated it as the rebuild does, and a second rebuild gives the same again
    assert snapshot("variety") == imported
    services.rebuild("variety")
    assert snapshot("variety") == imported


def test_the_ratings_are_openskills_own_over_the_comparisons_round_by_round_deal_by_deal():
    import_text(json.dumps(VARIETY, ensure_ascii=False))
    expected = comparisons(VARIETY)
    skills = expected_skills(
        [(list(expected[k]), list(expected[k].values())) for k in sorted(expected)]
    )
    stored = {
        name: (mu, sigma)
        for name, mu, sigma in Rating.objects.filter(game="variety").values_list(
            "player__name", "mu", "sigma"
        )
    }
    assert stored.keys() == skills.keys()
    for name, steps in skills.items():
        assert stored[name] == pytest.approx(steps[-1])


def test_a_player_whose_margins_topped_every_comparison_gains_the_most():
    doc = first_round_only(VARIETY)
    import_text(json.dumps(doc, ensure_ascii=False))
    expected = comparisons(doc)
    assert len(expected) == 12  # the last round: its fourth deal not scored yet
    held = defaultdict(list)  # each player's margin and the best of the others', by comparison
    for margins in expected.values():
        for name, mine in margins.items():
            held[name].append((mine, max(m for other, m in margins.items() if other != name)))
    best = [name for name, results in held.items() if all(m > o for m, o in results)]
    assert best == ["Мария"]
    rungs = ladder.ladder("variety")
    assert rungs[0].player.name == "Мария"
    assert rungs[0].rating > skill.shown(skill.START)
    assert rungs[0].change == max(r.change for r in rungs) > 0


def test_a_deal_its_group_has_not_finished_is_not_rated_and_a_group_of_one_table_never():
    """Фантан: the last round's first table has its second deal still to play, so the
    group's second deal is not scored, though its two other tables have played it; the
    table of three is a group of its own, every comparison with one result."""
    tournament = import_text(json.dumps(FANTAN, ensure_ascii=False))
    fours = 4 * sum(
        min(len(t["rows"]) for t in r["tables"] if len(t["players"]) == 4) if last else 2
        for r, last in zip(FANTAN["rounds"], [False, True], strict=True)
    )
    assert fours == 12
    matches = rated_matches(tournament)
    assert len(matches) == fours
    assert all(len(m) == 3 for m in matches)
    assert "Никита" not in {name for m in matches for name in m}  # at the table of three twice


def test_the_matches_are_read_in_the_same_queries_for_two_tournaments_as_for_one():
    import_text(json.dumps(VARIETY, ensure_ascii=False))
    source = TournamentTables()
    source.matches("variety")  # warm
    with CaptureQueriesContext(connection) as one:
        first = source.matches("variety")
    import_text(json.dumps({**VARIETY, "tournament": "Турнир 90902"}, ensure_ascii=False))
    with CaptureQueriesContext(connection) as two:
        both = source.matches("variety")
    assert len(both) == 2 * len(first) == 56
    assert len(two) == len(one)


def ladder_page(client) -> Node:
    response = client.get(reverse("ladder", args=["variety"]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return Tree(response.content.decode()).root


def cells(row: Node) -> list[str]:
    return [c.text() for c in row.children if isinstance(c, Node) and c.tag in ("th", "td")]


def test_the_ladder_counts_each_players_duplicate_matches_and_says_what_one_is(client):
    import_text(json.dumps(VARIETY, ensure_ascii=False))
    counted = defaultdict(int)
    for margins in comparisons(VARIETY).values():
        for name in margins:
            counted[name] += 1
    root = ladder_page(client)
    (table,) = root.find_all("table", class_="ladder")
    (head,) = table.find_all("thead")
    assert cells(head.find_all("tr")[0]) == [
        "Place",
        "Player",
        "Rating",
        "Matches",
        "Duplicate",
        "Change",
    ]
    (body,) = table.find_all("tbody")
    shown = {cells(row)[1]: (cells(row)[3], cells(row)[4]) for row in body.find_all("tr")}
    assert shown == {name: (str(n), str(n)) for name, n in counted.items()}
    assert counted["Bob"] == 3 and counted["Никита"] == 4  # each had a bye
    assert "A duplicate match is one seat of one deal" in root.text()


def test_a_players_page_names_his_duplicate_matches_with_his_margin(client):
    tournament = import_text(json.dumps(VARIETY, ensure_ascii=False))
    maria = Player.objects.get(name="Мария")
    response = client.get(reverse("player", args=[maria.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    root = Tree(response.content.decode()).root
    (part,) = [
        s for s in root.find_all("section") if s.attrs.get("aria-labelledby") == "rating-variety"
    ]
    (table,) = [
        t for t in part.find_all("table") if t.find_all("caption")[0].text() == "Rated matches"
    ]
    (body,) = table.find_all("tbody")
    rows = [cells(row) for row in body.find_all("tr")]
    assert len(rows) == 7
    # the newest first: round 2, deal 4, where she held seat 2 of the second table
    newest = rows[0]
    assert newest[1] == (
        "Турнир 90901, round 2, duplicate deal 4, seat 2 at the tables of 4 duplicate"
    )
    assert newest[2] == "1 of 2"
    assert newest[3] == "12"  # 36 against Sybil's 24: margins times 3
    (link,) = body.find_all("tr")[0].find_all("a")
    assert link.attrs["href"] == reverse("tournament-round", args=[tournament.key, 2])
    # round 1, deal 3: her margin 64/3, to two decimals
    assert rows[4][3] == "21.33"
    assert "A duplicate match is one seat of one deal" in part.text()
    changes = pages.tournament_changes(tournament)
    assert len(changes) == 9
    assert changes[maria.pk].after == pages.player_ratings(maria)[0].rung.rating
