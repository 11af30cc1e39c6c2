"""A move swaps in only the regions of the table that changed, and leaves the page the table
rendered afresh would be: region by region the same text, and no card of a hand not shown
anywhere in it; at the shared screen (the moves' answers) and on the spectators' page (its
fetches of itself), in both languages."""

import re

import pytest

from games import regions, selectors
from tests.support.browser import (
    cards_in_hands,
    click_and_swap,
    click_and_wait,
    current_deal,
    version,
    wait_for_version,
)
from tests.support.hotseat import hidden_codes, leaked_cards, scrub
from tests.support.servers import Member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOVES = 14  # clicks a game: reveals, turns, a take-back, a card chosen (Леопард)
REGION = re.compile(r'id="region-([a-z]+)" data-digest="([0-9a-f]{16})"')
# each region of the table: its digest and its text (spaces collapsed)
REGIONS = """() => Object.fromEntries([...document.querySelectorAll("#table [data-digest]")]
    .map((r) => [r.id, [r.dataset.digest, r.textContent.replace(/\\s+/g, " ").trim()]]))"""
FOLLOW = """() => new Promise((done) => {
    document.addEventListener("htmx:afterSettle", function settled(event) {
        if (event.target.id !== "table") return;
        document.removeEventListener("htmx:afterSettle", settled);
        done();
    });
    htmx.ajax("GET", location.href, {target: "#table", swap: "outerHTML", select: "[data-live]"});
})"""


def tab(open_page, live_server, language, user=None):
    page = open_page()
    cookies = [{"name": "django_language", "value": language, "url": live_server.url}]
    if user is not None:
        member = Member(user)
        cookies += [
            {"name": name, "value": value, "url": live_server.url}
            for name, value in member.cookies.items()
        ]
    page.context.add_cookies(cookies)
    return page


def regions_of(page) -> dict:
    return page.evaluate(REGIONS)


def afresh(fresh, address: str) -> dict:
    """The table's regions on a page of the same viewer loaded anew."""
    fresh.goto(address)
    return regions_of(fresh)


def the_button(page, game: str):
    """What the player at the screen presses next: the reveal (now and then the take-back
    it offers), a card he may play or Pass; Леопард's draw, a card of his hand, then the
    first place marked for it (or Discard)."""
    for selector, choosing in (
        ("#table form[action$='/reveal'] button", False),
        ("#table button[name=draw]", False),
        ("#table button.target", False),
        ("#table button[name=discard]", False),
        ("#table form[method=get] button[name=card]", True),  # an htmx GET: nothing written
        ("#table button.card.playable", False),
        ("#table button[name=pass]", False),
    ):
        found = page.locator(selector)
        if found.count():
            return found.first, choosing
    return None, False


def assert_as_afresh(page, fresh, address: str, hidden: list[str], table) -> dict:
    now = regions_of(page)
    again = afresh(fresh, address)
    assert now.keys() == again.keys() and len(now) == len(regions.NAMES)
    for region, (digest, text) in again.items():
        assert now[region][1] == text, region
        assert now[region][0] == digest, region
    assert leaked_cards(scrub(page.content(), table), hidden) == []
    return now


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("game", ["fantan", "leopard"])
def test_a_move_swaps_in_only_what_changed_and_the_page_is_the_page_afresh(
    open_page, live_server, user, game, language
):
    from tests.support.live import new_table

    table = new_table(user, game, seed=5)
    address = table.get_absolute_url()
    watch = table.get_watch_url()
    page = tab(open_page, live_server, language, user)
    fresh = tab(open_page, live_server, language, user)
    spectator = tab(open_page, live_server, language)
    spectator_afresh = tab(open_page, live_server, language)
    page.goto(address)
    spectator.goto(watch)
    shown = regions_of(page)
    fewer = 0
    took_back = False
    for move in range(MOVES):
        offer = page.locator("#table form.take-back button")
        if not took_back and move > 4 and offer.count():
            button, choosing = offer, False
            took_back = True
        else:
            button, choosing = the_button(page, game)
        assert button is not None, "nothing to press"
        with page.expect_response(lambda r: r.request.headers.get("hx-request")) as answer:
            (click_and_swap if choosing else click_and_wait)(page, button)
        sent = dict(REGION.findall(answer.value.text()))
        # the page as the table rendered afresh shows it (with the card chosen, if one was
        # chosen: the address asked for), and its hand the only one in it
        deal = current_deal(table)
        asked = answer.value.request.url if choosing else address
        now = assert_as_afresh(page, fresh, asked, hidden_codes(table), table)
        # the answer carried exactly the regions that changed
        changed = {r[7:]: now[r][0] for r in now if now[r][0] != shown[r][0]}
        assert sent == changed
        fewer += len(sent) < len(now)
        shown = now
        # the spectators' page follows, as its socket would have it fetch itself
        spectator.evaluate(FOLLOW)
        state = selectors.load(deal).state
        assert_as_afresh(spectator, spectator_afresh, watch, cards_in_hands(state), table)
    assert fewer, "every answer carried every region"
    assert page.script_errors == [] and spectator.script_errors == []


