"""The director's Run page: every link and button it offers, for each kind of table (a paper
sheet typed in, one reported from the players' phones through its entry link, one played
here at a shared screen, one played on the players' devices) in each state, answers the
director without an error; and the page follows the tournament live, as its public pages do:
a player's own check-in, an entry, a result, a change of its officials or tables elsewhere
reaches it without a reload."""

import json
import re
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlsplit

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import transaction
from django.test import Client

from club.roles import DIRECTOR, PLAYER
from games import services as games_services
from tests.support.accounts import name_official, user_in
from tests.support.site_pages import advance, current
from tests.support.sockets import ORIGIN, socket
from tests.support.tournaments import enter, new_tournament, variety_row
from tournaments import roles, services
from tournaments.check_in import services as check_in_services
from tournaments.models import RoundTable, Tournament
from tournaments.results import services as results_services
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}

# Леопард matches of two deals: tables of two, so that one round holds every kind of table
ROWS = [{"scores": [10, 8], "ender": None}, {"scores": [6, 12], "ender": None}]
# each table of round 1, in order: how its sheet is made and where it stands
TABLES = [
    ("typed", "not started"),
    ("typed", "one row"),
    ("typed", "complete, typed by a scorer"),
    ("typed", "complete, typed by the director"),
    ("typed", "confirmed and corrected"),
    ("reported", "a row awaiting confirmation"),
    ("reported", "a row confirmed, the next awaiting"),
    ("reported", "complete"),
    ("shared", "started"),
    ("shared", "complete"),
    ("shared", "abandoned"),
    ("devices", "started"),
    ("devices", "complete"),
    ("devices", "abandoned"),
]


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


@pytest.fixture
def scorer(django_user_model):
    return user_in(django_user_model, "scorer", PLAYER)


def report(table, seat, row=None):
    """A player of the table enters a row (``row``) or confirms the one awaiting."""
    seen = results_services.report_version(table)
    if row is None:
        results_services.confirm_reported_row(table=table, seat=seat, seen=seen)
    else:
        results_services.report_row(table=table, seat=seat, data=row, seen=seen)


def make_table(table, kind, state, director, scorer):
    if kind == "typed":
        rows = {"not started": [], "one row": ROWS[:1]}.get(state, ROWS)
        if rows:
            by = director if state == "complete, typed by the director" else scorer
            results_services.enter_sheet(table=table, rows=rows, user=by)
        if state == "confirmed and corrected":
            results_services.confirm_sheet(table=table, user=director)
            results_services.correct_row(
                row=table.rows.get(index=1),
                data={"scores": [12, 8], "ender": None},
                reason="a typo",
                user=scorer,
            )
    elif kind == "reported":
        report(table, 0, ROWS[0])
        if state != "a row awaiting confirmation":
            report(table, 1)
            report(table, 1, ROWS[1])
        if state == "complete":
            report(table, 0)
    else:
        hotseat = run_services.play_here(
            table=table, user=director, devices=kind == "devices"
        ).hotseat
        if state == "complete":  # its second deal completes the sheet and finishes it
            advance(hotseat, director)
            games_services.next_deal(table=hotseat, after=current(hotseat).number, user=director)
            advance(hotseat, director)
        elif state == "abandoned":
            games_services.abandon_table(
                table=hotseat, expected_version=hotseat.version, user=director
            )


def evening(director, scorer):
    """A Леопард tournament asking for confirmed sheets, round 1 released with a table of
    every kind in every state, an entrant withdrawn after it, a late entrant, round 2 a
    draft drawn before its players checked in (one of them not), an adjustment and a
    scorer."""
    tournament = services.create_tournament(
        user=director,
        name="Вечер",
        game="leopard",
        options={"deals": 2},
        settings={},
        rounds_planned=3,
        seating="mixing",
        seed=5,
        bye_points=1,
        order=["match_points", "points", "opponents", "wins"],
        confirmation=True,
    )
    name_official(tournament, scorer)
    names = [f"Игрок {n}" for n in range(1, 2 * len(TABLES) + 1)]
    run_services.add_entrants(tournament=tournament, players=names, user=director)
    first = run_services.draw_round(tournament=tournament, user=director)
    run_services.release_round(round_=first, user=director)
    tables = RoundTable.objects.filter(round=first).select_related("round__tournament")
    for table, (kind, state) in zip(tables.order_by("number"), TABLES, strict=True):
        make_table(table, kind, state, director, scorer)
    run_services.withdraw(entrant=tournament.entrants.get(number=1), user=director)
    run_services.add_entrant(tournament=tournament, player="Опоздавший", user=director)
    results_services.adjust(
        round_=first,
        entrant=tournament.entrants.get(number=2),
        points=-1,
        reason="late",
        user=director,
    )
    run_services.draw_round(tournament=tournament, user=director)
    check_in_services.check_in_everyone(tournament=tournament, user=director, round_seen=2)
    check_in_services.check_out_entrant(
        entrant=tournament.entrants.get(number=2), user=director, round_seen=2
    )
    return tournament


