"""The live side: spectators' pages, the sockets of every live page, and who may open them.

The sockets are driven in-process through the whole ASGI application (origin check, session,
router); the pages through the test client. Real server processes: tests/servers/test_deployment.py.
"""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client

from core.consumers import CLOSE_LAYER_FAILED, CLOSE_REFUSED_FRAME
from games import selectors, services
from tests.support.hotseat import act, current, leaked_cards, scrub, url
from tests.support.sockets import ORIGIN, socket
from tests.support.tournaments import enter, new_tournament
from tournaments import services as tournament_services
from tournaments.models import Tournament
from tournaments.run import services as run_services


def watch_url(table) -> str:
    return f"/watch/{table.watch_key}/"


def session_of(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


# -- the spectators' page ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_host_page_shows_the_spectators_address_and_it_differs_from_the_tables(
    host_client, table
):
    page = host_client.get(url(table)).content.decode()
    assert f"http://testserver/watch/{table.watch_key}/" in page
    assert table.watch_key != table.token and len(table.watch_key) >= 22  # 128 random bits
    other = services.start_table(
        user=table.created_by,
        game=table.game,
        players=list(table.players.order_by("seats__position")),
        options={},
        seed=1,
    )
    assert other.watch_key != table.watch_key


@pytest.mark.django_db
def test_an_unknown_spectators_key_and_the_tables_own_token_are_not_found(client, table):
    assert client.get("/watch/no-such-key/").status_code == 404
    assert client.get(f"/watch/{table.token}/").status_code == 404
    assert client.post(watch_url(table)).status_code == 405  # a spectator's page only reads


@pytest.mark.django_db
def test_a_spectator_never_receives_a_hidden_card_over_whole_deals(client, table, host):
    """Signed in or not, the spectators' page (full and as htmx fetches it) never holds a
    hand, the stock or the face of a face-down card — after every event of a whole deal and
    on the next deal's first page — nor the table's own address, nor anything to press."""

    def check():
        hidden = sorted(selectors.load(current(table)).state.hidden_from(None))
        for response in (
            client.get(watch_url(table)),
            client.get(watch_url(table), HTTP_HX_REQUEST="true"),
        ):
            assert response.status_code == 200
            html = response.content.decode()
            leaks = leaked_cards(scrub(html, table), hidden)
            assert not leaks, f"a spectator sees {leaks}"
            assert table.token not in html
            assert 'action="/t/' not in html and "hx-post" not in html

    check()
    record = f"/watch/{table.watch_key}/deals/1/record.json"
    assert client.get(record).status_code == 409  # every hand as dealt: not while played
    for choose in range(1000):
        deal = current(table)
        if deal.is_over:
            break
        act(table, choose=choose, user=host)
        check()
    assert current(table).is_over
    page = client.get(watch_url(table)).content.decode()
    assert "The deal is over" in page or "Сдача окончена" in page
    assert f'href="{record}"' in page  # over: the record is no secret any more
    assert client.get(record).json() == selectors.record(current(table))
    services.next_deal(table=table, after=1, user=host)
    check()


