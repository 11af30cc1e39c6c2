"""A take-back puts a card back into its player's hand: from then on the log names it (in
the taken-back move and in its take-back) to him alone, while his hand is on the screen.
The spectators, the other players, the screen between turns, the sockets and the record a
spectator may fetch learn nothing of it; the deal's own log keeps it. For every game."""

import json
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client

from games import selectors, services
from games.engine import IllegalAction
from games.models import DealEvent
from tests.support.hotseat import (
    HTMX,
    current,
    form_fields,
    leaked_cards,
    reveal_now,
    scrub,
    stamp,
    url,
    without_seat,
)
from tests.support.sockets import ORIGIN, socket

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def card_of(state, action: dict) -> str | None:
    return next((action[key] for key in state.card_keys if key in action), None)


def offered(state) -> list[dict]:
    """The actions the screen offers the seat to act (none that needs a step first)."""
    moves = []
    for action in state.legal_actions():
        try:
            state.check_steps(action)
        except IllegalAction:
            continue
        moves.append(action)
    return moves


def play(table, host, action: dict) -> None:
    deal = current(table)
    services.play(
        deal=deal,
        seat=action["seat"],
        action=without_seat(action),
        expected_version=deal.version,
        user=host,
    )


def shown(table, host):
    """The state once the seat to act has his hand shown and his step taken, if one is due."""
    deal = current(table)
    hotseat = selectors.load(deal)
    if hotseat.handoff:
        seat = hotseat.state.to_act
        services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=host)
    state = selectors.load(current(table)).state
    if state.steps():
        play(table, host, state.steps()[0])
        state = selectors.load(current(table)).state
    return state


def face_up_lay_first(action: dict) -> tuple:
    """Леопард's moves in the order to try them: a lay face up, then a discard (a jack or
    queen lies face down: the log never names it)."""
    return ("lay" not in action, action.get("lay", "?")[0] in "JQ")


def a_card_to_take_back(table, host, order=face_up_lay_first) -> tuple[dict, str]:
    """Play on through the services until the seat to act may lay a card that every other
    viewer has never been shown (no copy in view) while he has another move that does not
    show it; that move (the first by ``order``), and its card. His hand is shown."""
    for choose in range(200):
        state = shown(table, host)
        seat = state.to_act
        viewers = [None] + [s for s in range(len(state.view(None)["counts"])) if s != seat]
        moves = offered(state)
        for action in sorted(moves, key=order):
            card = card_of(state, action)
            if card is None or not all(card in state.hidden_from(v) for v in viewers):
                continue
            if any(card_of(state, other) != card for other in moves):
                return action, card
        play(table, host, moves[choose % len(moves)])
    raise AssertionError("no card to take back in 200 turns")


def move_on(table, host, card: str) -> None:
    """The player to act plays, without showing ``card``, until another seat is to act (the
    screen to be passed to him)."""
    seat = selectors.load(current(table)).state.to_act
    while selectors.load(current(table)).state.to_act == seat:
        state = shown(table, host)
        play(table, host, next(a for a in offered(state) if card_of(state, a) != card))


def taken_back(table, host, order=face_up_lay_first) -> tuple[int, str]:
    """A card laid, taken back, and the turn played on with another move: its seat and the
    card, now back in his hand."""
    action, card = a_card_to_take_back(table, host, order)
    play(table, host, action)
    deal = current(table)
    services.take_back(deal=deal, seat=action["seat"], expected_version=deal.version, user=host)
    move_on(table, host, card)
    return action["seat"], card


def log_of(html: str) -> str:
    found = re.search(r'<ol class="log".*?</ol>', html, re.S)
    return found.group(0) if found else ""


def watch(client, table, **extra) -> str:
    response = client.get(f"/watch/{table.watch_key}/", **extra)
    assert response.status_code == 200
    return scrub(response.content.decode(), table)


