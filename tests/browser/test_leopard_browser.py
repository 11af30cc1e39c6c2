"""Леопард (Leopard) at the hotseat screen in a real browser: Debian's chromium and Playwright.

The browser, the live server's tabs and the helpers come from tests/support/browser.py. Run with
``pytest tests/browser/test_leopard_browser.py``; without /usr/bin/chromium the tests are skipped,
except on CI (CI=true). Side effects for people to look at: /tmp/leopard-phone.png and
/tmp/leopard-laptop.png.

Random play seldom brings a square to the five points a player needs to end the deal, so the
tests steer: the first seat builds its square in red, the second in black (see ``steer``). The
deal started through the page is random; the turns that ``steer`` needs to reach an end are
worked out on a copy of the engine's state, all but the last few are played through the
services, off the event loop, and the rest through the pages.
"""

import re

import pytest

from club.models import Player
from games import services
from games.engine.cards import CODES, card_index
from games.leopard.engine import (
    DOWN,
    END_AT,
    LINES,
    PLACES,
    square_lines,
    square_sum,
)
from games.models import Deal, DealEvent, Table
from tests.support.browser import (
    click_and_swap,
    click_and_wait,
    current_deal,
    english_names,
    english_text,
    labels,
    off_the_loop,
    open_table,
    page_width,
    reveal_button,
    sign_in,
    version,
)
from tests.support.hotseat import hidden_codes, leaked_cards, scrub
from tests.support.leopard import (
    HAND,
    end_button,
    english_name,
    plan_to_end,
    play_turns,
    stack_and_hide,
    state_of,
    steer,
    text,
    turn_by_services,
)

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

NAMES = ("Anna", "Boris")
DEALS = 3  # the match the first test agrees on the new-table page
PAGE_TURNS = 6  # at most this many turns through the pages before the one that ends the deal
SEED = 26  # test 2: a deal whose first turns leave a face-down card and a stack (asserted)
PHONE = dict(
    viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
)
LAPTOP = dict(viewport={"width": 1366, "height": 768})


# -- steering: which move the tests make ----------------------------------------------------


def seeded_table(user, turns: int) -> Table:
    table = services.start_table(
        user=user, game="leopard", players=list(NAMES), options={}, seed=SEED
    )
    for _ in range(turns):
        turn_by_services(table, user, choose=stack_and_hide)
    return table


# -- what the pages should show -------------------------------------------------------------


