"""The club's wide tables on a phone (390×844) and on a laptop (1366 px): chromium, Playwright.

On the phone every cell of every table shown (its words too) lies inside the screen's width
and inside its box, which has nothing to scroll to, and the page does not scroll sideways, in
both languages: a cycle of Выборы (eight deals, four players with long Russian names) on a
seat's own page, the table's page and the cycle's page; the list of tournaments, a
tournament of nine entrants after several rounds (its page and standings) and the page of a
player of three tournaments. On the laptop the same tables are still tables, whole in their
boxes.

The tabs are tests/support/phone_screen.py's (PHONE_SHOTS=dir keeps a screenshot of each
page measured); the data is made through the services, off Playwright's event loop.
"""

import json

import pytest

from club.models import Player
from games import services
from games.models import Seat
from tests.support import phone_screen
from tests.support.browser import off_the_loop
from tests.support.club_night import play
from tests.support.tournaments import import_text, variety_row

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

LAPTOP = 1366
PLAYERS = ["Анастасия Воробьёва", "Бенедикт Кузнецов", "Валентина Смирнова", "Григорий Соколов"]
ENTRANTS = PLAYERS + [
    "Дарья Константинова",
    "Евгений Белозерский",
    "Жанна Ostrowski",
    "Зиновий Ли",
    "Ирина Петровская",
]
TOURNAMENTS = [
    ("Кубок клуба: весенний турнир", 3),
    ("Осенний вечер Выборов", 2),
    ("Зимний кубок", 4),
]


@pytest.fixture
def member(django_user_model):
    return django_user_model.objects.create_user("host", password="pw-for-tests-only")


def cycle_of_eight(user) -> dict[str, str]:
    """A Выборы table of four, every seat on its own device, its full cycle of eight deals
    played: the first seat's own page, the table's page and the cycle's page."""
    table = services.start_table(
        user=user,
        game="variety",
        players=PLAYERS,
        options={"cycle": "full"},
        seed=3,
        devices={0, 1, 2, 3},
    )
    play(table, user, deals_over=8)
    seat = Seat.objects.get(table=table, position=0)
    return {
        "a seat's own page": seat.get_absolute_url(),
        "the table's page": table.get_absolute_url(),
        "the cycle's page": f"{table.get_absolute_url()}cycles/1/",
    }


def document(name: str, rounds: int, shift: int) -> str:
    """A Выборы tournament of the nine entrants: two tables and a bye a round, each table's
    short cycle on its sheet."""
    played = []
    for number in range(rounds):
        order = ENTRANTS[number + shift :] + ENTRANTS[: number + shift]
        tables = [
            {
                "players": order[4 * t : 4 * t + 4],
                "rows": [variety_row(number + t + k) for k in range(4)],
            }
            for t in range(2)
        ]
        played.append({"tables": tables, "byes": [order[8]]})
    return json.dumps(
        {
            "tournament": name,
            "game": "variety",
            "options": {"cycle": "short"},
            "rounds_planned": rounds + 1,
            "players": ENTRANTS,
            "rounds": played,
        },
        ensure_ascii=False,
    )


def tournaments() -> dict[str, str]:
    made = [
        import_text(document(name, rounds, shift))
        for shift, (name, rounds) in enumerate(TOURNAMENTS)
    ]
    base = f"/tournaments/{made[0].key}/"
    return {
        "the tournaments": "/tournaments/",
        "a tournament": base,
        "its standings": f"{base}standings/",
        "a player's page": f"/ratings/players/{Player.objects.get(name=PLAYERS[0]).pk}/",
    }


# Every cell of the page's shown tables (not one in a closed <details>) that is drawn (a
# visually hidden one is 1 px), with the box of its words (those drawn), and its table's
# scrolling box.
CELLS = """() => [...document.querySelectorAll('main table')].filter(t => t.checkVisibility())
  .flatMap(table => {
    const edge = (table.closest('.scroll') || table.parentElement).getBoundingClientRect();
    const drawn = e => e.getBoundingClientRect().width > 1;
    return [...table.querySelectorAll('th, td')].filter(drawn).map(cell => {
      let {left, right} = cell.getBoundingClientRect();
      const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) {
        const text = walk.currentNode;
        if (!text.textContent.trim() || !drawn(text.parentElement)) continue;
        const range = document.createRange();
        range.selectNodeContents(text);
        const words = range.getBoundingClientRect();
        left = Math.min(left, words.left);
        right = Math.max(right, words.right);
      }
      return {what: cell.textContent.trim().slice(0, 40), left, right, boxLeft: edge.left,
              boxRight: edge.right, display: getComputedStyle(table).display};
    });
  })"""
SCROLLING = """() => [...document.querySelectorAll('main table')].filter(t => t.checkVisibility())
  .map(t => t.closest('.scroll')).filter(b => b && b.scrollWidth > b.clientWidth + 1)
  .map(b => `${b.clientWidth} px showing ${b.scrollWidth}: ${b.textContent.trim().slice(0, 40)}`)"""


def cut(page, width: int) -> list[str]:
    """The cells (or their words) outside the screen's width or their table's box."""
    return [
        f"{cell['left']:.0f}..{cell['right']:.0f} (box {cell['boxLeft']:.0f}.."
        f"{cell['boxRight']:.0f}): {cell['what']}"
        for cell in page.evaluate(CELLS)
        if cell["left"] < max(0, cell["boxLeft"]) - 0.5
        or cell["right"] > min(width, cell["boxRight"]) + 0.5
    ]


def test_wide_tables_show_every_cell_on_a_phone_and_stay_tables_on_a_laptop(phone, member):
    """At 390 px every cell is on the screen, the page and the tables' boxes have nothing to
    scroll sideways to; at 1366 px the tables are laid out as tables, whole in their boxes."""
    sheets = off_the_loop(cycle_of_eight, member)
    pages = {**sheets, **off_the_loop(tournaments)}
    for language in ("ru", "en"):
        page = phone(language=language)
        for name, url in pages.items():
            assert page.goto(url).ok, url
            phone_screen.shot(page, f"wide-{language}-{name}")
            assert page.locator("main table").count(), name
            if name in sheets:
                assert page.locator("table.cycle tbody tr").count() == 8  # the whole cycle
            assert page.evaluate("document.documentElement.scrollWidth") <= phone_screen.WIDTH
            assert cut(page, phone_screen.WIDTH) == [], f"{name} ({language}): cut at 390 px"
            assert page.evaluate(SCROLLING) == [], f"{name} ({language}): more to scroll to"
        laptop = phone(width=LAPTOP, language=language)
        for name, url in pages.items():
            laptop.goto(url)
            cells = laptop.evaluate(CELLS)
            assert {cell["display"] for cell in cells} == {"table"}, name
            assert cut(laptop, LAPTOP) == [], f"{name} ({language}): cut at {LAPTOP} px"
            assert laptop.evaluate(SCROLLING) == [], f"{name} ({language}): more to scroll to"
        assert page.script_errors == laptop.script_errors == []
