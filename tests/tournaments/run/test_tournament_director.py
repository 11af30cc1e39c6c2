"""The directors' and scorers' pages: a tournament created, its entrants, a round seated as a
draft, changed and released, sheets printed and typed in, a second scorer's confirmation, a
table played here; and who may do what."""

import re
from html import unescape
from urllib.parse import unquote

import pytest

from club.models import AuditEntry, Player
from club.roles import DIRECTOR, PLAYER
from games.models import Deal
from games.models import Table as HotseatTable
from tests.support.accounts import name_official, user_in
from tests.support.rules_pages import Tree
from tests.support.tournaments import SHORT_CYCLE, TOTALS, new_tournament, points_of, sheet_post
from tournaments import services
from tournaments.models import (
    Adjustment,
    Bye,
    Entrant,
    Official,
    Round,
    RoundTable,
    SheetRow,
    TableSeat,
    Tournament,
)
from tournaments.results import services as results_services
from tournaments.run import selectors as run_selectors
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


@pytest.fixture
def scorer(django_user_model):
    return user_in(django_user_model, "scorer", PLAYER)


@pytest.fixture
def second_scorer(django_user_model):
    return user_in(django_user_model, "scorer2", PLAYER)


@pytest.fixture
def member(django_user_model):
    return user_in(django_user_model, "member")


def as_user(client, user):
    client.force_login(user)
    return client


def as_scorer(client, user, tournament):
    """Signed in as a scorer of the tournament, named by its director."""
    name_official(tournament, user)
    return as_user(client, user)


def alert(response) -> str:
    found = re.findall(r'role="alert">\s*([^<]+)', response.content.decode())
    return " ".join(text.strip() for text in found)


def run_url(tournament, what=""):
    return f"/tournaments/{tournament.key}/run/{what}"


def sheet_url(table):
    return f"/tournaments/{table.round.tournament.key}/tables/{table.pk}/sheet/"


def test_the_run_pages_empty_lists_say_so_in_a_sentence_not_a_numbered_item(
    client, director, django_user_model
):
    """Nobody entered and nobody named to run it: each is said in a paragraph ("1. Nobody
    has entered yet." would read as an entrant)."""
    tournament = new_tournament(director)
    Official.objects.filter(tournament=tournament).delete()
    organiser = django_user_model.objects.create_superuser("olga", password="pw-for-tests-only")
    page = Tree(as_user(client, organiser).get(run_url(tournament), **EN).content.decode()).root
    for empty in ("Nobody has entered yet.", "Only the club's organisers run this tournament."):
        shown = page.holding(empty)
        assert shown.tag == "p" and not shown.within("ol", "ul"), empty


def snapshot():
    """Everything a page of these could change."""
    models = (
        Tournament,
        Entrant,
        Round,
        RoundTable,
        TableSeat,
        Bye,
        SheetRow,
        Adjustment,
        Player,
        HotseatTable,
    )
    state = {model.__name__: sorted(map(repr, model.objects.values())) for model in models}
    state["audit"] = AuditEntry.objects.count()
    return state


def variety(director, players, *, confirmation=False, released=True, extra=("Дарья",)):
    """A short-cycle Выборы tournament of the four club players and ``extra``, round 1
    seated (and released)."""
    tournament = services.create_tournament(
        user=director,
        name="Осенний кубок",
        game="variety",
        options={"cycle": "short"},
        settings={},
        rounds_planned=3,
        seating="mixing",
        seed=20261130,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
        confirmation=confirmation,
    )
    for player in [*players, *extra]:
        run_services.add_entrant(tournament=tournament, player=player, user=director)
    round_ = run_services.draw_round(tournament=tournament, user=director)
    if released:
        run_services.release_round(round_=round_, user=director)
    return tournament


def first_table(tournament) -> RoundTable:
    return (
        RoundTable.objects.select_related("round__tournament")
        .filter(round__tournament=tournament)
        .order_by("round__number", "number")
        .first()
    )


def seat_names(table) -> list[str]:
    return [seat.entrant.player.name for seat in table.seats.order_by("position")]


WITHDRAW = {"confirm": "withdraw", "rounds": "1"}  # the confirmation page's form, round 1 seated


def table_html(page: str, table) -> str:
    """The Run page's block of one table."""
    return page.split(f'id="table-{table.pk}"')[1].split('<div class="scroll"')[0]


def state_words(page: str, table) -> str:
    """The state the Run page gives a table, as it reads."""
    found = re.search(
        r'<span class="badge table-state[^"]*">([^<]+)</span>', table_html(page, table)
    )
    return found.group(1).strip() if found else ""


# -- the whole flow as a director clicks it ---------------------------------------------------


def test_a_director_creates_enters_seats_swaps_releases_and_a_typed_sheet_counts(
    client, director, players
):
    as_user(client, director)
    assert client.get("/tournaments/new/variety/", **EN).status_code == 200
    response = client.post(
        "/tournaments/new/variety/",
        {
            "name": "Осенний кубок",
            "rounds_planned": "3",
            "seating": "mixing",
            "seed": "20261130",
            "bye_points": "3",
            "order": "default",
            "option-cycle": "short",
        },
    )
    assert response.status_code == 302, alert(response)
    tournament = Tournament.objects.get()
    assert unquote(response["Location"]) == run_url(tournament)
    assert (tournament.game, tournament.options, tournament.seed) == (
        "variety",
        {"cycle": "short"},
        20261130,
    )
    assert not tournament.confirmation and tournament.created_by == director

    for player in players:
        response = client.post(run_url(tournament, "enter"), {"enter-player": player.pk})
        assert response.status_code == 302, alert(response)
    response = client.post(run_url(tournament, "enter"), {"enter-name": "Дарья"})
    assert response.status_code == 302, alert(response)
    assert [e.player.name for e in tournament.entrants.order_by("number")] == [
        "Анна",
        "Борис",
        "Вера",
        "Глеб",
        "Дарья",
    ]

    response = client.post(run_url(tournament, "draw"))
    assert response.status_code == 302, alert(response)
    round_ = tournament.rounds.get()
    assert not round_.released
    table = round_.tables.get()
    assert table.seats.count() == 4 and round_.byes.count() == 1
    page = client.get(run_url(tournament), **EN).content.decode()
    assert "draft" in page and "Swap these two" in page and "Release round 1" in page

    bye = round_.byes.get().entrant
    seated = table.seats.get(position=2).entrant
    response = client.post(
        run_url(tournament, "rounds/1/swap"), {"swap1-first": bye.pk, "swap1-second": seated.pk}
    )
    assert response.status_code == 302, alert(response)
    assert round_.byes.get().entrant == seated
    assert table.seats.get(position=2).entrant == bye

    response = client.post(run_url(tournament, "rounds/1/release"))
    assert response.status_code == 302, alert(response)
    round_.refresh_from_db()
    assert round_.released
    response = client.post(
        run_url(tournament, "rounds/1/swap"), {"swap1-first": bye.pk, "swap1-second": seated.pk}
    )
    assert response.status_code == 400  # the swap form is gone; a released round is fixed

    page = client.get(sheet_url(table), **EN)
    assert page.status_code == 200
    html = page.content.decode()
    names = seat_names(table)
    heads = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', html)
    assert heads == [
        "Deal",
        "Contract",
        "Attackers",
        "Score",
        "1",
        "2",
        *(f"{seat} · {name}" for seat, name in enumerate(names, start=1)),
    ]
    assert html.count('<th scope="row">') == 4  # a short cycle: four rows shown
    response = client.post(sheet_url(table), sheet_post(SHORT_CYCLE))
    assert response.status_code == 302, alert(response)
    assert table.rows.count() == 4
    assert [points_of(tournament)[name] for name in names] == TOTALS
    assert points_of(tournament)[seated.player.name] == 0  # the bye: match points only
    page = client.get(run_url(tournament), **EN).content.decode()
    assert state_words(page, table) == "counted" and "typed in by director" in page


