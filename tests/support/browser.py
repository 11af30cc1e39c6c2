"""Chromium driven by Playwright for the browser tests: the browser (one a test module)
and the live server's tabs, which tests/conftest.py offers as fixtures, and the helpers that
play a hotseat table through its page.

Without /usr/bin/chromium the browser tests are skipped, except on CI (CI=true), where a
missing browser is a failure.
"""

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connections
from django.utils import translation

from games import selectors, services
from games.models import Table
from games.templatetags.cards import card_name, card_text
from tests.support.hotseat import leaked_cards, scrub
from tests.support.phone_screen import HEIGHT, PHONE, WIDTH
from tests.support.servers import Member

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "pw-for-tests-only"


def require_chromium() -> None:
    """Called from the test body, so that CI reports a failure rather than a setup error."""
    if Path(CHROMIUM).exists():
        return
    message = (
        f"{CHROMIUM} is missing: the browser tests need Debian's chromium "
        "(apt-get install chromium)"
    )
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


class Chromium:
    """One browser for the module, launched on first use."""

    def __init__(self):
        self.playwright = None
        self.browser = None

    def get(self):
        require_chromium()
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
        return self.browser

    def close(self):
        if self.browser is not None:
            self.browser.close()
        if self.playwright is not None:
            self.playwright.stop()


@pytest.fixture(scope="module")
def chromium():
    browser = Chromium()
    yield browser
    browser.close()


@pytest.fixture
def open_page(chromium, live_server, transactional_db):
    """open_page(**context_options): a fresh English-speaking browser tab on the live server.

    Uncaught script errors of the tab are collected in ``page.script_errors``.
    """
    contexts = []

    def open_page(**options):
        context = chromium.get().new_context(locale="en-US", base_url=live_server.url, **options)
        contexts.append(context)
        context.set_default_timeout(10_000)
        page = context.new_page()
        # (Asking for transactional_db: the tabs are closed before the database is emptied.)
        # The live server speaks WSGI only: answer the table's websocket here, silently,
        # instead of letting the page retry a failing connection every three seconds.
        page.route_web_socket(re.compile(r"/ws/"), lambda ws: None)
        page.script_errors = []
        page.on("pageerror", lambda error: page.script_errors.append(str(error)))
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def tab(chromium):
    """tab(server, user=None, phone=False): a fresh English-speaking browser context's tab
    on a served process (tests/support/servers.py), signed in as ``user`` (his session
    cookie) or a visitor; a phone's at 390×844."""
    contexts = []

    def tab(server, user=None, phone=False):
        size = dict(viewport={"width": WIDTH, "height": HEIGHT}, **PHONE) if phone else {}
        context = chromium.get().new_context(locale="en-US", base_url=server.url, **size)
        contexts.append(context)
        context.set_default_timeout(10_000)
        if user is not None:
            context.add_cookies(
                [
                    {"name": name, "value": value, "url": server.url}
                    for name, value in Member(user).cookies.items()
                ]
            )
        page = context.new_page()
        page.script_errors = []
        page.on("pageerror", lambda error: page.script_errors.append(str(error)))
        return page

    yield tab
    for context in contexts:
        context.close()


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("host", password=PASSWORD)


def sign_in(page, username="host", password=PASSWORD):
    page.get_by_label("User name").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in", exact=True).click()


def open_table(page, table):
    page.goto("/accounts/login/?next=" + table.get_absolute_url())
    sign_in(page)
    page.wait_for_url(f"**{table.get_absolute_url()}")
    assert page.locator("html").get_attribute("lang") == "en"


def version(page) -> int:
    """The version of the deal the page shows (its live stamp: "deal version")."""
    return int(page.locator("#table").get_attribute("data-stamp").split()[1])


def wait_for_version(page, number: int) -> None:
    """Wait for the table showing version ``number`` of its deal: its stamp is "deal
    version", followed by the table's own version once it has one."""
    page.locator(f'#table[data-stamp$=" {number}"], #table[data-stamp*=" {number} "]').wait_for()


def click_and_wait(page, locator):
    """Click something that writes one event, and wait for htmx to swap in the new table."""
    before = version(page)
    locator.click()
    wait_for_version(page, before + 1)
    assert page.locator("#table .error").count() == 0, page.locator("#table .error").inner_text()


