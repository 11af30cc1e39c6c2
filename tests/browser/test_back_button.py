"""The browser's Back button after leaving a table page.

A table page and its htmx partial share one address (the live page fetches itself with
htmx). Without ``Vary: HX-Request`` the browser's cache keeps the partial under the page's
address, and Back showed it as a bare page without the site's header and stylesheet.
"""

import pytest
from django.test import Client

from tests.support.browser import (
    lay_first_card_or_pass,
    new_table,
    off_the_loop,
    open_table,
    show_hand,
)


@pytest.mark.django_db
def test_every_answer_varies_on_the_htmx_header(user):
    table = new_table(user)
    client = Client()
    client.force_login(user)
    for headers in ({}, {"HX-Request": "true"}):
        for url in (table.get_absolute_url(), "/"):
            response = client.get(url, headers=headers)
            assert response.status_code == 200
            assert b"{#" not in response.content  # (a template comment is one line)
            vary = [v.strip().lower() for v in response.get("Vary", "").split(",")]
            assert "hx-request" in vary, (url, headers, response.get("Vary"))


@pytest.mark.browser
@pytest.mark.usefixtures("transactional_db")
def test_back_to_a_table_after_a_swap_shows_the_whole_page(open_page, user):
    table = new_table(user)
    off_the_loop(show_hand, table, user)
    page = open_page()
    open_table(page, table)
    # a move: an htmx POST that swaps the table
    lay_first_card_or_pass(page)
    # the live page fetching itself, as it does when its socket announces a change
    page.evaluate("""() => new Promise(done => {
        document.addEventListener("htmx:afterSettle", () => done(), {once: true});
        htmx.ajax("GET", location.href,
                  {target: "#table", swap: "outerHTML", select: "[data-live]"});
    })""")
    page.goto("/tournaments/")
    page.wait_for_load_state()
    page.go_back()
    page.wait_for_load_state()
    assert page.url.endswith(table.get_absolute_url())
    assert page.locator("header.site").count() == 1, page.content()[:500]
    assert page.locator('link[rel=stylesheet][href*="app"]').count() == 1
    assert page.locator("#table").count() == 1