def test_an_inconsistent_row_is_refused_beside_that_row_and_nothing_is_saved(
    client, director, players
):
    tournament = variety(director, players)
    table = first_table(tournament)
    as_user(client, director)
    rows = list(SHORT_CYCLE)
    rows[2] = (2, [0, 2], [16, 12, 16, 12])  # 16 + 12 is not 26
    before = snapshot()
    response = client.post(sheet_url(table), sheet_post(rows), **EN)
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'<tr id="row-3" class="refused"', html)
    assert not re.search(r'<tr id="row-[124]" class="refused"', html)
    message = alert(response)
    assert message.startswith("Row 3:") and "must add up to 26" in message
    # the refusal sits right after row 3, before row 4
    assert html.index('id="row-3"') < html.index("must add up to 26") < html.index('id="row-4"')
    assert 'name="r3-scores-1" value="12"' in html and 'name="r4-scores-3" value="-6"' in html
    assert snapshot() == before

    response = client.post(sheet_url(table), sheet_post(SHORT_CYCLE))
    assert response.status_code == 302, alert(response)
    assert [row.data["scores"] for row in table.rows.order_by("index")] == [
        scores for _, _, scores in SHORT_CYCLE
    ]


def test_a_non_number_is_an_error_at_its_row_and_blank_trailing_rows_are_left_out(
    client, scorer, director, players
):
    tournament = variety(director, players)
    table = first_table(tournament)
    as_scorer(client, scorer, tournament)
    data = sheet_post(SHORT_CYCLE[:2], count=4)
    data["r2-scores-0"] = "abc"
    before = snapshot()
    response = client.post(sheet_url(table), data, **EN)
    assert response.status_code == 400
    assert alert(response).startswith("Row 2:") and "abc" in alert(response)
    assert snapshot() == before
    data["r2-scores-0"] = "26"
    response = client.post(sheet_url(table), data)  # rows 3 and 4 blank: not yet played
    assert response.status_code == 302, alert(response)
    assert table.rows.count() == 2
    assert points_of(tournament)["Анна"] == 0  # an incomplete sheet counts for nothing yet
    # a blank row before a filled one is an error at the blank row
    data = sheet_post([SHORT_CYCLE[0], SHORT_CYCLE[0]], count=4)
    data = {k.replace("r2-", "r3-"): v for k, v in data.items()}
    response = client.post(sheet_url(table), data, **EN)
    assert response.status_code == 400 and alert(response).startswith("Row 2:")


def test_one_more_row_saves_nothing_and_keeps_what_was_typed(client, scorer, director, players):
    tournament = variety(director, players)
    table = first_table(tournament)
    as_scorer(client, scorer, tournament)
    before = snapshot()
    response = client.post(sheet_url(table), {**sheet_post(SHORT_CYCLE[:1]), "more": "1"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<th scope="row">') == 5 and 'name="r1-scores-0" value="16"' in html
    assert snapshot() == before


def test_with_a_second_scorer_a_sheet_counts_only_once_another_scorer_confirms(
    client, director, scorer, second_scorer, players
):
    tournament = variety(director, players, confirmation=True)
    table = first_table(tournament)
    names = seat_names(table)
    as_scorer(client, scorer, tournament)
    assert client.post(sheet_url(table), sheet_post(SHORT_CYCLE)).status_code == 302
    assert all(points_of(tournament)[name] == 0 for name in names)
    page = client.get(run_url(tournament), **EN).content.decode()
    # not offered to the scorer who typed it, and refused to him
    assert "awaiting confirmation" in page and "Confirm the sheet" not in page

    before = snapshot()
    response = client.post(run_url(tournament, f"tables/{table.pk}/confirm"), **EN)
    assert response.status_code == 400
    assert "Another scorer must confirm" in alert(response)
    assert snapshot() == before

    as_scorer(client, second_scorer, tournament)
    assert "Confirm the sheet" in client.get(run_url(tournament), **EN).content.decode()
    response = client.post(run_url(tournament, f"tables/{table.pk}/confirm"))
    assert response.status_code == 302, alert(response)
    assert [points_of(tournament)[name] for name in names] == TOTALS
    page = client.get(run_url(tournament), **EN).content.decode()
    assert "confirmed by scorer2" in page


def test_play_here_starts_a_hotseat_table_of_the_tables_players_in_seat_order(
    client, director, players
):
    tournament = variety(director, players)
    table = first_table(tournament)
    as_user(client, director)
    response = client.post(run_url(tournament, f"tables/{table.pk}/play-here"))
    assert response.status_code == 302, alert(response)
    table.refresh_from_db()
    hotseat = table.hotseat
    assert response["Location"] == hotseat.get_absolute_url()
    assert [seat.player.name for seat in hotseat.seats.order_by("position")] == seat_names(table)
    assert hotseat.options["cycle"] == "short"
    assert client.get(response["Location"]).status_code == 200
    # its sheet now comes from its deals: typing one in is refused
    response = client.get(sheet_url(table), **EN)
    assert response.status_code == 409 and "played here" in alert(response)
    assert 'name="r1-contract"' not in response.content.decode()
    before = snapshot()
    response = client.post(sheet_url(table), sheet_post(SHORT_CYCLE), **EN)
    assert response.status_code == 400 and "played here" in alert(response)
    assert snapshot() == before
    response = client.post(run_url(tournament, f"tables/{table.pk}/play-here"), **EN)
    assert response.status_code == 400 and "already begun" in alert(response)


def test_a_draft_rounds_sheet_is_refused(client, director, players):
    tournament = variety(director, players, released=False)
    table = first_table(tournament)
    as_user(client, director)
    assert client.get(sheet_url(table), **EN).status_code == 409
    before = snapshot()
    response = client.post(sheet_url(table), sheet_post(SHORT_CYCLE), **EN)
    assert response.status_code == 400 and "not been released" in alert(response)
    assert snapshot() == before


def test_withdraw_adjust_and_a_refused_write_changes_nothing(client, director, players):
    tournament = variety(director, players)
    as_user(client, director)
    anna = tournament.entrants.get(player__name="Анна")
    response = client.post(
        run_url(tournament, "adjust"),
        {
            "adjust-entrant": anna.pk,
            "adjust-round": "1",
            "adjust-points": "-5",
            "adjust-reason": "late",
        },
    )
    assert response.status_code == 302, alert(response)
    assert points_of(tournament)["Анна"] == -5
    assert "late" in client.get(run_url(tournament), **EN).content.decode()
    response = client.post(run_url(tournament, f"entrants/{anna.pk}/withdraw"), WITHDRAW)
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.withdrawn_after == 1

    before = snapshot()
    response = client.post(run_url(tournament, f"entrants/{anna.pk}/withdraw"), WITHDRAW, **EN)
    assert response.status_code == 400 and "already withdrawn" in alert(response)
    response = client.post(run_url(tournament, "enter"), {"enter-name": "анна"}, **EN)
    assert response.status_code == 400 and "already entered" in alert(response)
    response = client.post(
        run_url(tournament, "adjust"),
        {
            "adjust-entrant": anna.pk,
            "adjust-round": "1",
            "adjust-points": "2",
            "adjust-reason": "   ",
        },
        **EN,
    )
    assert response.status_code == 400 and alert(response)
    response = client.post(run_url(tournament, "draw"), **EN)  # four left, and a late one
    assert response.status_code == 302  # seats round 2 (not a refusal)
    assert snapshot() != before


def test_a_late_entrant_is_seated_from_the_next_round(client, director, players):
    tournament = variety(director, players[:3], extra=("Дарья",))
    as_user(client, director)
    response = client.post(run_url(tournament, "enter"), {"enter-name": "Евгений"}, **EN)
    assert response.status_code == 302
    assert tournament.entrants.get(player__name="Евгений").joined_round == 2
    assert "late entry: from round 2" in client.get(run_url(tournament), **EN).content.decode()


def test_the_swap_offers_the_draft_rounds_entrants_only(client, director, players):
    tournament = variety(director, players, released=False)
    as_user(client, director)
    assert client.post(run_url(tournament, "enter"), {"enter-name": "Евгений"}).status_code == 302
    page = client.get(run_url(tournament)).content.decode()
    select = page.split('name="swap1-first"')[1].split("</select>")[0]
    offered = sorted(int(pk) for pk in re.findall(r'<option value="(\d+)">', select))
    late = tournament.entrants.get(player__name="Евгений")
    assert late.pk not in offered and len(offered) == 5
    before = snapshot()
    response = client.post(
        run_url(tournament, "rounds/1/swap"),
        {"swap1-first": late.pk, "swap1-second": offered[0]},
        **EN,
    )
    assert response.status_code == 400 and alert(response)
    assert snapshot() == before


def test_a_round_is_refused_while_the_last_is_a_draft(client, director, players):
    tournament = variety(director, players, released=False)
    as_user(client, director)
    before = snapshot()
    response = client.post(run_url(tournament, "draw"), **EN)
    assert response.status_code == 400 and "still a draft" in alert(response)
    assert snapshot() == before


# -- the Run page: seats, the tables' states, withdrawing and entering many ---------------------


def test_the_run_page_numbers_each_seat_from_1_beside_its_player(client, director, players):
    tournament = variety(director, players)
    table = first_table(tournament)
    as_user(client, director)
    block = table_html(client.get(run_url(tournament), **EN).content.decode(), table)
    seats = re.findall(r'<tr><td>(\d+)</td><th scope="row">([^<]+)</th>', block)
    assert seats == [(str(seat), name) for seat, name in enumerate(seat_names(table), start=1)]
    assert "<td>0</td>" not in block


def leopard(director, players, **options):
    """A Леопард tournament of one-deal matches of the club players, round 1 released."""
    tournament = services.create_tournament(
        user=director,
        name="Леопард",
        game="leopard",
        options={"deals": 1, **options},
        settings={},
        rounds_planned=1,
        seating="swiss",
        seed=1,
        bye_points=3,
        order=["points"],
    )
    for player in players:
        run_services.add_entrant(tournament=tournament, player=player, user=director)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=director), user=director
    )
    return tournament


