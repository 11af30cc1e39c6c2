"""A round on the players' own devices: each entrant's page says where he sits once the
round is released, and follows the tournament live; a table played here may be played with
every seat on its player's phone, its seat links shown to that player and to the
tournament's directors alone."""

import json
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from club.models import AuditEntry, Player
from club.roles import DIRECTOR, ORGANISER, PLAYER
from games.models import Table as HotseatTable
from tests.support.accounts import name_official, user_in
from tests.support.sockets import ORIGIN, socket
from tests.support.tournaments import enter, new_tournament, variety_row
from tournaments.models import RoundTable
from tournaments.results import services as results_services
from tournaments.run import services as run_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
NAMES = ["Анна", "Борис", "Вера", "Глеб"]


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


def four(director, *, released=True):
    """A Выборы tournament of four club players: round 1, one table of four, seated."""
    tournament = new_tournament(director)
    enter(tournament, NAMES, director)
    round_ = run_services.draw_round(tournament=tournament, user=director)
    if released:
        run_services.release_round(round_=round_, user=director)
    return tournament, round_.tables.get()


def seat_names(table: RoundTable) -> list[str]:
    return [s.entrant.player.name for s in table.seats.order_by("position")]


def player_page(client, name: str) -> str:
    player = Player.objects.get(name=name)
    response = client.get(f"/ratings/players/{player.pk}/", **EN)
    assert response.status_code == 200
    return response.content.decode()


def round_page(client, tournament) -> str:
    response = client.get(f"/tournaments/{tournament.key}/rounds/1/", **EN)
    assert response.status_code == 200
    return response.content.decode()


def play_here_url(tournament, table) -> str:
    return f"/tournaments/{tournament.key}/run/tables/{table.pk}/play-here"


def where(html: str) -> list[str]:
    return [" ".join(p.split()) for p in re.findall(r'class="current-seat"><strong>(.*?)</', html)]


# -- where he sits -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_entrants_page_shows_his_table_and_seat_once_the_round_is_released(client, director):
    tournament, table = four(director, released=False)
    for name in NAMES:
        assert where(player_page(client, name)) == []  # the draft is the director's
    run_services.release_round(round_=table.round, user=director)
    names = seat_names(table)
    for seat, name in enumerate(names, start=1):
        assert where(player_page(client, name)) == [
            f"Round 1: table 1, seat {seat} — {', '.join(names)}"
        ]


@pytest.mark.django_db
def test_an_entrants_page_names_his_bye_and_nothing_once_the_round_counts(client, director):
    tournament = new_tournament(director)
    enter(tournament, [*NAMES, "Дарья"], director)
    round_ = run_services.draw_round(tournament=tournament, user=director)
    run_services.release_round(round_=round_, user=director)
    (bye,) = round_.byes.all()
    assert where(player_page(client, bye.entrant.player.name)) == ["Round 1: a bye"]
    table = round_.tables.get()
    results_services.enter_sheet(
        table=table, rows=[variety_row(k) for k in range(4)], user=director
    )
    for name in seat_names(table):
        assert where(player_page(client, name)) == []  # the round is over: nowhere to sit


@pytest.mark.django_db(transaction=True)
def test_an_entrants_page_follows_the_tournament_and_learns_his_seat_on_release(client, director):
    tournament, table = four(director, released=False)
    name = seat_names(table)[2]
    page = player_page(client, name)
    live = re.search(r'data-live="([^"]+)" data-stamp="(\d+)"', page)
    assert live and live[1] == f"/ws/tournaments/{tournament.key}/"
    shown = int(live[2])
    assert where(page) == []

    async def follow():
        communicator = socket(live[1], ORIGIN)
        assert (await communicator.connect())[0]
        first = json.loads(await communicator.receive_from())["stamp"]
        await database_sync_to_async(run_services.release_round)(round_=table.round, user=director)
        later = json.loads(await communicator.receive_from(timeout=5))["stamp"]
        await communicator.disconnect()
        return first, later

    first, later = async_to_sync(follow)()
    assert first == [shown] and later > first  # the page fetches itself again
    page = player_page(client, name)
    assert f'data-stamp="{later[0]}"' in page
    assert where(page)[0].startswith("Round 1: table 1, seat 3 — ")


# -- play here, on the players' devices ------------------------------------------------------


@pytest.mark.django_db
def test_the_director_chooses_at_play_here_one_screen_or_every_seat_on_its_own_device(
    client, director
):
    tournament, table = four(director)
    client.force_login(director)
    run = client.get(f"/tournaments/{tournament.key}/run/", **EN).content.decode()
    assert 'name="screen" value="devices"' in run and 'name="screen" value="shared"' in run
    response = client.post(play_here_url(tournament, table), {"screen": "devices"})
    assert response.status_code == 302
    table.refresh_from_db()
    seats = list(table.hotseat.seats.order_by("position"))
    assert [s.player.name for s in seats] == seat_names(table)
    assert all(s.device for s in seats)
    assert AuditEntry.objects.get(verb="tournament.play_here").data["devices"] is True
    # the host page shows each seat's link to hand out
    host = client.get(response["Location"], **EN).content.decode()
    assert all(f"/s/{s.key}/" in host for s in seats)

    other = new_tournament(director, name="Второй")
    enter(other, NAMES, director)
    second = run_services.draw_round(tournament=other, user=director)
    run_services.release_round(round_=second, user=director)
    shared = second.tables.get()
    response = client.post(play_here_url(other, shared), {"screen": "shared"})
    assert response.status_code == 302
    shared.refresh_from_db()
    assert not shared.hotseat.seats.filter(device=True).exists()


