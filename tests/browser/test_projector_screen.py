"""The projector page on a screen across the room: with 40 entrants every table of the round
and the whole standings are on one screen of 1280×720 (and of 1920×1080), in either
language, without scrolling, in type large enough to read from the back; with fewer the
page still fills the screen, in larger type. Chromium, Playwright.

A tournament of 40 (or 8) is imported (round 1 played, round 2 under way: tables counted,
half played, not begun); Выборы seats 10 tables of four, Леопард 20 tables of two. Set
PROJECTOR_SHOTS=dir to keep a screenshot of every screen measured.
"""

import itertools
import json
import os

import pytest
from django.conf import settings

from games.leopard.tournament import declarer_score
from tests.support.browser import off_the_loop
from tests.support.tournaments import variety_row
from tournaments import document, services

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

SCREENS = [(1280, 720), (1920, 1080)]
ENTRANTS = 40
SMALLEST_TYPE = 15  # px at 1280×720: a name read from across the room
SHOTS = os.environ.get("PROJECTOR_SHOTS")
FIRST = ["Александра", "Константин", "Анна", "Борис", "Вера", "Глеб", "Дарья", "Евгений"]
LAST = ["Воробьёва", "Кузнецов", "Ли", "Смирнова", "Ostrowski"]
NAMES = [f"{first} {last}" for last in LAST for first in FIRST]
GAMES = {  # the game's options, its table size and a deal's row on the sheet
    "variety": ({"cycle": "short"}, 4, variety_row),
    "leopard": ({"deals": 4}, 2, lambda k: {"scores": [4, declarer_score(8)], "ender": 1}),
}
DEALS = 4  # a short cycle, a match of four deals


def tournament_of(game: str, entrants: int = ENTRANTS):
    """Round 1 complete; round 2: a third of its tables counted, a third half played, the
    rest with nothing on their sheets yet."""
    options, size, row = GAMES[game]
    count = entrants // size
    names = NAMES[:entrants]
    rounds = []
    for r, filled in enumerate(
        [
            [DEALS] * count,
            [
                DEALS if t < count // 3 else DEALS // 2 if t < 2 * count // 3 else 0
                for t in range(count)
            ],
        ]
    ):
        order = names[r:] + names[:r]
        rounds.append(
            {
                "tables": [
                    {
                        "players": order[size * t : size * (t + 1)],
                        "rows": [row(r + t + k) for k in range(filled[t])],
                    }
                    for t in range(count)
                ],
                "byes": [],
            }
        )
    text = json.dumps(
        {
            "tournament": "Клубный вечер",
            "game": game,
            "options": options,
            "rounds_planned": 3,
            "players": names,
            "rounds": rounds,
        },
        ensure_ascii=False,
    )
    return services.import_document(doc=document.read(text))


BOXES = """els => els.filter(e => e.getClientRects().length).map(e => {
  const r = e.getBoundingClientRect();
  return {what: e.textContent.trim().slice(0, 40), left: r.left, top: r.top, right: r.right,
          bottom: r.bottom};
})"""


def outside(page, selector: str, width: int, height: int) -> list[str]:
    """What of the elements ``selector`` matches lies outside the screen as it is scrolled."""
    boxes = page.locator(selector).evaluate_all(BOXES)
    assert boxes, f"nothing matches {selector}"
    return [
        f"{box['what']} ({box['left']:.0f}, {box['top']:.0f}, {box['right']:.0f}, "
        f"{box['bottom']:.0f})"
        for box in boxes
        if box["left"] < -0.5
        or box["top"] < -0.5
        or box["right"] > width + 0.5
        or box["bottom"] > height + 0.5
    ]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_forty_entrants_every_table_and_the_standings_fit_one_screen(open_page, live_server, game):
    tournament = off_the_loop(tournament_of, game)
    tables = ENTRANTS // GAMES[game][1]
    for (width, height), language in itertools.product(SCREENS, ("en", "ru")):
        page = open_page(viewport={"width": width, "height": height})
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        page.goto(f"/tournaments/{tournament.key}/projector/")
        assert page.locator("html").get_attribute("lang") == language
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            page.screenshot(path=os.path.join(SHOTS, f"projector-{game}-{width}-{language}.png"))
        assert page.locator("ol.projector-tables > li").count() == tables
        assert page.locator("table.standings tbody tr").count() == ENTRANTS
        off = (
            outside(page, "ol.projector-tables > li", width, height)
            + outside(page, "table.standings tbody tr", width, height)
            + outside(page, "#standings, #current-round, h1", width, height)
        )
        assert off == [], f"{width}×{height} ({language}): off the screen: {off}"
        assert page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        ) == [width, height]
        type_size = page.locator("ol.projector-tables .players li").first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert type_size >= SMALLEST_TYPE * width / 1280 - 0.5, (width, type_size)
        if language != "en":
            continue
        # each table says how far it is: counted, its deals so far, or playing
        states = page.locator("ol.projector-tables > li .badge.state").all_inner_texts()
        counted, begun = tables // 3, 2 * tables // 3
        assert states == (
            ["counts"] * counted
            + [f"{DEALS // 2} of {DEALS} deals"] * (begun - counted)
            + ["playing"] * (tables - begun)
        )
        assert page.script_errors == []


