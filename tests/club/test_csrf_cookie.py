"""The CSRF cookie: the pages set and renew it; a move's htmx answer leaves it as the browser
sent it (config/csrf.py), and the moves still pass Django's CSRF check with it."""

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.middleware.csrf import CsrfViewMiddleware, rotate_token
from django.test import Client
from django_htmx.middleware import HtmxMiddleware

from config.csrf import CsrfCookieOnPagesMiddleware
from games import selectors
from tests.support.hotseat import HTMX, alert, stamp, url

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]
COOKIE = settings.CSRF_COOKIE_NAME


@pytest.fixture
def checked_client(host):
    client = Client(enforce_csrf_checks=True)
    client.force_login(host)
    return client


def reveal(client, table, token):
    deal = selectors.current_deal(table)
    fields = stamp(deal, seat=selectors.load(deal).state.to_act, csrfmiddlewaretoken=token)
    return client.post(url(table, "reveal"), fields, **HTMX)


def test_a_moves_answer_keeps_the_cookie_the_page_set(checked_client, fantan_table):
    page = checked_client.get(url(fantan_table))
    assert COOKIE in page.cookies  # the page sets it, and renews it at every visit
    token = page.context["csrf_token"]
    answer = reveal(checked_client, fantan_table, token)
    assert answer.status_code == 200, alert(answer)
    assert COOKIE not in answer.cookies  # the browser keeps the cookie it sent
    assert 'name="csrfmiddlewaretoken"' in answer.content.decode()
    assert COOKIE in checked_client.get(url(fantan_table)).cookies


def test_an_answer_gives_a_browser_without_the_cookie_one(checked_client, fantan_table):
    checked_client.get(url(fantan_table))
    del checked_client.cookies[COOKIE]
    partial = checked_client.get(url(fantan_table), **HTMX)
    assert partial.status_code == 200
    assert COOKIE in partial.cookies
    answer = reveal(checked_client, fantan_table, partial.context["csrf_token"])
    assert answer.status_code == 200, alert(answer)


def test_a_changed_token_is_sent_even_to_an_htmx_request(rf):
    """Signing in rotates the token: the browser must be given the new one."""

    def signing_in(request):
        rotate_token(request)
        return HttpResponse()

    chain = CsrfViewMiddleware(HtmxMiddleware(CsrfCookieOnPagesMiddleware(signing_in)))
    request = rf.get("/", HTTP_HX_REQUEST="true")
    request.COOKIES[COOKIE] = "a" * 32
    response = chain(request)
    assert response.cookies[COOKIE].value not in ("", "a" * 32)
