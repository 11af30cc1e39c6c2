"""Выборы (Variety) at the hotseat screen in a real browser: Debian's chromium and Playwright.

The browser, the live server's tabs and the helpers come from tests/support/browser.py. Run with
``pytest tests/browser/test_variety_browser.py``; without /usr/bin/chromium the tests are skipped,
except on CI (CI=true). Side effects for people to look at: /tmp/variety-auction-phone.png
and /tmp/variety-play-laptop.png.
"""

import re

import pytest
from django.utils import translation

from club.models import Player
from games import selectors, services
from games.engine.cards import SUIT_SYMBOLS, SUITS
from games.models import Deal, Table
from games.robot_seats import RobotSeat
from games.templatetags.cards import suit_name
from games.variety.engine import BONUS, SAY_LENGTH, TRUMPS
from games.variety.presenter import CONTRACTS
from tests.support.browser import (
    assert_turn_of,
    click_and_wait,
    current_deal,
    english_names,
    is_handoff,
    is_over,
    labels,
    off_the_loop,
    open_table,
    page_width,
    reveal,
    sign_in,
    version,
)
from tests.support.hotseat import act

pytestmark = pytest.mark.usefixtures("transactional_db")

NAMES = ("Anna", "Boris", "Vera", "Gleb")
OPENING = (2, 3, 4, 5)  # the first four calls, all different: the auction goes round again
SAY = "Long hearts, no spades"
MAX_ACTIONS = 9 + 52  # the auction ends by the ninth call; then thirteen tricks
PHONE = dict(
    viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
)
LAPTOP = dict(viewport={"width": 1366, "height": 768})


# -- what the pages should say, in English ------------------------------------------------


def text(locator) -> str:
    return " ".join(locator.inner_text().split())


def contract_text(number: int) -> str:
    """A contract as the auction's buttons and the board show it: its trumps, what it counts."""
    trump = TRUMPS[number]
    with translation.override("en"):
        counts = str(CONTRACTS[number - 1].counts)
    trumps = f"trumps {SUIT_SYMBOLS[SUITS[trump]]}" if trump is not None else "no trumps"
    return f"{trumps} · {counts}"


