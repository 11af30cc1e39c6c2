"""What every game's table shares, written once and run for each game in the registry: the
refusals (a stale page, a double click, forged fields, CSRF, a GET on a POST address, the
wrong user), the cost of an action, hidden cards on every page, and the record download."""

import json
import re

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from club import services
from games import selectors
from games.engine.records import replay
from games.models import Deal
from tests.support.hotseat import (
    HTMX,
    alert,
    check_hidden,
    current,
    finish_deal,
    form_fields,
    next_action,
    play_to_end,
    reveal_now,
    stamp,
    step_first,
    take_turn,
    unchanged,
    url,
)

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def shown(client, table):
    """Reveal the hand of the seat to act (if the screen is to be passed): the deal as the
    page now shows it, and the move its page would post next (its step first, if one is
    due)."""
    deal = current(table)
    if selectors.load(deal).handoff:
        assert reveal_now(client, table).status_code == 200
        deal = current(table)
    hotseat = selectors.load(deal)
    action = next_action(hotseat, 0)
    return deal, step_first(hotseat, action) or action


def move_fields(table, deal, move) -> dict:
    return stamp(deal, seat=move["seat"], **form_fields(table, move))


# -- hidden cards ---------------------------------------------------------------------------


def test_pages_never_hold_hidden_cards_through_a_whole_deal_and_the_next_deals_first_page(
    host_client, table
):
    def check(response, table):
        check_hidden(response, table)
        check_hidden(host_client.get(url(table)), table)  # the full page as well

    check(host_client.get(url(table)), table)
    play_to_end(host_client, table, check=check, **HTMX)
    check(host_client.get(url(table)), table)
    response = host_client.post(url(table, "next-deal"), {"deal": 1}, **HTMX)
    assert response.status_code == 200
    assert current(table).number == 2
    check(response, table)  # the next deal's hand-off screen
    check(reveal_now(host_client, table), table)  # and its first turn
    check(host_client.get(url(table)), table)


# -- refusals: a clear message, a 4xx status, and the deal unchanged -------------------------


def test_a_stale_page_and_a_double_click_are_refused_and_show_the_table_as_it_is(
    host_client, table
):
    page_deal, move = shown(host_client, table)
    fields = move_fields(table, page_deal, move)
    first = host_client.post(url(table, "act"), fields, **HTMX)
    assert first.status_code == 200, alert(first)
    after_first = current(table)
    assert after_first.version == page_deal.version + 1
    again = host_client.post(url(table, "act"), fields, **EN, **HTMX)
    assert again.status_code == 409
    assert "moved on" in alert(again)
    unchanged(table, after_first)
    # the refusal shows the table as it is now, ready for the next click: its version
    page = again.content.decode()
    assert f'data-stamp="{after_first.number} {after_first.version}"' in page
    assert set(re.findall(r'name="version" value="(\d+)"', page)) <= {str(after_first.version)}


FORGED = {
    "version-abc": {"version": "abc"},
    "version-empty": {"version": ""},
    "seat-9": {"seat": "9"},
    "seat-minus-1": {"seat": "-1"},
    "deal-999": {"deal": "999"},
    "deal-x": {"deal": "x"},
}


@pytest.mark.parametrize("forged", FORGED.values(), ids=FORGED.keys())
def test_forged_turn_fields_are_refused_and_change_nothing(host_client, table, forged):
    before, move = shown(host_client, table)
    fields = {**move_fields(table, before, move), **forged}
    response = host_client.post(url(table, "act"), fields, **EN)
    assert response.status_code in (400, 409)
    assert alert(response)
    unchanged(table, before)


def valued_action(client, table) -> dict:
    """Play on until the seat to act has an action with a field that carries a value (not a
    bare button such as a pass), show his hand, take the step before it if one is due; that
    action."""
    for choose in range(20):
        deal, _ = shown(client, table)
        hotseat = selectors.load(deal)
        valued = [
            a
            for a in hotseat.state.legal_actions()
            if any(v != "1" for v in form_fields(table, a).values())
        ]
        if valued:
            step = step_first(hotseat, valued[0])
            if step:  # Леопард's draw: the action has a screen of its own after it
                response = client.post(url(table, "act"), move_fields(table, deal, step), **HTMX)
                assert response.status_code == 200, alert(response)
            return valued[0]
        take_turn(client, table, choose=choose)
    raise AssertionError("no action with a value in 20 turns")


