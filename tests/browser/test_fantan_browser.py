"""The hotseat table in a real browser: Debian's chromium driven by Playwright.

Run with ``pytest tests/browser/test_fantan_browser.py``. Without /usr/bin/chromium the tests are
skipped, except on CI (CI=true), where a missing browser is a failure.
"""

import re

import pytest

from club.models import Player
from games import selectors, services
from games.models import Deal, DealEvent, Table
from tests.support.browser import (
    assert_no_hand_shown,
    assert_turn_of,
    click_and_wait,
    current_deal,
    english_text,
    is_handoff,
    is_over,
    lay_first_card_or_pass,
    new_table,
    off_the_loop,
    open_table,
    page_width,
    reveal,
    reveal_button,
    show_hand,
    sign_in,
    version,
    wait_for_version,
)

MAX_STEPS = 400  # a four-player deal takes well under 200 reveals and actions

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]


# -- helpers ----------------------------------------------------------------------------


def table_in_play(user, actions: int) -> Table:
    """A table whose first ``actions`` moves were made (the first legal one each time), and
    whose player to act has his hand shown."""
    table = new_table(user)
    for _ in range(actions):
        play_first_legal(table, user)
    show_hand(table, user)
    return table


def play_first_legal(table, user) -> None:
    """The seat to act has his hand shown and makes his first legal move."""
    deal, seat = show_hand(table, user)
    legal = selectors.load(deal).state.legal_actions()[0]
    services.play(
        deal=deal,
        seat=seat,
        action={k: v for k, v in legal.items() if k != "seat"},
        expected_version=deal.version,
        user=user,
    )


# -- the tests --------------------------------------------------------------------------


def test_sign_in_seat_players_and_play_a_whole_deal(open_page, user):
    for name in ("Анна", "Boris", "Vera"):
        Player.objects.create(name=name)
    page = open_page()

    page.goto("/tables/new/fantan/")
    page.wait_for_url("**/accounts/login/**")
    assert page.locator("html").get_attribute("lang") == "en"
    sign_in(page)
    page.wait_for_url("**/tables/new/fantan/")

    page.get_by_label("Seat 1", exact=True).select_option(label="Boris")
    page.get_by_label("Seat 2", exact=True).select_option(label="Анна")
    page.get_by_label("Seat 3", exact=True).select_option(label="Vera")
    page.get_by_label("or a new player").nth(3).fill("  Gleb ")
    page.get_by_role("button", name="Seat them and deal").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))

    table = Table.objects.get()
    assert table.created_by == user
    assert selectors.names(table) == ["Boris", "Анна", "Vera", "Gleb"]
    assert page.url.endswith(table.get_absolute_url())

    steps = 0
    while not is_over(page):
        steps += 1
        assert steps <= MAX_STEPS, "the deal did not end"
        if is_handoff(page):
            reveal(page, table)
        else:  # the same player goes on (one more card after an ace or a two)
            assert_turn_of(page, table, page.locator(".seat[aria-current=true] .name").inner_text())
        lay_first_card_or_pass(page)

    deal = Deal.objects.get(table=table)
    assert deal.is_over
    assert deal.version == deal.events.count() == version(page)
    players = selectors.names(table)
    scores = deal.result["scores"]

    result = page.locator("table.result tbody tr")
    assert result.count() == 4
    for i, name in enumerate(players):
        row = result.nth(i)
        assert row.locator("th").inner_text() == name
        assert row.locator("td").nth(1).inner_text() == str(len(deal.result["cards_left"][i]))
        assert row.locator("td").nth(2).inner_text() == str(scores[i])
    winner = deal.result["finish_order"][0]
    assert result.nth(winner).locator("td").first.inner_text() == "1"

    totals = page.locator("table.scores")
    assert totals.locator("thead th").all_inner_texts()[1:5] == players
    assert totals.locator("tbody tr").count() == 1
    assert totals.locator("tfoot td").all_inner_texts()[:4] == [str(s) for s in scores]
    assert page.get_by_role("button", name="Next deal").is_visible()

    link = page.get_by_role("link", name="Download the deal's record")
    record = page.request.get(link.get_attribute("href"))
    assert record.ok
    actions = deal.events.filter(kind=DealEvent.Kind.ACTION).count()
    assert len(record.json()["actions"]) == actions
    assert page.script_errors == []


def test_take_back(open_page, user):
    table = off_the_loop(new_table, user)
    page = open_page()
    open_table(page, table)

    for _ in range(12):  # until somebody lays a card (the first seats may have to pass)
        name = reveal(page, table)
        laid = lay_first_card_or_pass(page)
        if laid:
            break
    else:
        pytest.fail("nobody laid a card")
    label, code = laid

    # The hand-off screen offers the take-back to the player who just moved, and only that.
    assert is_handoff(page)
    assert page.locator(".board").get_by_role("img", name=label, exact=True).count() == 1
    take_back = page.get_by_role("button", name=f"{name}: take back the last move", exact=True)
    assert take_back.is_visible()
    assert_no_hand_shown(page, table)

    click_and_wait(page, take_back)
    assert_turn_of(page, table, name)
    assert page.locator(".hand").get_by_role("button", name=label, exact=True).is_visible()
    assert page.locator(".board").get_by_role("img", name=label, exact=True).count() == 0
    assert (
        page.locator(".log li.take_back").first.inner_text()  # latest first
        == f"{name} took back {english_text(code)}"
    )

    # He lays it again; once the next player has his hand shown, nothing can be taken back.
    click_and_wait(page, page.get_by_role("button", name=label, exact=True))
    assert page.locator(".take-back button").count() == 1
    reveal(page, table)
    assert page.locator(".take-back").count() == 0
    assert page.get_by_role("button", name=re.compile("take back")).count() == 0
    assert page.script_errors == []