class Offers(HTMLParser):
    """The links of a page's main part, and its forms that need nothing typed or chosen:
    each button as the form posts it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.main = 0
        self.links, self.posts, self.form = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "main":
            self.main += 1
        if not self.main:
            return
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        elif tag == "form" and attrs.get("method", "get").lower() == "post":
            self.form = {"action": attrs.get("action", ""), "fields": {}, "buttons": [], "typed": 0}
        elif self.form is not None and tag in ("input", "select", "textarea", "button"):
            kind = attrs.get("type", "submit" if tag == "button" else "text")
            if tag == "input" and kind == "hidden":
                self.form["fields"][attrs["name"]] = attrs.get("value", "")
            elif kind == "submit":
                self.form["buttons"].append((attrs.get("name"), attrs.get("value", "")))
            else:
                self.form["typed"] += 1

    def handle_endtag(self, tag):
        if tag == "main":
            self.main -= 1
        elif tag == "form" and self.form is not None:
            if not self.form["typed"]:
                for name, value in self.form["buttons"]:
                    data = dict(self.form["fields"])
                    if name:
                        data[name] = value
                    self.posts.append((self.form["action"], data))
            self.form = None


def offers(client, address) -> Offers:
    response = client.get(address, **EN)
    assert response.status_code == 200
    page = Offers()
    page.feed(response.content.decode())
    return page


def internal(href: str) -> str | None:
    url = urldefrag(href).url
    parts = urlsplit(url)
    return None if parts.netloc or not parts.path else url


def answers(response) -> list[tuple[str, int]]:
    """Each address of the answer and its redirects, with its status."""
    chain = [(url, status) for url, status in response.redirect_chain]
    return [*chain, (response.request["PATH_INFO"], response.status_code)]


def refused_offers(client, run) -> list[tuple[str, str, int]]:
    """Every link of the page followed and every button of it pressed (each undone after),
    and each of their answers that is an error: (what, the address answering, its status)."""
    page = offers(client, run)
    failed = []
    for href in dict.fromkeys(filter(None, map(internal, page.links))):
        response = client.get(href, follow=True, **EN)
        failed += [(href, url, status) for url, status in answers(response) if status >= 400]
    for action, data in page.posts:
        with transaction.atomic():  # each button pressed on the page as it is, then undone
            response = client.post(action, data, follow=True, **EN)
            transaction.set_rollback(True)
        failed += [(action, url, status) for url, status in answers(response) if status >= 400]
    return failed


def test_every_link_and_button_of_the_run_page_answers_the_director(client, director, scorer):
    tournament = evening(director, scorer)
    client.force_login(director)
    assert refused_offers(client, f"/tournaments/{tournament.key}/run/") == []


def test_every_link_and_button_of_a_finished_tournaments_run_page_answers_the_director(
    client, director, players
):
    tournament = new_tournament(director, rounds_planned=1)
    enter(tournament, players, director)
    round_ = run_services.draw_round(tournament=tournament, user=director)
    run_services.release_round(round_=round_, user=director)
    table = RoundTable.objects.select_related("round__tournament").get(round=round_)
    results_services.enter_sheet(
        table=table, rows=[variety_row(n) for n in range(4)], user=director
    )
    client.force_login(director)
    run = f"/tournaments/{tournament.key}/run/"
    assert "The tournament is over." in client.get(run, **EN).content.decode()
    assert refused_offers(client, run) == []


def test_a_table_reported_from_phones_offers_its_rows_and_never_its_typed_sheet(
    client, director, players
):
    tournament = new_tournament(director, rounds_planned=2)
    enter(tournament, players, director)
    round_ = run_services.draw_round(tournament=tournament, user=director)
    run_services.release_round(round_=round_, user=director)
    table = RoundTable.objects.select_related("round__tournament").get(round=round_)
    client.force_login(director)
    run = f"/tournaments/{tournament.key}/run/"
    sheet = f"/tournaments/{tournament.key}/tables/{table.pk}/sheet/"
    rows = f"/tournaments/{tournament.key}/tables/{table.pk}/rows/"
    assert f'href="{sheet}"' in client.get(run).content.decode()  # nothing reported yet
    report(table, 0, variety_row(0))
    page = client.get(run, **EN).content.decode()
    assert f'href="{sheet}"' not in page and "play-here" not in page
    assert "reported from the players' phones" in page
    with pytest.raises(services.TournamentError, match="already begun"):
        run_services.play_here(table=table, user=director)
    report(table, 1)
    page = client.get(run, **EN).content.decode()
    assert f'href="{sheet}"' not in page and f'href="{rows}"' in page
    correction = f"/tournaments/{tournament.key}/tables/{table.pk}/rows/1/"
    assert f'href="{correction}"' in client.get(rows).content.decode()
    assert client.get(correction).status_code == 200


LIVE = re.compile(r'data-live="([^"]+)" data-stamp="(\d+)" data-keep-unsent')


def on_devices(director, players):
    """A Выборы tournament of four, round 1 released and played here on the players' own
    devices: the tournament and its seats in seat order."""
    tournament = new_tournament(director, rounds_planned=2)
    enter(tournament, players, director)
    round_ = run_services.draw_round(tournament=tournament, user=director)
    run_services.release_round(round_=round_, user=director)
    table = run_services.play_here(table=round_.tables.get(), user=director, devices=True)
    return tournament, list(table.hotseat.seats.select_related("player").order_by("position"))


def test_the_run_page_follows_its_tournament_and_a_refused_forms_answer_does_not(
    client, director, players
):
    tournament = new_tournament(director)
    client.force_login(director)
    page = client.get(f"/tournaments/{tournament.key}/run/").content.decode()
    live = LIVE.search(page)
    assert live and live[1] == f"/ws/tournaments/{tournament.key}/"
    assert int(live[2]) == Tournament.objects.get(pk=tournament.pk).version
    assert "js/live.js" in page
    # the answer to a refused form is at the form's address, which a fetch would not find
    refused = client.post(f"/tournaments/{tournament.key}/run/enter", {"enter-name": "  "})
    assert refused.status_code == 400 and "data-live" not in refused.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_run_page_hears_a_players_check_in_from_his_seat_and_then_shows_it(
    client, director, players
):
    tournament, seats = on_devices(director, players)
    client.force_login(director)
    run = f"/tournaments/{tournament.key}/run/"
    path, shown = LIVE.search(client.get(run).content.decode()).groups()
    phone = Client()
    seat_check_in = f"/tournaments/{tournament.key}/check-in/seat/{seats[2].key}"

    async def follow():
        communicator = socket(path, ORIGIN)
        assert (await communicator.connect())[0]
        first = json.loads(await communicator.receive_from())["stamp"]
        answer = await database_sync_to_async(phone.post)(
            seat_check_in, {"round": "2", "present": "1"}
        )
        later = json.loads(await communicator.receive_from(timeout=5))["stamp"]
        await communicator.disconnect()
        return first, answer.status_code, later

    first, status, later = async_to_sync(follow)()
    assert status == 302 and first == [int(shown)] and later > first
    page = client.get(run, **EN).content.decode()  # what the page fetches on hearing it
    assert f'data-stamp="{later[0]}"' in page
    assert "1 of 4 checked in: round 2 seats only those checked in." in page
    assert f"Checked in: {seats[2].player.name}" in page


def test_the_run_page_is_told_of_its_officials_and_of_a_table_abandoned_elsewhere(
    director, scorer, players
):
    tournament, seats = on_devices(director, players)

    def version():
        return Tournament.objects.get(pk=tournament.pk).version

    before = version()
    name_official(tournament, scorer)
    assert version() == before + 1
    roles.remove_official(tournament=tournament, account=scorer, by=director)
    assert version() == before + 2
    hotseat = seats[0].table
    hotseat.refresh_from_db()
    games_services.abandon_table(table=hotseat, expected_version=hotseat.version, user=director)
    assert version() == before + 3
