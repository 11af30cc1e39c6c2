"""Леопард in the browser tests: the moves that steer a deal to its end (the first seat
builds its square in red, the second in black), worked out on a copy of the engine's state and
played through the services, and what the table's page shows of a turn."""

import re

import pytest

from games import selectors, services
from games.engine import get_rules
from games.engine.cards import CODES
from games.leopard.engine import (
    COLOUR,
    DOWN,
    END_AT,
    JACK,
    KING,
    OWN_PLACE,
    PLACES,
    QUEEN,
    square_sum,
)
from tests.support.browser import current_deal, english_names

HAND = 8
STOCK = 104 - 2 * HAND  # the turns a deal can last: one card of the stock each


def ours(card: int, seat: int) -> bool:
    """The first seat builds its square in red, the second in black; no jack or queen (they
    lie face down and score nothing)."""
    return COLOUR[card] == (seat == 0) and card % 13 not in (JACK, QUEEN)


def nine_cards(state) -> list[int]:
    """The cards the seat to act may discard or lay: his hand and the card he draws."""
    seat = state.to_act
    return sorted(set(state.hands[seat]) | (set() if state.drawn else {state.stock[-1]}))


def steer(state) -> dict:
    """The move of the seat to act, once he has drawn: of the cards of his colour (his hand
    and the card drawn), the lay into his own square that scores most, preferring an empty
    place, never covering a card of his colour; else discard the least useful card."""
    seat = state.to_act
    square = state.squares[seat]
    cards = nine_cards(state)
    best = None
    for card in cards:
        if not ours(card, seat):
            continue
        for target, place in state.places_for(seat, card):
            top = square[place][-1] if square[place] else None
            if target != seat or (
                top is not None and not top & DOWN and COLOUR[top] == (seat == 0)
            ):
                continue
            square[place].append(card)
            key = (square_sum(square), top is None)
            square[place].pop()
            if best is None or key > best[0]:
                best = (key, card, place)
    if best:
        return {"lay": CODES[best[1]], "square": seat, "place": PLACES[best[2]]}

    def use(card):  # 0: another colour, a jack or a queen; 1: its place already holds ours
        if not ours(card, seat):
            return 0
        own = OWN_PLACE[card % 13]
        top = square[own][-1] if own is not None and square[own] else None
        return 1 if top is not None and not top & DOWN and COLOUR[top] == (seat == 0) else 2

    return {"discard": CODES[min(cards, key=use)]}


def stack_and_hide(state) -> dict:
    """Test 2's opening: a jack or a queen face down, or a king, on a card already laid."""
    seat = state.to_act
    cards = nine_cards(state)
    for rank in (JACK, QUEEN, KING):
        for card in cards:
            if card % 13 == rank:
                for square, place in state.places_for(seat, card):
                    if state.squares[square][place]:
                        return {"lay": CODES[card], "square": square, "place": PLACES[place]}
    return steer(state)


def plan_to_end(state) -> list[dict]:
    """The moves ``steer`` makes, on a copy of ``state``, until the seat to act may end the
    deal."""
    state = get_rules("leopard").from_json(state.to_json())
    moves = []
    for _ in range(STOCK + 1):
        if state.may_end(state.to_act):
            return moves
        move = steer(state)
        moves.append(move)
        state.apply({**move, "seat": state.to_act})
        if state.is_over():
            break
    pytest.fail(f"steering did not reach {END_AT} points before the stock ran out")


def turn_by_services(table, user, choose=steer) -> dict:
    """One whole turn through the services: show the hand, draw, and the move chosen."""
    deal = current_deal(table)
    hotseat = selectors.load(deal)
    seat = hotseat.state.to_act
    if hotseat.handoff:
        deal = services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=user)
    turn = dict(seat=seat, user=user, device=seat in hotseat.devices)  # a device's own page
    deal = services.play(deal=deal, action={"draw": True}, expected_version=deal.version, **turn)
    move = choose(selectors.load(deal).state)
    services.play(deal=deal, action=move, expected_version=deal.version, **turn)
    return move


def play_turns(table, user, moves) -> None:
    for move in moves:
        assert turn_by_services(table, user) == move


def state_of(table):
    return selectors.load(current_deal(table)).state


def text(locator) -> str:
    return " ".join(locator.inner_text().split())


def english_name(code: str) -> str:
    return english_names([code])[0]


def end_button(page):
    return page.get_by_role("button", name=re.compile(r"^End the deal now"))
