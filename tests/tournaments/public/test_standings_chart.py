"""The standings page's chart of places after each round: the first eight of the standings,
each one's place (the best of a shared one) in the standings of the rounds so far, with the
adjustments for those rounds; read back from the chart's table of numbers, in both
languages. Drawn once two rounds are released, at the page's fixed number of queries."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support import EXAMPLES
from tests.support.rules_pages import Node, Tree
from tests.support.tournaments import enter, import_text, new_tournament, variety_row
from tournaments import selectors
from tournaments.results import services as results_services
from tournaments.run import services as run_services

CAPTION = {"en": "Places after each round", "ru": "Места после каждого тура"}
FIRST_EIGHT = {
    "en": "Places of the first eight after each round",
    "ru": "Места первой восьмёрки после каждого тура",
}
WORDS = {"en": ("Round", "The numbers"), "ru": ("Тур", "Числа")}


@pytest.fixture
def variety(db):
    """Five players, two rounds, a bye each round, a shared first place at the end."""
    return import_text((EXAMPLES / "variety-five.json").read_text(encoding="utf-8"))


def standings_page(client, tournament, language="en") -> Node:
    response = client.get(
        reverse("tournament-standings", args=[tournament.key]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return Tree(response.content.decode()).root


def chart_numbers(page: Node) -> dict:
    """The chart's caption, summary, header and rows, as its table of numbers reads them."""
    (figure,) = page.find_all("figure", class_="chart")
    (table,) = figure.find_all("table")
    (body,) = table.find_all("tbody")
    return {
        "figure": figure.find_all("figcaption")[0].text(),
        "caption": table.find_all("caption")[0].text(),
        "summary": figure.find_all("summary")[0].text(),
        "header": [th.text() for th in table.find_all("thead")[0].find_all("th")],
        "scopes": [th.attrs.get("scope") for th in table.find_all("th")],
        "rows": [
            [cell.text() for cell in row.children if isinstance(cell, Node)]
            for row in body.find_all("tr")
        ],
        "image": figure.find_all("svg", role="img")[0].attrs["aria-label"],
    }


def adjust(tournament, name: str, round_number: int, points: int):
    results_services.adjust(
        round_=tournament.rounds.get(number=round_number),
        entrant=tournament.entrants.get(player__name=name),
        points=points,
        reason="a late arrival",
        user=None,
    )


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_chart_gives_each_players_place_after_round_one_and_after_round_two(
    client, variety, language
):
    """After round 1: Rupert won his table (6), Mallory's bye (3, no game points) beats
    Жанна's and Trent's 3 at −21 each, who share the third place; Victor is last. After round
    2 the standings: Trent and Жанна share the first place."""
    numbers = chart_numbers(standings_page(client, variety, language))
    round_word, summary = WORDS[language]
    assert numbers["figure"] == numbers["caption"] == CAPTION[language]
    assert numbers["summary"] == summary
    assert CAPTION[language] in numbers["image"]
    assert numbers["header"] == [round_word, "Trent", "Жанна", "Rupert", "Mallory", "Victor"]
    assert numbers["rows"] == [
        ["1", "3", "3", "1", "2", "5"],
        ["2", "1", "1", "3", "4", "5"],
    ]
    assert set(numbers["scopes"]) == {"col", "row"}


def test_an_adjustment_counts_from_the_round_it_is_for(client, variety):
    adjust(variety, "Trent", 2, 1)  # Trent then leads Жанна on game points, 8 to 7
    assert chart_numbers(standings_page(client, variety))["rows"] == [
        ["1", "3", "3", "1", "2", "5"],  # round 1 as it was
        ["2", "1", "2", "3", "4", "5"],
    ]
    adjust(variety, "Trent", 1, 1)  # now −20 to Жанна's −21 after round 1 too
    numbers = chart_numbers(standings_page(client, variety))
    assert numbers["header"][1:3] == ["Trent", "Жанна"]
    assert numbers["rows"] == [
        ["1", "3", "4", "1", "2", "5"],
        ["2", "1", "2", "3", "4", "5"],
    ]


def document(players: int, rounds: int) -> str:
    """A Выборы tournament of ``players`` (a multiple of four) over ``rounds``, each table's
    short cycle complete; the seating turns round each round."""
    names = [f"Игрок {n:02d}" for n in range(players)]
    held = []
    for r in range(rounds):
        order = names[r:] + names[:r]
        held.append(
            {
                "tables": [
                    {
                        "players": order[4 * t : 4 * t + 4],
                        "rows": [variety_row(r * 7 + t * 3 + k) for k in range(4)],
                    }
                    for t in range(players // 4)
                ],
                "byes": [],
            }
        )
    return json.dumps(
        {
            "tournament": f"Кубок на {players}",
            "game": "variety",
            "options": {"cycle": "short"},
            "rounds_planned": rounds,
            "seating": "mixing",
            "seed": 1,
            "players": names,
            "rounds": held,
        },
        ensure_ascii=False,
    )


@pytest.mark.parametrize("language", ["en", "ru"])
def test_of_more_than_eight_the_chart_follows_the_first_eight_of_the_standings(
    client, db, language
):
    tournament = import_text(document(12, 3))
    numbers = chart_numbers(standings_page(client, tournament, language))
    standings = selectors.standings(tournament)
    first_eight = [row.player for row in standings][:8]
    assert numbers["caption"] == FIRST_EIGHT[language]
    assert numbers["header"][1:] == first_eight
    assert [row[0] for row in numbers["rows"]] == ["1", "2", "3"]
    # the last round's places are the standings' own
    assert numbers["rows"][-1][1:] == [str(row.place) for row in standings][:8]


def test_the_chart_waits_for_a_second_released_round(client, db, django_user_model):
    host = django_user_model.objects.create_user("director", password="pw-for-tests-only")
    tournament = new_tournament(host)
    enter(tournament, ["Анна", "Борис", "Вера", "Глеб", "Дарья"], host)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=host), user=host
    )
    run_services.draw_round(tournament=tournament, user=host)  # the second: a draft, not public
    page = standings_page(client, tournament)
    assert page.find_all("figure", class_="chart") == []
    one_round = standings_page(client, import_text(document(8, 1)))  # its tables counted
    assert one_round.find_all("figure", class_="chart") == []


def queries(client, tournament) -> int:
    with CaptureQueriesContext(connection) as captured:
        standings_page(client, tournament)
    return len(captured.captured_queries)


def test_the_page_with_its_chart_costs_as_many_queries_for_six_rounds_as_for_two(client, db):
    two, six = import_text(document(8, 2)), import_text(document(8, 6))
    adjust(six, "Игрок 03", 4, -5)
    standings_page(client, two)  # warm up (translations, templates)
    assert len(chart_numbers(standings_page(client, six))["rows"]) == 6
    assert queries(client, two) == queries(client, six)
