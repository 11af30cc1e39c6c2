"""One screen a turn on a phone, and no page wider than a small phone: chromium, Playwright.

At 390×844 (a common phone) every kind of turn of every game shows, once the player has
revealed his hand and without his scrolling, his hand's cards, the places or rows a card can go
to and the turn's buttons; the hand-off screen shows its button. At 360 px no page scrolls
sideways, in either language (a wide table of numbers scrolls inside its own box).

The tables are brought to each kind of turn through the services (tests/support/hotseat.py), off
Playwright's event loop; the pages are then opened and clicked as a player would. The browser
is tests/support/browser.py's, one for the module. Set PHONE_SHOTS=dir to keep a screenshot of
every screen measured.
"""

import pytest

from games import selectors, services
from games.engine.cards import CODES, card_index
from games.models import Seat
from tests.support import DOCUMENTS, EXAMPLES
from tests.support.browser import (
    PASSWORD,
    click_and_swap,
    click_and_wait,
    current_deal,
    off_the_loop,
)
from tests.support.hotseat import act
from tests.support.leopard import (
    nine_cards,
    plan_to_end,
    play_turns,
    stack_and_hide,
    turn_by_services,
)
from tests.support.phone_screen import HEIGHT, WIDTH, shot

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

NARROW = 360


# -- the phone ----------------------------------------------------------------------------


@pytest.fixture
def member(django_user_model):
    return django_user_model.objects.create_user("host", password=PASSWORD)


BOXES = """els => els.filter(e => e.getClientRects().length).map(e => {
  const r = e.getBoundingClientRect();
  return {what: e.outerHTML.slice(0, 90), left: r.left, top: r.top, right: r.right,
          bottom: r.bottom};
})"""


def off_screen(page, selectors_: dict[str, str]) -> list[str]:
    """What of each named part (a CSS selector; every element it matches) lies outside the
    0..390 × 0..844 of the screen as the page is now scrolled; a part that is missing counts
    as off screen."""
    out = []
    for name, selector in selectors_.items():
        boxes = page.locator(selector).evaluate_all(BOXES)
        if not boxes:
            out.append(f"{name}: missing ({selector})")
        for box in boxes:
            if (
                box["left"] < -0.5
                or box["top"] < -0.5
                or box["right"] > WIDTH + 0.5
                or box["bottom"] > HEIGHT + 0.5
            ):
                corners = ", ".join(f"{box[k]:.0f}" for k in ("left", "top", "right", "bottom"))
                out.append(f"{name} ({corners}): {box['what'][:60]}")
    return out


FACES = """els => els.filter(e => e.querySelector('.face')).map(e => [
  e.getBoundingClientRect().width,
  parseFloat(getComputedStyle(e.querySelector('.face .rank')).fontSize)])"""


def assert_board_readable(page, name):
    """The board's face-up cards are large enough to read: 25 px wide or more, their rank in
    a 13 px font or larger (a Фантан row of thirteen was 23 px with an 11 px rank)."""
    faces = page.locator("#table .board .card").evaluate_all(FACES)
    small = [face for face in faces if face[0] < 25 or face[1] < 13]
    assert small == [], (
        f"{name}: {len(small)} board cards too small to read ([width, rank size], px): {small[:3]}"
    )


def assert_on_screen(page, name, parts: dict[str, str]):
    shot(page, name)
    assert page.evaluate("window.scrollX") == 0
    missing = off_screen(page, parts)
    assert missing == [], f"{name}: off the screen at {WIDTH}×{HEIGHT}: {missing}"


NAMES = {
    "en": ["Anna", "Boris", "Vera", "Gleb"],
    "ru": ["Анастасия", "Бенедикт", "Валентина", "Григорий"],
}  # long names, long words


# -- bringing a table to a kind of turn, through the services --------------------------------


def hotseat_of(table):
    return selectors.load(current_deal(table))


def move(table, user, action: dict):
    """The seat to act shows his hand (if the screen is to be passed) and makes ``action``."""
    deal = current_deal(table)
    hotseat = selectors.load(deal)
    seat = hotseat.state.to_act
    if hotseat.handoff:
        deal = services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=user)
    services.play(
        deal=deal,
        seat=seat,
        action=action,
        expected_version=deal.version,
        user=user,
        device=seat in hotseat.devices,  # a device seat's move comes from its own page
    )


