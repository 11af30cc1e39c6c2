"""Every turn of every game with the keyboard alone, and the hotseat page played fast without
an htmx error, in a real browser: Debian's chromium and Playwright.

- After the hand-off screen's reveal the focus is on the first card the player may play (or
  the first control of his turn: Pass, the first contract he may call, Draw, the first place
  the chosen card may go), so that most turns are Enter, Enter; Tab, Shift+Tab, Enter and
  Space reach and press everything else; the chosen card says so (aria-pressed).
- The announcement region never errors: a second click while a move is on its way is dropped
  (hx-sync on the table), and a click while the page fetches itself (live.js) wins over that
  fetch. Before, the later answer came for a table already replaced, and htmx reported
  ``htmx:oobErrorNoTarget`` for ``#announce`` (every 40 to 80 actions of fast play).

The browser, the live server's tabs and the helpers come from tests/support/browser.py.
"""

import json
import re
import time

import pytest

from games import selectors, services
from tests.support import browser
from tests.support.browser import current_deal, is_over, off_the_loop, open_table
from tests.support.leopard import plan_to_end, play_turns

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

NAMES = ("Anna", "Boris", "Vera", "Gleb")
# htmx's error events: any of them is a failure of the page
HTMX_ERRORS = (
    "htmx:oobErrorNoTarget",
    "htmx:targetError",
    "htmx:swapError",
    "htmx:responseError",
    "htmx:sendError",
    "htmx:onLoadError",
    "htmx:sendAbort",
    "htmx:timeout",
    "htmx:historyCacheError",
)


def watch_errors(page) -> list[str]:
    """The page's console errors, uncaught script errors and htmx error events, as they come.
    (The page is never reloaded by these tests' moves: htmx swaps the table.)"""
    errors = []
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"script: {e}"))
    page.add_init_script(f"""for (const name of {json.dumps(HTMX_ERRORS)}) {{
        document.addEventListener(name, (e) => console.error(name + " " + (e.detail.target || "")));
    }}""")
    return errors


# What the screen shows, read in one go: what has the focus (its name, value, label, whether
# the focus ring shows), the control a turn should focus (the first playable card, else Pass,
# Stop, End the turn), the kind of screen, and an error if any.
SCREEN = """() => {
    const t = document.getElementById("table"), e = document.activeElement;
    const first = t.querySelector(".hand button.card.playable")
        || t.querySelector("button[name=pass]");
    const pass = t.querySelector("button[name=pass]"), error = t.querySelector(".error");
    return {
        focus: {name: e.getAttribute("name"), value: e.getAttribute("value"), cls: e.className,
                label: e.getAttribute("aria-label") || e.textContent.trim().replace(/\\s+/g, " "),
                pressed: e.getAttribute("aria-pressed"), ring: e.matches(":focus-visible")},
        first: first && {name: first.getAttribute("name"), value: first.getAttribute("value")},
        handoff: !!t.querySelector("h2.handoff"), over: !!t.querySelector(".deal-over"),
        pass: pass && pass.textContent.trim(), error: error && error.textContent.trim(),
    };
}"""
# a promise of the next table htmx swaps in and settles
NEXT_TABLE = """() => { window.nextTable = new Promise((resolve) => {
    document.addEventListener("htmx:afterSettle", function seen(e) {
        if (e.target.id !== "table") return;
        document.removeEventListener("htmx:afterSettle", seen);
        resolve();
    });
}); }"""


def screen(page) -> dict:
    return page.evaluate(SCREEN)


def focused(page) -> dict:
    return screen(page)["focus"]


def press(page, key: str) -> dict:
    """Press a key that swaps in a new table; the screen once htmx has settled it."""
    page.evaluate(NEXT_TABLE)
    page.keyboard.press(key)
    shown = page.evaluate(f"async () => {{ await window.nextTable; return ({SCREEN})(); }}")
    assert shown["error"] is None, shown["error"]
    return shown


def tab_to(page, selector: str, key: str = "Tab", limit: int = 60) -> None:
    """Tab (or Shift+Tab) until the focus is on ``selector``; fail if it never gets there."""
    for _ in range(limit):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press(key)
    pytest.fail(f"{key} never reached {selector}")