# What the page's parts take on the screen: the extent of the tables and the standings, the
# smallest type of a player's name, and every name's words that lie outside its table's box.
MEASURES = """() => {
  const shown = [...document.querySelectorAll(
    'h1, ol.projector-tables > li, table.standings tbody tr, .standings-columns > .scroll')]
    .map(e => e.getBoundingClientRect());
  const names = [...document.querySelectorAll('ul.players li, table.standings tbody th')];
  const cut = [...document.querySelectorAll('ol.projector-tables > li')].flatMap(table => {
    const box = table.getBoundingClientRect();
    return [...table.querySelectorAll('.table-head, ul.players li')].filter(line => {
      const range = document.createRange();
      range.selectNodeContents(line);
      const words = range.getBoundingClientRect();
      return words.left < box.left - .5 || words.right > box.right + .5
        || words.bottom > box.bottom + .5;
    }).map(line => line.textContent.trim());
  });
  const boxes = [...document.querySelectorAll('.scroll')].filter(
    b => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1).length;
  return {
    top: Math.min(...shown.map(r => r.top)), bottom: Math.max(...shown.map(r => r.bottom)),
    left: Math.min(...shown.map(r => r.left)), right: Math.max(...shown.map(r => r.right)),
    type: Math.min(...names.map(e => parseFloat(getComputedStyle(e).fontSize))), cut, boxes,
  };
}"""
FILLED = 0.7  # of the screen's height, and of its width, that the tables and standings span
# The smallest name, as a share of the screen's height: forty entrants' at 2 % (21.6 px at
# 1920×1080, 14.4 px at 1280×720: read from the back of a club's room), eight's at 3 %.
NAME_TYPE = {40: 0.02, 8: 0.03}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(
    ("width", "height", "entrants"), [(1920, 1080, 8), (1920, 1080, 40), (1280, 720, 40)]
)
def test_the_projector_fills_its_screen_in_type_as_large_as_the_entrants_allow(
    open_page, live_server, game, width, height, entrants
):
    """The round's tables and the standings span most of the screen's height and width,
    whole (no name out of its table's box, nothing to scroll to), the names in type of a
    share of the screen's height that grows as the entrants are fewer."""
    tournament = off_the_loop(tournament_of, game, entrants)
    for language in ("en", "ru"):
        page = open_page(viewport={"width": width, "height": height})
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        page.goto(f"/tournaments/{tournament.key}/projector/")
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            page.screenshot(
                path=os.path.join(SHOTS, f"fill-{game}-{entrants}-{width}-{language}.png")
            )
        assert page.locator("table.standings tbody tr").count() == entrants
        assert page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        ) == [width, height]
        measured = page.evaluate(MEASURES)
        where = f"{entrants} at {width}×{height} ({language})"
        assert measured["cut"] == [] and measured["boxes"] == 0, (where, measured)
        assert measured["top"] >= 0 and measured["bottom"] <= height + 0.5, (where, measured)
        assert measured["left"] >= 0 and measured["right"] <= width + 0.5, (where, measured)
        assert measured["bottom"] - measured["top"] >= FILLED * height, (where, measured)
        assert measured["right"] - measured["left"] >= FILLED * width, (where, measured)
        assert measured["type"] >= NAME_TYPE[entrants] * height, (where, measured)
        assert page.script_errors == []