def play_until(table, user, done, limit=600):
    """The first legal action, turn after turn, until ``done(hotseat)`` holds."""
    for _ in range(limit):
        hotseat = hotseat_of(table)
        if done(hotseat):
            return hotseat
        act(table, user=user)
    pytest.fail("the table never reached the turn the test needs")


def start(user, game, names, seed, devices=frozenset(), **options):
    return services.start_table(
        user=user, game=game, players=list(names), options=options, seed=seed, devices=devices
    )


# -- on the page ----------------------------------------------------------------------------

REVEAL = "#table .panel.turn form[action$='/reveal'] button"
TAKE_BACK = "#table .take-back button"


def open_handoff(page, table, name):
    """The table's page at a hand-off screen: its button (and a take-back's) on the screen."""
    page.goto(table.get_absolute_url())
    page.locator(REVEAL).wait_for()
    parts = {"the button that shows the hand": REVEAL}
    if page.locator(TAKE_BACK).count():
        parts["the take-back"] = TAKE_BACK
    assert_on_screen(page, name, parts)


def reveal(page):
    """Show the hand, as the player does; the page stays where the page puts it."""
    click_and_wait(page, page.locator(REVEAL))
    page.locator("#table .hand").wait_for()


def assert_turn_on_screen(page, name, parts: dict[str, str]):
    assert_on_screen(page, name, parts)
    assert_board_readable(page, name)


# -- every kind of turn at 390×844 ---------------------------------------------------------

FANTAN_TURN = {
    "the hand's playable cards": ".hand button.card.playable",
    "the rows the cards go to": ".board .row",
}
PASS = {"the pass button": "#table .panel.turn button[name=pass]"}


def has_playable(hotseat, rank=None) -> bool:
    view = hotseat.state.view(hotseat.state.to_act)
    return any(rank is None or code[0] == rank for code in view["playable"])


@pytest.mark.parametrize(("language", "players"), [("en", 4), ("ru", 3)])
def test_fantan_turns_fit_a_phone(phone, member, language, players):
    """Laying a card (the hand's marked cards and the four rows), passing, and the extra card
    after an ace (one more, or stop); four players in English, three (seventeen cards a hand)
    in Russian."""
    table = off_the_loop(
        start, member, "fantan", NAMES[language][:players], seed=7, ace_extra=True, players=players
    )
    page = phone(language=language)
    hand = {"the hand": ".hand .card", "the rows": ".board .row"}
    kinds = {"lay": {**hand, **FANTAN_TURN}, "pass": {**hand, **PASS}}
    # The first turn (a whole hand, laying or passing), then the other kind.
    first = "lay" if has_playable(hotseat_of(table)) else "pass"
    open_handoff(page, table, f"fantan{players}-handoff")
    reveal(page)
    assert_turn_on_screen(page, f"fantan{players}-{first}", kinds[first])
    other = "pass" if first == "lay" else "lay"
    off_the_loop(
        play_until, table, member, lambda h: h.handoff and has_playable(h) == (other == "lay")
    )
    open_handoff(page, table, f"fantan{players}-handoff-2")
    reveal(page)
    assert_turn_on_screen(page, f"fantan{players}-{other}", kinds[other])

    off_the_loop(play_until, table, member, lambda h: h.handoff and has_playable(h, "A"))
    open_handoff(page, table, f"fantan{players}-handoff-3")
    reveal(page)
    click_and_wait(page, page.locator(".hand button.card.playable[value^=A]").first)
    assert hotseat_of(table).state.extra  # the same player: one more card, or stop
    extra = {**hand, **PASS}
    if page.locator(".hand button.card.playable").count():
        extra["the hand's playable cards"] = ".hand button.card.playable"
    assert_turn_on_screen(page, f"fantan{players}-extra", extra)
    assert page.script_errors == []


SAY = "six high clubs, and the ace and king of hearts: call two or three, partner, please!"


def call_unnamed(table, user, say=SAY[:80]):
    """A call of the first contract nobody has named yet, with an announcement as long as may
    be: the auction's list on the board grows as long as it can."""
    named = {call[1] for call in hotseat_of(table).state.calls}
    number = min(set(range(1, 9)) - named)
    move(table, user, {"call": number, "say": say})