def test_a_table_played_here_and_a_typed_one_say_the_same_words_in_each_state(
    client, director, scorer, players
):
    from tests.support.hotseat import act, current

    tournament = leopard(director, players)
    here, typed = RoundTable.objects.filter(round__tournament=tournament).order_by("number")
    as_user(client, director)
    page = client.get(run_url(tournament), **EN).content.decode()
    assert state_words(page, here) == state_words(page, typed) == "not started"

    hotseat = run_services.play_here(table=here, user=director).hotseat
    assert (
        state_words(client.get(run_url(tournament), **EN).content.decode(), here)
        == "playing: 0 of 1 deal"
    )
    step = 0
    while not current(hotseat).is_over:
        act(hotseat, choose=step, user=director)
        step += 1
    results_services.enter_sheet(table=typed, rows=[{"scores": [10, 7], "ender": 0}], user=scorer)
    page = client.get(run_url(tournament), **EN).content.decode()
    assert state_words(page, here) == state_words(page, typed) == "counted"
    assert "played here" in table_html(page, here) and "paper sheet" in table_html(page, typed)
    assert "deals" not in state_words(page, here)  # not "playing 1 of 1 deal" once it counts


def test_a_typed_sheet_awaiting_its_confirmation_and_a_table_left_unfinished_say_so(
    client, director, scorer, players
):
    from games import services as games_services

    tournament = leopard(director, players, deals=2)
    tournament.confirmation = True
    tournament.save(update_fields=["confirmation"])
    here, typed = RoundTable.objects.filter(round__tournament=tournament).order_by("number")
    hotseat = run_services.play_here(table=here, user=director).hotseat
    games_services.abandon_table(table=hotseat, expected_version=hotseat.version, user=director)
    rows = [{"scores": [10, 7], "ender": 0}, {"scores": [3, 12], "ender": None}]
    results_services.enter_sheet(table=typed, rows=rows[:1], user=scorer)
    as_user(client, director)
    page = client.get(run_url(tournament), **EN).content.decode()
    assert state_words(page, here) == "stopped after 0 of 2 deals"
    assert state_words(page, typed) == "playing: 1 of 2 deals"
    results_services.enter_sheet(table=typed, rows=rows, user=scorer)
    page = client.get(run_url(tournament), **EN).content.decode()
    assert state_words(page, typed) == "typed, awaiting confirmation"


def test_a_match_to_a_target_counts_its_deals_without_a_total(client, director, scorer, players):
    tournament = leopard(director, players, deals=None, target=33)
    table = first_table(tournament)
    results_services.enter_sheet(table=table, rows=[{"scores": [10, 7], "ender": 0}], user=scorer)
    as_user(client, director)
    page = client.get(run_url(tournament), **EN).content.decode()
    assert state_words(page, table) == "playing: 1 deal so far"


def test_withdraw_asks_first_and_a_post_without_the_confirmation_changes_nothing(
    client, director, players
):
    tournament = variety(director, players)
    anna = tournament.entrants.get(player__name="Анна")
    address = run_url(tournament, f"entrants/{anna.pk}/withdraw")
    as_user(client, director)
    assert (
        f'href="{address}">withdraw</a>' in client.get(run_url(tournament), **EN).content.decode()
    )
    page = client.get(address, **EN)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Withdraw Анна?" in html and "withdraws after round 1" in html
    assert 'name="confirm" value="withdraw"' in html and 'name="rounds" value="1"' in html
    before = snapshot()
    for forged in (
        {},
        {"confirm": "withdraw"},
        {"rounds": "1"},
        {"confirm": "yes", "rounds": "1"},
        {"confirm": "withdraw", "rounds": "one"},
    ):
        response = client.post(address, forged, **EN)
        assert response.status_code == 200 and "Withdraw Анна?" in response.content.decode()
    assert snapshot() == before
    response = client.post(address, WITHDRAW)
    assert response.status_code == 302, alert(response)
    anna.refresh_from_db()
    assert anna.withdrawn_after == 1
    assert AuditEntry.objects.filter(verb="tournament.withdraw").count() == 1
    page = client.get(run_url(tournament), **EN).content.decode()
    assert "withdrew after round 1" in page and "undo the withdrawal" in page