@pytest.mark.django_db
def test_a_spectator_sees_the_public_table_the_log_and_whose_turn_it_is(client, table, host):
    for choose in range(3):
        act(table, choose=choose, user=host)
    hotseat = selectors.load(current(table))
    state = hotseat.state
    page = client.get(watch_url(table), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    to_act = selectors.names(table)[state.to_act]
    assert f"{to_act} is to play" in page
    assert "spectator&#x27;s view" in page or "spectator's view" in page
    # the log: three actions (and Леопард's draws before them)
    assert page.count('<li class="action">') == len(hotseat.actions) >= 3
    counts = state.view(None)["counts"]
    for count in set(counts):
        assert f"{count} card" in page  # each seat's card count


# -- the sockets ---------------------------------------------------------------------------


def connect(path: str, *headers):
    async def run():
        communicator = socket(path, *headers)
        connected, code = await communicator.connect()
        first = await communicator.receive_from() if connected else None
        await communicator.disconnect()
        return connected, first

    return async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_the_host_socket_needs_the_session_of_a_member_who_may_open_the_table(
    fantan_table, host, django_user_model
):
    path = f"/ws/t/{fantan_table.token}/"
    assert connect(path, ORIGIN, session_of(host)) == (True, '{"stamp": [1, 0]}')
    assert connect(path, ORIGIN) == (False, None)  # no session
    stranger = django_user_model.objects.create_user("stranger", password="pw-for-tests-only")
    assert connect(path, ORIGIN, session_of(stranger)) == (False, None)  # another's table
    seated = django_user_model.objects.create_user("seated", password="pw-for-tests-only")
    player = fantan_table.seats.get(position=2).player
    player.user = seated
    player.save()
    assert connect(path, ORIGIN, session_of(seated))[0]  # a member seated at it
    assert connect("/ws/t/unknownunknownunknown/", ORIGIN, session_of(host)) == (False, None)


@pytest.mark.django_db(transaction=True)
def test_a_foreign_origin_is_refused_on_every_socket(fantan_table, host):
    foreign = (b"origin", b"http://evil.example")
    assert connect(f"/ws/t/{fantan_table.token}/", foreign, session_of(host)) == (False, None)
    assert connect(f"/ws/watch/{fantan_table.watch_key}/", foreign) == (False, None)
    assert connect(f"/ws/watch/{fantan_table.watch_key}/") == (False, None)  # no origin


@pytest.mark.django_db(transaction=True)
def test_a_spectator_socket_asks_only_the_spectators_key(fantan_table):
    assert connect(f"/ws/watch/{fantan_table.watch_key}/", ORIGIN) == (True, '{"stamp": [1, 0]}')
    assert connect("/ws/watch/unknownunknownunknown/", ORIGIN) == (False, None)
    # the table's own address is not a spectators' key, nor the other way round
    assert connect(f"/ws/watch/{fantan_table.token}/", ORIGIN) == (False, None)
    assert connect(f"/ws/t/{fantan_table.watch_key}/", ORIGIN) == (False, None)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path",
    [
        "/ws/",
        "/ws/nothing/",
        "/",
        "/ws/t/",
        "/ws/t/a/b/",
        "/ws/watch/%00/",
        "/ws/tournaments/no-such/",
    ],
)
def test_an_unknown_address_is_refused_cleanly(path, caplog):
    assert connect(path, ORIGIN) == (False, None)
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "frame", [{"text": "not json"}, {"bytes": b"\x00\xff"}, {"text": '{"stamp": [9, 9]}'}]
)
def test_whatever_a_page_sends_closes_its_socket_cleanly(fantan_table, frame, caplog):
    async def run():
        communicator = socket(f"/ws/watch/{fantan_table.watch_key}/", ORIGIN)
        assert (await communicator.connect())[0]
        await communicator.receive_from()  # the version now
        await communicator.send_input({"type": "websocket.receive", **frame})
        closed = await communicator.receive_output()
        await communicator.wait()
        return closed

    assert async_to_sync(run)() == {"type": "websocket.close", "code": CLOSE_REFUSED_FRAME}
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


@pytest.mark.django_db(transaction=True)
def test_host_and_spectator_sockets_follow_every_action_and_carry_no_card(fantan_table, host):
    cookie = session_of(host)  # not in the event loop's thread, whose connection stays open

    async def run():
        host_socket = socket(f"/ws/t/{fantan_table.token}/", ORIGIN, cookie)
        watcher = socket(f"/ws/watch/{fantan_table.watch_key}/", ORIGIN)
        assert (await host_socket.connect())[0] and (await watcher.connect())[0]
        await database_sync_to_async(act)(fantan_table, 0, host)  # a reveal and an action
        received = []
        for communicator in (host_socket, watcher):
            received.append([json.loads(await communicator.receive_from()) for _ in range(3)])
            assert await communicator.receive_nothing()
            await communicator.disconnect()
        return received

    host_messages, watcher_messages = async_to_sync(run)()
    expected = [{"stamp": [1, 0]}, {"stamp": [1, 1]}, {"stamp": [1, 2]}]
    assert host_messages == watcher_messages == expected
    dealt = current(fantan_table).dealt["hands"]
    assert not leaked_cards(json.dumps(host_messages), [c for hand in dealt for c in hand])