def test_variety_turns_fit_a_phone(phone, member):
    """The auction's first call and its ninth (eight contracts named, each with a long
    announcement), leading to a trick and following to one (the last trick shown); in
    Russian, the longer texts."""
    table = off_the_loop(start, member, "variety", NAMES["ru"], seed=3)
    page = phone(language="ru")
    auction = {
        "the hand": ".hand .card",
        "the announcement": "#id_say",
        "the contracts": "#table .panel.turn button.call",
    }
    open_handoff(page, table, "variety-handoff")
    reveal(page)
    assert_turn_on_screen(page, "variety-auction", auction)

    for _ in range(8):
        off_the_loop(call_unnamed, table, member)
    open_handoff(page, table, "variety-handoff-2")
    reveal(page)
    assert page.locator("#table .panel.turn button.call[disabled]").count() >= 1
    assert_turn_on_screen(page, "variety-auction-9", auction)

    state = hotseat_of(table).state
    mine = {number for seat, number, _ in state.calls if seat == state.to_act}
    number = min(set(range(1, 9)) - mine)
    off_the_loop(move, table, member, {"call": number})  # named twice: the contract
    assert hotseat_of(table).state.contract == number
    trick = {"the hand's playable cards": ".hand button.card.playable", "the trick": ".trick"}
    open_handoff(page, table, "variety-handoff-3")
    reveal(page)
    assert_turn_on_screen(page, "variety-lead", trick)

    off_the_loop(
        play_until,
        table,
        member,
        lambda h: h.handoff and h.state.last_trick and len(h.state.trick) == 3,
    )
    open_handoff(page, table, "variety-handoff-4")
    reveal(page)
    assert_turn_on_screen(page, "variety-follow", {**trick, "the hand": ".hand .card"})
    assert page.script_errors == []


def widest_choice(state) -> str:
    """Of the nine cards after the draw, one that may go to the most places, in both squares
    if one may: the page then marks places all over the board."""
    seat = state.to_act

    def reach(card):
        places = state.places_for(seat, card)
        return len({square for square, _ in places}), len(places)

    return CODES[max(nine_cards(state), key=reach)]


def leopard_table(user, names, devices=frozenset()):
    """A deal with cards stacked and face down in the squares, and then played until the
    player to act may end it (five points in his square)."""
    table = start(user, "leopard", names, seed=26, devices=devices)
    for _ in range(6):
        turn_by_services(table, user, choose=stack_and_hide)
    play_turns(table, user, plan_to_end(hotseat_of(table).state))
    return table


def test_leopard_turns_fit_a_phone(phone, member):
    """The turn's start (the hand, draw or end the deal), the card drawn (nine to choose
    from), a card chosen (the places it may go to in both squares, discard), and the hand-off
    with its take-back; in Russian, the longer texts."""
    table = off_the_loop(leopard_table, member, NAMES["ru"][:2])
    assert hotseat_of(table).state.may_end(hotseat_of(table).state.to_act)
    page = phone(language="ru")
    open_handoff(page, table, "leopard-handoff")
    reveal(page)
    assert_turn_on_screen(
        page,
        "leopard-start",
        {
            "the hand": ".hand .card",
            "draw": "#table .panel.turn button[name=draw]",
            "end the deal": "#table .panel.turn button[name=end]",
        },
    )

    click_and_wait(page, page.locator("#table .panel.turn button[name=draw]"))
    assert_turn_on_screen(page, "leopard-drawn", {"the nine cards": ".hand button.card"})

    state = hotseat_of(table).state
    code = widest_choice(state)
    click_and_swap(page, page.locator(f'.hand button.card[value="{code}"]').first)
    places = state.places_for(state.to_act, card_index(code))
    assert {square for square, _ in places} == {0, 1}  # places marked in both squares
    assert page.locator(".leopard-board button.target").count() == len(places)
    assert_turn_on_screen(
        page,
        "leopard-chosen",
        {
            "the nine cards": ".hand button.card",
            "the places": ".leopard-board button.target",
            "discard": "#table .panel.turn button[name=discard]",
        },
    )

    click_and_wait(page, page.locator(".leopard-board button.target").first)
    assert_on_screen(
        page,
        "leopard-handoff-2",
        {"the button that shows the hand": REVEAL, "the take-back": TAKE_BACK},
    )
    assert page.script_errors == []


# -- a seat's own page ---------------------------------------------------------------------


def open_seat_turn(page, table, name, parts: dict[str, str]):
    """The page of the own link of the seat to act, on his turn: no hand-off, his hand."""
    seat = Seat.objects.get(table=table, position=hotseat_of(table).state.to_act)
    page.goto(seat.get_absolute_url())
    page.locator("#table[data-my-turn] .panel.turn .hand").wait_for()
    assert_turn_on_screen(page, name, parts)