@pytest.mark.django_db
def test_the_taker_alone_sees_his_taken_back_card_named_in_the_log(host_client, table, host):
    action, card = a_card_to_take_back(table, host)
    fields = stamp(current(table), seat=action["seat"], **form_fields(table, action))
    assert host_client.post(url(table, "act"), fields, **HTMX).status_code == 200
    response = host_client.post(
        url(table, "take-back"), stamp(current(table), seat=action["seat"]), **HTMX, **EN
    )
    assert response.status_code == 200
    own = log_of(response.content.decode())
    assert "took back" in own and leaked_cards(own, [card]), "his own screen names it"
    # the deal's log keeps it
    event = DealEvent.objects.filter(deal=current(table), kind="take_back").get()
    assert card_of(selectors.load(current(table)).state, event.data["undone"]) == card
    # a spectator, meanwhile, and once the turn has moved on
    spectator = Client()
    for moved_on in (False, True):
        if moved_on:
            move_on(table, host, card)
        html = watch(spectator, table, **EN)
        assert "took back" in log_of(html)
        assert not leaked_cards(html, [card]), "a spectator learns a card of a hand"


@pytest.mark.django_db
def test_no_other_viewer_finds_the_card_nor_any_hidden_card(client, host_client, table, host):
    seat, card = taken_back(table, host)
    # the screen between turns, whoever looks at it
    handoff = host_client.get(url(table), **EN).content.decode()
    assert "Pass the screen to" in handoff
    assert not leaked_cards(scrub(handoff, table), [card])
    # the spectators, in full and as their page fetches itself
    state = selectors.load(current(table)).state
    for extra in ({}, {"HTTP_HX_REQUEST": "true"}):
        html = watch(client, table, **EN, **extra)
        assert "took back" in log_of(html)
        assert not leaked_cards(html, sorted(state.hidden_from(None)))
    # the next player, his hand shown
    reveal_now(host_client, table)
    viewer = selectors.load(current(table)).state.to_act
    assert viewer != seat
    page = host_client.get(url(table), **EN).content.decode()
    assert not leaked_cards(scrub(page, table), sorted(state.hidden_from(viewer)))
    assert not leaked_cards(log_of(page), [card])
    # the record: every hand as dealt, so not while the deal is being played
    record = client.get(f"/watch/{table.watch_key}/deals/{current(table).number}/record.json")
    assert record.status_code == 409 and not leaked_cards(record.content.decode(), [card])


@pytest.mark.django_db
def test_a_taken_back_discard_is_not_named_to_the_next_player_nor_the_spectators(
    client, host_client, leopard_table, host
):
    seat, card = taken_back(leopard_table, host, order=lambda action: "discard" not in action)
    html = watch(client, leopard_table, **EN)
    assert "took back a discard" in log_of(html) and not leaked_cards(html, [card])
    deal = current(leopard_table)
    to_act = selectors.load(deal).state.to_act
    assert to_act != seat
    page = host_client.post(
        url(leopard_table, "reveal"), stamp(deal, seat=to_act), **HTMX, **EN
    ).content.decode()
    assert "took back a discard" in log_of(page) and not leaked_cards(log_of(page), [card])


@pytest.mark.django_db(transaction=True)
def test_the_sockets_carry_only_versions_through_a_take_back(client, table, host):
    action, card = a_card_to_take_back(table, host)

    def take_back_and_move_on():
        play(table, host, action)
        deal = current(table)
        services.take_back(deal=deal, seat=action["seat"], expected_version=deal.version, user=host)
        move_on(table, host, card)

    async def run():
        watcher = socket(f"/ws/watch/{table.watch_key}/", ORIGIN)
        assert (await watcher.connect())[0]
        first = json.loads(await watcher.receive_from())
        await database_sync_to_async(take_back_and_move_on)()
        messages = [first]
        while not await watcher.receive_nothing(timeout=0.2):
            messages.append(json.loads(await watcher.receive_from()))
        await watcher.disconnect()
        return messages

    before = current(table)
    messages = async_to_sync(run)()
    after = current(table)
    assert messages == [
        {"stamp": [before.number, v]} for v in range(before.version, after.version + 1)
    ]
    # what the page then fetches, as static/js/live.js does
    html = watch(client, table, HTTP_HX_REQUEST="true", **EN)
    assert "took back" in log_of(html) and not leaked_cards(html, [card])
