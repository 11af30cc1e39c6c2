"""Check-in: who is here tonight. Once anyone is checked in for a round, only those checked
in are seated in it: an absent entrant has neither a table nor a bye. A latecomer checked in
after the draft was drawn is seated by drawing it again, its swaps kept where both players
are still in. Directors check anyone in; a player only himself."""

import json
import re
from html import unescape

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from club.models import AuditEntry, Player
from club.roles import DIRECTOR
from club.services import Forbidden
from games import selectors as games_selectors
from games import services as games_services
from tests.support.accounts import name_official, user_in
from tests.support.sockets import ORIGIN, socket
from tests.support.tournaments import enter, new_tournament
from tournaments import seating
from tournaments.check_in import services as check_in_services
from tournaments.models import Bye, CheckIn, Entrant, TableSeat
from tournaments.run import services as run_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
HTMX = {"HTTP_HX_REQUEST": "true"}
SIX = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор"]
NINE = [*SIX, "Жанна", "Зоя", "Игорь"]

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


@pytest.fixture
def six(director):
    """A Выборы tournament (tables of four) of six entrants, nothing seated yet."""
    tournament = new_tournament(director)
    enter(tournament, SIX, director)
    return tournament


def entrant(tournament, name) -> Entrant:
    return tournament.entrants.select_related("player").get(player__name=name)


def check_in(tournament, names, user, number=1):
    for name in names:
        check_in_services.check_in_entrant(
            entrant=entrant(tournament, name), user=user, round_seen=number
        )


def placed(round_) -> tuple[set[str], set[str]]:
    """(seated at a table, given a bye) by name."""
    seated = set(
        TableSeat.objects.filter(table__round=round_).values_list(
            "entrant__player__name", flat=True
        )
    )
    byes = set(Bye.objects.filter(round=round_).values_list("entrant__player__name", flat=True))
    return seated, byes


def seats_of(round_) -> list[list[str]]:
    return [
        [s.entrant.player.name for s in table.seats.order_by("position")]
        for table in round_.tables.order_by("number")
    ]


def words(response) -> str:
    html = re.sub(r"<[^>]+>", "", response.content.decode())
    return " ".join(unescape(html).split())


def alert(response) -> str:
    found = re.findall(r'role="alert">\s*([^<]+)', response.content.decode())
    return unescape(" ".join(text.strip() for text in found))


def run_url(tournament, what=""):
    return f"/tournaments/{tournament.key}/run/{what}"


def mark_url(tournament, who: Entrant):
    return run_url(tournament, f"check-in/{who.pk}")


def own_url(tournament):
    return f"/tournaments/{tournament.key}/check-in"


def snapshot():
    return (
        sorted(CheckIn.objects.values_list("entrant_id", "round")),
        sorted(TableSeat.objects.values_list("table_id", "position", "entrant_id")),
        sorted(Bye.objects.values_list("round_id", "entrant_id")),
        AuditEntry.objects.count(),
    )


def linked(django_user_model, tournament, name):
    """A signed-in member whose account is the entrant ``name``'s club player."""
    user = user_in(django_user_model, f"member-{Player.key_of(name)}")
    Player.objects.filter(name=name).update(user=user)
    return user


# -- who is seated --------------------------------------------------------------------------


def test_with_nobody_checked_in_every_entrant_still_in_is_seated(six, director):
    round_ = run_services.draw_round(tournament=six, user=director)
    seated, byes = placed(round_)
    assert len(seated) == 4 and len(byes) == 2 and seated | byes == set(SIX)


def test_an_absent_entrant_is_not_seated_and_gets_no_bye(six, director):
    check_in(six, SIX[:5], director)  # Егор is not here
    round_ = run_services.draw_round(tournament=six, user=director)
    seated, byes = placed(round_)
    assert len(seated) == 4 and len(byes) == 1  # the bye goes to one of those present
    assert "Егор" not in seated | byes and seated | byes == set(SIX[:5])
    draw = AuditEntry.objects.filter(verb="round.draw").get()
    assert draw.data["checked_in"] is True
    # the next round, with nobody checked in for it, seats him again
    run_services.release_round(round_=round_, user=director)
    seated, byes = placed(run_services.draw_round(tournament=six, user=director))
    assert seated | byes == set(SIX)