@pytest.mark.django_db
def test_a_damaged_choice_at_play_here_is_refused_and_starts_nothing(client, director):
    tournament, table = four(director)
    client.force_login(director)
    response = client.post(play_here_url(tournament, table), {"screen": "phones"}, **EN)
    assert response.status_code == 400
    assert "incomplete or damaged" in response.content.decode()
    table.refresh_from_db()
    assert table.hotseat_id is None and not HotseatTable.objects.exists()


# -- who is shown a seat link ------------------------------------------------------------------


@pytest.fixture
def on_devices(django_user_model, director):
    """The table played on devices; a member of each kind: two of its players with their
    accounts, a scorer of the tournament, a member of no role in it, an organiser, staff."""
    tournament, table = four(director)
    run_services.play_here(table=table, user=director, devices=True)
    table.refresh_from_db()
    names = seat_names(table)
    members = {"director": director}
    for role, name in (("first", names[0]), ("second", names[1])):
        members[role] = user_in(django_user_model, role, PLAYER)
        Player.objects.filter(name=name).update(user=members[role])
    members["scorer"] = user_in(django_user_model, "scorer", PLAYER)
    name_official(tournament, members["scorer"])
    members["member"] = user_in(django_user_model, "member", PLAYER)
    members["organiser"] = user_in(django_user_model, "organiser", ORGANISER)
    members["staff"] = django_user_model.objects.create_superuser("admin", password="pw-for-tests")
    keys = {s.player.name: s.key for s in table.hotseat.seats.select_related("player")}
    return tournament, names, members, keys


def shown_keys(client, tournament, names, keys) -> dict[str, set[str]]:
    """The seats whose link each page shows: the round page, and each player's page."""
    pages = {"round": round_page(client, tournament)}
    pages.update({name: player_page(client, name) for name in names})
    return {
        page: {name for name, key in keys.items() if key in html} for page, html in pages.items()
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    "viewer", ["anonymous", "first", "second", "scorer", "member", "director", "organiser", "staff"]
)
def test_a_seat_link_is_shown_to_its_player_and_the_directors_alone(client, on_devices, viewer):
    tournament, names, members, keys = on_devices
    if viewer != "anonymous":
        client.force_login(members[viewer])
    shown = shown_keys(client, tournament, names, keys)
    nobody = {page: set() for page in shown}
    if viewer in ("director", "organiser", "staff"):
        assert shown == {**nobody, "round": set(names), **{n: {n} for n in names}}
        html = round_page(client, tournament)
        assert html.count("<svg") >= len(names)  # each link with its QR code to scan
    elif viewer in ("first", "second"):
        mine = names[0] if viewer == "first" else names[1]
        assert shown == {**nobody, mine: {mine}}
        assert "Play your seat on this phone" in player_page(client, mine)
    else:
        assert shown == nobody


@pytest.mark.django_db
def test_the_seat_links_on_the_round_page_lead_to_each_seats_own_page(client, on_devices):
    tournament, names, members, keys = on_devices
    client.force_login(members["director"])
    html = round_page(client, tournament)
    links = re.findall(r'href="http://testserver(/s/[^"]+/)"', html)
    assert sorted(links) == sorted(f"/s/{key}/" for key in keys.values())
    for link in links:
        assert client.get(link).status_code == 200


@pytest.mark.django_db
def test_a_table_played_here_may_put_the_seats_ticked_on_phones_and_the_rest_at_the_screen(
    client, director
):
    tournament, table = four(director)
    client.force_login(director)
    url = play_here_url(tournament, table)
    for ticked, message in (
        ([], "Tick the seats to be played on their own phones."),
        (["x"], "The form was incomplete or damaged; nothing was done."),
        (["7"], "The form was incomplete or damaged; nothing was done."),
    ):
        response = client.post(url, {"screen": "mixed", "device": ticked}, **EN)
        assert response.status_code == 400
        assert message in response.content.decode()
        assert not HotseatTable.objects.exists()
    response = client.post(url, {"screen": "mixed", "device": ["1", "3"]}, **EN)
    assert response.status_code == 302
    hotseat = RoundTable.objects.get(pk=table.pk).hotseat
    assert list(hotseat.seats.order_by("position").values_list("device", flat=True)) == [
        False,
        True,
        False,
        True,
    ]
    assert AuditEntry.objects.get(verb="tournament.play_here").data["devices"] == [1, 3]
