"""Each person's seat's own link (/s/<key>/): his hand alone, his moves alone, live; a link
replaced stops working at once; a closed table's link shows it read-only."""

import json
import logging
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client

from club.models import AuditEntry, Player
from games import registry, selectors, services
from games.models import Seat, Table
from tests.support.hotseat import (
    HTMX,
    alert,
    current,
    form_fields,
    leaked_cards,
    next_action,
    scrub,
    stamp,
    step_first,
    unchanged,
    url,
)
from tests.support.sockets import ORIGIN, socket

pytestmark = pytest.mark.django_db

GAMES = sorted(registry.GAMES)


def visitor() -> Client:
    """A phone with a link, signed in to nothing, reading English: the tests look for its
    words."""
    return Client(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def host_client(client, host):
    """The host's screen, read in English: the tests look for its words."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    client.force_login(host)
    return client


def devices_for(seats: int) -> set[int]:
    return {1} if seats == 2 else {1, 2}  # seat 1 at the screen always


@pytest.fixture(params=GAMES, ids=GAMES)
def mixed(request, host, players):
    """A table of each game: seat 1 at the shared screen, the others on devices but one."""
    rules = registry.rules(request.param)
    seats = rules.seats(rules.parse_options({}))
    return services.start_table(
        user=host,
        game=request.param,
        players=players[:seats],
        options={},
        seed=7,
        devices=devices_for(seats),
    )


def seat_of(table, position) -> Seat:
    return Seat.objects.get(table=table, position=position)


def seat_url(seat, what=""):
    return f"/s/{seat.key}/{what}"


def fresh(table) -> Table:
    return selectors.table_by_token(table.token)


def hidden_from(table, position) -> list[str]:
    return sorted(selectors.load(current(table)).state.hidden_from(position))


def check_seat_page(html: str, table, seat: Seat):
    assert table.token not in html and table.watch_key not in html
    leaks = leaked_cards(scrub(html, table), hidden_from(table, seat.position))
    assert not leaks, f"another seat's cards on the seat page: {leaks}"


def check_screen(html: str, table):
    """The shared screen never holds a device seat's hand (nor any hand but the shown one)."""
    hotseat = selectors.load(current(table))
    leaks = leaked_cards(scrub(html, table), sorted(hotseat.state.hidden_from(hotseat.shown_seat)))
    assert not leaks, f"hidden cards on the shared screen: {leaks}"


def turn_fields(table, action):
    deal = current(table)
    return stamp(deal, seat=action["seat"], **form_fields(table, action))


def play_one(host_client, anyone, table):
    """The seat to act plays his next move where he plays: his device's link or the screen."""
    table = fresh(table)
    deal = current(table)
    hotseat = selectors.load(deal)
    to_act = hotseat.state.to_act
    action = next_action(hotseat, 0)
    action = step_first(hotseat, action) or action
    if to_act in hotseat.devices:
        response = anyone.post(seat_url(seat_of(table, to_act), "act"), turn_fields(table, action))
    else:
        if hotseat.handoff:
            response = host_client.post(url(table, "reveal"), stamp(deal, seat=to_act), **HTMX)
            assert response.status_code == 200, alert(response)
        response = host_client.post(url(table, "act"), turn_fields(table, action), **HTMX)
    assert response.status_code in (200, 302), alert(response)


@pytest.mark.any_database
def test_every_seat_page_holds_its_own_hand_alone_through_a_whole_deal(host_client, mixed):
    anyone = visitor()  # a seat's link needs no account
    people = list(Seat.objects.filter(table=mixed).order_by("position"))
    for _ in range(500):
        table = fresh(mixed)
        for seat in people:
            response = anyone.get(seat_url(seat))
            assert response.status_code == 200
            check_seat_page(response.content.decode(), table, seat)
            partial = anyone.get(seat_url(seat), **HTMX)
            check_seat_page(partial.content.decode(), table, seat)
        check_screen(host_client.get(url(table)).content.decode(), table)
        if current(table).is_over:
            break
        play_one(host_client, anyone, table)
    assert current(mixed).is_over


def test_a_device_seats_turn_is_played_on_its_page_with_its_hand_and_moves(host_client, mixed):
    anyone = visitor()
    for _ in range(200):  # the screen's seats play until a device seat is to act
        hotseat = selectors.load(current(fresh(mixed)))
        if hotseat.on_device:
            break
        play_one(host_client, anyone, mixed)
    table = fresh(mixed)
    hotseat = selectors.load(current(table))
    seat = seat_of(table, hotseat.state.to_act)
    page = anyone.get(seat_url(seat)).content.decode()
    assert "data-my-turn" in page and f'action="/s/{seat.key}/act"' in page
    host_page = host_client.get(url(table)).content.decode()
    assert f"Waiting for {seat.name}" in host_page
    assert "show my hand" not in host_page


def test_a_forged_seat_on_a_seat_page_changes_nothing(host_client, fantan_table, host):
    table = services.start_table(
        user=host,
        game="fantan",
        players=list(Player.objects.order_by("pk")[:4]),
        options={},
        seed=7,
        devices={0, 1, 2, 3},
    )
    deal = current(table)
    hotseat = selectors.load(deal)
    to_act = hotseat.state.to_act
    other = seat_of(table, (to_act + 1) % 4)
    action = next_action(hotseat, 0)
    response = visitor().post(seat_url(other, "act"), turn_fields(table, action), **HTMX)
    assert response.status_code == 403
    assert "its own seat only" in alert(response)
    unchanged(table, deal)
    # the seat's own field left out: it plays for its own seat, whose turn it is not
    fields = {k: v for k, v in turn_fields(table, action).items() if k != "seat"}
    response = visitor().post(seat_url(other, "act"), fields, **HTMX)
    assert response.status_code >= 400
    unchanged(table, deal)


def test_the_shared_screen_neither_shows_nor_plays_a_device_seat(host_client, host, players):
    table = services.start_table(
        user=host, game="fantan", players=players, options={}, seed=7, devices={0, 1, 2, 3}
    )
    deal = current(table)
    hotseat = selectors.load(deal)
    to_act = hotseat.state.to_act
    response = host_client.post(url(table, "reveal"), stamp(deal, seat=to_act), **HTMX)
    assert response.status_code == 400 and "own device" in alert(response)
    response = host_client.post(
        url(table, "act"), turn_fields(table, next_action(hotseat, 0)), **HTMX
    )
    assert response.status_code == 400 and "own device" in alert(response)
    unchanged(table, deal)


def test_a_seat_at_the_shared_screen_is_not_played_from_its_link(host, players):
    table = services.start_table(
        user=host, game="fantan", players=players, options={}, seed=7, devices=set()
    )
    deal = current(table)
    hotseat = selectors.load(deal)
    seat = seat_of(table, hotseat.state.to_act)
    page = visitor().get(seat_url(seat)).content.decode()
    assert "play it at the shared screen" in page
    response = visitor().post(
        seat_url(seat, "act"), turn_fields(table, next_action(hotseat, 0)), **HTMX
    )
    assert response.status_code == 400
    unchanged(table, deal)


def test_wrong_keys_and_robots_seats_are_a_plain_404(host, players):
    table = services.start_table(
        user=host,
        game="fantan",
        players=[*players[:3], __import__("games.robot_seats").robot_seats.RobotSeat("beginner")],
        options={},
        seed=7,
        devices={0},
    )
    robot = seat_of(table, 3)
    client = visitor()
    for path in ("/s/not-a-key/", seat_url(robot), f"/s/{table.token}/", f"/s/{table.watch_key}/"):
        assert client.get(path).status_code == 404
        assert client.post(path + "act", {}).status_code == 404


def test_a_replaced_link_stops_working_at_once_and_the_audit_names_no_key(
    host_client, host, players, caplog
):
    table = services.start_table(
        user=host, game="fantan", players=players, options={}, seed=7, devices={2}
    )
    old = seat_of(table, 2)
    page = visitor().get(seat_url(old)).content.decode()
    assert "link was replaced" in page  # what the page says once it is
    host_page = host_client.get(url(table), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert seat_url(old) in host_page and "<svg" in host_page  # the link and its QR code
    response = host_client.post(url(table, "reissue-seat"), {"seat": 2, "version": table.version})
    assert response.status_code == 302
    new = seat_of(table, 2)
    assert new.key != old.key and len(new.key) >= 22  # 128 bits
    with caplog.at_level(logging.WARNING):
        assert visitor().get(seat_url(old)).status_code == 404
        assert visitor().post(seat_url(old, "act"), {}).status_code == 404
    assert old.key not in caplog.text
    assert visitor().get(seat_url(new)).status_code == 200
    entry = AuditEntry.objects.get(verb="seat.reissue")
    assert entry.data["seat"] == 2 and entry.user == host
    every = json.dumps(list(AuditEntry.objects.values_list("data", flat=True)))
    assert old.key not in every and new.key not in every
    # a stale page (the version it showed is gone) changes nothing
    response = host_client.post(url(table, "reissue-seat"), {"seat": 2, "version": 0})
    assert response.status_code == 409
    assert seat_of(table, 2).key == new.key


def test_only_who_may_manage_the_table_replaces_a_link(host, players, django_user_model):
    table = services.start_table(
        user=host, game="fantan", players=players, options={}, seed=7, devices={2}
    )
    someone = django_user_model.objects.create_user("someone", password="pw-for-tests-only")
    client = visitor()
    client.force_login(someone)
    key = seat_of(table, 2).key
    response = client.post(url(table, "reissue-seat"), {"seat": 2, "version": table.version})
    assert response.status_code == 403
    assert seat_of(table, 2).key == key


@pytest.mark.parametrize("close", ["finish", "abandon"])
def test_a_closed_tables_seat_links_show_it_read_only(host, players, close):
    table = services.start_table(
        user=host, game="fantan", players=players, options={}, seed=7, devices={0, 1, 2, 3}
    )
    if close == "finish":
        from tests.support.hotseat import finish_deal

        # every seat on a device: the services play them as their pages would
        for _ in range(500):
            deal = current(table)
            if deal.is_over:
                break
            hotseat = selectors.load(deal)
            action = next_action(hotseat, 0)
            action = step_first(hotseat, action) or action
            services.play(
                deal=deal,
                seat=action["seat"],
                action={k: v for k, v in action.items() if k != "seat"},
                expected_version=deal.version,
                user=None,
                device=True,
            )
        del finish_deal
        services.finish_table(table=table, expected_version=table.version, user=host)
    else:
        services.abandon_table(table=table, expected_version=table.version, user=host)
    table = fresh(table)
    deal = current(table)
    for seat in Seat.objects.filter(table=table):
        page = visitor().get(seat_url(seat)).content.decode()
        assert "/act" not in page and "next-deal" not in page
        assert (
            not leaked_cards(
                scrub(page, table),
                [] if deal.is_over else sorted(deal.dealt["hands"][0]),
            )
            or seat.position == 0
        )
    seat = seat_of(table, 0)
    response = visitor().post(seat_url(seat, "next-deal"), {"deal": deal.number}, **HTMX)
    assert response.status_code == 409


def test_a_device_player_takes_his_move_back_on_his_page(host, players):
    table = services.start_table(
        user=host, game="fantan", players=players, options={}, seed=7, devices={0, 1, 2, 3}
    )
    client = visitor()
    deal = current(table)
    hotseat = selectors.load(deal)
    seat = seat_of(table, hotseat.state.to_act)
    response = client.post(
        seat_url(seat, "act"), turn_fields(table, next_action(hotseat, 0)), **HTMX
    )
    assert response.status_code == 200
    deal = current(table)
    if selectors.load(deal).state.to_act == seat.position:
        return  # an extra card is his to lay: his turn goes on
    assert "take back the last move" in response.content.decode()
    assert "take back" not in client.get(url(table)).content.decode()
    # another seat's page may not take it back
    other = seat_of(table, (seat.position + 1) % 4)
    response = client.post(seat_url(other, "take-back"), stamp(deal, seat=seat.position), **HTMX)
    assert response.status_code == 403
    response = client.post(seat_url(seat, "take-back"), stamp(deal, seat=seat.position), **HTMX)
    assert response.status_code == 200, alert(response)
    assert selectors.load(current(table)).actions == []


def test_a_members_front_page_lists_his_seats_and_his_turn(host, players, django_user_model):
    member = django_user_model.objects.create_user("vera", password="pw-for-tests-only")
    players[2].user = member
    players[2].save()
    table = services.start_table(
        user=host, game="fantan", players=players, options={}, seed=7, devices={2}
    )
    client = visitor()
    client.force_login(member)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Fan-Tan with Анна, Борис, Глеб" in page
    assert seat_url(seat_of(table, 2)) in page
    my_turn = selectors.load(current(table)).state.to_act == 2
    assert ("your turn" in page) == my_turn


def test_the_new_table_form_seats_a_person_on_his_own_device(host_client, players):
    response = host_client.post(
        "/tables/new/fantan/",
        {
            **{f"seat_{i}": p.pk for i, p in enumerate(players)},
            "device_1": "device",
            "device_0": "screen",
            "start_rank": "8",
            "until_out": "1",
            "premium_1": "800",
            "premium_2": "500",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    table = Table.objects.get()
    assert [s.device for s in table.seats.order_by("position")] == [False, True, False, False]


# -- the seat's socket ---------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_seat_socket_sends_versions_only_and_stamps_presence(host, players):
    table = services.start_table(
        user=host, game="fantan", players=players, options={}, seed=7, devices={0, 1, 2, 3}
    )
    seat = seat_of(table, 0)

    async def follow():
        listener = socket(f"/ws/seat/{seat.key}/", ORIGIN)
        connected, _ = await listener.connect()
        assert connected
        first = json.loads(await listener.receive_from())
        await database_sync_to_async(play_device_move)(table)
        second = json.loads(await listener.receive_from(timeout=5))
        await listener.send_to(text_data="ping")
        await listener.receive_nothing(timeout=0.2)
        await listener.disconnect()
        refused = socket("/ws/seat/not-a-key/", ORIGIN)
        ok, _ = await refused.connect()
        assert not ok
        return first, second

    first, second = async_to_sync(follow)()
    assert set(first) == set(second) == {"stamp"}
    assert all(isinstance(n, int) for n in first["stamp"] + second["stamp"])
    assert second["stamp"][1] == first["stamp"][1] + 1
    assert seat_of(table, 0).seen_at is not None
    page = visitor().get(seat_url(seat)).content.decode()
    assert re.search(r"on their device: connected", page)


def play_device_move(table):
    table = fresh(table)
    deal = current(table)
    hotseat = selectors.load(deal)
    action = next_action(hotseat, 0)
    services.play(
        deal=deal,
        seat=action["seat"],
        action={k: v for k, v in action.items() if k != "seat"},
        expected_version=deal.version,
        user=None,
        device=True,
    )
