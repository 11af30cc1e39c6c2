"""The projector page on a screen across the room: with 40 entrants every table of the round
and the whole standings are on one screen of 1280×720 (and of 1920×1080), in either
language, without scrolling, in type large enough to read from the back. Chromium,
Playwright.

A tournament of 40 is imported (round 1 played, round 2 under way: tables counted, half
played, not begun); Выборы seats 10 tables of four, Леопард 20 tables of two. Set
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


def tournament_of_forty(game: str):
    """Round 1 complete; round 2: a third of its tables counted, a third half played, the
    rest with nothing on their sheets yet."""
    options, size, row = GAMES[game]
    count = ENTRANTS // size
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
        order = NAMES[r:] + NAMES[:r]
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
            "players": NAMES,
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
    tournament = off_the_loop(tournament_of_forty, game)
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