def counted(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def assert_nothing_hidden(page, table):
    """No card the screen's viewer may not see: the other hand, the stock, the face of a card
    lying face down (two packs: unless a twin of it lies open, or is in the hand shown)."""
    leaks = leaked_cards(scrub(page.content(), table), hidden_codes(table))
    assert leaks == [], f"hidden cards on the page: {leaks}"
    backs = page.locator(".card.back").evaluate_all(
        "els => els.map(e => [e.textContent.trim(), e.querySelectorAll('.face').length])"
    )
    assert all(back == ["", 0] for back in backs), f"a face-down card shows a face: {backs}"


def assert_handoff(page, table):
    """A hand-off screen to the seat to act: no hand, no card to choose, nothing hidden."""
    name = NAMES[state_of(table).to_act]
    page.get_by_role("heading", name=f"Pass the screen to {name}", exact=True).wait_for()
    assert page.locator(".hand").count() == 0
    assert page.locator(".hand .card, button[name=card], button.target").count() == 0
    assert (
        page.get_by_role("button", name=re.compile("^(Draw a card|End the deal|Discard)")).count()
        == 0
    )
    assert_nothing_hidden(page, table)
    assert_board(page, table)
    return name


SQUARES = """wraps => wraps.map(w => ({
  heading: w.querySelector('h2').textContent.replace(/\\s+/g, ' ').trim(),
  lines: [...w.querySelectorAll('.lines strong')].map(s => Number(s.textContent)),
  places: [...w.querySelectorAll('.square > .place')].map(p => ({
    name: p.querySelector('.place-name').textContent.trim(),
    scoring: p.classList.contains('scoring'),
    cards: [...p.querySelectorAll('.card')].map(c => [
      c.className, c.getAttribute('aria-label'), c.textContent.trim(),
      c.querySelectorAll('.face').length]),
    slots: p.querySelectorAll('.slot').length,
    under: p.querySelector('.under') ? p.querySelector('.under').textContent.trim() : null,
  })),
}))"""


def expected_square(square: list[list[int]], name: str) -> dict:
    """A square as the page should show it, from the engine's stacks."""
    lines = square_lines(square)
    scoring = {i for line, points in zip(LINES, lines, strict=True) if points for i in line}
    places = []
    for p, stack in enumerate(square):
        place = PLACES[p]
        top = stack[-1] if stack else None
        if top is None:
            cards, slots = [], 1
        elif top & DOWN:
            cards, slots = [["card back", f"{place}: a card face down", "", 0]], 0
        else:
            code = CODES[top]
            cards = [["card", f"{place}: {english_name(code)}", english_text(code), 1]]
            slots = 0
        places.append(
            {
                "name": place,
                "scoring": p in scoring,
                "cards": cards,
                "slots": slots,
                "under": f"+{len(stack) - 1}" if len(stack) > 1 else None,
            }
        )
    total = square_sum(square)
    return {
        "heading": f"{name}'s square — {counted(total, 'point')}",
        "lines": [points for points in lines if points],
        "places": places,
    }


def assert_board(page, table):
    """Both squares place by place (top card, backs, "+N" underneath, the scoring lines and
    the points), the piles, and eight cards a seat."""
    state = state_of(table)
    shown = page.locator(".leopard-board .square-wrap").evaluate_all(SQUARES)
    assert len(shown) == 2
    for seat, name in enumerate(NAMES):
        assert shown[seat] == expected_square(state.squares[seat], name), f"{name}'s square"
    assert sum(shown[0]["lines"]) == square_sum(state.squares[0])
    assert sum(shown[1]["lines"]) == square_sum(state.squares[1])
    assert_piles(page, state)
    assert page.locator(".seats .seat .count").all_inner_texts() == [f"{HAND} cards"] * 2


def assert_piles(page, state):
    """The stock's and the discard pile's counts, and the discard pile's top card."""
    piles = f"Stock: {counted(len(state.stock), 'card')} · discard pile: " + counted(
        len(state.discards), "card"
    )
    if state.discards:
        top = CODES[state.discards[-1]]
        piles += f", on top {english_text(top)}"
        red = page.locator(".piles span").get_attribute("class") == "red"
        assert red == (top[1] in "HD")
    assert text(page.locator(".piles")) == piles


def assert_turn_start(page, table) -> bool:
    """The hand of the seat to act, eight cards to look at, "Draw a card", and the button to
    end the deal exactly when his square has five points or more. Whether it is there."""
    state = state_of(table)
    seat = state.to_act
    name = NAMES[seat]
    page.get_by_role("heading", name=f"{name}, your turn", exact=True).wait_for()
    assert page.locator(".seat[aria-current=true] .name").inner_text() == name
    hand = page.locator(".hand .card")
    assert hand.count() == HAND
    assert labels(hand) == english_names(CODES[c] for c in state.hands[seat])
    assert page.locator(".hand button").count() == 0  # to look at: first he draws
    assert page.get_by_role("button", name="Draw a card", exact=True).is_visible()
    total = square_sum(state.squares[seat])
    if total >= END_AT:
        score = total + (total - END_AT) - 1
        assert text(end_button(page)) == f"End the deal now: you would score {score}"
    else:
        assert end_button(page).count() == 0, f"{name} may not end with {total} points"
    assert_nothing_hidden(page, table)
    assert_board(page, table)
    return total >= END_AT


def assert_drawn(page, table):
    """After the draw: nine cards to choose from, the one drawn marked."""
    state = state_of(table)
    seat = state.to_act
    hand = [CODES[c] for c in state.hands[seat][:-1]]
    drawn = CODES[state.hands[seat][-1]]
    buttons = page.locator(".hand button.card.playable")
    assert buttons.count() == HAND + 1
    assert sorted(buttons.evaluate_all("els => els.map(e => e.value)")) == sorted(hand + [drawn])
    marked = page.locator(".hand button.card.drawn")
    # exactly one, even when the hand holds the drawn card's twin from the other pack
    assert marked.evaluate_all("els => els.map(e => e.value)") == [drawn]
    assert marked.first.get_attribute("aria-label") == f"{english_name(drawn)} (drawn)"
    # the drawn card counts in his hand now, no longer in the stock
    assert page.locator(".seat.to-act .count").inner_text() == f"{HAND + 1} cards"
    assert text(page.locator(".piles")).startswith(f"Stock: {counted(len(state.stock), 'card')} ")
    assert page.get_by_role("button", name="Draw a card").count() == 0
    assert end_button(page).count() == 0  # once he has drawn, he must play
    assert page.get_by_text("Choose a card to lay or to discard.", exact=True).is_visible()
    assert_nothing_hidden(page, table)


def choose(page, table, code: str):
    """Click a card of the hand (a GET of the table with ?card=): it is marked, and so is
    every place where it may go, the engine's places_for; it may be discarded."""
    state = state_of(table)
    seat = state.to_act
    with page.expect_request(lambda r: r.method == "GET" and f"card={code}" in r.url):
        click_and_swap(page, page.locator(f'.hand button.card[value="{code}"]').first)
    chosen = page.locator(".hand button.card.chosen")
    assert chosen.count() >= 1
    assert (
        chosen.evaluate_all("els => els.map(e => [e.value, e.getAttribute('aria-pressed')])")
        == [[code, "true"]] * chosen.count()
    )
    card = english_text(code)
    assert page.get_by_text(
        f"{card}: choose a marked place on a square, or discard it.", exact=True
    ).is_visible()
    targets = page.locator(".leopard-board button.target").evaluate_all("""els => els.map(b => {
        const wrap = b.closest('.square-wrap'), place = b.closest('.place');
        return [[...document.querySelectorAll('.square-wrap')].indexOf(wrap),
                [...wrap.querySelectorAll('.square > .place')].indexOf(place),
                Number(b.form.elements.square.value), b.value, b.form.elements.lay.value,
                b.textContent.trim()];
    })""")
    places = sorted(state.places_for(seat, card_index(code)))
    assert sorted((t[0], t[1]) for t in targets) == places
    for square, place, posted_square, posted_place, lay, label in targets:
        assert (posted_square, posted_place, lay) == (square, PLACES[place], code)
        assert label == f"Lay {card} on {PLACES[place]} ({NAMES[square]})"
    cannot = page.get_by_text("This card cannot be laid now: only discarded.", exact=True)
    assert cannot.count() == (0 if places else 1)
    assert page.get_by_role("button", name=f"Discard {card}", exact=True).is_visible()
    assert_nothing_hidden(page, table)


def make_move(page, table, move: dict):
    """After the draw: choose the card, then one more click lays it or discards it. The
    engine has the move; the screen is handed on."""
    state = state_of(table)
    seat = state.to_act
    code = move.get("lay") or move["discard"]
    choose(page, table, code)
    if "lay" in move:
        click_and_wait(
            page,
            page.locator(".leopard-board .square-wrap")
            .nth(move["square"])
            .locator(f'button.target[value="{move["place"]}"]'),
        )
    else:
        click_and_wait(
            page, page.get_by_role("button", name=f"Discard {english_text(code)}", exact=True)
        )
    deal = current_deal(table)
    last = deal.events.filter(kind=DealEvent.Kind.ACTION).last()
    assert last.data == state.canonical({**move, "seat": seat})
    entry = text(page.locator(".log li").first)  # the deal's log, latest first
    if "discard" in move:
        assert entry == f"{NAMES[seat]} discarded {english_text(code)}"
    elif code[0] in "JQ":
        assert entry == (
            f"{NAMES[seat]} laid a card face down on {move['place']} of "
            f"{NAMES[move['square']]}'s square"
        )
    else:
        assert entry == (
            f"{NAMES[seat]} laid {english_text(code)} on {move['place']} of "
            f"{NAMES[move['square']]}'s square"
        )


def reveal_and_draw(page, table) -> bool:
    """At a hand-off screen: show the hand; unless he may end the deal, draw. Whether he may
    end it (and has not drawn)."""
    name = assert_handoff(page, table)
    click_and_wait(page, reveal_button(page, name))
    if assert_turn_start(page, table):
        return True
    click_and_wait(page, page.get_by_role("button", name="Draw a card", exact=True))
    assert_drawn(page, table)
    return False


def screenshots(open_page, page, table, code: str):
    """Mid-deal, after the draw, a card chosen: the laptop's page, and the same table on a
    phone (a second screen that writes nothing); neither may scroll sideways."""
    assert page_width(page) <= LAPTOP["viewport"]["width"]
    page.screenshot(path="/tmp/leopard-laptop.png", full_page=True)

    phone = open_page(**PHONE)
    open_table(phone, table)
    phone.goto(f"{table.get_absolute_url()}?card={code}")
    phone.locator(".hand button.card.chosen").first.wait_for()
    assert phone.locator(".hand button.card").count() == HAND + 1
    assert phone.locator("button.target").count() == page.locator("button.target").count()
    assert page_width(phone) <= 390, f"the page is {page_width(phone)}px wide on a phone"
    for box in phone.locator(".hand .card, .square .place").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().toJSON())"
    ):
        assert box["left"] >= 0 and box["right"] <= 390, "a card or a place is cut off"
    assert_nothing_hidden(phone, table)
    phone.screenshot(path="/tmp/leopard-phone.png", full_page=True)
    assert phone.script_errors == []
    phone.context.close()


