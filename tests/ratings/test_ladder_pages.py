"""The club's ladders, public: /ratings/ lists the games' ladders and /ratings/<game>/ ranks
the game's players by their rating, best first, each linked to his page, with the mark of a
provisional rating explained, his rated matches and the change over his last ten; in
Russian and in English; the same queries for 200 players as for 8."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Player
from games import registry
from ratings import services, skill
from tests.support.ratings import casual_tables, expected_skills
from tests.support.rules_pages import Node, Tree

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)
# Twelve Фантан deals of four: Борис wins one in four, Анна the others.
DEALS = [[-3, 6, -1, -2] if n % 4 == 0 else [6, -1, -2, -3] for n in range(12)]
PROVISIONAL = {
    "en": "provisional: fewer matches than needed for a settled rating",
    "ru": "предварительный: матчей меньше, чем нужно для устоявшегося рейтинга",
}
HEADINGS = {
    "en": ["Place", "Player", "Rating", "Matches", "Change"],
    "ru": ["Место", "Игрок", "Рейтинг", "Матчи", "Изменение"],
}
TITLE = {"en": "Ladder of Fan-Tan", "ru": "Рейтинг-лист: Фантан"}


def played(host, players, deals, start=START):
    """One casual Фантан table of ``players`` and its finished deals, ten minutes apart,
    rated."""
    casual_tables(
        host,
        "fantan",
        [(players, [(start + timedelta(minutes=10 * n), s) for n, s in enumerate(deals)])],
    )
    services.rebuild("fantan")


def page(client, game: str, language: str) -> Node:
    response = client.get(reverse("ladder", args=[game]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    return Tree(html).root


def cells(row: Node) -> list[str]:
    return [c.text() for c in row.children if isinstance(c, Node) and c.tag in ("th", "td")]


def ladder_rows(root: Node) -> list[list[str]]:
    (table,) = root.find_all("table", class_="ladder")
    (body,) = table.find_all("tbody")
    return [cells(row) for row in body.find_all("tr")]


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_ladder_ranks_the_players_by_rating_with_the_change_over_their_last_ten(
    client, host, players, language
):
    played(host, players, DEALS)
    skills = expected_skills([(players, deals) for deals in DEALS])
    expected = []
    for player in sorted(players, key=lambda p: -skill.ordinal(skills[p][-1])):
        now = skills[player][-1]
        mark = " ?" if skill.provisional(now) else ""
        change = skill.shown(now) - skill.shown(skills[player][1])  # after his 2nd of 12
        expected.append([player.name, f"{skill.shown(now)}{mark}", "12", signed(change)])
    root = page(client, "fantan", language)
    assert root.find_all("h1")[0].text() == TITLE[language]
    (table,) = root.find_all("table", class_="ladder")
    assert cells(table.find_all("thead")[0].find_all("tr")[0]) == HEADINGS[language]
    rows = ladder_rows(root)
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    assert [row[1:] for row in rows] == expected
    assert [row[1] for row in rows] == ["Борис", "Анна", "Вера", "Глеб"]
    assert rows[0][4].startswith("+") and rows[-1][4].startswith("\u2212")
    links = [
        row.find_all("a")[0].attrs["href"]
        for row in table.find_all("tbody")[0].children
        if isinstance(row, Node)
    ]
    assert links == [
        reverse("player", args=[Player.objects.get(name=name).pk])
        for name in ("Борис", "Анна", "Вера", "Глеб")
    ]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_provisional_rating_is_marked_and_the_mark_explained(client, host, players, language):
    played(host, players, DEALS)
    root = page(client, "fantan", language)
    marks = root.find_all("abbr", class_="provisional")
    assert {mark.attrs["title"] for mark in marks} == {PROVISIONAL[language]}
    rows = ladder_rows(root)
    assert [row[1] for row in rows if row[2].endswith("?")] == ["Анна"]  # σ still 7.04
    (legend,) = root.find_all("p", class_="legend")
    assert PROVISIONAL[language] in legend.text()


def test_a_newcomer_with_two_matches_is_provisional_and_a_settled_player_is_not(
    client, host, players
):
    played(host, players, DEALS)
    newcomer = Player.objects.create(name="Дарья")
    played(host, [newcomer, *players[1:]], DEALS[:2], start=START + timedelta(days=1))
    rows = {row[1]: row for row in ladder_rows(page(client, "fantan", "en"))}
    assert rows["Дарья"][2].endswith(" ?") and rows["Дарья"][3] == "2"
    assert not rows["Борис"][2].endswith("?") and rows["Борис"][3] == "14"


def test_players_of_one_rating_share_its_place(client, host, players):
    played(host, players[:2], [[0, 0]] * 3)  # every deal drawn: one rating for both
    rows = ladder_rows(page(client, "fantan", "en"))
    assert [row[0] for row in rows] == ["1", "1"]
    assert rows[0][2] == rows[1][2]
    assert [row[4] for row in rows] == [rows[0][4]] * 2


def test_a_game_without_rated_matches_says_so(client):
    root = page(client, "leopard", "en")
    assert root.find_all("table", class_="ladder") == []
    assert "No rated match yet." in root.text()


def test_an_unknown_game_has_no_ladder(client):
    assert client.get("/ratings/chess/").status_code == 404
    assert client.get("/ratings/Fantan/").status_code == 404


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_ladders_page_links_each_games_ladder_with_its_rated_players(
    client, host, players, language
):
    played(host, players, DEALS[:3])
    response = client.get("/ratings/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    root = Tree(response.content.decode()).root
    links = {
        a.attrs["href"]: a.parent.text()
        for a in root.find_all("a")
        if a.attrs.get("href", "").startswith("/ratings/") and a.attrs["href"] != "/ratings/"
    }
    assert list(links) == [reverse("ladder", args=[key]) for key in registry.GAMES]
    counts = {
        "en": ("4 rated players", "0 rated players"),
        "ru": ("4 игрока с рейтингом", "0 игроков с рейтингом"),
    }
    assert counts[language][0] in links["/ratings/fantan/"]
    assert counts[language][1] in links["/ratings/variety/"]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_page_links_the_ladders_from_the_header(client, language):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=language)
    (nav,) = Tree(response.content.decode()).root.find_all("nav")[:1]
    words = {"en": "Ratings", "ru": "Рейтинги"}
    assert any(
        a.attrs.get("href") == "/ratings/" and a.text() == words[language]
        for a in nav.find_all("a")
    )


def many_players(count: int, start: int = 0) -> list[Player]:
    return [Player.objects.create(name=f"Игрок {n:03d}") for n in range(start, start + count)]


def ladder_queries(client) -> int:
    client.get("/ratings/fantan/")  # warm: templates, translations
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/ratings/fantan/")
    assert response.status_code == 200
    return len(queries)


def seated_in_fours(host, players: list[Player], start: datetime) -> None:
    casual_tables(
        host,
        "fantan",
        [
            (
                players[k : k + 4],
                [(start + timedelta(minutes=k + n), [6, -1, -2, -3]) for n in range(12)],
            )
            for k in range(0, len(players), 4)
        ],
    )
    services.rebuild("fantan")


def test_the_ladder_costs_the_same_queries_for_200_players_as_for_8(client, host):
    seated_in_fours(host, many_players(8), START)
    eight = ladder_queries(client)
    assert len(ladder_rows(page(client, "fantan", "en"))) == 8
    seated_in_fours(host, many_players(192, start=8), START + timedelta(days=1))
    assert len(ladder_rows(page(client, "fantan", "en"))) == 200
    assert ladder_queries(client) == eight