# Each entry of the log the page shows, oldest first: its HTML, and whether it is the element
# the page showed before the move (marked then, by a property that is not in the HTML).
LOG = """() => [...document.querySelectorAll("#table .log li")].reverse()
    .map((li) => [li.outerHTML, li.shownBefore === true])"""
MARK_LOG = """() => document.querySelectorAll("#table .log li")
    .forEach((li) => { li.shownBefore = true; })"""


def test_a_move_adds_its_entries_to_the_log_shown_and_keeps_the_entries_unchanged(
    open_page, live_server, user
):
    """A move puts in the log only the entries it adds (and the one a take-back marks): the
    entries the page shows stay as they are, so a reader keeps his place in a long log and
    the browser lays out only what is new."""
    from tests.support.live import new_table

    table = new_table(user, "fantan", seed=5)
    page = tab(open_page, live_server, "en", user)
    page.goto(table.get_absolute_url())
    took_back = False
    grew = 0
    for move in range(MOVES):
        before = page.evaluate(LOG)
        page.evaluate(MARK_LOG)
        offer = page.locator("#table form.take-back button")
        if not took_back and move > 6 and offer.count():
            click_and_wait(page, offer)
            took_back = True
        else:
            button, _ = the_button(page, "fantan")
            click_and_wait(page, button)
        after = page.evaluate(LOG)
        assert len(after) >= len(before)
        for (html, _), (now, kept) in zip(before, after, strict=False):
            # an entry unchanged is the element shown before; one changed, a new element
            assert kept == (html == now), now
        assert not any(kept for _, kept in after[len(before) :])
        grew += len(after) > len(before) and len(before) > 0
    assert took_back and grew, "no move added to a log already shown"
    assert page.script_errors == []


# As the answer to the reveal settles (its request not yet over), the first card offered (or
# Pass) is pressed at once.
PRESS_AS_IT_SETTLES = """() => document.addEventListener("htmx:afterSettle", () => {
    const offered = document.querySelector(
        "#table button.card.playable, #table button[name=pass]");
    window.pressed = offered !== null;
    if (offered) offered.click();
}, {once: true})"""


def test_a_card_pressed_the_moment_the_hand_is_shown_is_played_not_dropped(
    open_page, live_server, user
):
    """The answer to a move is on the screen before its request has quite ended: a card
    pressed in that moment is sent once it has, not dropped as a second click would be."""
    from tests.support.live import new_table

    table = new_table(user, "fantan", seed=5)
    page = tab(open_page, live_server, "en", user)
    page.goto(table.get_absolute_url())
    before = version(page)
    page.evaluate(PRESS_AS_IT_SETTLES)
    page.locator("#table form[action$='/reveal'] button").click()
    wait_for_version(page, before + 2)
    assert page.evaluate("window.pressed")
    assert page.locator("#table .error").count() == 0
    assert page.script_errors == []