def test_a_confirmation_shown_before_a_round_was_seated_is_refused_as_stale(
    client, director, players
):
    tournament = variety(director, players)
    anna = tournament.entrants.get(player__name="Анна")
    as_user(client, director)
    run_services.draw_round(tournament=tournament, user=director)  # after the page asked
    before = snapshot()
    response = client.post(run_url(tournament, f"entrants/{anna.pk}/withdraw"), WITHDRAW, **EN)
    assert response.status_code == 409
    assert "Round 2 has been seated since this page was shown" in alert(response)
    assert snapshot() == before


def test_before_round_1_withdrawing_removes_the_entry_and_the_player_may_enter_again(
    client, director, players
):
    tournament = new_tournament(director, rounds_planned=2, seed=3, order=["points"])
    for player in [*players, "Дарья"]:
        run_services.add_entrant(tournament=tournament, player=player, user=director)
    boris = tournament.entrants.get(player__name="Борис")
    address = run_url(tournament, f"entrants/{boris.pk}/withdraw")
    as_user(client, director)
    assert (
        f'href="{address}">remove the entry</a>'
        in client.get(run_url(tournament), **EN).content.decode()
    )
    html = client.get(address, **EN).content.decode()
    assert "Remove Борис's entry?" in html and 'name="confirm" value="remove"' in html
    before = snapshot()
    response = client.post(address, {"confirm": "withdraw", "rounds": "0"}, **EN)  # forged
    assert response.status_code == 400 and "remove the entry instead" in alert(response)
    assert snapshot() == before

    response = client.post(address, {"confirm": "remove", "rounds": "0"})
    assert response.status_code == 302, alert(response)
    assert [(e.number, e.player.name) for e in tournament.entrants.order_by("number")] == [
        (1, "Анна"),
        (2, "Вера"),
        (3, "Глеб"),
        (4, "Дарья"),
    ]
    assert Player.objects.filter(name="Борис").exists()  # the club player stays
    assert AuditEntry.objects.filter(verb="tournament.remove").count() == 1
    page = client.get(run_url(tournament), **EN).content.decode()
    assert "withdrew" not in page
    before = snapshot()
    response = client.post(address, {"confirm": "remove", "rounds": "0"}, **EN)  # a double click
    assert response.status_code == 409 and "no longer in the tournament" in alert(response)
    assert snapshot() == before

    response = client.post(run_url(tournament, "enter"), {"enter-name": "Борис"})
    assert response.status_code == 302, alert(response)
    again = tournament.entrants.get(player__name="Борис")
    assert (again.number, again.joined_round) == (5, 1)
    assert client.post(run_url(tournament, "draw")).status_code == 302
    seated = {
        seat.entrant_id for seat in TableSeat.objects.filter(table__round__tournament=tournament)
    }
    assert again.pk in seated or Bye.objects.filter(entrant=again).exists()


def test_an_entrant_who_has_played_is_not_removed(client, director, players):
    tournament = variety(director, players)
    anna = tournament.entrants.get(player__name="Анна")
    as_user(client, director)
    before = snapshot()
    response = client.post(
        run_url(tournament, f"entrants/{anna.pk}/withdraw"),
        {"confirm": "remove", "rounds": "1"},
        **EN,
    )
    assert response.status_code == 400 and "Анна has already played" in alert(response)
    assert snapshot() == before


def test_an_undone_withdrawal_seats_the_player_again_from_the_next_round_drawn(
    client, director, players
):
    tournament = variety(director, players)  # five: a table of four and a bye
    anna = tournament.entrants.get(player__name="Анна")
    as_user(client, director)
    assert (
        client.post(run_url(tournament, f"entrants/{anna.pk}/withdraw"), WITHDRAW).status_code
        == 302
    )
    round_2 = run_services.draw_round(tournament=tournament, user=director)
    assert not round_2.byes.exists()
    assert "Анна" not in [name for t in round_2.tables.all() for name in seat_names(t)]
    run_services.release_round(round_=round_2, user=director)

    response = client.post(run_url(tournament, f"entrants/{anna.pk}/undo-withdrawal"))
    assert response.status_code == 302, alert(response)
    anna.refresh_from_db()
    assert anna.withdrawn_after is None
    assert AuditEntry.objects.filter(verb="tournament.withdraw.undo").count() == 1
    assert "withdrew after" not in client.get(run_url(tournament), **EN).content.decode()
    before = snapshot()
    response = client.post(run_url(tournament, f"entrants/{anna.pk}/undo-withdrawal"), **EN)
    assert response.status_code == 400 and "Анна has not withdrawn" in alert(response)
    assert snapshot() == before

    round_3 = run_services.draw_round(tournament=tournament, user=director)
    in_round = [name for t in round_3.tables.all() for name in seat_names(t)]
    in_round += [bye.entrant.player.name for bye in round_3.byes.all()]
    assert "Анна" in in_round and len(in_round) == 5


def entrant_names(tournament) -> list[str]:
    return [e.player.name for e in tournament.entrants.order_by("number")]


def test_ten_names_pasted_enter_ten_entrants_in_one_post(client, director, players):
    tournament = new_tournament(director, rounds_planned=2, seed=3, order=["points"])
    names = [
        "анна",
        "Борис",
        "Дарья",
        "Евгений",
        "Жанна",
        "Зоя",
        "Игорь",
        "Кира",
        "Лев",
        "  Мария   Петрова ",
    ]
    as_user(client, director)
    response = client.post(
        run_url(tournament, "enter"), {"enter-name": "\r\n".join(names) + "\r\n\r\n"}
    )
    assert response.status_code == 302, alert(response)
    assert entrant_names(tournament) == [
        "Анна",
        "Борис",
        "Дарья",
        "Евгений",
        "Жанна",
        "Зоя",
        "Игорь",
        "Кира",
        "Лев",
        "Мария Петрова",
    ]
    assert Player.objects.count() == 4 + 8  # Анна and Борис were club players already
    assert AuditEntry.objects.filter(verb="tournament.enter").count() == 10
    # and ticked club players with typed names, in one more submission
    for name in ("Вера", "Глеб"):
        assert f"> {name}</label>" in client.get(run_url(tournament), **EN).content.decode()
    response = client.post(
        run_url(tournament, "enter"),
        {
            "enter-player": [p.pk for p in players if p.name in ("Глеб", "Вера")],
            "enter-name": "Нина",
        },
    )
    assert response.status_code == 302, alert(response)
    assert entrant_names(tournament)[10:] == ["Вера", "Глеб", "Нина"]


@pytest.mark.parametrize(
    "typed, ticked, message",
    [
        ("Дарья\nЕвгений\n\nЖанна", [], "Line 3: A player needs a name."),
        ("Дарья\nЕвгений\n  дарья ", [], "Line 3: Дарья is already on this list."),
        ("Дарья\nанна", [], "Line 2: Анна has already entered."),
        ("Дарья\n" + "Я" * 61, [], "Line 2: A name may be at most 60 characters long."),
        ("Борис\nДарья", ["Борис"], "Line 1: Борис is already on this list."),
        ("Дарья", ["Анна"], "Анна has already entered."),  # ticked on a page shown before
    ],
)
def test_one_refused_line_enters_nobody_and_names_the_line(
    client, director, players, typed, ticked, message
):
    tournament = new_tournament(director, rounds_planned=2, seed=3, order=["points"])
    run_services.add_entrant(tournament=tournament, player=players[0], user=director)
    as_user(client, director)
    before = snapshot()
    response = client.post(
        run_url(tournament, "enter"),
        {"enter-name": typed, "enter-player": [p.pk for p in players if p.name in ticked]},
        **EN,
    )
    assert response.status_code == 400
    assert alert(response) == message
    assert snapshot() == before
    html = response.content.decode()
    assert html.split('name="enter-name"')[1].split(">", 1)[1].split("</textarea>")[0].strip(
        "\n"
    ) == typed.replace("&", "&amp;")