@pytest.mark.parametrize("damage", ["<script>", "ZZ"])
def test_a_damaged_action_is_refused_without_repeating_it(host_client, table, damage):
    action = valued_action(host_client, table)
    before = current(table)
    fields = {name: damage for name in form_fields(table, action)}
    response = host_client.post(
        url(table, "act"), stamp(before, seat=action["seat"], **fields), **EN
    )
    assert response.status_code == 400
    message = alert(response)
    assert "nothing was done" in message
    assert damage not in message and "script" not in message
    assert "&lt;script&gt;" not in response.content.decode()  # not echoed anywhere
    unchanged(table, before)


def test_a_post_with_no_action_is_refused(host_client, table):
    before, move = shown(host_client, table)
    response = host_client.post(url(table, "act"), stamp(before, seat=move["seat"]), **EN)
    assert response.status_code == 400
    assert "incomplete or damaged" in alert(response)
    unchanged(table, before)


def test_acting_before_the_hand_is_shown_is_refused(host_client, table):
    before = current(table)
    hotseat = selectors.load(before)
    assert hotseat.handoff
    action = next_action(hotseat, 0)
    move = step_first(hotseat, action) or action
    response = host_client.post(url(table, "act"), move_fields(table, before, move), **EN)
    assert response.status_code == 400
    assert "Show your hand first" in alert(response)
    unchanged(table, before)


def test_csrf_is_enforced_and_the_token_in_the_pages_hx_headers_works(host, table):
    client = Client(enforce_csrf_checks=True)
    client.force_login(host)
    before = current(table)
    fields = stamp(before, seat=selectors.load(before).state.to_act)
    refused = client.post(url(table, "reveal"), fields, **EN)
    assert refused.status_code == 403
    assert "Reload the page and try again" in alert(refused)
    unchanged(table, before)
    page = client.get(url(table)).content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)  # hx-headers on <body>
    response = client.post(url(table, "reveal"), fields, HTTP_X_CSRFTOKEN=token, **HTMX)
    assert response.status_code == 200, alert(response)
    assert current(table).version == before.version + 1
    deal, move = shown(client, table)
    response = client.post(
        url(table, "act"), move_fields(table, deal, move), HTTP_X_CSRFTOKEN=token, **HTMX
    )
    assert response.status_code == 200, alert(response)
    assert current(table).version == deal.version + 1


@pytest.mark.parametrize("address", ["act", "reveal", "take-back", "next-deal"])
def test_a_get_on_a_post_address_is_not_allowed(host_client, table, address):
    before = current(table)
    assert host_client.get(url(table, address)).status_code == 405
    unchanged(table, before)


# -- who may see and do what ----------------------------------------------------------------


def test_another_member_cannot_open_play_or_download_the_table(
    client, django_user_model, host, table
):
    other = django_user_model.objects.create_user("other", password="pw-for-tests-only")
    client.force_login(other)
    before = current(table)
    page = client.get(url(table), **EN)
    assert page.status_code == 403
    assert "played on another screen" in page.content.decode()
    for address, fields in (
        ("reveal", stamp(before, seat=selectors.load(before).state.to_act)),
        ("act", stamp(before, seat=0)),
        ("next-deal", {"deal": 1}),
    ):
        response = client.post(url(table, address), fields, **EN)
        assert response.status_code == 403, address
        assert "played on another screen" in response.content.decode()
    unchanged(table, before)
    finish_deal(table, host)  # the record holds every hand as dealt
    assert client.get(url(table, "deals/1/record.json")).status_code == 403


def test_a_visitor_is_sent_to_sign_in_and_cannot_post(client, table):
    before = current(table)
    for address in ("", "deals/1/record.json"):
        response = client.get(url(table, address))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for address in ("reveal", "act", "take-back", "next-deal"):
        response = client.post(
            url(table, address), stamp(before, seat=selectors.load(before).state.to_act), **EN
        )
        assert response.status_code == 403, address
        assert "Sign in to play" in response.content.decode()
    unchanged(table, before)


# -- cost -----------------------------------------------------------------------------------