def counted(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def joined(players, seats) -> str:
    return " & ".join(players[s] for s in seats)


def state_of(table):
    return selectors.load(current_deal(table)).state


# -- the auction ----------------------------------------------------------------------------


def assert_contract_buttons(page, state):
    """Eight buttons, each with its trumps and what it counts; those of the numbers the
    player to act has called already are disabled."""
    buttons = page.get_by_role("group", name="Contracts").get_by_role("button")
    assert buttons.count() == 8
    for number in range(1, 9):
        button = buttons.nth(number - 1)
        called = bool(state.named[state.to_act] >> number & 1)
        assert button.get_attribute("value") == str(number)
        assert button.is_disabled() == called, f"contract {number}"
        shown = text(button)
        assert shown.startswith(f"{number} {contract_text(number)}"), shown
        assert shown.endswith("(you called it)") == called, shown
        trump = TRUMPS[number]
        if trump is not None:  # the suit symbol is spoken by its name
            with translation.override("en"):
                spoken = suit_name(SUITS[trump])
            assert button.locator(".trumps [aria-label]").get_attribute("aria-label") == spoken


def choose_call(state) -> int:
    """The first four calls go round with four different numbers; then the player to act
    names the lowest number somebody else has named, and that contract is played."""
    if len(state.calls) < len(OPENING):
        return OPENING[len(state.calls)]
    return min(
        n
        for n in range(1, 9)
        if state.first_namer[n] >= 0 and not state.named[state.to_act] >> n & 1
    )


def make_call(page, table, state, name) -> None:
    assert_contract_buttons(page, state)
    number = choose_call(state)
    say = page.get_by_label("Say something about your hand (optional)")
    assert say.get_attribute("maxlength") == str(SAY_LENGTH)
    first = not state.calls
    if first:
        say.fill(SAY)
        assert_enter_calls_nothing(page, say)
    button = page.get_by_role("group", name="Contracts").locator(f'button[value="{number}"]')
    assert button.is_enabled()
    click_and_wait(page, button)

    after = state_of(table)
    assert after.calls[-1][:2] == [state.to_act, number]
    auction = page.locator(".auction .calls-log li")
    assert auction.count() == len(after.calls)
    entry = f"{name}: {number}" + (f" — «{SAY}»" if first else "")
    assert text(auction.last) == entry
    logged = f"{name} called {number}" + (f" — «{SAY}»" if first else "")
    assert text(page.locator(".log li").first) == logged  # the deal's log, latest first


def assert_enter_calls_nothing(page, say):
    """Enter in the announcement field must not call a contract (the form's default button is
    a disabled one): nothing is posted, the field keeps its text."""
    posts = []

    def on_request(request):
        if request.method == "POST":
            posts.append(request.url)

    before = version(page)
    page.on("request", on_request)
    try:
        say.press("Enter")
        page.wait_for_timeout(300)
    finally:
        page.remove_listener("request", on_request)
    assert posts == [], f"Enter in the announcement field posted {posts}"
    assert version(page) == before and say.input_value() == SAY


def assert_contract_shown(page, table, state):
    """The contract and the two partnerships are plain on the board and the seats."""
    players = selectors.names(table)
    number = state.contract
    assert text(page.locator(".contract-name")) == f"Contract {number}: {contract_text(number)}"
    attackers, defenders = state.attackers, state.defenders()
    assert text(page.locator(".sides .side.attack strong")) == joined(players, attackers)
    assert text(page.locator(".sides .side.defence strong")) == joined(players, defenders)
    assert sorted(page.locator(".seat.attack .name").all_inner_texts()) == sorted(
        players[s] for s in attackers
    )
    assert sorted(page.locator(".seat.defence .name").all_inner_texts()) == sorted(
        players[s] for s in defenders
    )
    assert page.locator("[name=say]").count() == 0  # no table talk once play has begun


# -- trick play -----------------------------------------------------------------------------


def play_first_card(page, table, state) -> None:
    """Only the engine's legal cards are buttons; click the first, then check the trick."""
    legal = [action["play"] for action in state.legal_actions()]
    assert labels(page.locator("button[name=card]")) == english_names(legal)
    first = page.locator("button.card.playable").first
    label = first.get_attribute("aria-label")
    assert first.get_attribute("value") in legal
    click_and_wait(page, page.get_by_role("button", name=label, exact=True))

    after = state_of(table)
    players = selectors.names(table)
    led = page.locator(".trick-place").filter(has=page.locator(".badge", has_text="led"))
    if after.trick:  # the trick goes on: it shows who led it, and the card just laid
        leader = players[after.trick[0][0]]
        assert led.count() == 1
        assert text(led.locator(".trick-name")) == f"{leader} led"
        assert page.locator(".trick").get_by_role("img", name=label, exact=True).count() == 1
    else:  # the trick is complete: taken by its winner
        assert led.count() == 0
        winner = max(range(4), key=lambda s: after.tricks[s] - state.tricks[s])
        assert text(page.locator(".last-trick")).endswith(f"taken by {players[winner]}")
        assert page.locator(".last-trick").inner_text().count(",") == 3


# -- the end of the deal --------------------------------------------------------------------


def assert_result(page, table, deal):
    players = selectors.names(table)
    result = deal.result
    attack, defence = result["points"]
    attackers = joined(players, result["attackers"])
    verdict = text(page.locator(".verdict"))
    points = "point" if attack == 1 else "points"
    assert verdict.startswith(
        f"Contract {result['contract']}: the attackers {attackers} scored "
        f"{attack} {points} against the defenders' {defence}."
    ), verdict
    if result["attackers_won"]:
        assert verdict.endswith("The attackers won.")
    else:
        assert verdict.endswith(f"The attackers lost: each defender also gets +{BONUS}.")

    tricks = [sum(result["tricks"][s] for s in result[side]) for side in ("attackers", "defenders")]
    for side, points, taken in zip(("attack", "defence"), (attack, defence), tricks, strict=True):
        assert text(page.locator(f".sides .side.{side}")).endswith(
            f"— {counted(taken, 'trick')}, {counted(points, 'point')}"
        )

    rows = page.locator("table.result tbody tr")
    assert rows.count() == 4
    for seat, name in enumerate(players):
        row = rows.nth(seat)
        side = "attacker" if seat in result["attackers"] else "defender"
        assert row.locator("th").inner_text() == name
        assert row.locator("td").all_inner_texts() == [
            side,
            str(result["tricks"][seat]),
            str(result["scores"][seat]),
        ]
    for seat in result["defenders"]:  # the bonus, when the attackers lost
        bonus = 0 if result["attackers_won"] else BONUS
        assert result["scores"][seat] == defence + bonus


def sheet_rows(page) -> list[list[str]]:
    """A score sheet's rows as text: position, contract, four scores, attackers, dealer, the
    deal's links."""
    return [
        [" ".join(cell.split()) for cell in cells]
        for cells in page.locator("table.scores.cycle tbody tr").evaluate_all(
            "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
        )
    ]


def expected_row(position, deal, players) -> list[str]:
    result = deal.result
    lost = "" if result["attackers_won"] else " (lost)"
    scores = [
        str(score) + ("*" if not result["attackers_won"] and seat in result["defenders"] else "")
        for seat, score in enumerate(result["scores"])
    ]
    return [
        str(position),
        str(result["contract"]),
        *scores,
        joined(players, result["attackers"]) + lost,
        players[deal.dealer],
        "▶ replay record",
    ]


def assert_sheet(page, table, deals):
    players = selectors.names(table)
    sheet = page.locator("table.scores.cycle")
    assert sheet.locator("thead th").all_inner_texts()[2:6] == players
    assert sheet_rows(page) == [
        expected_row(i, deal, players) for i, deal in enumerate(deals, start=1)
    ]
    for row, deal in zip(sheet.locator("tbody tr").all(), deals, strict=True):
        bonus = row.locator("abbr.bonus")
        assert bonus.count() == (0 if deal.result["attackers_won"] else 2)
    totals = [sum(deal.result["scores"][s] for deal in deals) for s in range(4)]
    assert sheet.locator("tfoot td").all_inner_texts()[:4] == [str(t) for t in totals]
    return totals


# -- the tests ------------------------------------------------------------------------------


@pytest.mark.browser
def test_start_a_table_and_play_a_whole_deal(open_page, user):
    for name in NAMES:
        Player.objects.create(name=name)
    page = open_page(**LAPTOP)
    page.goto("/tables/new/variety/")
    page.wait_for_url("**/accounts/login/**")
    sign_in(page)
    page.wait_for_url("**/tables/new/variety/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("heading", name="New table: Variety", exact=True).is_visible()
    for seat, name in enumerate(NAMES, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label=name)
    page.get_by_role("button", name="Seat them and deal").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))

    table = Table.objects.get()
    assert (table.game, table.created_by, table.options) == ("variety", user, {"cycle": "full"})
    assert selectors.names(table) == list(NAMES)
    assert page.url.endswith(table.get_absolute_url())
    assert "cycle 1, deal 1 of 8" in text(page.locator("h1"))
    assert page.get_by_text("No call yet.").is_visible()

    actions = 0
    phone_shot = laptop_shot = False
    while not is_over(page):
        actions += 1
        assert actions <= MAX_ACTIONS, "the deal did not end"
        if is_handoff(page):
            name = reveal(page, table)  # checks the hand-off screen holds no card of a hand
        else:  # the same player goes on: he won the trick, or was the second to name it
            name = text(page.locator(".seat[aria-current=true] .name"))
            assert_turn_of(page, table, name)
        state = state_of(table)
        if state.contract is None:
            assert page.locator(".contract").count() == 0
            if len(state.calls) == len(OPENING) and not phone_shot:
                phone_shot = auction_on_a_phone(open_page, table)
            make_call(page, table, state, name)
            if state_of(table).contract is not None:
                assert_contract_shown(page, table, state_of(table))
        else:
            assert_contract_shown(page, table, state)
            if len(state.trick) == 2 and sum(state.tricks) >= 3 and not laptop_shot:
                page.screenshot(path="/tmp/variety-play-laptop.png", full_page=True)
                laptop_shot = True
            play_first_card(page, table, state)
    assert phone_shot and laptop_shot

    deal = Deal.objects.get(table=table)
    assert deal.is_over and sum(deal.result["tricks"]) == 13
    assert deal.version == deal.events.count() == version(page)
    assert page.locator("[name=say]").count() == 0
    assert_result(page, table, deal)
    new = page.locator("table.scores.cycle tbody tr.new")
    assert new.count() == 1
    assert [int(cell.rstrip("*")) for cell in new.locator("td").all_inner_texts()[1:5]] == (
        deal.result["scores"]
    )
    assert_sheet(page, table, [deal])
    assert page.get_by_role("button", name="Next deal").is_visible()
    assert page.script_errors == []


