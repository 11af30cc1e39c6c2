"""Леопард through the pages: hand, draw, choose a card, lay or discard, end the deal."""

import re

import pytest

from games import services
from tests.conftest import current
from tests.hotseat import HTMX, alert, check_hidden, play_to_end, reveal_now, stamp, url

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_pages_never_show_the_opponents_hand_the_stock_or_face_down_cards(
        host_client, leopard_table):
    def check(response, table):
        check_hidden(response, table)
        check_hidden(host_client.get(url(table)), table)

    play_to_end(host_client, leopard_table, check=check, **HTMX)
    assert current(leopard_table).is_over


def test_the_turn_is_draw_then_choose_a_card_then_a_place(host_client, leopard_table):
    reveal_now(host_client, leopard_table)
    deal = current(leopard_table)
    state = services.load(deal).state
    seat = state.to_act
    page = host_client.get(url(leopard_table), **EN).content.decode()
    assert "Draw a card" in page and 'name="card"' not in page
    response = host_client.post(url(leopard_table, "draw"), stamp(deal, seat=seat), **HTMX,
                                **EN)
    assert response.status_code == 200
    drawn = state.stock[-1]
    from games.engine.cards import CODES

    page = response.content.decode()
    assert re.search(rf'value="{CODES[drawn]}" class="card playable[^"]* drawn"', page)
    assert len(re.findall(r'name="card" value="\w\w"', page)) == 9
    page = host_client.get(url(leopard_table) + f"?card={CODES[drawn]}", **HTMX,
                           **EN).content.decode()
    places = state.places_for(seat, drawn)
    assert len(re.findall(r'class="target"', page)) == len(places)
    assert f'name="discard" value="{CODES[drawn]}"' in page


def test_an_action_before_the_draw_is_refused(host_client, leopard_table):
    reveal_now(host_client, leopard_table)
    before = current(leopard_table)
    state = services.load(before).state
    card = state.hands[state.to_act][0]
    from games.engine.cards import CODES

    response = host_client.post(url(leopard_table, "act"),
                                stamp(before, seat=state.to_act, discard=CODES[card]), **EN)
    assert response.status_code == 400 and "Draw a card first" in alert(response)
    assert current(leopard_table).version == before.version