def test_an_action_costs_the_same_queries_first_and_fortieth(host_client, table):
    counts = []  # of the action posts alone; reveals and steps are posted between them
    while len(counts) < 40 and not current(table).is_over:
        deal, _ = shown(host_client, table)
        hotseat = selectors.load(deal)
        action = next_action(hotseat, len(counts))
        step = step_first(hotseat, action)
        if step:
            response = host_client.post(url(table, "act"), move_fields(table, deal, step), **HTMX)
            assert response.status_code == 200, alert(response)
            deal = current(table)
        with CaptureQueriesContext(connection) as queries:
            response = host_client.post(url(table, "act"), move_fields(table, deal, action), **HTMX)
        assert response.status_code == 200, alert(response)
        counts.append(len(queries))
    assert len(counts) >= 20, counts
    assert counts[0] == counts[-1] == max(counts), counts


WITHOUT_PAGES_CACHE = {
    **settings.CACHES,
    "pages": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},
}


def scores_panel(client, address: str, language: str = "ru") -> str:
    """The score sheet, or running totals, beside the table on the page at ``address``
    (the page's last panel)."""
    response = client.get(address, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return (
        response.content.decode().rsplit('<section class="panel">', 1)[1].split("</section>", 1)[0]
    )


def scores_beside(client, table) -> tuple[list, list]:
    """The rows (deal numbers and scores) and totals beside the table as its page has them
    now. The host's and the spectators' panels, in both languages, which the pages cache,
    must be those rendered afresh."""
    pages = [
        (address, language)
        for address in (url(table), table.get_watch_url())
        for language in ("ru", "en")
    ]
    kept = [scores_panel(client, *page) for page in pages]
    with override_settings(CACHES=WITHOUT_PAGES_CACHE):
        assert [scores_panel(client, *page) for page in pages] == kept
    page = selectors.table_page(table, current(table))
    scores = page.sheet or page.totals
    return [(row.number, row.scores) for row in scores.rows], scores.totals


def scores_kept(table) -> tuple[list, list]:
    """The same, read afresh from the finished deals in the database."""
    deal = current(table)
    deals = Deal.objects.filter(
        is_over=True, **({"cycle_id": deal.cycle_id} if deal.cycle_id else {"table": table})
    )
    rows = [(d.number, d.result["scores"]) for d in deals.order_by("number")]
    if not rows:
        return rows, [0] * len(selectors.names(table))
    return rows, [sum(column) for column in zip(*(scores for _, scores in rows), strict=True)]


def test_the_scores_beside_the_table_follow_an_end_its_take_back_and_the_next_deal(
    host_client, table, host
):
    """The page remembers the finished deals before the current one; the current deal's
    row comes with its end and goes when the end is taken back."""
    assert scores_beside(host_client, table) == scores_kept(table)
    assert scores_kept(table)[0] == []
    finish_deal(table, host)
    ended = scores_kept(table)
    assert [number for number, _ in ended[0]] == [1]
    assert scores_beside(host_client, table) == ended
    deal = current(table)
    seat = selectors.load(deal).take_back_seat()
    assert seat is not None
    response = host_client.post(url(table, "take-back"), stamp(deal, seat=seat), **HTMX)
    assert response.status_code == 200, alert(response)
    assert not current(table).is_over
    assert scores_beside(host_client, table) == scores_kept(table)
    assert scores_kept(table)[0] == []
    finish_deal(table, host)
    response = host_client.post(url(table, "next-deal"), {"deal": 1}, **HTMX)
    assert response.status_code == 200, alert(response)
    assert current(table).number == 2
    first = scores_kept(table)
    assert [number for number, _ in first[0]] == [1]
    assert scores_beside(host_client, table) == first
    finish_deal(table, host)
    both = scores_kept(table)
    assert [number for number, _ in both[0]] == [1, 2]
    assert scores_beside(host_client, table) == both
    player = table.seats.get(position=0).player
    player.name = "Зоя Тестова"
    services.save_player(player=player)
    table = selectors.table_by_token(table.token)
    assert scores_beside(host_client, table) == both
    assert "Зоя Тестова" in scores_panel(host_client, url(table))


# -- the record -------------------------------------------------------------------------------


def test_the_record_of_a_finished_deal_downloads_and_replays_to_its_result(host_client, table):
    response = host_client.get(url(table, "deals/1/record.json"), **EN)
    assert response.status_code == 409  # every hand as dealt: not while the deal is played
    assert "once the deal is over" in response.content.decode()
    play_to_end(host_client, table)
    response = host_client.get(url(table, "deals/1/record.json"))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    deal = current(table)
    assert deal.is_over
    assert record["game"] == table.game and record["dealer"] == deal.dealer
    assert record["hands"] == deal.dealt["hands"]
    assert replay(record).result() == {**deal.result, "complete": True}
