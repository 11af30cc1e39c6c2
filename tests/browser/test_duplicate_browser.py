"""A duplicate round in real browsers against a real daphne process: the director starts two
Леопард tables of one round from his page, one on its players' phones and one mixed (a seat
on a phone, the other at the club's shared screen); they are dealt the same hands; until the
second has played the deal, the first table's phones see neither its result nor its
traveller, nor the other table's play; once it has, the standings page open on a phone
shows the percentages without a reload, and the traveller opens."""

import random
import time

import pytest
from django.urls import reverse

from games import selectors
from tests.support.hotseat import current, leaked_cards, scrub
from tests.support.live import next_post
from tests.support.servers import Member, MemberSession
from tests.support.tournaments import enter, new_tournament
from tournaments.run import services as run_services

pytestmark = [pytest.mark.browser, pytest.mark.servers, pytest.mark.django_db(transaction=True)]
NAMES = ["Анна", "Борис", "Вера", "Глеб"]


def traveller(tournament, size: int, number: int) -> str:
    return reverse(
        "tournament-traveller",
        kwargs={"key": tournament.key, "round_number": 1, "size": size, "number": number},
    )


def play_out(table, post_for, seconds=60):
    """Play the table's deal to its end, each post through the served process."""
    rng = random.Random(3)
    started = time.monotonic()
    while not current(table).is_over:
        assert time.monotonic() - started < seconds, "the deal did not end"
        post = next_post(table, rng)
        assert post_for(post).ok


def test_a_duplicate_round_on_phones_and_a_shared_screen_deals_the_same_and_hides_it(
    served, tab, host
):
    tournament = new_tournament(
        host, game="leopard", seating="swiss", options={"deals": 1}, duplicate=True
    )
    enter(tournament, NAMES, host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    first_table, second_table = round_.tables.order_by("number")
    (server,) = served(1)
    director = tab(server, user=host)
    director.goto(f"/tournaments/{tournament.key}/run/")
    director.locator(f"#table-{first_table.pk} button[value=devices]").click()
    director.wait_for_url("**/t/*/")
    director.goto(f"/tournaments/{tournament.key}/run/")
    mixed = director.locator(f"#table-{second_table.pk} details.mixed-screens")
    mixed.locator("summary").click()
    mixed.locator('input[name=device][value="1"]').check()
    mixed.locator("button[value=mixed]").click()
    director.wait_for_url("**/t/*/")
    first_table.refresh_from_db()
    second_table.refresh_from_db()
    phones, screen = first_table.hotseat, second_table.hotseat
    assert sorted(phones.seats.values_list("device", flat=True)) == [True, True]
    assert list(screen.seats.order_by("position").values_list("device", flat=True)) == [
        False,
        True,
    ]

    # the same hand at the same seat, on a phone and at the shared screen
    seat = phones.seats.get(position=0)
    phone = tab(server, phone=True)
    phone.goto(f"/s/{seat.key}/")
    phone.locator('#live-status[data-socket="open"]').wait_for(state="attached")
    mine = sorted(selectors.load(current(phones)).state.view(0)["hand"])
    assert mine == sorted(selectors.load(current(screen)).state.view(0)["hand"])
    hidden = sorted(selectors.load(current(phones)).state.hidden_from(0))
    assert not leaked_cards(scrub(phone.content(), phones), hidden)

    # the phones' table plays the deal, each seat from its own page
    sessions = {
        s.position: MemberSession(server.url, {"csrftoken": "c" * 32}) for s in phones.seats.all()
    }
    keys = dict(phones.seats.values_list("position", "key"))
    play_out(
        phones,
        lambda post: sessions[post.fields["seat"]].post(
            f"/s/{keys[post.fields['seat']]}/{post.what}", post.fields
        ),
    )
    dealt = current(phones).dealt
    pack = sorted({card for hand in dealt["hands"] for card in hand} | set(dealt["stock"]))

    # from the phone: the other table's page says the deal is in play, and shows no card
    phone.goto(f"/watch/{screen.watch_key}/")
    assert "in play" in phone.locator("main").inner_text()
    assert not leaked_cards(scrub(phone.content(), screen), pack)
    assert phone.goto(traveller(tournament, 2, 1)).status == 404
    phone.goto(f"/tournaments/{tournament.key}/standings/")
    phone.evaluate("window.sameDocument = true")
    phone.locator('#live-status[data-socket="open"]').wait_for(state="attached")
    assert phone.locator("td.percent").all_inner_texts() in ([], ["0.00"] * 4, ["0"] * 4)

    # the mixed table plays it, its first seat at the shared screen, its second on a phone:
    # the deal is scored, and the standings follow on the first table's phone
    host_session = Member(host).session(server)
    on_phone = screen.seats.get(position=1)
    phone_session = MemberSession(server.url, {"csrftoken": "c" * 32})
    play_out(
        screen,
        lambda post: (
            phone_session.post(f"/s/{on_phone.key}/{post.what}", post.fields)
            if post.fields.get("seat") == 1 and post.what == "act"
            else host_session.post(f"/t/{screen.token}/{post.what}", post.fields)
        ),
    )
    version = type(tournament).objects.get(pk=tournament.pk).version
    phone.locator(f'[data-live][data-stamp="{version}"]').wait_for(timeout=5000)
    assert phone.evaluate("window.sameDocument") is True
    percents = phone.locator("td.percent").all_inner_texts()
    assert len(percents) == 4 and set(percents) != {"0.00"}
    answer = phone.goto(traveller(tournament, 2, 1))
    assert answer.status == 200
    # each seat's result at both tables, every player of the round named
    assert phone.locator(".traveller-seat tbody tr").count() == 4
    shown = phone.locator("main").inner_text()
    assert all(name in shown for name in NAMES)