def test_an_empty_entry_is_refused_and_too_many_names_are_refused_at_once(client, director):
    from tournaments.run.forms import MOST_NAMES

    tournament = new_tournament(director, rounds_planned=2, seed=3, order=["points"])
    as_user(client, director)
    before = snapshot()
    response = client.post(run_url(tournament, "enter"), {"enter-name": " \n "}, **EN)
    assert response.status_code == 400 and "Tick club players or type names" in alert(response)
    many = "\n".join(f"Игрок {n}" for n in range(MOST_NAMES + 1))
    response = client.post(run_url(tournament, "enter"), {"enter-name": many}, **EN)
    assert response.status_code == 400 and f"At most {MOST_NAMES} names" in alert(response)
    assert snapshot() == before


# -- printed sheets -----------------------------------------------------------------------------


def test_the_paper_sheets_have_a_page_per_table_and_a_row_per_deal(
    client, director, scorer, players
):
    tournament = variety(director, [*players, "Дарья", "Евгений", "Жанна", "Зоя"], extra=())
    as_scorer(client, scorer, tournament)
    response = client.get(f"/tournaments/{tournament.key}/rounds/1/sheets/", **EN)
    assert response.status_code == 200
    html = response.content.decode()
    assert "@media print" in html and "break-after: page" in html
    assert html.count('class="panel paper-sheet"') == 2
    assert html.count('<th scope="row">') == 8  # two tables, four deals each
    for table in RoundTable.objects.filter(round__tournament=tournament):
        names = seat_names(table)
        heads = re.findall(r'<th scope="col">([^<]+)</th>', html)
        numbered = [f"{seat} · {name}" for seat, name in enumerate(names, start=1)]
        assert any(heads[k : k + 4] == numbered for k in range(len(heads)))
    assert "Table 2" in html and "Round 1" in html and tournament.name in html
    assert client.get(f"/tournaments/{tournament.key}/rounds/9/sheets/").status_code == 404


def test_fantan_through_the_page_takes_the_games_options_and_its_deals(client, director):
    as_user(client, director)
    response = client.post(
        "/tournaments/new/fantan/",
        {
            "name": "Фантан-вечер",
            "rounds_planned": "2",
            "seating": "mixing",
            "seed": "7",
            "bye_points": "1.5",
            "order": "points",
            "option-start_rank": "7",
            "option-until_out": "2",
            "option-scoring": "",
            "option-premium_1": "800",
            "option-premium_2": "500",
            "setting_deals": "6",
            "confirmation": "on",
        },
    )
    assert response.status_code == 302, alert(response)
    tournament = Tournament.objects.get()
    assert tournament.options["start_rank"] == "7" and tournament.options["until_out"] == 2
    assert tournament.game_settings == {"deals": 6} and tournament.confirmation
    assert tournament.order == ["points", "match_points"]
    assert str(tournament.bye_points) in ("1.5", "1.50")
    names = ["Анна", "Борис", "Вера"]
    layout = run_selectors.layout(tournament, names)
    assert layout.length == 6
    assert [(spec["key"], spec["kind"]) for spec in layout.fields] == [
        ("finish_order", "seats"),
        ("cards_left", "per_seat"),
    ]
    assert layout.fields[0]["count"] == 2
    assert len(layout.heads()[1]) == 2 + 3  # the places out, then the three names


def test_start_rank_two_is_refused_as_tables_of_three_cannot_play_it(client, director):
    as_user(client, director)
    response = client.post(
        "/tournaments/new/fantan/",
        {
            "name": "Фантан",
            "rounds_planned": "2",
            "seating": "mixing",
            "seed": "7",
            "bye_points": "3",
            "order": "default",
            "option-start_rank": "2",
            "option-until_out": "1",
            "option-premium_1": "800",
            "option-premium_2": "500",
            "setting_deals": "4",
        },
        **EN,
    )
    assert response.status_code == 400 and "table of 3" in alert(response)
    assert not Tournament.objects.exists()


def test_a_leopard_sheet_to_a_target_offers_ten_rows_and_takes_an_ender_or_none(
    client, director, scorer, players
):
    tournament = services.create_tournament(
        user=director,
        name="Леопард",
        game="leopard",
        options={"target": 33},
        settings={},
        rounds_planned=1,
        seating="swiss",
        seed=1,
        bye_points=3,
        order=["points"],
    )
    for player in players[:2]:
        run_services.add_entrant(tournament=tournament, player=player, user=director)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=director), user=director
    )
    table = first_table(tournament)
    as_scorer(client, scorer, tournament)
    html = client.get(sheet_url(table), **EN).content.decode()
    assert html.count('<th scope="row">') == 10
    assert "nobody: the stock ran out" in html
    data = {
        "rows": "10",
        "r1-scores-0": "10",
        "r1-scores-1": "7",
        "r1-ender": "0",
        "r2-scores-0": "3",
        "r2-scores-1": "12",
        "r2-ender": "",
    }
    response = client.post(sheet_url(table), data)
    assert response.status_code == 302, alert(response)
    assert [row.data for row in table.rows.order_by("index")] == [
        {"scores": [10, 7], "ender": 0},
        {"scores": [3, 12], "ender": None},
    ]
    data["r1-scores-0"] = "11"  # a declarer's score is even
    response = client.post(sheet_url(table), data, **EN)
    assert response.status_code == 400
    first = seat_names(table)[0]
    assert alert(response).startswith(f"Row 1: Seat 1 ({first}) declared the end"), alert(response)


def test_each_games_row_layout_describes_its_checked_rows():
    from games import registry

    variety_ = registry.tournament("variety").row_layout(
        seats=4, options={"cycle": "full"}, settings={}
    )
    assert [spec["kind"] for spec in variety_] == ["choice", "seats", "per_seat"]
    assert [value for value, _ in variety_[0]["choices"]] == list(range(1, 9))
    leopard = registry.tournament("leopard").row_layout(
        seats=2, options={"target": 33}, settings={}
    )
    assert [(spec["key"], spec["kind"]) for spec in leopard] == [
        ("scores", "per_seat"),
        ("ender", "seat_or_none"),
    ]
    fantan = registry.tournament("fantan").row_layout(seats=4, options={}, settings={})
    assert fantan[0]["count"] == 1


def test_a_match_to_a_target_offers_ten_rows_and_a_match_of_deals_its_deals(director):
    for options, length in (({"target": 33}, run_selectors.ROOM), ({"deals": 6}, 6)):
        tournament = new_tournament(
            director, game="leopard", name=f"Леопард {length}", seating="swiss", options=options
        )
        assert run_selectors.sheet_length(tournament, 2) == length


# -- seats as people read them: from 1, with the player -------------------------------------------


def fantan(director, players, **options):
    """A Фантан tournament of three deals a table (two out a deal unless ``options`` say
    otherwise) of the four club players, round 1 released."""
    tournament = services.create_tournament(
        user=director,
        name="Фантан-вечер",
        game="fantan",
        options={"start_rank": "7", "until_out": 2, **options},
        settings={"deals": 3},
        rounds_planned=2,
        seating="mixing",
        seed=7,
        bye_points=3,
        order=["points"],
    )
    for player in players:
        run_services.add_entrant(tournament=tournament, player=player, user=director)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=director), user=director
    )
    return tournament