def click_and_swap(page, locator):
    """Click something that swaps in a new table without writing an event (an htmx GET, such
    as choosing a card), and wait for the new table (or its regions that changed): until
    the answer has settled."""
    page.evaluate(
        """() => {
            window.tableSettled = false;
            document.addEventListener("htmx:afterSettle", function settled(event) {
                if (event.target.id !== "table") return;
                document.removeEventListener("htmx:afterSettle", settled);
                window.tableSettled = true;
            });
        }"""
    )
    locator.click()
    page.wait_for_function("() => window.tableSettled")
    assert page.locator("#table .error").count() == 0, page.locator("#table .error").inner_text()


def current_deal(table):
    deal = selectors.current_deal(table)
    deal.table = table
    return deal


def english_names(codes) -> list[str]:
    with translation.override("en"):
        return sorted(card_name(code) for code in codes)


def english_text(code) -> str:
    with translation.override("en"):
        return card_text(code)


def labels(locator) -> list[str]:
    return sorted(locator.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"))


def is_handoff(page) -> bool:
    return page.locator("h2.handoff").count() > 0


def is_over(page) -> bool:
    return page.get_by_role("heading", name="The deal is over").count() > 0


def reveal_button(page, name):
    return page.get_by_role("button", name=f"I am {name}: show my hand", exact=True)


def cards_in_hands(state, but=None) -> list[str]:
    """The cards in the seats' hands (but that of seat ``but``), for any game's engine."""
    return [
        code for seat in range(len(state.hands)) if seat != but for code in state.view(seat)["hand"]
    ]


def assert_no_hand_shown(page, table):
    """A hand-off screen: no hand, no card button, no card of any hand anywhere on the page."""
    assert page.locator(".hand").count() == 0
    assert page.locator("button[name=card]").count() == 0
    assert page.locator(".card.playable, .card.dim").count() == 0
    state = selectors.load(current_deal(table)).state
    assert leaked_cards(scrub(page.content(), table), cards_in_hands(state)) == []


def assert_turn_of(page, table, name):
    """The hand shown is that of the player to act, and only his."""
    state = selectors.load(current_deal(table)).state
    players = selectors.names(table)
    assert players[state.to_act] == name
    page.get_by_role("heading", name=f"{name}, your turn", exact=True).wait_for()
    assert page.locator(".seat[aria-current=true] .name").inner_text() == name
    view = state.view(state.to_act)
    assert labels(page.locator(".hand .card")) == english_names(view["hand"])
    assert labels(page.locator("button.card.playable")) == english_names(view["playable"])
    others = cards_in_hands(state, but=state.to_act)
    assert leaked_cards(scrub(page.content(), table), others) == []


def reveal(page, table) -> str:
    """On a hand-off screen: check that nothing is shown, then show the hand of the seat to
    act. Returns that player's name."""
    state = selectors.load(current_deal(table)).state
    name = selectors.names(table)[state.to_act]
    page.get_by_role("heading", name=f"Pass the screen to {name}", exact=True).wait_for()
    assert_no_hand_shown(page, table)
    click_and_wait(page, reveal_button(page, name))
    assert_turn_of(page, table, name)
    return name


def lay_first_card_or_pass(page) -> tuple[str, str] | None:
    """Click the first playable card (by its spoken name), or Pass/Stop if there is none.
    Returns the card's (name, code), or None for a pass."""
    cards = page.locator("button.card.playable")
    if cards.count():
        label = cards.first.get_attribute("aria-label")
        code = cards.first.get_attribute("value")
        click_and_wait(page, page.get_by_role("button", name=label, exact=True))
        return label, code
    click_and_wait(page, page.get_by_role("button", name=re.compile(r"^(Pass|Stop|End the turn)$")))
    return None


def new_table(user, names=("Anna", "Boris", "Vera", "Gleb"), seed=7) -> Table:
    return services.start_table(
        user=user, game="fantan", players=list(names), options={}, seed=seed
    )


def off_the_loop(function, *args, **kwargs):
    """Call ``function`` in another thread. The services tell the table's listeners through
    async_to_sync, which refuses to run in a thread with a running event loop, and
    Playwright's sync API keeps one running in this thread."""

    def run():
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def show_hand(table, user):
    """The seat to act has his hand shown; the deal and that seat."""
    deal = current_deal(table)
    seat = selectors.load(deal).state.to_act
    return services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=user), seat


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")