def on_first_control(shown: dict) -> bool:
    first = shown["first"]
    return first is not None and (shown["focus"]["name"], shown["focus"]["value"]) == (
        first["name"],
        first["value"],
    )


def reveal_by_keyboard(page) -> dict:
    """On a hand-off screen its heading has the focus, so that a second Enter meant for the
    last move shows nothing: Enter there does nothing, Tab reaches the button and Enter shows
    the hand. Returns the screen then."""
    assert focused(page)["label"].startswith("Pass the screen to "), focused(page)
    page.keyboard.press("Enter")
    page.wait_for_timeout(150)  # time enough for a request to go out, if one did
    assert screen(page)["handoff"], "Enter on the hand-off screen's heading showed the hand"
    page.keyboard.press("Tab")
    assert focused(page)["label"].startswith("I am "), focused(page)
    return press(page, "Enter")


def luminance(css: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", css)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ring_contrast(page) -> float:
    """The focused control's outline against the background of the nearest box that has one
    (the green board, the white panel)."""
    outline, width, background = page.evaluate("""() => {
        const e = document.activeElement, style = getComputedStyle(e);
        // (a see-through background, such as a scoring place's tint, counts as what is under it)
        let box = e.parentElement, bg = "rgba(0, 0, 0, 0)";
        while (box && (bg = getComputedStyle(box).backgroundColor).startsWith("rgba(")) {
            box = box.parentElement;
        }
        return [style.outlineColor, parseFloat(style.outlineWidth), bg];
    }""")
    assert width >= 2, f"a {width}px focus ring"
    return contrast(outline, background)


# -- the keyboard alone ---------------------------------------------------------------------

CONTROLS = "#table .turn form:not(.take-back) button"  # a Фантан turn's cards and Pass


def test_a_whole_deal_of_fantan_by_the_keyboard_alone(open_page, user):
    """Every kind of Фантан turn (cards to lay, nothing to lay, the card more after an ace):
    after each reveal the focus is on the first card to lay, or Pass; Tab reaches the others,
    Enter and Space press them. At the end the result has the focus, and Tab and Enter start
    the next deal."""
    table = off_the_loop(
        services.start_table,
        user=user,
        game="fantan",
        players=list(NAMES),
        options={"ace_extra": True},
        seed=7,
    )
    page = open_page()
    errors = watch_errors(page)
    open_table(page, table)
    shown, kinds = screen(page), set()
    for step in range(400):
        if shown["over"]:
            break
        if shown["handoff"]:
            shown = reveal_by_keyboard(page)
            assert shown["focus"]["ring"], "the focus ring does not show after the reveal"
        # the first control has the focus: after the reveal, and after a card more
        assert on_first_control(shown), shown
        kinds.add({None: "cards", "Pass": "pass"}.get(shown["pass"], "extra"))
        if step % 4 == 0 and page.locator(CONTROLS).count() > 1:
            page.keyboard.press("Tab")  # now and then the next card, or Pass
            assert page.evaluate("s => document.activeElement.matches(s)", CONTROLS)
        shown = press(page, "Space" if step % 2 else "Enter")
    else:
        pytest.fail("the deal did not end")
    assert kinds == {"cards", "pass", "extra"}, f"turns met: {kinds}"
    assert "deal-over" in shown["focus"]["cls"]  # the result has the focus
    tab_to(page, "#table button.primary.big")
    assert press(page, "Enter")["focus"]["label"].startswith("Pass the screen to "), (
        "the next deal's hand-off"
    )
    assert selectors.current_deal(table).number == 2
    assert errors == []


def test_the_auction_with_an_announcement_and_tricks_of_variety_by_the_keyboard_alone(
    open_page, user
):
    """Выборы: the first contract one may call has the focus; Shift+Tab reaches the
    announcement, Tab a contract further on, Space calls it; in the play the first card one
    may play has the focus."""
    table = off_the_loop(
        services.start_table, user=user, game="variety", players=list(NAMES), options={}, seed=3
    )
    page = open_page()
    errors = watch_errors(page)
    open_table(page, table)
    first = selectors.names(table)[selectors.load(current_deal(table)).state.to_act]
    shown = reveal_by_keyboard(page)["focus"]
    assert (shown["name"], shown["value"]) == ("call", "1")
    tab_to(page, "#id_say", key="Shift+Tab")
    page.keyboard.type("Long hearts")
    page.keyboard.press("Tab")
    assert focused(page)["value"] == "1"
    page.keyboard.press("Tab")
    assert focused(page)["value"] == "2"
    press(page, "Space")
    entry = page.locator(".auction .calls-log li").last
    assert " ".join(entry.inner_text().split()) == f"{first}: 2 — «Long hearts»"
    # the next two call 1 (the first each may call): named twice, contract 1 is played
    for _ in range(2):
        shown = reveal_by_keyboard(page)["focus"]
        assert (shown["name"], shown["value"]) == ("call", "1")
        shown = press(page, "Enter")
    assert selectors.load(current_deal(table)).state.contract == 1
    for _ in range(8):  # two tricks: Enter on the hand-off button, and on the focused card
        if shown["handoff"]:
            shown = reveal_by_keyboard(page)
        assert on_first_control(shown) and shown["first"]["name"] == "card", shown
        assert shown["focus"]["ring"]
        shown = press(page, "Enter")
    assert len(selectors.load(current_deal(table)).state.last_trick) == 4
    assert errors == []


def test_leopard_draw_choose_lay_discard_and_end_by_the_keyboard_alone(open_page, user):
    """Леопард: the focus goes to Draw, then to the first card of the nine; Space chooses a
    card (aria-pressed), the focus goes to the first place it may go (its ring white on the
    green board), Enter lays it; Tab reaches Discard; Tab reaches "End the deal now"."""
    table = off_the_loop(
        services.start_table,
        user=user,
        game="leopard",
        players=list(NAMES[:2]),
        options={},
        seed=11,
    )
    page = open_page()
    errors = watch_errors(page)
    open_table(page, table)
    for turn in range(2):
        assert reveal_by_keyboard(page)["focus"]["name"] == "draw"
        shown = press(page, "Enter")["focus"]  # draw
        assert shown["name"] == "card" and shown["pressed"] == "false"
        if turn == 0:
            tab_to(page, "#table .hand button.drawn")
        code = focused(page)["value"]
        shown = press(page, "Space")["focus"]  # choose it
        pressed = page.locator("#table .hand button.card").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-pressed'))"
        )
        assert sorted(pressed) == ["false"] * (len(pressed) - 1) + ["true"]
        assert (
            page.locator('#table .hand button[aria-pressed="true"]').get_attribute("value") == code
        )
        if turn == 0 and page.locator("#table button.target").count():
            assert "target" in shown["cls"] and shown["ring"]
            assert ring_contrast(page) >= 3, "the focus ring on the board"
            press(page, "Enter")  # lay
            assert " laid " in page.locator(".log li").first.inner_text()
        else:
            tab_to(page, "#table button[name=discard]")
            assert ring_contrast(page) >= 3, "the focus ring in the panel"
            press(page, "Enter")
            assert " discarded " in page.locator(".log li").first.inner_text()
    # on to a turn where the player may end the deal (played through the services)
    state = selectors.load(current_deal(table)).state
    off_the_loop(play_turns, table, user, plan_to_end(state))
    page.reload()
    reveal_by_keyboard(page)
    tab_to(page, "#table button[name=end]")
    shown = press(page, "Enter")
    assert shown["over"] and "deal-over" in shown["focus"]["cls"]
    assert errors == []