def test_a_refusal_numbers_every_seat_param_from_1_and_names_its_player():
    from django.utils import translation

    from core.wording import refusal_text
    from games.engine.tournament import RowError

    names = ["Анна", "Борис", "Вера", "Глеб"]
    partners = RowError(
        "Partners' figures must be equal: seat %(seat)s has %(figure)s, seat "
        "%(partner)s has %(other)s.",
        seat=0,
        figure=16,
        partner=3,
        other=10,
    )
    forged = RowError("“%(name)s” must be a seat from 0 to %(last)s.", name="ender", last=1)
    twice = services.SheetRefused(
        2, "“%(name)s” names seat %(seat)s twice.", name="finish_order", seat=1
    )
    with translation.override("en"):
        assert refusal_text(partners, names) == (
            "Partners' figures must be equal: seat 1 (Анна) has 16, seat 4 (Глеб) has 10."
        )
        assert refusal_text(partners) == (  # no names at hand: still from 1
            "Partners' figures must be equal: seat 1 has 16, seat 4 has 10."
        )
        assert refusal_text(forged, names[:2], {"ender": "Declared the end"}) == (
            "“Declared the end” must be a seat from 1 to 2."
        )
        assert refusal_text(twice, names, {"finish_order": "Went out, in order"}) == (
            "“Went out, in order” names seat 2 (Борис) twice."
        )
    assert partners.params == {"seat": 0, "figure": 16, "partner": 3, "other": 10}  # records: 0..
    with translation.override("ru"):  # the reworded bounds are marked for translation
        assert refusal_text(forged, names[:2]) == translation.gettext(
            "“%(name)s” must be a seat from 1 to %(last)s."
        ) % {"name": "ender", "last": 2}


def test_a_typed_sheets_refusals_number_seats_from_1_with_the_players_names(
    client, director, scorer, players
):
    tournament = variety(director, players)
    table = first_table(tournament)
    names = seat_names(table)
    as_scorer(client, scorer, tournament)
    rows = list(SHORT_CYCLE)
    rows[1] = (2, [2, 3], [26, 26, 10, 20])  # the attackers' figures differ
    response = client.post(sheet_url(table), sheet_post(rows), **EN)
    assert response.status_code == 400
    assert unescape(alert(response)) == (
        f"Row 2: Partners' figures must be equal: seat 3 ({names[2]}) has 10, seat 4 "
        f"({names[3]}) has 20."
    )
    rows[1] = (2, [0, 1], [16, 16, 10, 12])  # the defenders' figures differ
    response = client.post(sheet_url(table), sheet_post(rows), **EN)
    assert unescape(alert(response)) == (
        f"Row 2: Partners' figures must be equal: seat 3 ({names[2]}) has 10, seat 4 "
        f"({names[3]}) has 12."
    )
    rows[1] = (2, [1, 2], [10, 16, 16, 12])
    response = client.post(sheet_url(table), sheet_post(rows), **EN)
    assert unescape(alert(response)) == (
        f"Row 2: Partners' figures must be equal: seat 1 ({names[0]}) has 10, seat 4 "
        f"({names[3]}) has 12."
    )
    # a seat picked twice, and a seat number no select offers
    rows[1] = (2, [2, 2], [10, 10, 26, 26])
    response = client.post(sheet_url(table), sheet_post(rows), **EN)
    assert alert(response) == f"Row 2: “Attackers” names seat 3 ({names[2]}) twice."
    rows[1] = (2, [2, 4], [10, 10, 26, 26])
    response = client.post(sheet_url(table), sheet_post(rows), **EN)
    assert alert(response) == "Row 2: “Attackers” must be a list of 2 seats, each from 1 to 4."
    assert table.rows.count() == 0


def test_a_fantan_sheets_refusal_names_the_seat_from_1(client, director, scorer, players):
    tournament = fantan(director, players)
    table = first_table(tournament)
    names = seat_names(table)
    as_scorer(client, scorer, tournament)
    data = {
        "rows": "3",
        "r1-finish_order-0": "3",
        "r1-finish_order-1": "0",
        "r1-cards_left-0": "4",
        "r1-cards_left-1": "4",
        "r1-cards_left-2": "2",
        "r1-cards_left-3": "0",
    }
    response = client.post(sheet_url(table), data, **EN)
    assert response.status_code == 400
    assert alert(response) == (f"Row 1: Seat 1 ({names[0]}) went out, so has no cards left, not 4.")
    data["r1-cards_left-0"], data["r1-cards_left-1"] = "0", "0"  # the row's seat 1 is in
    response = client.post(sheet_url(table), data, **EN)
    assert alert(response) == (
        f"Row 1: Seat 2 ({names[1]}) did not go out, so has 1 to 13 cards left, not 0."
    )
    assert table.rows.count() == 0


def test_the_typed_sheet_offers_each_seat_by_its_number_from_1_and_its_player(
    client, director, scorer, players
):
    tournament = fantan(director, players)
    table = first_table(tournament)
    as_scorer(client, scorer, tournament)
    html = client.get(sheet_url(table), **EN).content.decode()
    select = re.search(r'<select name="r1-finish_order-0"[^>]*>(.*?)</select>', html, re.S)
    offered = re.findall(r'<option value="(\d)">([^<]+)</option>', select.group(1))
    assert offered == [
        (str(seat), f"{seat + 1} · {name}") for seat, name in enumerate(seat_names(table))
    ]


# -- the printed sheet: dealers, options, what to write, signatures ---------------------------


def paper(client, tournament, language=EN) -> str:
    response = client.get(f"/tournaments/{tournament.key}/rounds/1/sheets/", **language)
    assert response.status_code == 200
    return response.content.decode()


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_paper_sheet_numbers_seats_from_1_and_says_what_to_write(
    client, director, scorer, players
):
    tournament = fantan(director, players)
    table = first_table(tournament)
    names = seat_names(table)
    as_scorer(client, scorer, tournament)
    html = paper(client, tournament)
    text = text_of(html)
    numbered = [f"{seat} · {name}" for seat, name in enumerate(names, start=1)]
    assert f"Players, in seat order: {', '.join(numbered)}" in text
    assert re.findall(r'<th scope="col">([^<]+)</th>', html)[-4:] == numbered
    assert "Went out, in order seat numbers 1–4, in order" in text
    assert "Cards left" in text
    assert not re.search(r"\b0 ·|seat 0\b", text, re.I)  # no seat 0 anywhere
    # the dealer: drawn at the table, then passing left
    assert "Dealer seat number, 1–4" in text
    assert (
        "The first dealer is drawn by lot: write the seat number drawn in deal 1. After that "
        "the deal passes to the left, clockwise, to the next seat (after seat 4, seat 1)."
    ) in text
    assert html.count('<td class="dealer"></td>') == 3  # a cell to write it in, each deal


def test_the_paper_sheet_shows_the_options_played(client, director, scorer, players):
    tournament = fantan(director, players, ace_extra=True)
    as_scorer(client, scorer, tournament)
    text = text_of(paper(client, tournament))
    played = text[text.index("Options played:") : text.index("Deal Dealer")]
    for option in (
        "Start card: 7",
        "One more card after an ace: yes",
        "One more card after a two: no",
        "The deal ends: when two players are out (as in Кинг), with premiums",
        "First premium: 800",
        "Second premium: 500",
        "Scoring: premiums for the first and second out",
    ):
        assert option in played, played
    leopard = services.create_tournament(
        user=director,
        name="Леопард",
        game="leopard",
        options={"target": 33},
        settings={},
        rounds_planned=1,
        seating="swiss",
        seed=1,
        bye_points=3,
        order=["points"],
    )
    name_official(leopard, scorer)
    for player in players:
        run_services.add_entrant(tournament=leopard, player=player, user=director)
    run_services.release_round(
        round_=run_services.draw_round(tournament=leopard, user=director), user=director
    )
    text = text_of(paper(client, leopard))
    assert "Options played: Target score: 33" in text
    assert "Declared the end seat number, 1–2, or “—”: nobody: the stock ran out" in text


