"""A cycle's (or match's) page charts each seat's running total after each finished deal,
for every game scored in cycles: read back from the chart's table of numbers, they are the
sums of the sheet's own rows, in both languages, for the players and the spectators."""

import re

import pytest

from games import registry, services
from tests.support.hotseat import current, finish_deal, url
from tests.support.rules_pages import Node, Tree

CAPTION = {"en": "Running totals after each deal", "ru": "Нарастающий итог после каждой сдачи"}
WORDS = {"en": ("Deal", "The numbers"), "ru": ("Сдача", "Числа")}
CYCLES = [
    key
    for key in sorted(registry.GAMES)
    if registry.rules(key).cycle(registry.rules(key).parse_options({}))
]

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]


@pytest.fixture(params=CYCLES)
def cycle_table(request, host, players):
    rules = registry.rules(request.param)
    seats = rules.seats(rules.parse_options({}))
    return services.start_table(
        user=host, game=request.param, players=players[:seats], options={}, seed=5
    )


def play(table, host, deals: int) -> int:
    """Up to ``deals`` deals of the first cycle played through (fewer if it ends first)."""
    played = 0
    while played < deals:
        finish_deal(table, host)
        played += 1
        deal = current(table)
        if played < deals:
            services.next_deal(table=table, after=deal.number, user=host)
            if current(table).cycle.number != 1:
                break
    return played


def cells(row: Node) -> list[str]:
    return [
        cell.text() for cell in row.children if isinstance(cell, Node) and cell.tag in ("th", "td")
    ]


def page_of(client, address: str, language: str) -> Node:
    response = client.get(address, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return Tree(response.content.decode()).root


def score_of(cell: str) -> int:
    """A sheet's figure without its mark ("22 *": with the defenders' bonus)."""
    return int(re.match(r"-?\d+", cell).group())


def sheet_scores(page: Node, seats: int) -> tuple[list[list[int]], list[int]]:
    """The score sheet's figures: each deal's row of seats, and the total row."""
    (sheet,) = page.find_all("table", class_="cycle") or page.find_all("table", class_="match")
    (body,) = sheet.find_all("tbody")
    offset = 2 if "cycle" in sheet.attrs["class"] else 1  # №, and Выборы's contract
    rows = [
        [score_of(c) for c in cells(row)[offset : offset + seats]] for row in body.find_all("tr")
    ]
    (total,) = sheet.find_all("tfoot")[0].find_all("tr")
    return rows, [int(c) for c in cells(total)[1 : 1 + seats]]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_cycle_page_charts_each_seats_running_total_deal_by_deal(
    host_client, host, cycle_table, language
):
    played = play(cycle_table, host, 3)
    names = [seat.name for seat in cycle_table.seats.order_by("position")]
    for address in (url(cycle_table, "cycles/1/"), f"{cycle_table.get_watch_url()}cycles/1/"):
        page = page_of(host_client, address, language)
        scores, totals = sheet_scores(page, len(names))
        assert len(scores) == played
        (figure,) = page.find_all("figure", class_="chart")
        (table,) = figure.find_all("table")
        deal_word, summary = WORDS[language]
        assert table.find_all("caption")[0].text() == CAPTION[language]
        assert figure.find_all("summary")[0].text() == summary
        assert cells(table.find_all("thead")[0].find_all("tr")[0]) == [deal_word, *names]
        running, expected = [0] * len(names), []
        for number, row in enumerate(scores, start=1):
            running = [t + s for t, s in zip(running, row, strict=True)]
            expected.append([str(number), *map(str, running)])
        chart_rows = [cells(row) for row in table.find_all("tbody")[0].find_all("tr")]
        assert chart_rows == expected
        assert chart_rows[-1][1:] == [str(t) for t in totals]
        lines = figure.find_all("svg", role="img")[0].find_all("g", class_="series")
        assert len(lines) == len(names)
        assert all(len(line.find_all("path")) == played for line in lines)


def test_a_cycle_page_before_its_first_deal_ends_has_no_chart(host_client, cycle_table):
    page = page_of(host_client, url(cycle_table, "cycles/1/"), "en")
    assert page.find_all("figure", class_="chart") == []