def test_every_turn_of_a_seats_own_page_fits_a_phone(phone, member):
    """Every seat on its own device, each game's kinds of turn on the seat's own page, whose
    seats say who is on his device and whose foot has the alerts: Фантан's lay, pass and
    extra card, Выборы's first and ninth call, lead and follow, Леопард's start, card drawn
    and card chosen; in Russian, the longer texts."""
    page = phone(language="ru")
    fantan = off_the_loop(
        start, member, "fantan", NAMES["ru"], seed=7, devices={0, 1, 2, 3}, ace_extra=True
    )
    hand = {"the hand": ".hand .card", "the rows": ".board .row"}
    kinds = {"lay": {**hand, **FANTAN_TURN}, "pass": {**hand, **PASS}}
    first = "lay" if has_playable(hotseat_of(fantan)) else "pass"
    open_seat_turn(page, fantan, f"seat-fantan-{first}", kinds[first])
    other = "pass" if first == "lay" else "lay"
    off_the_loop(play_until, fantan, member, lambda h: has_playable(h) == (other == "lay"))
    open_seat_turn(page, fantan, f"seat-fantan-{other}", kinds[other])
    off_the_loop(play_until, fantan, member, lambda h: has_playable(h, "A"))
    open_seat_turn(page, fantan, "seat-fantan-ace", kinds["lay"])
    click_and_wait(page, page.locator(".hand button.card.playable[value^=A]").first)
    assert hotseat_of(fantan).state.extra  # the same player: one more card, or stop
    extra = {**hand, **PASS}
    if page.locator(".hand button.card.playable").count():
        extra["the hand's playable cards"] = ".hand button.card.playable"
    assert_turn_on_screen(page, "seat-fantan-extra", extra)

    variety = off_the_loop(start, member, "variety", NAMES["ru"], seed=3, devices={0, 1, 2, 3})
    auction = {
        "the hand": ".hand .card",
        "the announcement": "#id_say",
        "the contracts": "#table .panel.turn button.call",
    }
    open_seat_turn(page, variety, "seat-variety-auction", auction)
    for _ in range(8):
        off_the_loop(call_unnamed, variety, member)
    open_seat_turn(page, variety, "seat-variety-auction-9", auction)
    state = hotseat_of(variety).state
    mine = {number for seat, number, _ in state.calls if seat == state.to_act}
    off_the_loop(move, variety, member, {"call": min(set(range(1, 9)) - mine)})
    trick = {"the hand's playable cards": ".hand button.card.playable", "the trick": ".trick"}
    open_seat_turn(page, variety, "seat-variety-lead", trick)
    off_the_loop(
        play_until, variety, member, lambda h: h.state.last_trick and len(h.state.trick) == 3
    )
    open_seat_turn(page, variety, "seat-variety-follow", {**trick, "the hand": ".hand .card"})

    leopard = off_the_loop(leopard_table, member, NAMES["ru"][:2], devices={0, 1})
    draw = "#table .panel.turn button[name=draw]"
    open_seat_turn(
        page,
        leopard,
        "seat-leopard-start",
        {
            "the hand": ".hand .card",
            "draw": draw,
            "end the deal": "#table .panel.turn button[name=end]",
        },
    )
    click_and_wait(page, page.locator(draw))
    assert_turn_on_screen(page, "seat-leopard-drawn", {"the nine cards": ".hand button.card"})
    code = widest_choice(hotseat_of(leopard).state)
    click_and_swap(page, page.locator(f'.hand button.card[value="{code}"]').first)
    assert_turn_on_screen(
        page,
        "seat-leopard-chosen",
        {
            "the nine cards": ".hand button.card",
            "the places": ".leopard-board button.target",
            "discard": "#table .panel.turn button[name=discard]",
        },
    )
    assert page.script_errors == []


# -- no page wider than 360 px --------------------------------------------------------------


def finished(user, game, names, seed, **options):
    """A table whose first deal is over (and not yet followed by the next)."""
    if game == "leopard":  # random play seldom ends a deal before the stock runs out
        table = leopard_table(user, names)
        move(table, user, {"end": True})
    else:
        table = start(user, game, names, seed, **options)
    play_until(table, user, lambda h: h.state.is_over(), limit=2000)
    return table


def shown(table, user):
    """The table with its player to act's hand shown: the turn's page."""
    deal = current_deal(table)
    seat = selectors.load(deal).state.to_act
    services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=user)
    return table


