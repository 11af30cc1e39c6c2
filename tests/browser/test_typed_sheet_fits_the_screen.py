"""A table's sheet typed in on a phone (390×844): every player's column is on the screen and
can be filled in, at the largest table of each game (four at Фантан and Выборы, two at
Леопард), the names long, without the page or any of its parts wider than the screen; on a
laptop the sheet's table fits its box, the last player's column included. A typed row's
correction form has every input on the screen and in its box, on a laptop of 1366×768 and,
scrolled to, on the phone.

chromium and Playwright, as tests/browser/test_phone.py (its tabs, from
tests/support/phone_screen.py, are used here, signed in as a scorer); set PHONE_SHOTS=dir
to keep a screenshot of each sheet.
"""

import re

import pytest
from django.contrib.auth.models import Group

from club.models import Player
from club.roles import DIRECTOR
from games import registry
from tests.support import phone_screen
from tests.support.accounts import user_in
from tests.support.browser import off_the_loop
from tournaments import services
from tournaments.models import RoundTable, SheetRow
from tournaments.results import services as results_services
from tournaments.run import services as run_services

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

WIDTH, HEIGHT = phone_screen.WIDTH, phone_screen.HEIGHT
NAMES = ["Александра Константиновна", "Maximilian-Alexander", "Евгений Владимирович", "Анастасия"]
# Each game's largest table, its options, and a first row that passes every check, as the
# scorer types it: (input name, value) in the page's order; "select:" picks by the label.
GAMES = {
    "fantan": (
        4,
        {"until_out": 2},
        {"deals": 4},
        [
            ("r1-finish_order-0", "select:3 · "),
            ("r1-finish_order-1", "select:1 · "),
            ("r1-cards_left-0", "0"),
            ("r1-cards_left-1", "5"),
            ("r1-cards_left-2", "0"),
            ("r1-cards_left-3", "7"),
        ],
        {"finish_order": [2, 0], "cards_left": [0, 5, 0, 7]},
    ),
    "variety": (
        4,
        {"cycle": "short"},
        {},
        [
            ("r1-contract", "select:2 · "),
            ("r1-attackers-0", "select:1 · "),
            ("r1-attackers-1", "select:2 · "),
            ("r1-scores-0", "16"),
            ("r1-scores-1", "16"),
            ("r1-scores-2", "10"),
            ("r1-scores-3", "10"),
        ],
        {"contract": 2, "attackers": [0, 1], "scores": [16, 16, 10, 10]},
    ),
    "leopard": (
        2,
        {"deals": 4},
        {},
        [("r1-scores-0", "10"), ("r1-scores-1", "7"), ("r1-ender", "select:1 · ")],
        {"scores": [10, 7], "ender": 0},
    ),
}

# every element of the page that is drawn, with its box (a visually hidden one is 1 px)
BOXES = """() => [...document.body.querySelectorAll('*')].filter(e => e.getClientRects().length)
  .map(e => { const r = e.getBoundingClientRect();
    return {what: e.outerHTML.slice(0, 80), left: r.left, right: r.right, width: r.width}; })"""


@pytest.fixture
def member(django_user_model):
    """The phone's member: the tournament's director, who scores it too. The group is made
    again: a transactional test empties the tables the migration filled."""
    Group.objects.get_or_create(name=DIRECTOR)
    return user_in(django_user_model, "scorer", DIRECTOR)


def tournament_table(user, game: str) -> RoundTable:
    """A tournament of ``game`` with one table of its largest size, round 1 released."""
    seats, options, settings, _, _ = GAMES[game]
    tournament = services.create_tournament(
        user=user,
        name=f"Кубок {game}",
        game=game,
        options=options,
        settings=settings,
        rounds_planned=1,
        seating=registry.tournament(game).seating,
        seed=5,
        bye_points=3,
        order=["points"],
    )
    for name in NAMES[:seats]:
        player = Player.objects.get_or_create(name=name)[0]
        run_services.add_entrant(tournament=tournament, player=player, user=user)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=user), user=user
    )
    return RoundTable.objects.select_related("round__tournament").get(round__tournament=tournament)