def test_the_paper_sheet_has_a_signature_line_for_each_player_and_the_scorer(
    client, director, scorer, players
):
    tournament = variety(director, players)
    table = first_table(tournament)
    as_scorer(client, scorer, tournament)
    html = paper(client, tournament)
    signatures = re.search(r'<ul class="signatures">(.*?)</ul>', html, re.S).group(1)
    lines = re.findall(
        r'<li><span class="who">([^<]+)</span><span class="line"></span></li>', signatures
    )
    assert lines == [
        *(f"{seat} · {name}" for seat, name in enumerate(seat_names(table), start=1)),
        "Scorer",
    ]
    text = text_of(html)
    assert "Attackers seat numbers 1–4, in order" in text
    assert "Contract its number (see below)" in text
    assert "Игроки по порядку мест: 1 · " in text_of(paper(client, tournament, RU))


def marked(*templates: str) -> set[str]:
    """The messages the director's templates mark for translation (as makemessages reads
    them)."""
    from pathlib import Path

    from django.conf import settings
    from django.utils.translation.template import templatize

    folder = Path(settings.BASE_DIR) / "tournaments" / "templates" / "tournaments" / "director"
    return {
        message
        for name in templates
        for message in re.findall(
            r"gettext\(u'(.*?)'\)", templatize((folder / name).read_text(encoding="utf-8"))
        )
    }


def test_every_word_the_sheets_print_is_marked_for_translation():
    messages = marked("sheets.html", "_heads.html", "sheet.html")
    assert {
        "Options played:",
        "Signatures",
        "Scorer",
        "Dealer",
        "Deal",
        "seat number, 1–%(last)s",
        "seat numbers 1–%(last)s, in order",
        "seat number, 1–%(last)s, or “—”: %(none)s",
        "its number (see below)",
        "Players, in seat order:",
        "The first dealer is drawn by lot: write the seat number drawn in deal 1. After that "
        "the deal passes to the left, clockwise, to the next seat (after seat %(last)s, seat "
        "1).",
    } <= messages


def test_a_table_played_here_prints_each_deals_dealer(client, director, scorer, players):
    tournament = variety(director, players)
    table = first_table(tournament)
    names = seat_names(table)
    run_services.play_here(table=table, user=director)
    table.refresh_from_db()
    first = Deal.objects.get(table=table.hotseat, number=1).dealer
    as_scorer(client, scorer, tournament)
    html = paper(client, tournament)
    dealers = re.findall(r'<td class="dealer">([^<]*)</td>', html)
    assert dealers == [f"{(first + k) % 4 + 1} · {names[(first + k) % 4]}" for k in range(4)]
    assert "The first dealer is drawn by lot" not in html and "Dealer</th>" in html


# -- who may do what -----------------------------------------------------------------------------


def every_address(tournament):
    """(method, address, data) of every page and write, against a tournament with a
    released round 1 and a draft round 2."""
    table = first_table(tournament)
    entrant = tournament.entrants.order_by("number").first()
    key = tournament.key
    pages = [
        ("get", "/tournaments/new/variety/", {}),
        ("get", f"/tournaments/{key}/run/", {}),
        ("get", f"/tournaments/{key}/rounds/1/sheets/", {}),
        ("get", f"/tournaments/{key}/tables/{table.pk}/sheet/", {}),
        ("get", f"/tournaments/{key}/run/entrants/{entrant.pk}/withdraw", {}),  # it asks
    ]
    writes = [
        (
            "post",
            "/tournaments/new/variety/",
            {
                "name": "X",
                "rounds_planned": "1",
                "seating": "mixing",
                "seed": "1",
                "bye_points": "3",
                "order": "default",
                "option-cycle": "short",
            },
        ),
        ("post", f"/tournaments/{key}/run/enter", {"enter-name": "Новый"}),
        (
            "post",
            f"/tournaments/{key}/run/entrants/{entrant.pk}/withdraw",
            {"confirm": "withdraw", "rounds": "2"},
        ),
        ("post", f"/tournaments/{key}/run/entrants/{entrant.pk}/undo-withdrawal", {}),
        ("post", f"/tournaments/{key}/run/draw", {}),
        ("post", f"/tournaments/{key}/run/rounds/2/swap", {}),
        ("post", f"/tournaments/{key}/run/rounds/2/release", {}),
        ("post", f"/tournaments/{key}/run/tables/{table.pk}/play-here", {}),
        ("post", f"/tournaments/{key}/run/tables/{table.pk}/confirm", {}),
        (
            "post",
            f"/tournaments/{key}/run/adjust",
            {
                "adjust-entrant": entrant.pk,
                "adjust-round": "1",
                "adjust-points": "1",
                "adjust-reason": "x",
            },
        ),
        ("post", f"/tournaments/{key}/tables/{table.pk}/sheet/", sheet_post(SHORT_CYCLE)),
        (
            "post",
            f"/tournaments/{key}/run/officials",
            {"official-account": tournament.created_by_id, "official-role": "scorer"},
        ),
        ("post", f"/tournaments/{key}/run/officials/{tournament.created_by_id}/remove", {}),
    ]
    return pages, writes


@pytest.fixture
def running(director, scorer, players):
    """Round 1 released with a typed sheet awaiting confirmation; round 2 a draft."""
    tournament = variety(director, players, confirmation=True)
    name_official(tournament, scorer)
    rows = [{"contract": c, "attackers": a, "scores": s} for c, a, s in SHORT_CYCLE]
    results_services.enter_sheet(table=first_table(tournament), rows=rows, user=scorer)
    run_services.draw_round(tournament=tournament, user=director)
    return tournament


def test_a_visitor_is_sent_to_sign_in_and_refused_every_write(client, running):
    pages, writes = every_address(running)
    before = snapshot()
    for _, address, _ in pages:
        response = client.get(address)
        assert response.status_code == 302, address
        assert response["Location"].startswith("/accounts/login/?next="), address
    for _, address, data in writes:
        assert client.post(address, data).status_code == 403, address
    assert snapshot() == before


def test_a_plain_member_gets_403_on_every_page_and_write(client, member, running):
    as_user(client, member)
    pages, writes = every_address(running)
    before = snapshot()
    for method, address, data in pages + writes:
        response = getattr(client, method)(address, data, **EN)
        assert response.status_code == 403, address
    assert snapshot() == before


def test_a_scorer_cannot_create_seat_change_or_adjust(client, scorer, running):
    as_user(client, scorer)
    _, writes = every_address(running)
    before = snapshot()
    scorers_writes = ("/confirm", "/sheet/")
    for _, address, data in writes:
        if not address.endswith(scorers_writes):
            assert client.post(address, data).status_code == 403, address
    assert client.get("/tournaments/new/variety/").status_code == 403
    assert snapshot() == before
    page = client.get(run_url(running), **EN)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Type in the sheet" in html or "Correct the typed sheet" in html
    assert "Seat round" not in html and "Release round" not in html
    assert "Play here" not in html and "withdraw" not in html