# -- played fast: no htmx error ---------------------------------------------------------------

DRIVE = """async ({steps}) => {
    // Play the deal on the page as fast as htmx answers: each step clicks the control to
    // press and, in the same tick, another control of another form of the same table (a
    // double click, a slip); then waits for the new table. Returns what went wrong.
    const table = () => document.getElementById("table");
    const stamp = () => table().dataset.stamp.split(" ").map(Number);
    const pick = (t) => {
        const q = (s) => t.querySelector(s);
        return q("form[action$='/reveal'] button") || q("button[name=end]")
            || q("button.target") || q("button[name=discard]") || q("button[name=draw]")
            || q("button.call:not([disabled])") || q("button.card.playable")
            || q("button[name=pass]");
    };
    const problems = [];
    let done = 0;
    for (; done < steps; done++) {
        const t = table(), button = pick(t);
        if (!button) break;  // the deal is over
        const other = [...t.querySelectorAll("button:not([disabled])")]
            .filter((b) => b.form !== button.form).pop();
        const before = stamp(), writes = button.form.method === "post";
        const settled = new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error("no answer after 10 s")), 10000);
            document.addEventListener("htmx:afterSettle", function seen(e) {
                if (e.target.id !== "table") return;
                document.removeEventListener("htmx:afterSettle", seen);
                clearTimeout(timer);
                resolve();
            });
        });
        button.click();
        if (other) other.click();
        await settled;
        const after = stamp(), expected = before[1] + (writes ? 1 : 0);
        if (after[0] !== before[0] || after[1] !== expected) {
            problems.push(`step ${done}: ${before} then ${after}, expected ${expected}`);
        }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));  // an answer still on its way
    return {done, problems};
}"""