# -- the tests ------------------------------------------------------------------------------


def test_start_a_match_and_play_a_deal_to_a_declared_end(open_page, user):
    for name in NAMES:
        Player.objects.create(name=name)
    page = open_page(**LAPTOP)
    page.goto("/tables/new/leopard/")
    page.wait_for_url("**/accounts/login/**")
    sign_in(page)
    page.wait_for_url("**/tables/new/leopard/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("heading", name="New table: Leopard", exact=True).is_visible()
    for seat, name in enumerate(NAMES, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label=name)
    page.get_by_label("an agreed number of deals").check()
    page.get_by_label("Deals", exact=True).fill(str(DEALS))
    page.get_by_role("button", name="Seat them and deal").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))

    table = Table.objects.get()
    assert (table.game, table.created_by) == ("leopard", user)
    assert table.options == {"deals": DEALS, "target": None}
    assert page.url.endswith(table.get_absolute_url())
    assert f"match 1, deal 1 of {DEALS}" in text(page.locator("h1"))
    assert_handoff(page, table)

    # The moves that reach an end; all but the last PAGE_TURNS through the services.
    moves = plan_to_end(state_of(table))
    on_page = moves[-PAGE_TURNS:]
    off_the_loop(play_turns, table, user, moves[: len(moves) - len(on_page)])
    page.reload()
    shot_at = max((i for i, move in enumerate(on_page) if "lay" in move), default=len(on_page) - 1)

    for turn, move in enumerate(on_page):
        may_end = reveal_and_draw(page, table)
        assert not may_end, "the end came sooner than planned"
        assert steer(state_of(table)) == move
        if turn == shot_at:
            code = move.get("lay") or move["discard"]
            choose(page, table, code)
            screenshots(open_page, page, table, code)
        make_move(page, table, move)

    # Now the player to act has five points or more: he ends the deal.
    assert reveal_and_draw(page, table), "the planned end did not come"
    state = state_of(table)
    ender = state.to_act
    sums = state.sums()
    assert sums[ender] >= END_AT
    click_and_wait(page, end_button(page))

    deal = Deal.objects.get(table=table)
    assert deal.is_over and deal.version == version(page)
    expected = [sums[0], sums[1]]
    expected[ender] = sums[ender] + (sums[ender] - END_AT) - 1
    assert deal.result == {"sums": sums, "ender": ender, "scores": expected}
    assert page.get_by_role("heading", name="The deal is over", exact=True).is_visible()
    assert text(page.locator(".verdict")) == (
        f"{NAMES[ender]} ended the deal: points above five count double, and ending costs one."
    )
    rows = page.locator("table.result tbody tr")
    assert rows.count() == 2
    for seat, name in enumerate(NAMES):
        assert rows.nth(seat).locator("th").inner_text() == name
        assert rows.nth(seat).locator("td").all_inner_texts() == [
            str(sums[seat]),
            str(expected[seat]),
        ]
    assert_nothing_hidden(page, table)
    assert_board(page, table)
    assert text(page.locator(".log li").first) == f"{NAMES[ender]} ended the deal"

    sheet = page.locator("table.scores.match")
    assert sheet.locator("thead th").all_inner_texts()[1:3] == list(NAMES)
    new = sheet.locator("tbody tr.new")
    assert new.count() == 1
    cells = new.locator("td")
    assert [int(cell.rstrip("*")) for cell in cells.all_inner_texts()[:2]] == (
        deal.result["scores"]
    )
    assert cells.nth(ender).locator("abbr.bonus").count() == 1
    assert cells.nth(1 - ender).locator("abbr.bonus").count() == 0
    assert sheet.locator("tfoot td").all_inner_texts()[:2] == [str(s) for s in expected]
    assert page.get_by_role("button", name="Next deal", exact=True).is_visible()

    link = page.get_by_role("link", name="Download the deal's record")
    assert link.get_attribute("download") is not None
    record = page.request.get(link.get_attribute("href"))
    assert record.ok
    actions = record.json()["actions"]
    # the log holds each draw as a step of its own; the record joins it to the move after it
    logged = [e.data for e in deal.events.filter(kind=DealEvent.Kind.ACTION)]
    assert actions == [a for a in logged if "draw" not in a]
    assert len(logged) - len(actions) == len(moves)  # a draw before every lay or discard
    assert len(actions) == len(moves) + 1 and actions[-1] == {"seat": ender, "end": True}
    assert page.script_errors == []