def auction_on_a_phone(open_page, table) -> bool:
    """The auction as a phone shows it (a second screen on the same table, which writes
    nothing): it must fit; /tmp/variety-auction-phone.png for people to look at."""
    phone = open_page(**PHONE)
    open_table(phone, table)
    phone.get_by_role("group", name="Contracts").wait_for()
    assert phone.locator("button.call[disabled]").count() == 1
    assert page_width(phone) <= 390, f"the auction is {page_width(phone)}px wide on a phone"
    for box in phone.locator("button.call, #id_say").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().toJSON())"
    ):
        assert box["left"] >= 0 and box["right"] <= 390, "a contract button is cut off"
    phone.screenshot(path="/tmp/variety-auction-phone.png", full_page=True)
    assert phone.script_errors == []
    phone.context.close()
    return True


def play_cycle(user, deals: int) -> Table:
    """A short cycle's first ``deals`` deals, played through the services (the step-th legal
    action at each step, so that the calls and the contracts vary)."""
    table = services.start_table(
        user=user, game="variety", players=list(NAMES), options={"cycle": "short"}, seed=11
    )
    for number in range(1, deals + 1):
        if number > 1:
            services.next_deal(table=table, after=number - 1, user=user)
        for step in range(MAX_ACTIONS):
            if current_deal(table).is_over:
                break
            act(table, choose=step, user=user)
        assert current_deal(table).is_over
    return table