def test_an_absent_entrant_may_check_in_for_a_later_round(six, director):
    check_in(six, SIX[:4], director)
    first = run_services.draw_round(tournament=six, user=director)
    assert placed(first) == (set(SIX[:4]), set())
    run_services.release_round(round_=first, user=director)
    check_in(six, ["Дарья", "Егор", "Анна", "Борис"], director, number=2)
    assert placed(run_services.draw_round(tournament=six, user=director)) == (
        {"Дарья", "Егор", "Анна", "Борис"},
        set(),
    )


def test_a_check_out_before_the_draw_leaves_him_out(six, director):
    check_in(six, SIX[:5], director)
    check_in_services.check_out_entrant(entrant=entrant(six, "Дарья"), user=director, round_seen=1)
    assert placed(run_services.draw_round(tournament=six, user=director)) == (set(SIX[:4]), set())
    checks = AuditEntry.objects.filter(verb__startswith="round.check").order_by("pk")
    assert [e.verb for e in checks] == ["round.checkin"] * 5 + ["round.checkout"]


def test_everyone_is_here_checks_in_each_entrant_still_in_once(six, director, client):
    check_in(six, ["Анна"], director)
    client.force_login(director)
    response = client.post(run_url(six, "check-in/everyone"), {"round": "1"}, **EN)
    assert response.status_code == 302
    assert CheckIn.objects.filter(round=1).count() == 6
    entry = AuditEntry.objects.filter(verb="round.checkin").order_by("pk").last()
    assert entry.data["everyone"] is True and len(entry.data["entrants"]) == 5
    before = snapshot()
    again = client.post(run_url(six, "check-in/everyone"), {"round": "1"}, **EN)
    assert again.status_code == 409
    assert "Everyone still in is already checked in for round 1." in alert(again)
    assert snapshot() == before


def test_a_withdrawn_entrant_is_not_offered_check_in_and_a_late_one_is_for_his_first_round(
    six, director, client
):
    run_services.release_round(
        round_=run_services.draw_round(tournament=six, user=director), user=director
    )
    withdrawn = entrant(six, "Анна")
    run_services.withdraw(entrant=withdrawn, user=director)
    (late,) = enter(six, ["Жанна"], director)
    late_entry = Entrant.objects.get(pk=late.pk)
    assert late_entry.joined_round == 2  # seated from round 2: check-in for it is open
    client.force_login(director)
    page = words(client.get(run_url(six), **EN))
    assert "Check-in for round 2" in page and "Nobody is checked in yet (0 of 6)" in page
    before = snapshot()
    response = client.post(mark_url(six, withdrawn), {"round": "2", "present": "1"}, **EN)
    assert response.status_code == 400
    assert "Анна has withdrawn: undo the withdrawal first." in alert(response)
    assert snapshot() == before


# -- the latecomer's redraw ----------------------------------------------------------------


@pytest.fixture
def nine(director):
    tournament = new_tournament(director)
    enter(tournament, NINE, director)
    return tournament