def test_a_whole_deal_of_each_game_played_fast_with_double_clicks_raises_no_htmx_error(
    open_page, user
):
    """A whole deal of each game clicked as fast as the answers come, each click doubled on
    another form: the second click is dropped (one version a move), and no htmx error, no
    console error (a 409 of a second move would be one). The three tables are played at
    once, a tab each."""
    tables, tabs = {}, {}
    for game, seats in (("fantan", 4), ("variety", 4), ("leopard", 2)):
        tables[game] = off_the_loop(
            services.start_table,
            user=user,
            game=game,
            players=list(NAMES[:seats]),
            options={},
            seed=5,
        )
        tabs[game] = open_page()
        tabs[game].errors = watch_errors(tabs[game])
        open_table(tabs[game], tables[game])
    for tab in tabs.values():  # all three start...
        tab.evaluate(f"() => {{ window.drive = ({DRIVE})({{steps: 800}}); }}")
    for game, tab in tabs.items():  # ...and are played to the end
        result = tab.evaluate("() => window.drive")
        assert result["problems"] == [], game
        assert is_over(tab), f"the {game} deal is not over after {result['done']} steps"
        assert selectors.load(current_deal(tables[game])).state.is_over()
        assert tab.errors == [], game


def test_a_click_while_the_page_fetches_itself_wins_over_the_fetch(open_page, user):
    """live.js fetches the page when its socket announces a newer version; a click on the
    page while that fetch is on its way is answered with the newer table, and the fetch's
    answer, had it come first, is not swapped over it (the click's answer would have landed
    on a table no longer there: htmx:oobErrorNoTarget, and the page stuck a version behind)."""
    table = off_the_loop(browser.new_table, user)
    off_the_loop(browser.show_hand, table, user)
    page = open_page()
    errors = watch_errors(page)
    sockets = []
    page.route_web_socket(re.compile(r"/ws/"), lambda ws: sockets.append(ws))  # the test's
    fetches = []

    def slow_fetch(route):  # the page's fetch of itself: answered after 0.3 s
        fetches.append(route.request.url)
        time.sleep(0.3)
        route.continue_()

    def slower_move(route):  # the click's move: answered after the fetch's
        time.sleep(0.6)
        route.continue_()

    page.route(
        lambda url: url.endswith(table.get_absolute_url()),
        lambda route: (
            slow_fetch(route) if route.request.headers.get("hx-request") else route.continue_()
        ),
    )
    page.route(re.compile(r"/act$"), slower_move)
    open_table(page, table)
    for _ in range(50):
        if sockets:
            break
        page.wait_for_timeout(20)
    assert sockets, "the page opened no socket"
    deal = current_deal(table)
    # when the fetch starts, a card (or Pass) is clicked
    page.evaluate("""() => document.addEventListener("htmx:beforeRequest", (e) => {
        if (e.detail.elt === document.body) {
            setTimeout(() => document.querySelector(
                "#table .hand button.card.playable, #table button[name=pass]").click(), 0);
        }
    }, {once: true})""")
    sockets[0].send(json.dumps({"stamp": [deal.number, deal.version + 1]}))
    page.locator(f'#table[data-stamp="{deal.number} {deal.version + 1}"]').wait_for()
    page.wait_for_timeout(700)  # every answer has come
    assert len(fetches) == 1
    assert page.locator(f'#table[data-stamp="{deal.number} {deal.version + 1}"]').count() == 1
    name = selectors.names(table)[selectors.load(deal).state.to_act]
    assert page.locator(".log li").first.inner_text().startswith(f"{name} ")  # the click's move
    assert errors == []