def test_keyboard_only(open_page, user):
    table = off_the_loop(new_table, user)
    page = open_page()
    open_table(page, table)

    for _ in range(12):
        state = selectors.load(current_deal(table)).state
        name = selectors.names(table)[state.to_act]
        # The hand-off screen's heading takes the focus by itself (autofocus), also after a
        # swap; Tab reaches the button.
        button = reveal_button(page, name)
        button.wait_for()
        assert page.locator("h2.handoff").evaluate("el => el === document.activeElement")
        page.keyboard.press("Tab")
        assert button.evaluate("el => el === document.activeElement")
        before = version(page)
        page.keyboard.press("Enter")
        wait_for_version(page, before + 1)
        assert_turn_of(page, table, name)

        target = page.locator("button.card.playable").first
        if not page.locator("button.card.playable").count():
            target = page.get_by_role("button", name="Pass", exact=True)
        for _ in range(80):
            if target.evaluate("el => el === document.activeElement"):
                break
            page.keyboard.press("Tab")
        else:
            pytest.fail("Tab never reached the card to lay (or Pass)")
        assert target.evaluate("el => el.matches(':focus-visible')")
        label = target.get_attribute("aria-label")
        before = version(page)
        page.keyboard.press("Enter")
        wait_for_version(page, before + 1)
        if label:
            break
    else:
        pytest.fail("nobody laid a card")

    assert page.locator(".board").get_by_role("img", name=label, exact=True).count() == 1
    assert page.locator(".log li").first.inner_text().startswith(f"{name} laid ")
    assert page.script_errors == []


def test_layout_on_a_phone_and_a_laptop(open_page, user):
    """Screenshots for people to look at, /tmp/fantan-phone.png and /tmp/fantan-laptop.png;
    the page itself must not scroll sideways (the board may, inside itself)."""
    table = off_the_loop(table_in_play, user, actions=20)
    sizes = {
        "phone": dict(
            viewport={"width": 390, "height": 844},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
        ),
        "laptop": dict(viewport={"width": 1366, "height": 768}),
    }
    for size, options in sizes.items():
        page = open_page(**options)
        open_table(page, table)
        page.locator(".hand").wait_for()
        # the viewport's width, not innerWidth: a phone widens its layout to what overflows
        width = options["viewport"]["width"]
        assert page_width(page) <= width, (
            f"{size}: the page is {page_width(page)}px wide in a {width}px window"
        )
        for box in page.locator(".hand .card").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().toJSON())"
        ):
            assert box["left"] >= 0 and box["right"] <= width, f"{size}: a card is cut off"
        for box in page.locator("button.card.playable").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().toJSON())"
        ):
            assert box["width"] >= 24 and box["height"] >= 24, f"{size}: a tiny card button"
        page.screenshot(path=f"/tmp/fantan-{size}.png", full_page=True)
        board = page.locator(".board").evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert board[0] <= board[1] + 1, f"{size}: the board's thirteen columns do not fit"
        page.goto(f"{live_url(page)}/tables/new/fantan/")
        assert page.locator("form.new-table").count() == 1
        assert page_width(page) <= width, f"{size}: the new-table form is too wide"


def two_deals_played(user, names) -> Table:
    """A Фантан table whose first two deals are over (each seat's first legal move)."""
    table = new_table(user, names)
    for number in (1, 2):
        while not current_deal(table).is_over:
            play_first_legal(table, user)
        services.next_deal(table=table, after=number, user=user)
    return table


def test_the_running_totals_fit_beside_the_log_on_a_laptop(open_page, user):
    """Four long names and two finished deals, in Russian: no column of the scores is cut
    off at the edge of their panel (each row's record and replay are its deal number and
    a ▶)."""
    names = ("Анна Каренина", "Борис Годунов", "Вера Павловна", "Глеб Жеглов")
    table = off_the_loop(two_deals_played, user, names)
    page = open_page(viewport={"width": 1280, "height": 800})
    open_table(page, table)
    page.get_by_role("button", name="Русский").click()
    page.wait_for_function("document.documentElement.lang == 'ru'")
    scores = page.locator("table.scores")
    assert scores.locator("tbody tr").count() == 2
    inner, shown = scores.evaluate(
        "e => [e.parentElement.scrollWidth, e.parentElement.clientWidth]"
    )
    assert inner <= shown, f"the scores are {inner}px wide in a {shown}px panel"
    assert scores.locator("a[download]").count() == scores.locator("a.replay-link").count() == 2


def live_url(page) -> str:
    return page.url.split("/t/")[0]