def rival_tournament(rival, players):
    """A tournament of ``rival``'s own, which makes him a director (and no more) elsewhere."""
    return services.create_tournament(
        user=rival,
        name="Другой турнир",
        game="variety",
        options={"cycle": "short"},
        settings={},
        rounds_planned=1,
        seating="mixing",
        seed=1,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
    )


def test_a_director_or_scorer_of_another_tournament_gets_403_on_every_page_and_write(
    client, django_user_model, running, players
):
    rival = user_in(django_user_model, "rival", DIRECTOR)
    rivals_scorer = user_in(django_user_model, "rivals_scorer", PLAYER)
    name_official(rival_tournament(rival, players), rivals_scorer)
    pages, writes = every_address(running)
    rows = f"/tournaments/{running.key}/tables/{first_table(running).pk}/rows/"
    corrections = [
        ("get", rows, {}),
        ("get", f"{rows}1/", {}),
        ("post", f"{rows}1/", {"reason": "mine", "seen": "x"}),
        ("post", f"{rows}1/revert", {"version": "1", "reason": "mine", "seen": "x"}),
    ]
    before = snapshot()
    for user in (rival, rivals_scorer):
        as_user(client, user)
        for method, address, data in pages + writes + corrections:
            if address.startswith("/tournaments/new/"):
                continue  # a club director's, in no tournament
            response = getattr(client, method)(address, data, **EN)
            assert response.status_code == 403, (user, address)
        public = client.get(f"/tournaments/{running.key}/", **EN)
        assert public.status_code == 200
        assert f'href="{run_url(running)}"' not in public.content.decode()
    assert snapshot() == before


def test_a_director_names_another_who_may_then_run_his_tournament(
    client, django_user_model, director, running, players
):
    rival = user_in(django_user_model, "rival", DIRECTOR)
    rival_tournament(rival, players)
    as_user(client, rival)
    assert client.post(run_url(running, "rounds/2/release")).status_code == 403
    assert not running.rounds.get(number=2).released

    as_user(client, director)
    response = client.post(
        run_url(running, "officials"),
        {"official-account": rival.pk, "official-role": "director"},
        **EN,
    )
    assert response.status_code == 302
    entry = AuditEntry.objects.filter(verb="tournament.role.add").latest("pk")
    assert entry.user == director
    assert entry.data == {
        "tournament": running.key,
        "account": rival.pk,
        "username": "rival",
        "role": "director",
    }
    page = client.get(run_url(running), **EN).content.decode()
    assert "rival — director" in unescape(page)

    as_user(client, rival)
    assert client.post(run_url(running, "rounds/2/release")).status_code == 302
    assert running.rounds.get(number=2).released


def test_only_its_own_directors_and_the_organisers_abandon_a_tournaments_table(
    client, django_user_model, director, players
):
    from club.roles import ORGANISER

    tournament = variety(director, players)
    hotseat = run_services.play_here(table=first_table(tournament), user=director).hotseat
    rival = user_in(django_user_model, "rival", DIRECTOR)
    rival_tournament(rival, players)

    def abandon(user):
        as_user(client, user)
        hotseat.refresh_from_db()
        return client.post(f"/t/{hotseat.token}/abandon", {"version": hotseat.version}, **EN)

    response = abandon(rival)
    assert response.status_code == 403
    assert "only a director of that tournament may change it" in unescape(response.content.decode())
    hotseat.refresh_from_db()
    assert hotseat.state == HotseatTable.State.PLAYING
    name_official(tournament, rival, role="director")
    assert abandon(rival).status_code == 302
    hotseat.refresh_from_db()
    assert hotseat.state == HotseatTable.State.ABANDONED

    other = variety(director, players)
    hotseat = run_services.play_here(table=first_table(other), user=director).hotseat
    assert abandon(user_in(django_user_model, "org", ORGANISER)).status_code == 302


def test_a_scorer_named_in_one_tournament_scores_it_and_no_other(
    client, django_user_model, director, scorer, players
):
    mine = variety(director, players)
    other = variety(director, players)
    as_scorer(client, scorer, mine)
    assert client.get(sheet_url(first_table(mine)), **EN).status_code == 200
    assert client.get(sheet_url(first_table(other)), **EN).status_code == 403
    rows = sheet_post(SHORT_CYCLE)
    assert client.post(sheet_url(first_table(other)), rows, **EN).status_code == 403
    assert not SheetRow.objects.filter(table__round__tournament=other).exists()
    assert client.post(sheet_url(first_table(mine)), rows, **EN).status_code == 302
    assert SheetRow.objects.filter(table__round__tournament=mine).count() == len(SHORT_CYCLE)


def test_the_last_director_cannot_be_removed_and_a_name_sent_twice_is_stale(
    client, director, scorer, running
):
    as_user(client, director)
    before = snapshot()
    response = client.post(run_url(running, f"officials/{director.pk}/remove"), **EN)
    assert response.status_code == 400
    assert "keeps at least one director" in alert(response)
    response = client.post(
        run_url(running, "officials"),
        {"official-account": director.pk, "official-role": "scorer"},
        **EN,
    )
    assert response.status_code == 400
    response = client.post(
        run_url(running, "officials"),
        {"official-account": scorer.pk, "official-role": "scorer"},
        **EN,
    )
    assert response.status_code == 409
    assert "already has this role" in alert(response)
    assert snapshot() == before
    assert client.post(run_url(running, f"officials/{scorer.pk}/remove")).status_code == 302
    assert AuditEntry.objects.filter(verb="tournament.role.remove").count() == 1
    as_user(client, scorer)
    assert client.get(run_url(running), **EN).status_code == 403


def test_no_get_changes_anything(client, director, running):
    as_user(client, director)
    pages, writes = every_address(running)
    before = snapshot()
    for _, address, _ in pages:
        assert client.get(address, **EN).status_code in (200, 409), address
    asking = {address for _, address, _ in pages}  # a write whose GET asks first
    for _, address, _ in writes:
        if "/run/" in address and address not in asking:
            assert client.get(address).status_code == 405, address
    assert snapshot() == before


def test_the_directors_page_reads_a_fixed_number_of_queries(client, director, running):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    as_user(client, director)

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get(run_url(running)).status_code == 200
        return len(captured)

    before = queries()
    run_services.release_round(round_=running.rounds.get(number=2), user=director)
    run_services.draw_round(tournament=running, user=director)
    assert queries() == before


def test_csrf_is_checked(director, running):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    before = snapshot()
    assert client.post(run_url(running, "rounds/2/release")).status_code == 403
    assert snapshot() == before


def test_unknown_tournaments_games_and_tables_are_404(client, director, running):
    as_user(client, director)
    assert client.get("/tournaments/new/poker/").status_code == 404
    assert client.get("/tournaments/nope/run/").status_code == 404
    assert client.get(f"/tournaments/{running.key}/tables/999999/sheet/").status_code == 404
    assert client.post(f"/tournaments/{running.key}/run/tables/999999/confirm").status_code == 404


# -- both languages ------------------------------------------------------------------------------


@pytest.mark.parametrize("language", [EN, RU])
def test_every_page_renders_in_both_languages(client, director, running, language):
    as_user(client, director)
    pages, _ = every_address(running)
    code = language["HTTP_ACCEPT_LANGUAGE"]
    for _, address, _ in pages:
        response = client.get(address, **language)
        assert response.status_code == 200, address
        assert f'<html lang="{code}">' in response.content.decode()
    for game in ("fantan", "leopard"):
        assert client.get(f"/tournaments/new/{game}/", **language).status_code == 200