def every_page(user) -> list[str]:
    """The addresses of every kind of page, with the tables and tournaments they show."""
    from django.contrib.auth.models import Group

    from club.roles import DIRECTOR, ORGANISER
    from tournaments import document
    from tournaments import services as tournament_services

    user.groups.add(Group.objects.get_or_create(name=DIRECTOR)[0])
    user.groups.add(Group.objects.get_or_create(name=ORGANISER)[0])  # the members' page
    names = NAMES["ru"]
    pages = [
        "/",
        "/accounts/login/",
        "/replay/",
        "/members/",
        "/account/",
        "/account/password/",
        "/tournaments/",
    ]
    for game in ("fantan", "variety", "leopard"):
        pages += [f"/rules/{game}/", f"/tables/new/{game}/", f"/tournaments/new/{game}/"]
    fantan = finished(user, "fantan", names, seed=7, scoring="cards")
    variety = finished(user, "variety", names, seed=3)
    leopard = finished(user, "leopard", names[:2], seed=26)
    for table in (fantan, variety, leopard):  # the deal's result, its replay, the spectators'
        pages += [
            table.get_absolute_url(),
            f"{table.get_absolute_url()}deals/1/replay/?step=3",
            table.get_watch_url(),
        ]
    pages.append(f"{fantan.get_watch_url()}deals/1/replay/")
    pages += [f"{variety.get_absolute_url()}cycles/1/", f"{leopard.get_absolute_url()}cycles/1/"]
    # the list of tables (the director's too), a change's page, a sheet for the spectators
    pages += [
        "/tables/",
        "/tables/?show=all",
        f"{fantan.get_absolute_url()}finish",
        f"{leopard.get_absolute_url()}abandon",
        f"{variety.get_absolute_url()}rename",
        f"{variety.get_watch_url()}cycles/1/",
    ]
    for table in (fantan, variety, leopard):  # the next deal: its hand-off, then its turn
        deal = current_deal(table)
        services.next_deal(table=table, after=deal.number, user=user)
    pages += [table.get_absolute_url() for table in (fantan, variety, leopard)]
    for table in (fantan, variety, leopard):
        shown(table, user)
    pages += [table.get_absolute_url() for table in (fantan, variety, leopard)]
    deal = current_deal(leopard)
    services.play(
        deal=deal,
        seat=hotseat_of(leopard).state.to_act,
        action={"draw": True},
        expected_version=deal.version,
        user=user,
    )
    code = CODES[hotseat_of(leopard).state.hands[hotseat_of(leopard).state.to_act][-1]]
    pages.append(f"{leopard.get_absolute_url()}?card={code}&at=8")
    for text in (
        (EXAMPLES / "variety-five.json").read_text(encoding="utf-8"),
        (DOCUMENTS / "leopard-swiss-four.json").read_text(encoding="utf-8"),
    ):
        tournament = tournament_services.import_document(doc=document.read(text))
        base = f"/tournaments/{tournament.key}/"
        pages += [
            base,
            f"{base}rounds/1/",
            f"{base}standings/",
            f"{base}projector/",
            f"{base}run/",
            f"{base}rounds/1/sheets/",
        ]
        table = tournament.rounds.get(number=1).tables.first()
        pages.append(f"{base}tables/{table.pk}/sheet/")
    entrant = tournament.entrants.select_related("player").first()
    return pages + [f"/ratings/players/{entrant.player.pk}/"]


def test_no_page_scrolls_sideways_at_360_px(phone, member):
    """Every kind of page, in Russian and in English, signed in (a director) and not: the
    page is no wider than the screen (a wide table scrolls in its own box)."""
    pages = off_the_loop(every_page, member)
    wide = []
    for language in ("ru", "en"):
        page = phone(width=NARROW, language=language)
        for url in pages:
            response = page.goto(url)
            assert response.ok, f"{url}: {response.status}"
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > NARROW:
                wide.append(f"{language} {url}: {width}px")
                shot(page, f"wide-{language}-{len(wide)}")
        visitor = phone(width=NARROW, language=language, signed_in=False)
        for url in ("/", "/accounts/login/"):
            visitor.goto(url)
            if visitor.evaluate("document.documentElement.scrollWidth") > NARROW:
                wide.append(f"{language} {url}, signed out")
        assert page.script_errors == visitor.script_errors == []
    assert wide == [], f"pages wider than {NARROW}px: {wide}"