def wider_than_the_screen(page) -> list[str]:
    return [
        f"{box['left']:.0f}..{box['right']:.0f}: {box['what']}"
        for box in page.evaluate(BOXES)
        if box["left"] < -0.5 or box["right"] > WIDTH + 0.5
    ]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_typed_sheet_of_a_full_table_fits_a_phone_and_every_column_is_fillable(
    phone, member, game
):
    seats, _, _, typed, saved = GAMES[game]
    table = off_the_loop(tournament_table, member, game)
    key = table.round.tournament.key
    page = phone()
    response = page.goto(f"/tournaments/{key}/tables/{table.pk}/sheet/")
    assert response.ok
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert wider_than_the_screen(page) == []
    phone_screen.shot(page, f"sheet-{game}")
    # every deal's inputs, the last player's among them, are on the screen once scrolled to
    # and wide enough to hold a figure
    rows = page.locator("table.typed-sheet tbody tr[id^=row-]").count()
    assert rows >= 4
    last = seats - 1
    for number in range(1, rows + 1):
        for field in page.locator(f"[name^=r{number}-]").all():
            field.scroll_into_view_if_needed()
            box = field.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, field
            assert box["y"] >= -0.5 and box["y"] + box["height"] <= HEIGHT + 0.5, field
            assert box["width"] >= 44 and box["height"] >= 24, (field, box)
        name = f"r{number}-scores-{last}" if game != "fantan" else f"r{number}-cards_left-{last}"
        assert page.locator(f"[name={name}]").is_visible()
    # the scorer types the first deal (the last player's figure too) and saves it
    for name, value in typed:
        field = page.locator(f"[name={name}]")
        if value.startswith("select:"):
            label = next(
                text
                for text in field.locator("option").all_inner_texts()
                if text.startswith(value.removeprefix("select:"))
            )
            field.select_option(label=label)
        else:
            field.fill(value)
            assert field.input_value() == value
    page.get_by_role("button", name="Save the sheet", exact=True).click()
    page.wait_for_url(re.compile(rf"/run/#table-{table.pk}$"))
    rows = off_the_loop(lambda: [row.data for row in SheetRow.objects.filter(table=table)])
    assert len(rows) == 1 and {name: rows[0][name] for name in saved} == saved
    assert page.script_errors == []


@pytest.mark.parametrize("width", [1280, 1000])
def test_on_a_laptop_the_typed_sheets_last_column_is_inside_its_box(phone, member, width):
    table = off_the_loop(tournament_table, member, "variety")  # the widest row
    page = phone(width=width, language="ru")
    page.goto(f"/tournaments/{table.round.tournament.key}/tables/{table.pk}/sheet/")
    box = page.locator("form .scroll").bounding_box()
    assert page.locator("table.typed-sheet").bounding_box()["width"] <= box["width"] + 0.5
    for field in page.locator("[name=r1-scores-3], [name=r4-scores-3]").all():
        assert field.bounding_box()["x"] + field.bounding_box()["width"] <= box["x"] + box["width"]


LAPTOP = {"width": 1366, "height": 768}
ROW_FORM = "main form:has([name^=r1-])"


def typed_row(user, game: str) -> str:
    """The correction page of the first row of a sheet typed in at the game's largest table."""
    table = tournament_table(user, game)
    results_services.enter_sheet(table=table, rows=[GAMES[game][4]], user=user)
    return f"/tournaments/{table.round.tournament.key}/tables/{table.pk}/rows/1/"


def outside(field, edges: dict) -> bool:
    """Whether any of the field's box lies outside ``edges`` (left, top, right, bottom)."""
    box = field.bounding_box()
    return (
        box["x"] < edges["left"] - 0.5
        or box["y"] < edges["top"] - 0.5
        or box["x"] + box["width"] > edges["right"] + 0.5
        or box["y"] + box["height"] > edges["bottom"] + 0.5
    )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_input_of_a_rows_correction_is_on_a_laptops_screen_and_a_phones(phone, member, game):
    """At 1366×768 the row's inputs are inside the screen and their box (none to scroll to),
    the reason and the button on the screen; at 390 px nothing of the row is to the side of
    its box, and each input, scrolled to, is on the screen and wide enough for a figure."""
    url = off_the_loop(typed_row, member, game)
    for language in ("ru", "en"):
        laptop = phone(width=LAPTOP["width"], language=language)
        laptop.set_viewport_size(LAPTOP)
        assert laptop.goto(url).ok
        phone_screen.shot(laptop, f"row-{game}-{language}-laptop")
        scroll = laptop.locator(f"{ROW_FORM} .scroll").bounding_box()
        edges = {
            "left": max(0, scroll["x"]),
            "top": 0,
            "right": min(LAPTOP["width"], scroll["x"] + scroll["width"]),
            "bottom": LAPTOP["height"],
        }
        fields = laptop.locator(f"{ROW_FORM} [name^=r1-]").all()
        assert len(fields) == len(GAMES[game][3])  # the row's every input
        off = [field.get_attribute("name") for field in fields if outside(field, edges)]
        assert off == [], f"{game} ({language}): off the laptop's screen or its box: {off}"
        screen = {"left": 0, "top": 0, "right": LAPTOP["width"], "bottom": LAPTOP["height"]}
        for what in ("[name=reason]", "[type=submit]"):
            assert not outside(laptop.locator(f"{ROW_FORM} {what}"), screen), what

        small = phone(language=language)
        assert small.goto(url).ok
        phone_screen.shot(small, f"row-{game}-{language}-phone")
        assert small.evaluate("document.documentElement.scrollWidth") <= WIDTH
        # nothing of the row hidden to the side of its box
        assert small.locator(f"{ROW_FORM} .scroll").evaluate("b => b.scrollWidth <= b.clientWidth")
        screen = {"left": 0, "top": 0, "right": WIDTH, "bottom": HEIGHT}
        for field in [
            *small.locator(f"{ROW_FORM} [name^=r1-]").all(),
            small.locator(f"{ROW_FORM} [name=reason]"),
        ]:
            field.scroll_into_view_if_needed()
            assert not outside(field, screen), field
            box = field.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 24, (field, box)
        assert laptop.script_errors == small.script_errors == []
