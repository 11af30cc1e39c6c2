"""The tab's title follows the page: after the next deal is dealt on a seat's own page or at
the shared screen, the title names the deal the page shows (and, on a seat's page, marks
its player's turn), as the page loaded afresh would."""

import pytest

from games import selectors, services
from games.models import Seat
from tests.support.browser import current_deal, off_the_loop, open_table
from tests.support.hotseat import act

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]


def deal_played_out(user, devices):
    table = services.start_table(
        user=user,
        game="fantan",
        players=["Anna", "Boris", "Vera", "Gleb"],
        options={},
        seed=7,
        devices=devices,
    )
    table = selectors.table_by_token(table.token)
    while not current_deal(table).is_over:
        act(table, user=user)
    return table


def next_deal(page):
    page.locator("#table").get_by_role("button", name="Next deal").click()
    page.locator("#table[data-stamp^='2 ']").wait_for(state="attached")


def test_a_seats_page_title_names_the_deal_it_shows_after_the_next_deal(open_page, user):
    table = off_the_loop(deal_played_out, user, {0, 1, 2, 3})
    page = open_page()
    page.goto(Seat.objects.get(table=table, position=0).get_absolute_url())
    assert page.title().endswith("deal 1")
    next_deal(page)
    assert page.title().endswith("deal 2"), page.title()
    mine = selectors.load(current_deal(table)).state.to_act == 0
    assert page.title().startswith("● ") == mine
    fresh = open_page()
    fresh.goto(page.url)
    assert fresh.title() == page.title()


def test_the_shared_screens_title_names_the_deal_it_shows_after_the_next_deal(open_page, user):
    table = off_the_loop(deal_played_out, user, set())
    page = open_page()
    open_table(page, table)
    assert page.title().endswith("deal 1")
    next_deal(page)
    assert page.title().endswith("deal 2"), page.title()
    assert not page.title().startswith("●")