@pytest.mark.django_db(transaction=True)
def test_a_socket_that_cannot_join_its_group_is_closed_and_the_write_still_stands(
    fantan_table, host, monkeypatch
):
    """The channel layer's Redis is down: the page is refused (it retries), no traceback."""
    layer = get_channel_layer()

    async def down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(type(layer), "group_add", down)
    assert connect(f"/ws/watch/{fantan_table.watch_key}/", ORIGIN) == (False, None)
    act(fantan_table, 0, host)
    assert current(fantan_table).version == 2


# -- tournaments ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_tournament_socket_is_public_and_tells_each_change(django_user_model):
    director = django_user_model.objects.create_user("director", password="pw-for-tests-only")
    tournament = tournament_services.create_tournament(
        user=director,
        name="Кубок клуба",
        game="fantan",
        options={},
        settings={},
        rounds_planned=3,
        seating="mixing",
        seed=1,
        bye_points=0,
        order=["match_points", "points", "opponents", "wins"],
    )
    path = "/ws/tournaments/" + tournament.key + "/"

    async def run():
        communicator = socket(path, ORIGIN)
        assert (await communicator.connect())[0]
        first = json.loads(await communicator.receive_from())
        await database_sync_to_async(run_services.add_entrant)(
            tournament=tournament, player="Анна", user=director
        )
        second = json.loads(await communicator.receive_from())
        await communicator.disconnect()
        return first, second

    version = Tournament.objects.get(pk=tournament.pk).version
    first, second = async_to_sync(run)()
    assert first == {"stamp": [version]} and second == {"stamp": [version + 1]}
    assert Tournament.objects.get(pk=tournament.pk).version == version + 1


@pytest.mark.django_db(transaction=True)
def test_a_round_page_links_the_spectators_of_its_tables_played_here_and_follows_them(client, host):
    tournament = new_tournament(host, game="leopard", seating="swiss", options={"deals": 1})
    enter(tournament, ["Анна", "Борис"], host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    hotseat = run_services.play_here(table=round_.tables.get(), user=host).hotseat
    watch = f'href="/watch/{hotseat.watch_key}/"'
    for address in (f"/tournaments/{tournament.key}/rounds/1/", f"/tournaments/{tournament.key}/"):
        page = client.get(address).content.decode()
        assert watch in page and hotseat.token not in page
    assert client.get(f"/tournaments/{tournament.key}/rounds/2/").status_code == 404
    assert client.get(watch_url(hotseat)).status_code == 200  # not signed in

    async def run():
        communicator = socket(f"/ws/tournaments/{tournament.key}/", ORIGIN)
        assert (await communicator.connect())[0]
        first = json.loads(await communicator.receive_from())["stamp"]
        # the deal played to its end: its result fills the table's sheet
        await database_sync_to_async(finish)(hotseat, host)
        message = await communicator.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            # the layer's Redis timed out under a loaded machine (code 4011): the page
            # reconnects and catches up, and so does this test
            assert message["code"] == CLOSE_LAYER_FAILED, message
            communicator = socket(f"/ws/tournaments/{tournament.key}/", ORIGIN)
            assert (await communicator.connect())[0]
            message = await communicator.receive_output(timeout=5)
        later = json.loads(message["text"])["stamp"]
        await communicator.disconnect()
        return first, later

    first, later = async_to_sync(run)()
    assert later > first
    page = client.get(f"/tournaments/{tournament.key}/standings/").content.decode()
    assert f'data-stamp="{later[0]}"' in page


def finish(table, user):
    for choose in range(1000):
        if current(table).is_over:
            return
        act(table, choose=choose, user=user)
