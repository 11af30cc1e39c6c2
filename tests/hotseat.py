"""Playing a table through the pages with the Django test client, as the hotseat screen does."""

import re

from games import services
from games.engine.cards import CODES, codes_of
from games.engine.leopard import DOWN
from games.models import Deal, DealEvent
from tests.conftest import current, leaked_cards

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(table, what=""):
    return f"/t/{table.token}/{what}"


def stamp(deal, **fields):
    return {"deal": deal.number, "version": deal.version, **fields}


def alert(response) -> str:
    found = re.search(r'role="alert">\s*([^<]+)', response.content.decode())
    return found.group(1).strip() if found else ""


def scrub(html: str, table) -> str:
    """The page without its random tokens, which could spell a card code by chance."""
    html = html.replace(table.token, "")
    return re.sub(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+', r"\1", html)


def hand_codes(hand) -> list[str]:
    """A hand as codes: a bit mask (one pack) or a list of card ints (Леопард's two)."""
    return codes_of(hand) if isinstance(hand, int) else [CODES[c] for c in hand]


def hidden_codes(table) -> list[str]:
    """The cards the page just rendered must not hold: every hand but the one on screen;
    in Леопард also the stock and the faces of face-down cards, wherever no copy of the same
    card lies open (two packs: a card's twin may be on the table or the discard pile)."""
    deal = current(table)
    hotseat = services.load(deal)
    state = hotseat.state
    shown = None if state.is_over() or hotseat.handoff else state.to_act
    hidden = {code for seat, hand in enumerate(state.hands) if seat != shown
              for code in hand_codes(hand)}
    if not state.has_stock:
        return sorted(hidden)
    laid = [entry for square in state.squares for stack in square for entry in stack]
    hidden |= {CODES[c] for c in state.stock}
    hidden |= {CODES[e & ~DOWN] for e in laid if e & DOWN}
    public = {CODES[e] for e in laid if not e & DOWN} | {CODES[c] for c in state.discards}
    if shown is not None:
        public |= set(hand_codes(state.hands[shown]))
        if hotseat.drawn:
            public.add(CODES[state.stock[-1]])
    return sorted(hidden - public)


def check_hidden(response, table):
    assert response.status_code < 500
    leaks = leaked_cards(scrub(response.content.decode(), table), hidden_codes(table))
    assert not leaks, f"cards of other seats on the page: {leaks}"


def take_turn(client, table, choose=0, check=None, **extra):
    """Reveal if the screen must be handed on, then take the ``choose``-th legal action."""
    deal = current(table)
    hotseat = services.load(deal)
    if hotseat.handoff:
        response = client.post(url(table, "reveal"),
                                stamp(deal, seat=hotseat.state.to_act), **extra)
        assert response.status_code in (200, 302), alert(response)
        if check:
            check(response, table)
        deal = current(table)
        hotseat = services.load(deal)
    action = next_action(hotseat, choose)
    if hotseat.state.draws(action) and not hotseat.drawn:
        response = client.post(url(table, "draw"), stamp(deal, seat=action["seat"]), **extra)
        assert response.status_code in (200, 302), alert(response)
        if check:
            check(response, table)
        deal = current(table)
    response = client.post(url(table, "act"), stamp(deal, seat=action["seat"],
                                                   **form_fields(action)), **extra)
    assert response.status_code in (200, 302), alert(response)
    if check:
        check(response, table)
    return action


def play_to_end(client, table, check=None, **extra):
    for step in range(500):
        if current(table).is_over:
            return step
        take_turn(client, table, choose=step, check=check, **extra)
    raise AssertionError("the deal did not end")


def reveal_now(client, table):
    deal = current(table)
    return client.post(url(table, "reveal"),
                       stamp(deal, seat=services.load(deal).state.to_act), **HTMX)


def unchanged(table, before: Deal):
    after = current(table)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    assert DealEvent.objects.filter(deal=after).count() == before.version


def next_action(hotseat, choose: int) -> dict:
    """The ``choose``-th legal action (counting round) of the seat to act."""
    legal = hotseat.state.legal_actions()
    if hotseat.drawn:  # Леопард: once drawn (and seen), the turn is a discard or a lay
        legal = [a for a in legal if hotseat.state.draws(a)]
    return legal[choose % len(legal)]


def form_fields(action: dict) -> dict:
    """The form fields the page posts for an engine action."""
    if "play" in action:
        return {"card": action["play"]}
    if "call" in action:
        return {"call": action["call"], "say": action.get("say", "")}
    if "pass" in action:
        return {"pass": "1"}
    if "end" in action:
        return {"end": "1"}
    return {k: v for k, v in action.items() if k != "seat"}  # Леопард: discard, lay


def act(table, choose=0, user=None):
    """Reveal if needed, then the ``choose``-th legal action, through the services."""
    deal = current(table)
    hotseat = services.load(deal)
    if hotseat.handoff:
        deal = services.reveal(deal=deal, seat=hotseat.state.to_act,
                               expected_version=deal.version, user=user)
        deal.table = table
        hotseat = services.load(deal)
    action = next_action(hotseat, choose)
    if hotseat.state.draws(action) and not hotseat.drawn:
        deal = services.draw(deal=deal, seat=action["seat"], expected_version=deal.version,
                             user=user)
    services.play(deal=deal, seat=action["seat"], action={k: v for k, v in action.items()
                                                          if k != "seat"},
                  expected_version=deal.version, user=user)
    return action