def plain_draw(tournament, names) -> list[list[str]]:
    """Round 1 of the tournament as its method draws it for these entrants, without swaps."""
    by_number = {e.number: e.player.name for e in tournament.entrants.select_related("player")}
    numbers = sorted(n for n, name in by_number.items() if name in names)
    drawn = seating.seat_round(
        method=tournament.seating,
        sizes=[4] * (len(numbers) // 4),
        entrants=numbers,
        history=[],
        rounds_planned=tournament.rounds_planned,
        round_number=1,
        seed=tournament.seed,
    )
    return [[by_number[n] for n in table] for table in drawn.tables]


def swapped(tables, first, second):
    return [[second if n == first else first if n == second else n for n in t] for t in tables]


def test_a_latecomers_redraw_keeps_a_swap_that_still_applies(nine, director, client):
    check_in(nine, NINE[:8], director)  # Игорь is late
    round_ = run_services.draw_round(tournament=nine, user=director)
    tables = seats_of(round_)
    assert tables == plain_draw(nine, NINE[:8])
    first, second = tables[0][0], tables[1][0]
    run_services.swap(
        round_=round_, first=entrant(nine, first), second=entrant(nine, second), user=director
    )
    check_in(nine, ["Игорь"], director)
    client.force_login(director)
    page = words(client.get(run_url(nine), **EN))
    assert "Round 1's draft was drawn before these changes: missing from it: Игорь" in page
    assert "Draw round 1 again" in page

    response = client.post(run_url(nine, "rounds/1/redraw"), **EN)
    assert response.status_code == 302
    round_.refresh_from_db()
    seated, byes = placed(round_)
    assert seated | byes == set(NINE) and len(byes) == 1
    # the new draw for the nine, the swap made again on it
    assert seats_of(round_) == swapped(plain_draw(nine, NINE), first, second)
    entry = AuditEntry.objects.get(verb="round.redraw")
    pair = [entrant(nine, first).pk, entrant(nine, second).pk]
    assert entry.data["swaps_kept"] == [pair] and entry.data["swaps_dropped"] == []
    assert "drawn before these changes" not in words(client.get(run_url(nine), **EN))


def test_a_swap_whose_player_checked_out_is_dropped_by_the_redraw(nine, director, client):
    check_in(nine, NINE, director)
    round_ = run_services.draw_round(tournament=nine, user=director)
    tables = seats_of(round_)
    kept = (tables[0][1], tables[1][1])
    dropped = (tables[0][2], tables[1][2])
    for a, b in (dropped, kept):
        run_services.swap(
            round_=round_, first=entrant(nine, a), second=entrant(nine, b), user=director
        )
    leaving = dropped[0]
    check_in_services.check_out_entrant(entrant=entrant(nine, leaving), user=director, round_seen=1)
    client.force_login(director)
    page = words(client.get(run_url(nine), **EN))
    assert f"drawn before these changes: in it but not checked in: {leaving}" in page
    check_in_services.redraw_round(round_=round_, user=director)
    present = [name for name in NINE if name != leaving]
    assert placed(round_) == (set(present), set())
    assert seats_of(round_) == swapped(plain_draw(nine, present), *kept)
    entry = AuditEntry.objects.get(verb="round.redraw")
    ids = [[entrant(nine, a).pk, entrant(nine, b).pk] for a, b in (kept, dropped)]
    assert entry.data["swaps_kept"] == [ids[0]] and entry.data["swaps_dropped"] == [ids[1]]


def test_a_redraw_of_a_draft_that_seats_everyone_checked_in_is_refused(nine, director, client):
    check_in(nine, NINE[:8], director)
    run_services.draw_round(tournament=nine, user=director)
    client.force_login(director)
    before = snapshot()
    response = client.post(run_url(nine, "rounds/1/redraw"), **EN)
    assert response.status_code == 409
    assert "The draft already seats everyone checked in for round 1." in alert(response)
    assert snapshot() == before


def test_a_released_round_is_not_drawn_again_and_check_in_moves_to_the_next(nine, director, client):
    check_in(nine, NINE[:8], director)
    round_ = run_services.draw_round(tournament=nine, user=director)
    run_services.release_round(round_=round_, user=director)
    client.force_login(director)
    before = snapshot()
    response = client.post(run_url(nine, "rounds/1/redraw"), **EN)
    assert response.status_code == 400
    assert "A released round is no longer changed." in alert(response)
    stale = client.post(mark_url(nine, entrant(nine, "Игорь")), {"round": "1", "present": "1"})
    assert stale.status_code == 409  # the page showed round 1's check-in: now it is round 2's
    assert snapshot() == before


# -- what the pages show ---------------------------------------------------------------------


def test_the_run_page_shows_the_checked_in_list_and_count(six, director, client):
    client.force_login(director)
    page = words(client.get(run_url(six), **EN))
    assert "Check-in for round 1" in page
    assert "Nobody is checked in yet (0 of 6): round 1 seats every entrant still in;" in page
    check_in(six, ["Вера", "Анна"], director)
    response = client.get(run_url(six), **EN)
    page = words(response)
    assert "2 of 6 checked in: round 1 seats only those checked in." in page
    assert "Checked in: Анна, Вера" in page and "The others have neither a table nor a bye" in page
    html = response.content.decode()
    assert html.count('type="submit" aria-pressed="true"') == 2
    assert html.count('type="submit" aria-pressed="false"') == 4


def test_the_run_page_shows_the_check_in_in_russian(six, director, client):
    check_in(six, ["Вера", "Анна"], director)
    client.force_login(director)
    page = words(client.get(run_url(six), **RU))
    assert "Отметка на тур 1" in page and "Отметились 2 из 6" in page
    assert "Отмечены: Анна, Вера" in page


def test_one_tap_checks_a_player_in_and_the_next_checks_him_out(six, director, client):
    client.force_login(director)
    anna = entrant(six, "Анна")
    response = client.post(mark_url(six, anna), {"round": "1", "present": "1"}, **HTMX, **EN)
    assert response.status_code == 200
    part = response.content.decode()
    assert part.lstrip().startswith('<section class="panel" id="check-in"')  # its part only
    assert "1 of 6 checked in" in words(response) and "Checked in: Анна" in words(response)
    assert CheckIn.objects.get().by == director
    again = client.post(mark_url(six, anna), {"round": "1", "present": "1"}, **HTMX, **EN)
    assert again.status_code == 409 and "Анна is already checked in for round 1." in alert(again)
    out = client.post(mark_url(six, anna), {"round": "1", "present": "0"}, **HTMX, **EN)
    assert out.status_code == 200 and "Nobody is checked in yet (0 of 6)" in words(out)
    assert not CheckIn.objects.exists()


def test_the_projector_shows_who_is_checked_in(six, director, client):
    url = f"/tournaments/{six.key}/projector/"
    assert "Checked in" not in words(client.get(url, **EN))  # nobody yet: nothing to show
    check_in(six, ["Глеб", "Анна", "Борис"], director)
    page = words(client.get(url, **EN))
    assert "Checked in for round 1: 3 Анна, Борис, Глеб" in page
    russian = words(client.get(url, **RU))
    assert "Отметились на тур 1: 3 Анна, Борис, Глеб" in russian


def test_a_stale_page_is_refused_and_changes_nothing(six, director, client):
    client.force_login(director)
    anna = entrant(six, "Анна")
    before = snapshot()
    for data in (
        {"round": "2", "present": "1"},  # a round the check-in is not for
        {"round": "", "present": "1"},
        {"round": "١", "present": "1"},  # only the digits 0 to 9 read as a number
    ):
        response = client.post(mark_url(six, anna), data, **EN)
        assert response.status_code == 409, data
        assert "Check-in is now for round 1: this page showed another." in alert(response)
    damaged = client.post(mark_url(six, anna), {"round": "1", "present": "maybe"}, **EN)
    assert damaged.status_code == 400 and "The form was incomplete" in alert(damaged)
    russian = client.post(mark_url(six, anna), {"round": "2", "present": "1"}, **RU)
    assert "Отметка теперь на тур 1" in alert(russian)
    assert snapshot() == before


# -- who may -----------------------------------------------------------------------------------


def test_a_visitor_can_check_nobody_in(six, client):
    anna = entrant(six, "Анна")
    before = snapshot()
    assert client.post(mark_url(six, anna), {"round": "1", "present": "1"}).status_code == 403
    assert client.post(run_url(six, "check-in/everyone"), {"round": "1"}).status_code == 403
    assert client.post(own_url(six), {"round": "1", "present": "1"}).status_code == 403
    assert client.post(run_url(six, "rounds/1/redraw")).status_code == 403
    assert snapshot() == before


def test_a_member_who_does_not_direct_it_cannot_check_others_in(
    six, director, client, django_user_model
):
    scorer = user_in(django_user_model, "scorer")
    name_official(six, scorer)
    player = linked(django_user_model, six, "Борис")
    anna = entrant(six, "Анна")
    before = snapshot()
    for user in (user_in(django_user_model, "member"), scorer, player):
        client.force_login(user)
        response = client.post(mark_url(six, anna), {"round": "1", "present": "1"})
        assert response.status_code == 403, user
        everyone = client.post(run_url(six, "check-in/everyone"), {"round": "1"})
        assert everyone.status_code == 403, user
    with pytest.raises(Forbidden):
        check_in_services.check_in_entrant(entrant=anna, user=player, round_seen=1)
    assert snapshot() == before


def test_a_player_checks_himself_in_and_out_from_his_own_page(
    six, director, client, django_user_model
):
    boris = linked(django_user_model, six, "Борис")
    player = Player.objects.get(name="Борис")
    client.force_login(boris)
    page = words(client.get(f"/ratings/players/{player.pk}/", **EN))
    assert "Check in for round 1" in page
    response = client.post(own_url(six), {"round": "1", "present": "1", "back": "player"})
    assert response.status_code == 302
    assert response["Location"] == f"/ratings/players/{player.pk}/"
    made = CheckIn.objects.get()
    assert (made.entrant.player.name, made.round, made.by) == ("Борис", 1, boris)
    page = words(client.get(f"/ratings/players/{player.pk}/", **EN))
    assert "You are checked in for round 1." in page and "Undo my check-in" in page
    out = client.post(own_url(six), {"round": "1", "present": "0"}, **HTMX, **EN)
    assert out.status_code == 200 and "Check in for round 1" in words(out)
    assert not CheckIn.objects.exists()


def test_a_player_checks_himself_in_from_the_tournaments_page(
    six, director, client, django_user_model
):
    client.force_login(linked(django_user_model, six, "Вера"))
    page = words(client.get(f"/tournaments/{six.key}/", **EN))
    assert "Here tonight? Check in for round 1" in page
    response = client.post(own_url(six), {"round": "1", "present": "1"}, **HTMX, **EN)
    assert response.status_code == 200 and "You are checked in for round 1." in words(response)
    russian = words(client.get(f"/tournaments/{six.key}/", **RU))
    assert "Вы отметились на тур 1." in russian


def test_the_tournaments_page_says_where_check_in_stands_in_both_languages(
    six, director, client, django_user_model
):
    client.force_login(linked(django_user_model, six, "Вера"))
    page = words(client.get(f"/tournaments/{six.key}/", **EN))
    assert "Nobody is checked in yet (0 of 6): round 1 seats every entrant still in;" in page
    check_in(six, ["Анна"], director)
    russian = words(client.get(f"/tournaments/{six.key}/", **RU))
    assert "Отметился 1 из 6: в туре 1 рассаживаются только отмеченные." in russian
    check_in(six, ["Борис", "Глеб", "Дарья", "Егор"], director)
    page = words(client.get(f"/tournaments/{six.key}/", **EN))
    assert "5 of 6 checked in: round 1 seats only those checked in." in page
    assert "once anyone" not in page
    russian = words(client.get(f"/tournaments/{six.key}/", **RU))
    assert "Отметились 5 из 6: в туре 1 рассаживаются только отмеченные." in russian
    check_in(six, ["Вера"], director)
    page = words(client.get(f"/tournaments/{six.key}/", **EN))
    assert "You are checked in for round 1. 6 of 6 checked in: round 1 seats only" in page


def test_a_player_checks_in_only_himself_whatever_the_form_names(
    six, director, client, django_user_model
):
    client.force_login(linked(django_user_model, six, "Вера"))
    anna = entrant(six, "Анна")
    response = client.post(
        own_url(six), {"round": "1", "present": "1", "entrant": anna.pk, "back": "tournament"}
    )
    assert response.status_code == 302
    assert list(CheckIn.objects.values_list("entrant__player__name", flat=True)) == ["Вера"]


def test_no_one_else_is_offered_the_players_own_button(six, director, client, django_user_model):
    linked(django_user_model, six, "Вера")
    vera = Player.objects.get(name="Вера")
    assert "Check in for round" not in words(client.get(f"/ratings/players/{vera.pk}/", **EN))
    client.force_login(user_in(django_user_model, "member"))
    assert "Check in for round" not in words(client.get(f"/ratings/players/{vera.pk}/", **EN))
    assert "Here tonight?" not in words(client.get(f"/tournaments/{six.key}/", **EN))


def test_a_member_who_has_not_entered_is_refused_his_own_check_in(
    six, director, client, django_user_model
):
    outsider = user_in(django_user_model, "outsider")
    Player.objects.create(name="Посторонний", user=outsider)
    client.force_login(outsider)
    before = snapshot()
    response = client.post(own_url(six), {"round": "1", "present": "1"}, **EN)
    assert response.status_code == 400
    assert "You have not entered this tournament." in alert(response)
    assert snapshot() == before


def test_forged_entrant_ids_are_404(six, director, client):
    other = new_tournament(director, name="Другой")
    (stranger,) = enter(other, ["Чужой"], director)
    client.force_login(director)
    before = snapshot()
    data = {"round": "1", "present": "1"}
    assert client.post(mark_url(six, stranger), data).status_code == 404
    assert client.post(run_url(six, "check-in/999999"), data).status_code == 404
    assert client.post(run_url(six, "rounds/7/redraw")).status_code == 404
    assert client.get(mark_url(six, entrant(six, "Анна"))).status_code == 405
    assert snapshot() == before


def test_each_check_in_tells_the_tournaments_live_pages(six, director):
    six.refresh_from_db()
    version = six.version
    check_in(six, SIX[:5], director)
    six.refresh_from_db()
    assert six.version == version + 5


# -- from a seat's own link ------------------------------------------------------------------


def on_devices(tournament, director):
    """Round 1 drawn and released, its first table played here on its players' devices:
    that table's seats, in seat order."""
    round_ = run_services.draw_round(tournament=tournament, user=director)
    run_services.release_round(round_=round_, user=director)
    table = round_.tables.order_by("number").first()
    run_services.play_here(table=table, user=director, devices=True)
    table.refresh_from_db()
    return list(table.hotseat.seats.select_related("player").order_by("position"))


def seat_page(client, seat):
    response = client.get(f"/s/{seat.key}/", **EN)
    assert response.status_code == 200
    return response


def seat_url(tournament, seat):
    return f"/tournaments/{tournament.key}/check-in/seat/{seat.key}"


def test_a_seats_own_page_checks_its_player_in_for_the_next_round_and_out_again(
    six, director, client
):
    seats = on_devices(six, director)
    seat = seats[1]
    name = seat.player.name
    page = seat_page(client, seat)
    assert "Here tonight? Check in for round 2" in words(page)
    assert "I am here for round 2" in words(page)
    html = page.content.decode()
    assert not [other.key for other in seats if other.key != seat.key and other.key in html]
    # once, in the table's region of parts: the table's own answer, live, brings it too
    moved = client.get(f"/s/{seat.key}/", **HTMX, **EN).content.decode()
    assert html.count('id="seat-check-in"') == 1 and moved.count('id="seat-check-in"') == 1
    assert moved.index('id="region-parts"') < moved.index('id="seat-check-in"')

    response = client.post(seat_url(six, seat), {"round": "2", "present": "1"}, **EN)
    assert response.status_code == 302 and response["Location"] == f"/s/{seat.key}/"
    made = CheckIn.objects.get()
    assert (made.entrant.player.name, made.round, made.by) == (name, 2, None)
    entry = AuditEntry.objects.get(verb="round.checkin")
    assert entry.user is None and entry.data["seat"] == 2
    assert seat.key not in str(entry.data)
    page = words(seat_page(client, seat))
    assert "You are checked in for round 2." in page and "Undo my check-in" in page
    client.force_login(director)
    run = words(client.get(run_url(six), **EN))
    assert "1 of 6 checked in" in run and f"Checked in: {name}" in run
    client.logout()

    out = client.post(seat_url(six, seat), {"round": "2", "present": "0"}, **HTMX, **EN)
    assert out.status_code == 200
    assert out.content.decode().lstrip().startswith('<section class="panel own-check-in"')
    assert "I am here for round 2" in words(out)
    assert not CheckIn.objects.exists()
    assert AuditEntry.objects.get(verb="round.checkout").user is None


def test_round_twos_seat_pages_say_how_many_of_the_eight_are_checked_in(director, client):
    tournament = new_tournament(director)
    enter(tournament, [*SIX, "Жанна", "Зоя"], director)
    seats = on_devices(tournament, director)
    last = seats[-1]
    check_in(tournament, [n for n in [*SIX, "Жанна", "Зоя"] if n != last.player.name], director, 2)
    page = words(seat_page(client, last))
    assert "Here tonight? Check in for round 2." in page
    assert "7 of 8 checked in: round 2 seats only those checked in." in page
    assert "once anyone" not in page
    russian = words(client.get(f"/s/{last.key}/", **RU))
    assert "Отметились 7 из 8: в туре 2 рассаживаются только отмеченные." in russian
    page = words(seat_page(client, seats[0]))
    assert "You are checked in for round 2. 7 of 8 checked in: round 2 seats only" in page


REGION = re.compile(r'id="region-([a-z]+)" data-digest="([0-9a-f]{16})"')


@pytest.mark.django_db(transaction=True)
def test_a_seats_own_page_hears_of_a_check_in_made_by_the_director_and_its_table_does_not(
    six, director, client
):
    seats = on_devices(six, director)
    seat = seats[1]
    page = seat_page(client, seat).content.decode()
    shown = dict(REGION.findall(page))
    stamp = [int(n) for n in re.search(r'data-stamp="([0-9 ]+)"', page)[1].split()]
    table = seat.table
    layer = get_channel_layer()

    async def follow():
        listener = socket(f"/ws/seat/{seat.key}/", ORIGIN)
        assert (await listener.connect())[0]
        on_connecting = json.loads(await listener.receive_from())["stamp"]
        host = await layer.new_channel()  # what the table's host's page and spectators hear
        await layer.group_add(games_services.group_name(table), host)
        await database_sync_to_async(check_in_services.check_in_everyone)(
            tournament=six, user=director, round_seen=2
        )
        told = json.loads(await listener.receive_from(timeout=5))["stamp"]
        heard = (await layer.receive(host))["stamp"]
        await listener.disconnect()
        return on_connecting, told, heard

    on_connecting, told, heard = async_to_sync(follow)()
    assert on_connecting == stamp
    assert told > stamp  # the seat's page asks for itself again...
    assert heard == games_selectors.deal_stamp(table)  # ...the table's own pages need not
    regions = ",".join(f"{name}={digest}" for name, digest in shown.items())
    answer = client.get(f"/s/{seat.key}/", HTTP_X_REGIONS=regions, **HTMX, **EN)
    # only the region of parts changed: the check-in it shows
    assert [name for name, _digest in REGION.findall(answer.content.decode())] == ["parts"]
    assert "You are checked in for round 2." in words(answer)
    assert [int(n) for n in json.loads(answer["X-Table-Attributes"])["data-stamp"].split()] == told


def test_a_seat_of_another_tournament_or_a_casual_table_checks_nobody_in_here(
    six, director, client
):
    on_devices(six, director)
    other = new_tournament(director, name="Другой")
    enter(other, SIX, director)  # the same club players
    theirs = on_devices(other, director)[0]
    casual = games_services.start_table(
        user=director,
        game="variety",
        players=[entrant(six, name).player for name in SIX[:4]],
        options={"cycle": "short"},
        devices={0, 1, 2, 3},
    )
    at_casual = casual.seats.get(position=0)
    # the other tournament's seat offers its own tournament's check-in, not this one's
    html = seat_page(client, theirs).content.decode()
    assert f"/tournaments/{other.key}/check-in/seat/{theirs.key}" in html
    assert f"/tournaments/{six.key}/" not in html
    page = words(seat_page(client, at_casual))
    assert "Check in for round" not in page and "I am here" not in page
    before = snapshot()
    message = "This seat is not at a table of this tournament: it checks nobody in."
    for seat in (theirs, at_casual):
        response = client.post(seat_url(six, seat), {"round": "2", "present": "1"}, **EN)
        assert response.status_code == 403 and message in alert(response)
        part = client.post(seat_url(six, seat), {"round": "2", "present": "1"}, **HTMX, **EN)
        assert part.status_code == 403 and message in alert(part)
        assert "I am here" not in words(part)
    assert snapshot() == before


def test_a_seat_at_the_shared_screen_or_another_players_entrant_is_refused(six, director, client):
    round_ = run_services.draw_round(tournament=six, user=director)
    run_services.release_round(round_=round_, user=director)
    table = round_.tables.get()
    run_services.play_here(table=table, user=director)  # one shared screen
    table.refresh_from_db()
    shared = table.hotseat.seats.select_related("player").order_by("position").first()
    assert "I am here" not in words(seat_page(client, shared))
    other = new_tournament(director, name="Другой")
    enter(other, SIX, director)
    mine, next_to_me = on_devices(other, director)[:2]
    before = snapshot()
    response = client.post(seat_url(six, shared), {"round": "2", "present": "1"}, **EN)
    assert response.status_code == 403
    assert "Only a seat played on its player's own device checks its player in." in alert(response)
    with pytest.raises(Forbidden, match="its own player only"):
        check_in_services.check_in_entrant(
            entrant=entrant(other, next_to_me.player.name), user=None, round_seen=2, seat=mine
        )
    assert snapshot() == before


def test_an_unknown_seat_key_is_404_and_a_seat_link_only_posts(six, director, client):
    seat = on_devices(six, director)[0]
    before = snapshot()
    data = {"round": "2", "present": "1"}
    assert client.post(f"/tournaments/{six.key}/check-in/seat/no-such-key", data).status_code == 404
    assert (
        client.post(f"/tournaments/no-such-cup/check-in/seat/{seat.key}", data).status_code == 404
    )
    assert client.get(seat_url(six, seat)).status_code == 405
    assert snapshot() == before


def test_a_stale_or_damaged_seat_check_in_is_refused_with_its_reason(six, director, client):
    seat = on_devices(six, director)[0]
    before = snapshot()
    for data in ({"round": "1", "present": "1"}, {"present": "1"}):
        response = client.post(seat_url(six, seat), data, **EN)
        assert response.status_code == 409, data
        assert "Check-in is now for round 2: this page showed another." in alert(response)
        assert f'href="/s/{seat.key}/"' in response.content.decode()  # back to the seat
    damaged = client.post(seat_url(six, seat), {"round": "2", "present": "yes"}, **EN)
    assert damaged.status_code == 400 and "The form was incomplete" in alert(damaged)
    assert snapshot() == before


def test_once_every_round_is_released_a_seats_page_offers_no_check_in(director, client):
    tournament = new_tournament(director, rounds_planned=1)
    enter(tournament, SIX[:4], director)
    seat = on_devices(tournament, director)[0]
    page = words(seat_page(client, seat))
    assert "Check in for round" not in page and "I am here" not in page
    before = snapshot()
    response = client.post(seat_url(tournament, seat), {"round": "2", "present": "1"}, **EN)
    assert response.status_code == 400
    assert "Every planned round has been released." in alert(response)
    assert snapshot() == before
