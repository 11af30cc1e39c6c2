"""What the public pages show of the club's ratings. A player's page, for each game he is
rated in: his rating (marked while provisional), his place on the ladder and his rated
matches; a chart of his rating after each match whose numbers are his history; each rated
match (date, name linked to the tournament's round, his place of how many, his points, his
rating after and its change); his record against each opponent met three times or more. The
same queries for 30 rated matches as for 3; his page's former address leads to it. A
tournament's standings: each entrant's rating before its first rated table and after its
last, none for one who has not played a table."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club.models import Player
from ratings import ladder, services, skill
from tests.support.ratings import casual_tables, expected_skills
from tests.support.rules_pages import Node, Tree
from tests.support.tournaments import import_text, points_of

pytestmark = pytest.mark.django_db

MINUS = "\u2212"
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
# Фантан deals of four, seat by seat: Анна first in three deals of four, Борис in the other.
DEALS = [[-3, 6, -1, -2] if n % 4 == 0 else [6, -1, -2, -3] for n in range(12)]
NAMES = ["Анна", "Борис", "Вера", "Глеб"]


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def cells(row: Node) -> list[str]:
    return [c.text() for c in row.children if isinstance(c, Node) and c.tag in ("th", "td")]


def body_rows(table: Node) -> list[Node]:
    (body,) = table.find_all("tbody")
    return body.find_all("tr")


def player_page(client, player: Player, language: str = "en") -> Node:
    response = client.get(reverse("player", args=[player.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return Tree(response.content.decode()).root


def section(root: Node, game: str) -> Node:
    (found,) = [
        s for s in root.find_all("section") if s.attrs.get("aria-labelledby") == f"rating-{game}"
    ]
    return found


def captioned(part: Node, caption: str) -> Node:
    (found,) = [t for t in part.find_all("table") if t.find_all("caption")[0].text() == caption]
    return found


def casual(host, players, deals, start):
    """A casual Фантан table of ``players`` and its finished deals, ten minutes apart."""
    casual_tables(
        host,
        "fantan",
        [(players, [(start + timedelta(minutes=10 * n), s) for n, s in enumerate(deals)])],
    )


def fantan_tournament(name: str, players: list[str], byes: list[str] = ()) -> str:
    """A one-round Фантан tournament document, scored by the cards left: one table of four,
    two deals, won by its first and its second seat in turn (9, 5, −9 and −5 points); the
    others sit out."""
    return json.dumps(
        {
            "tournament": name,
            "game": "fantan",
            "options": {"scoring": "cards"},
            "rounds_planned": 2,
            "deals": 2,
            "players": [*players, *byes],
            "rounds": [
                {
                    "tables": [
                        {
                            "players": players,
                            "rows": [
                                {"finish_order": [0], "cards_left": [0, 2, 5, 3]},
                                {"finish_order": [1], "cards_left": [1, 0, 4, 2]},
                            ],
                        }
                    ],
                    "byes": list(byes),
                }
            ],
        },
        ensure_ascii=False,
    )


@pytest.fixture
def rated(host, players):
    """Twelve casual deals of the four a month ago, then a tournament table of theirs (with
    Дарья's bye), rated as the import rates it."""
    casual(host, players, DEALS, timezone.now() - timedelta(days=30))
    services.rebuild("fantan")
    tournament = import_text(fantan_tournament("Кубок клуба", NAMES, byes=["Дарья"]))
    return tournament


def test_the_players_page_shows_his_rating_place_and_rated_matches(client, rated, players):
    anna = players[0]
    rungs = {rung.player.name: rung for rung in ladder.ladder("fantan")}
    root = player_page(client, anna)
    part = section(root, "fantan")
    assert part.find_all("h2")[0].text() == "Rating: Fan-Tan"
    terms = [dt.text() for dt in part.find_all("dt")]
    values = [dd.text() for dd in part.find_all("dd")]
    mine = rungs["Анна"]
    mark = " ?" if mine.provisional else ""
    assert dict(zip(terms, values, strict=True)) == {
        "Rating": f"{mine.rating}{mark}",
        "Place on the ladder": f"{mine.place} of 4",
        "Rated matches": "13",
    }
    assert [s.attrs.get("aria-labelledby") for s in root.find_all("section")].count(
        "rating-variety"
    ) == 0  # no rating in a game he has not played


def test_the_chart_of_his_rating_reads_his_history_match_by_match(client, rated, players):
    anna = players[0]
    history = ladder.history(anna, "fantan")
    labels = [str(number) for number in range(1, len(history) + 1)]
    part = section(player_page(client, anna), "fantan")
    (figure,) = part.find_all("figure", class_="chart")
    assert figure.find_all("figcaption")[0].text() == "Rating after each rated match"
    (numbers,) = figure.find_all("table")
    assert cells(numbers.find_all("thead")[0].find_all("tr")[0]) == ["Match", "Анна"]
    rows = [cells(row) for row in body_rows(numbers)]
    assert rows == [[label, str(step.after)] for label, step in zip(labels, history, strict=True)]
    # and the history is the model's own, match by match
    matches = [(players, deals) for deals in DEALS]
    matches.append((players, [points_of(rated)[name] for name in NAMES]))
    assert [int(row[1]) for row in rows] == [skill.shown(s) for s in expected_skills(matches)[anna]]


def test_his_rated_matches_are_listed_newest_first_with_place_points_and_change(
    client, rated, players
):
    anna = players[0]
    skills = expected_skills(
        [(players, deals) for deals in DEALS]
        + [(players, [points_of(rated)[name] for name in NAMES])]
    )[anna]
    shown = [skill.shown(skill.START)] + [skill.shown(s) for s in skills]
    part = section(player_page(client, anna), "fantan")
    results = captioned(part, "Rated matches")
    assert cells(results.find_all("thead")[0].find_all("tr")[0]) == [
        "Date",
        "Match",
        "Place",
        "Points",
        "Rating after",
        "Change",
    ]
    rows = body_rows(results)
    assert len(rows) == 13
    newest = cells(rows[0])
    assert newest[1] == "Кубок клуба, round 1, table 1"
    assert rows[0].find_all("a")[0].attrs["href"] == reverse(
        "tournament-round", args=[rated.key, 1]
    )
    table_points = [points_of(rated)[name] for name in NAMES]
    assert newest[2] == f"{skill.ranks(table_points)[0]} of 4"
    assert newest[3] == str(table_points[0])
    for row, number in zip(rows, range(13, 0, -1), strict=True):
        after, before = shown[number], shown[number - 1]
        mark = " ?" if skill.provisional(skills[number - 1]) else ""
        assert cells(row)[4:] == [f"{after}{mark}", signed(after - before)]
    first = cells(rows[-1])  # his first casual deal: Борис won it, Анна last
    assert first[1].endswith("deal 1") and rows[-1].find_all("a") == []
    assert first[2:4] == ["4 of 4", "−3"]


def test_his_record_against_each_opponent_met_three_times(client, rated, players, host):
    anna = players[0]
    dasha = Player.objects.get(name="Дарья")
    casual(host, [anna, dasha], [[1, 0], [0, 0]], timezone.now() - timedelta(days=2))
    services.rebuild("fantan")  # two matches with Дарья: not a regular opponent
    part = section(player_page(client, anna), "fantan")
    records = captioned(part, "Record against each regular opponent")
    assert cells(records.find_all("thead")[0].find_all("tr")[0]) == [
        "Opponent",
        "Matches",
        "Won",
        "Drawn",
        "Lost",
    ]
    table = [points_of(rated)[name] for name in NAMES]
    found = {row[0]: row[1:] for row in map(cells, body_rows(records))}
    expected = {}
    for k, name in enumerate(NAMES[1:], start=1):
        deals = [*DEALS, table]
        won = sum(d[0] > d[k] for d in deals)
        drawn = sum(d[0] == d[k] for d in deals)
        expected[name] = [str(len(deals)), str(won), str(drawn), str(len(deals) - won - drawn)]
    assert found == expected
    links = [row.find_all("a")[0].attrs["href"] for row in body_rows(records)]
    assert reverse("player", args=[players[1].pk]) in links


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_provisional_rating_on_his_page_is_marked_and_explained(client, host, players, language):
    casual(host, players, DEALS[:2], timezone.now() - timedelta(days=1))
    services.rebuild("fantan")
    part = section(player_page(client, players[0], language), "fantan")
    words = {
        "en": ("Rating: Fan-Tan", "provisional: fewer matches than needed"),
        "ru": ("Рейтинг: Фантан", "предварительный: матчей меньше, чем нужно"),
    }
    heading, provisional = words[language]
    assert part.find_all("h2")[0].text() == heading
    marks = part.find_all("abbr", class_="provisional")
    assert len(marks) == 3  # his rating, and after each of his two matches
    assert all(mark.attrs["title"].startswith(provisional) for mark in marks)
    assert provisional in part.find_all("p", class_="legend")[0].text()
    none = {"en": "No opponent met in three rated matches yet.", "ru": "Ни с одним соперником"}
    assert none[language] in part.text()


def results_of(client, player: Player) -> list[Node]:
    return body_rows(captioned(section(player_page(client, player), "fantan"), "Rated matches"))


def page_queries(client, player: Player) -> int:
    url = reverse("player", args=[player.pk])
    client.get(url)  # warm: templates, translations
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_his_page_costs_the_same_queries_for_30_rated_matches_as_for_3(client, host, players):
    start = timezone.now() - timedelta(days=60)
    import_text(fantan_tournament("Кубок", NAMES))
    casual(host, players, DEALS[:2], start)
    services.rebuild("fantan")
    few = page_queries(client, players[0])
    assert len(results_of(client, players[0])) == 3
    casual(host, players, DEALS * 2 + DEALS[:3], start + timedelta(days=1))
    services.rebuild("fantan")
    assert len(results_of(client, players[0])) == 20  # a page of them
    assert page_queries(client, players[0]) == few


def test_his_rated_matches_come_twenty_a_page_with_links_to_earlier_and_newer(
    client, host, players
):
    start = timezone.now() - timedelta(days=60)
    casual(host, players, DEALS * 2 + DEALS[:6], start)  # 30 rated matches
    services.rebuild("fantan")
    anna = players[0]
    url = reverse("player", args=[anna.pk])

    def page(query: str = "") -> tuple[list[str], Node]:
        response = client.get(f"{url}{query}", **EN)
        assert response.status_code == 200
        part = section(Tree(response.content.decode()).root, "fantan")
        rows = [cells(row)[1] for row in body_rows(captioned(part, "Rated matches"))]
        (nav,) = part.find_all("nav")
        return rows, nav

    first, nav = page()
    assert len(first) == 20 and first[0].endswith("deal 30") and first[-1].endswith("deal 11")
    assert "Matches 1 to 20 of 30, the newest first." in nav.text()
    links = {a.text(): a.attrs["href"] for a in nav.find_all("a")}
    assert links == {"Earlier matches": "?fantan-page=2#rating-fantan"}
    earlier, nav = page("?fantan-page=2")
    assert len(earlier) == 10 and earlier[0].endswith("deal 10") and earlier[-1].endswith("deal 1")
    assert "Matches 21 to 30 of 30" in nav.text()
    assert {a.text(): a.attrs["href"] for a in nav.find_all("a")} == {
        "Newer matches": "?fantan-page=1#rating-fantan"
    }
    # a page that is not there: the nearest one, never an error
    assert page("?fantan-page=x")[0] == first and page("?fantan-page=-3")[0] == earlier
    assert page("?fantan-page=99")[0] == earlier
    (nav,) = section(player_page(client, anna, "ru"), "fantan").find_all("nav")
    assert "Матчи с 1 по 20 из 30, сначала новые." in nav.text()
    assert [a.text() for a in nav.find_all("a")] == ["Более ранние матчи"]


def standings_rating(client, tournament) -> dict[str, str]:
    response = client.get(reverse("tournament-standings", args=[tournament.key]), **EN)
    assert response.status_code == 200
    (table,) = [
        t
        for t in Tree(response.content.decode()).root.find_all("table", class_="standings")
        if t.find_all("caption")[0].text() == "Standings"
    ]
    heads = cells(table.find_all("thead")[0].find_all("tr")[0])
    if "Rating" not in heads:
        return {}
    at = heads.index("Rating")
    return {row[1]: row[at] for row in map(cells, body_rows(table))}


def test_the_standings_show_each_entrants_rating_change_over_the_tournament(client, rated, players):
    before = expected_skills([(players, deals) for deals in DEALS])
    table = [points_of(rated)[name] for name in NAMES]
    after = expected_skills([(players, deals) for deals in DEALS] + [(players, table)])
    expected = {}
    for player in players:
        was, now = skill.shown(before[player][-1]), skill.shown(after[player][-1])
        expected[player.name] = f"{was} → {now} ({signed(now - was)})"
    expected["Дарья"] = ""  # a bye: no rated table of hers
    assert standings_rating(client, rated) == expected


def test_the_standings_show_no_rating_column_before_a_table_is_rated(client, host):
    from tests.support.tournaments import enter, new_tournament

    tournament = new_tournament(host, game="fantan", options={})
    enter(tournament, NAMES, host)
    assert standings_rating(client, tournament) == {}


def test_the_standings_show_no_rating_column_with_no_ratings_app_to_ask(client, rated, monkeypatch):
    """The tournaments app only asks for the column (the ratings app adds it when ready)."""
    from tournaments.public import views as public_views

    assert standings_rating(client, rated)
    monkeypatch.setattr(public_views, "RATING_CHANGES", [])
    assert standings_rating(client, rated) == {}


def test_the_players_former_address_leads_to_his_page_for_good_with_its_query(client):
    anna = Player.objects.create(name="Анна")
    response = client.get(f"/tournaments/players/{anna.pk}/?fantan-page=2")
    assert response.status_code == 301
    assert response["Location"] == f"/ratings/players/{anna.pk}/?fantan-page=2"
    assert reverse("player", args=[anna.pk]) == f"/ratings/players/{anna.pk}/"
    assert client.get(f"/tournaments/players/{anna.pk}/").status_code == 301
    assert client.get("/tournaments/players/999999/", follow=True).status_code == 404
