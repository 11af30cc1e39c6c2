"""Playing a table through the pages with the Django test client, as the hotseat screen does."""

import functools
import re
from datetime import timedelta

from django.conf import settings
from django.utils import timezone, translation

from games import registry, robot_turns, selectors, services
from games.engine import IllegalAction
from games.models import Deal, DealEvent
from games.templatetags.cards import card_name, card_text

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(table, what=""):
    return f"/t/{table.token}/{what}"


def stamp(deal, **fields):
    return {"deal": deal.number, "version": deal.version, **fields}


def alert(response) -> str:
    found = re.search(r'role="alert">\s*([^<]+)', response.content.decode())
    return found.group(1).strip() if found else ""


def scrub(html: str, table) -> str:
    """The page without its random keys (the table's, its watch address's, its seats') and
    CSRF tokens, which could spell a card code by chance."""
    for key in [table.token, table.watch_key, *table.seats.values_list("key", flat=True)]:
        html = html.replace(key, "")
    return re.sub(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+', r"\1", html)


def hidden_codes(table) -> list[str]:
    """The cards the page just rendered must not hold: what the engine hides from the seat
    at the screen (every other hand; in Леопард also the stock and the faces of face-down
    cards, where no copy lies open). The engine tests check ``hidden_from`` itself."""
    hotseat = selectors.load(current(table))
    seat = hotseat.shown_seat
    people = [s.position for s in table.seats.all() if not s.robot]
    if seat is None and len(people) == 1 and not hotseat.state.is_over():
        seat = people[0]  # a practice table: its one person always has the screen
    return sorted(hotseat.state.hidden_from(seat))


def check_hidden(response, table):
    assert response.status_code < 500
    leaks = leaked_cards(scrub(response.content.decode(), table), hidden_codes(table))
    assert not leaks, f"cards of other seats on the page: {leaks}"


def take_turn(client, table, choose=0, check=None, **extra):
    """Reveal if the screen must be handed on, then take the ``choose``-th legal action."""
    deal = current(table)
    hotseat = selectors.load(deal)
    if hotseat.handoff:
        response = client.post(
            url(table, "reveal"), stamp(deal, seat=hotseat.state.to_act), **extra
        )
        assert response.status_code in (200, 302), alert(response)
        if check:
            check(response, table)
        deal = current(table)
        hotseat = selectors.load(deal)
    action = next_action(hotseat, choose)
    step = step_first(hotseat, action)
    if step:
        response = client.post(
            url(table, "act"), stamp(deal, seat=step["seat"], **form_fields(table, step)), **extra
        )
        assert response.status_code in (200, 302), alert(response)
        if check:
            check(response, table)
        deal = current(table)
    response = client.post(
        url(table, "act"), stamp(deal, seat=action["seat"], **form_fields(table, action)), **extra
    )
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
    return client.post(
        url(table, "reveal"), stamp(deal, seat=selectors.load(deal).state.to_act), **HTMX
    )


def take_robot_turns() -> int:
    """What a serving process does once the robots' pause is over: every turn then due is
    taken (``games.robot_turns``); how many."""
    return robot_turns.take_due(timezone.now() + timedelta(seconds=settings.ROBOT_PAUSE))


def unchanged(table, before: Deal):
    after = current(table)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    assert DealEvent.objects.filter(deal=after).count() == before.version


def next_action(hotseat, choose: int) -> dict:
    """The ``choose``-th legal action (counting round) of the seat to act."""
    legal = hotseat.state.legal_actions()
    return legal[choose % len(legal)]


def step_first(hotseat, action: dict) -> dict | None:
    """The step a live table takes before ``action`` (Леопард's draw), if one is due."""
    try:
        hotseat.state.check_steps(action)
    except IllegalAction:
        return hotseat.state.steps()[0]
    return None


def form_fields(table, action: dict) -> dict:
    """The form fields the page posts for an engine action."""
    return registry.game(table.game).moves.fields(action)


def act(table, choose=0, user=None):
    """Reveal if needed, then the ``choose``-th legal action, through the services (a
    device seat's as its own page sends it)."""
    deal = current(table)
    hotseat = selectors.load(deal)
    if hotseat.handoff:
        deal = services.reveal(
            deal=deal, seat=hotseat.state.to_act, expected_version=deal.version, user=user
        )
        deal.table = table
        hotseat = selectors.load(deal)
    action = next_action(hotseat, choose)
    step = step_first(hotseat, action)
    device = action["seat"] in hotseat.devices  # played from its own page, as it must be
    if step:
        deal = services.play(
            deal=deal,
            seat=step["seat"],
            action=without_seat(step),
            expected_version=deal.version,
            user=user,
            device=device,
        )
    services.play(
        deal=deal,
        seat=action["seat"],
        action=without_seat(action),
        expected_version=deal.version,
        user=user,
        device=device,
    )
    return action


def without_seat(action: dict) -> dict:
    return {k: v for k, v in action.items() if k != "seat"}


def current(table):
    deal = selectors.current_deal(table)
    deal.table = table
    return deal


@functools.cache
def card_forms(code: str) -> list[str]:
    """Every way a page may show a card: its code, its face, its spoken name (both languages)."""
    forms = {code}
    for language in ("en", "ru"):
        with translation.override(language):
            forms.add(card_text(code))
            forms.add(card_name(code))
    return tuple(sorted(forms))


def card_buttons(html: str) -> set[str]:
    """The cards the page offers to play: its hand's card buttons."""
    return set(re.findall(r'<button name="card" value="(\w\w)"', html))


def leaked_cards(html: str, codes) -> list[str]:
    """The cards of ``codes`` that appear in ``html`` in any form."""
    leaks = []
    for code in codes:
        for form in card_forms(code):
            # the substring test first: most hidden cards are nowhere in the page
            if form in html and re.search(
                r"(?<![\w♠♥♦♣])" + re.escape(form) + r"(?![\w♠♥♦♣])", html
            ):
                leaks.append(f"{code} as {form!r}")
    return leaks


def finish_deal(table, host):
    """Play the current deal to its end through the services (quick)."""
    for choose in range(1000):
        if current(table).is_over:
            return
        act(table, choose=choose, user=host)
    raise AssertionError("the deal did not end")