def test_the_stock_and_the_discard_pile(open_page, user):
    """The piles' counts follow the engine turn by turn; a discard lies on top of the pile.
    The opening leaves a card face down and one on top of another: the squares show a back
    and "+N" (assert_board checks every place against the engine)."""
    table = off_the_loop(seeded_table, user, turns=8)
    page = open_page(**LAPTOP)
    open_table(page, table)
    assert_handoff(page, table)
    assert page.locator(".leopard-board .card.back").count() >= 1
    assert page.locator(".leopard-board .under").count() >= 1
    stock = len(state_of(table).stock)

    discarded = []
    for turn in range(3):
        assert not reveal_and_draw(page, table)
        state = state_of(table)
        seat = state.to_act
        if turn == 0:  # the card just drawn
            move = {"discard": CODES[state.hands[seat][-1]]}
        elif turn == 1:  # a lay, if there is one: the stock shrinks, the discard pile not
            move = steer(state)
        else:  # a card of the hand
            move = {"discard": CODES[state.hands[seat][0]]}
        make_move(page, table, move)
        stock -= 1
        if "discard" in move:
            discarded.append(move["discard"])
        after = state_of(table)
        assert (len(after.stock), [CODES[c] for c in after.discards]) == (stock, discarded)
        assert_handoff(page, table)  # the piles, as assert_board checks them
        if "discard" in move:
            top = page.locator(".piles span")
            assert top.inner_text() == english_text(move["discard"])
    assert page.script_errors == []