@pytest.mark.browser
def test_the_cycles_score_sheet_page_on_a_phone(open_page, user):
    table = off_the_loop(play_cycle, user, deals=4)
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    players = selectors.names(table)

    page = open_page(**PHONE)
    open_table(page, table)  # the table's own sheet, the last deal highlighted
    table_rows = sheet_rows(page)
    assert page.locator("table.scores.cycle tbody tr.new").count() == 1
    assert page.locator("table.scores.cycle tbody tr").last.get_attribute("class") == "new"
    assert page.get_by_role("button", name="Start a new cycle").is_visible()

    page.get_by_role("link", name="The score sheet on a page of its own").click()
    page.wait_for_url(f"**/t/{table.token}/cycles/1/")
    assert page.get_by_role(
        "heading", name="Variety · Score sheet of cycle 1", exact=True
    ).is_visible()
    assert text(page.locator(".score-page > p.muted")) == "4 of 4 deals played"
    assert sheet_rows(page) == table_rows
    totals = assert_sheet(page, table, deals)
    assert page.locator("tr.new").count() == 0
    best = max(totals)
    winners = [players[s] for s in range(4) if totals[s] == best]
    winner = text(page.locator(".winner"))
    assert winner == (
        f"Winner: {winners[0]}"
        if len(winners) == 1
        else f"Winners, sharing the place: {', '.join(winners)}"
    )
    assert page_width(page) <= 390, f"the sheet is {page_width(page)}px wide on a phone"
    assert page.script_errors == []


# -- a laptop's width, and robots' names ----------------------------------------------------


def practice_table_in_play(user) -> Table:
    """Anna and three robots, the contract played: the trick shows every seat's name."""
    table = services.start_table(
        user=user,
        game="variety",
        players=["Anna", RobotSeat("club"), RobotSeat("strong"), RobotSeat("beginner")],
        options={},
        seed=11,
    )
    table = selectors.table_by_token(table.token)
    for step in range(MAX_ACTIONS):
        state = state_of(table)
        if state.contract is not None:
            return table
        if selectors.played_by_robots(table)[state.to_act]:
            deal = current_deal(table)
            services.robot_turn(
                deal=deal, seat=state.to_act, expected_version=deal.version, user=user
            )
        else:
            act(table, choose=step, user=user)
    raise AssertionError("the auction did not end")


BOX = "el => el.getBoundingClientRect().toJSON()"
CUT = "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"


@pytest.mark.browser
def test_a_laptop_shows_the_log_beside_the_board_and_the_trick_names_every_robot_whole(
    open_page, user, settings
):
    settings.ROBOT_SAMPLES = 1
    table = off_the_loop(practice_table_in_play, user)
    with translation.override("en"):
        robots = selectors.names(table)[1:]
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page = open_page(viewport=viewport)
        open_table(page, table)
        names = page.locator("#table .trick .trick-name")
        assert names.count() == 4
        shown = " ".join(text(name) for name in names.all())
        assert all(robot in shown for robot in robots), (viewport, shown)
        assert names.evaluate_all(CUT) == [], viewport
        assert page_width(page) <= viewport["width"]
        if viewport["width"] == 1280:
            # the log of the deal beside the board, not alone on a half-empty row; the
            # score sheet below it as wide as the table
            whole = page.locator("#table").evaluate(BOX)
            board = page.locator("#table .board").evaluate(BOX)
            log = page.locator("#table .panel:has(> #log-heading)").evaluate(BOX)
            sheet = page.locator("#table .panel:has(table.scores)").evaluate(BOX)
            assert log["left"] > board["right"] and log["top"] < board["bottom"]
            assert abs(log["right"] - whole["right"]) < 2
            assert abs(sheet["left"] - whole["left"]) < 2
            assert abs(sheet["right"] - whole["right"]) < 2
        assert page.script_errors == []
