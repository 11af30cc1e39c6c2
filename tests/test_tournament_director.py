"""The directors' and scorers' pages: a tournament created, its entrants, a round seated as a
draft, changed and released, sheets printed and typed in, a second scorer's confirmation, a
table played here; and who may do what."""

import re
from urllib.parse import unquote

import pytest

from games.models import AuditEntry, Player
from games.models import Table as HotseatTable
from tests.conftest import user_in
from tournaments import selectors, selectors_director, services
from tournaments.models import (
    Adjustment,
    Bye,
    Entrant,
    Round,
    RoundTable,
    SheetRow,
    TableSeat,
    Tournament,
)
from tournaments.roles import DIRECTOR, SCORER

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}

# A short cycle that passes every check: (contract, attackers, scores).
SHORT_CYCLE = [
    (2, [0, 1], [16, 16, 10, 10]),  # 16 to 10: the attackers won, no +10
    (2, [2, 3], [26, 26, 10, 10]),  # 10 to 16: each defender's 16 + 10
    (2, [0, 2], [16, 10, 16, 10]),
    (8, [1, 3], [-20, -6, -20, -6]),  # −6 to −20: the attackers won
]
TOTALS = [38, 46, 16, 24]


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


@pytest.fixture
def scorer(django_user_model):
    return user_in(django_user_model, "scorer", SCORER)


@pytest.fixture
def second_scorer(django_user_model):
    return user_in(django_user_model, "scorer2", SCORER)


@pytest.fixture
def member(django_user_model):
    return user_in(django_user_model, "member")


def as_user(client, user):
    client.force_login(user)
    return client


def alert(response) -> str:
    found = re.findall(r'role="alert">\s*([^<]+)', response.content.decode())
    return " ".join(text.strip() for text in found)


def run_url(tournament, what=""):
    return f"/tournaments/{tournament.key}/run/{what}"


def sheet_url(table):
    return f"/tournaments/{table.round.tournament.key}/tables/{table.pk}/sheet/"


def sheet_post(rows, count=None) -> dict:
    """The typed sheet's form: Выборы rows as (contract, attackers, scores)."""
    data = {"rows": str(count or max(len(rows), 4))}
    for number, (contract, attackers, scores) in enumerate(rows, start=1):
        data[f"r{number}-contract"] = str(contract)
        for k, seat in enumerate(attackers):
            data[f"r{number}-attackers-{k}"] = str(seat)
        for seat, figure in enumerate(scores):
            data[f"r{number}-scores-{seat}"] = str(figure)
    return data


def snapshot():
    """Everything a page of these could change."""
    models = (Tournament, Entrant, Round, RoundTable, TableSeat, Bye, SheetRow, Adjustment,
              Player, HotseatTable)
    state = {model.__name__: sorted(map(repr, model.objects.values())) for model in models}
    state["audit"] = AuditEntry.objects.count()
    return state


def variety(director, players, *, confirmation=False, released=True, extra=("Дарья",)):
    """A short-cycle Выборы tournament of the four club players and ``extra``, round 1
    seated (and released)."""
    tournament = services.create_tournament(
        user=director, name="Осенний кубок", game="variety", options={"cycle": "short"},
        settings={}, rounds_planned=3, seating="mixing", seed=20261130, bye_points=3,
        order=["match_points", "points", "opponents", "wins"], confirmation=confirmation)
    for player in [*players, *extra]:
        services.add_entrant(tournament=tournament, player=player, user=director)
    round_ = services.draw_round(tournament=tournament, user=director)
    if released:
        services.release_round(round_=round_, user=director)
    return tournament


def first_table(tournament) -> RoundTable:
    return RoundTable.objects.select_related("round__tournament").filter(
        round__tournament=tournament).order_by("round__number", "number").first()


def seat_names(table) -> list[str]:
    return [seat.entrant.player.name for seat in table.seats.order_by("position")]


def points_of(tournament) -> dict:
    return {row.player: row.points for row in selectors.standings(tournament).rows}


# -- the whole flow as a director clicks it ---------------------------------------------------

def test_a_director_creates_enters_seats_swaps_releases_and_a_typed_sheet_counts(
        client, director, players):
    as_user(client, director)
    assert client.get("/tournaments/new/variety/", **EN).status_code == 200
    response = client.post("/tournaments/new/variety/", {
        "name": "Осенний кубок", "rounds_planned": "3", "seating": "mixing",
        "seed": "20261130", "bye_points": "3", "order": "default", "option-cycle": "short"})
    assert response.status_code == 302, alert(response)
    tournament = Tournament.objects.get()
    assert unquote(response["Location"]) == run_url(tournament)
    assert (tournament.game, tournament.options, tournament.seed) == (
        "variety", {"cycle": "short"}, 20261130)
    assert not tournament.confirmation and tournament.created_by == director

    for player in players:
        response = client.post(run_url(tournament, "enter"), {"enter-player": player.pk})
        assert response.status_code == 302, alert(response)
    response = client.post(run_url(tournament, "enter"), {"enter-name": "Дарья"})
    assert response.status_code == 302, alert(response)
    assert [e.player.name for e in tournament.entrants.order_by("number")] == [
        "Анна", "Борис", "Вера", "Глеб", "Дарья"]

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
    response = client.post(run_url(tournament, "rounds/1/swap"),
                           {"swap1-first": bye.pk, "swap1-second": seated.pk})
    assert response.status_code == 302, alert(response)
    assert round_.byes.get().entrant == seated
    assert table.seats.get(position=2).entrant == bye

    response = client.post(run_url(tournament, "rounds/1/release"))
    assert response.status_code == 302, alert(response)
    round_.refresh_from_db()
    assert round_.released
    response = client.post(run_url(tournament, "rounds/1/swap"),
                           {"swap1-first": bye.pk, "swap1-second": seated.pk})
    assert response.status_code == 400  # the swap form is gone; a released round is fixed

    page = client.get(sheet_url(table), **EN)
    assert page.status_code == 200
    html = page.content.decode()
    names = seat_names(table)
    heads = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', html)
    assert heads == ["Deal", "Contract", "Attackers", "Score", "1", "2", *seat_names(table)]
    for name in names:
        assert f'<th scope="col">{name}</th>' in html
    assert html.count('<th scope="row">') == 4  # a short cycle: four rows shown
    response = client.post(sheet_url(table), sheet_post(SHORT_CYCLE))
    assert response.status_code == 302, alert(response)
    assert table.rows.count() == 4
    assert [points_of(tournament)[name] for name in names] == TOTALS
    assert points_of(tournament)[seated.player.name] == 0  # the bye: match points only
    page = client.get(run_url(tournament), **EN).content.decode()
    assert "counts" in page and "typed in by director" in page


def test_an_inconsistent_row_is_refused_beside_that_row_and_nothing_is_saved(
        client, director, players):
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
        scores for _, _, scores in SHORT_CYCLE]


def test_a_non_number_is_an_error_at_its_row_and_blank_trailing_rows_are_left_out(
        client, scorer, director, players):
    tournament = variety(director, players)
    table = first_table(tournament)
    as_user(client, scorer)
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


def test_one_more_row_saves_nothing_and_keeps_what_was_typed(client, scorer, director,
                                                             players):
    tournament = variety(director, players)
    table = first_table(tournament)
    as_user(client, scorer)
    before = snapshot()
    response = client.post(sheet_url(table), {**sheet_post(SHORT_CYCLE[:1]), "more": "1"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<th scope="row">') == 5 and 'name="r1-scores-0" value="16"' in html
    assert snapshot() == before


def test_with_a_second_scorer_a_sheet_counts_only_once_another_scorer_confirms(
        client, director, scorer, second_scorer, players):
    tournament = variety(director, players, confirmation=True)
    table = first_table(tournament)
    names = seat_names(table)
    as_user(client, scorer)
    assert client.post(sheet_url(table), sheet_post(SHORT_CYCLE)).status_code == 302
    assert all(points_of(tournament)[name] == 0 for name in names)
    page = client.get(run_url(tournament), **EN).content.decode()
    assert "awaiting confirmation" in page and "Confirm the sheet" in page

    before = snapshot()
    response = client.post(run_url(tournament, f"tables/{table.pk}/confirm"), **EN)
    assert response.status_code == 400
    assert "Another scorer must confirm" in alert(response)
    assert snapshot() == before

    as_user(client, second_scorer)
    response = client.post(run_url(tournament, f"tables/{table.pk}/confirm"))
    assert response.status_code == 302, alert(response)
    assert [points_of(tournament)[name] for name in names] == TOTALS
    page = client.get(run_url(tournament), **EN).content.decode()
    assert "confirmed by scorer2" in page


def test_play_here_starts_a_hotseat_table_of_the_tables_players_in_seat_order(
        client, director, players):
    tournament = variety(director, players)
    table = first_table(tournament)
    as_user(client, director)
    response = client.post(run_url(tournament, f"tables/{table.pk}/play-here"))
    assert response.status_code == 302, alert(response)
    table.refresh_from_db()
    hotseat = table.hotseat
    assert response["Location"] == hotseat.get_absolute_url()
    assert [seat.player.name for seat in hotseat.seats.order_by("position")] == seat_names(
        table)
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
    response = client.post(run_url(tournament, "adjust"), {
        "adjust-entrant": anna.pk, "adjust-round": "1", "adjust-points": "-5",
        "adjust-reason": "late"})
    assert response.status_code == 302, alert(response)
    assert points_of(tournament)["Анна"] == -5
    assert "late" in client.get(run_url(tournament), **EN).content.decode()
    response = client.post(run_url(tournament, f"entrants/{anna.pk}/withdraw"))
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.withdrawn_after == 1

    before = snapshot()
    response = client.post(run_url(tournament, f"entrants/{anna.pk}/withdraw"), **EN)
    assert response.status_code == 400 and "already withdrawn" in alert(response)
    response = client.post(run_url(tournament, "enter"), {"enter-name": "анна"}, **EN)
    assert response.status_code == 400 and "already entered" in alert(response)
    response = client.post(run_url(tournament, "adjust"), {
        "adjust-entrant": anna.pk, "adjust-round": "1", "adjust-points": "2",
        "adjust-reason": "   "}, **EN)
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
    assert client.post(run_url(tournament, "enter"), {"enter-name": "Евгений"}).status_code \
        == 302
    page = client.get(run_url(tournament)).content.decode()
    select = page.split('name="swap1-first"')[1].split("</select>")[0]
    offered = sorted(int(pk) for pk in re.findall(r'<option value="(\d+)">', select))
    late = tournament.entrants.get(player__name="Евгений")
    assert late.pk not in offered and len(offered) == 5
    before = snapshot()
    response = client.post(run_url(tournament, "rounds/1/swap"), {
        "swap1-first": late.pk, "swap1-second": offered[0]}, **EN)
    assert response.status_code == 400 and alert(response)
    assert snapshot() == before


def test_a_round_is_refused_while_the_last_is_a_draft(client, director, players):
    tournament = variety(director, players, released=False)
    as_user(client, director)
    before = snapshot()
    response = client.post(run_url(tournament, "draw"), **EN)
    assert response.status_code == 400 and "still a draft" in alert(response)
    assert snapshot() == before


# -- printed sheets -----------------------------------------------------------------------------

def test_the_paper_sheets_have_a_page_per_table_and_a_row_per_deal(client, director,
                                                                   scorer, players):
    tournament = variety(director, [*players, "Дарья", "Евгений", "Жанна", "Зоя"],
                         extra=())
    as_user(client, scorer)
    response = client.get(f"/tournaments/{tournament.key}/rounds/1/sheets/", **EN)
    assert response.status_code == 200
    html = response.content.decode()
    assert "@media print" in html and "break-after: page" in html
    assert html.count('class="panel paper-sheet"') == 2
    assert html.count('<th scope="row">') == 8  # two tables, four deals each
    for table in RoundTable.objects.filter(round__tournament=tournament):
        names = seat_names(table)
        heads = re.findall(r'<th scope="col">([^<]+)</th>', html)
        assert any(heads[k:k + 4] == names for k in range(len(heads)))
    assert "Table 2" in html and "Round 1" in html and tournament.name in html
    assert client.get(f"/tournaments/{tournament.key}/rounds/9/sheets/").status_code == 404


def test_fantan_through_the_page_takes_the_games_options_and_its_deals(client, director):
    as_user(client, director)
    response = client.post("/tournaments/new/fantan/", {
        "name": "Фантан-вечер", "rounds_planned": "2", "seating": "mixing", "seed": "7",
        "bye_points": "1.5", "order": "points", "option-start_rank": "7",
        "option-until_out": "2", "option-scoring": "", "option-premium_1": "800",
        "option-premium_2": "500", "setting_deals": "6", "confirmation": "on"})
    assert response.status_code == 302, alert(response)
    tournament = Tournament.objects.get()
    assert tournament.options["start_rank"] == "7" and tournament.options["until_out"] == 2
    assert tournament.game_settings == {"deals": 6} and tournament.confirmation
    assert tournament.order == ["points", "match_points"]
    assert str(tournament.bye_points) in ("1.5", "1.50")
    names = ["Анна", "Борис", "Вера"]
    layout = selectors_director.layout(tournament, names)
    assert layout.length == 6
    assert [(spec["key"], spec["kind"]) for spec in layout.fields] == [
        ("finish_order", "seats"), ("cards_left", "per_seat")]
    assert layout.fields[0]["count"] == 2
    assert len(layout.heads()[1]) == 2 + 3  # the places out, then the three names


def test_start_rank_two_is_refused_as_tables_of_three_cannot_play_it(client, director):
    as_user(client, director)
    response = client.post("/tournaments/new/fantan/", {
        "name": "Фантан", "rounds_planned": "2", "seating": "mixing", "seed": "7",
        "bye_points": "3", "order": "default", "option-start_rank": "2",
        "option-until_out": "1", "option-premium_1": "800", "option-premium_2": "500",
        "setting_deals": "4"}, **EN)
    assert response.status_code == 400 and "table of 3" in alert(response)
    assert not Tournament.objects.exists()


def test_a_leopard_sheet_to_a_target_offers_ten_rows_and_takes_an_ender_or_none(
        client, director, scorer, players):
    tournament = services.create_tournament(
        user=director, name="Леопард", game="leopard", options={"target": 33}, settings={},
        rounds_planned=1, seating="swiss", seed=1, bye_points=3, order=["points"])
    for player in players[:2]:
        services.add_entrant(tournament=tournament, player=player, user=director)
    services.release_round(round_=services.draw_round(tournament=tournament, user=director),
                           user=director)
    table = first_table(tournament)
    as_user(client, scorer)
    html = client.get(sheet_url(table), **EN).content.decode()
    assert html.count('<th scope="row">') == 10
    assert "nobody: the stock ran out" in html
    data = {"rows": "10", "r1-scores-0": "10", "r1-scores-1": "7", "r1-ender": "0",
            "r2-scores-0": "3", "r2-scores-1": "12", "r2-ender": ""}
    response = client.post(sheet_url(table), data)
    assert response.status_code == 302, alert(response)
    assert [row.data for row in table.rows.order_by("index")] == [
        {"scores": [10, 7], "ender": 0}, {"scores": [3, 12], "ender": None}]
    data["r1-scores-0"] = "11"  # a declarer's score is even
    response = client.post(sheet_url(table), data, **EN)
    assert response.status_code == 400
    assert alert(response).startswith("Row 1: Seat 0 (") and "declared the end" in alert(
        response)


def test_each_games_row_layout_describes_its_checked_rows():
    from games import registry

    variety_ = registry.tournament("variety").row_layout(seats=4, options={"cycle": "full"},
                                                         settings={})
    assert [spec["kind"] for spec in variety_] == ["choice", "seats", "per_seat"]
    assert [value for value, _ in variety_[0]["choices"]] == list(range(1, 9))
    leopard = registry.tournament("leopard").row_layout(seats=2, options={"target": 33},
                                                        settings={})
    assert [(spec["key"], spec["kind"]) for spec in leopard] == [
        ("scores", "per_seat"), ("ender", "seat_or_none")]
    fantan = registry.tournament("fantan").row_layout(seats=4, options={}, settings={})
    assert fantan[0]["count"] == 1
    # and a blank row of each layout is a row of its game's shape
    for key, seats, options in (("variety", 4, {"cycle": "short"}), ("leopard", 2, {}),
                                ("fantan", 4, {})):
        parts = registry.tournament(key)
        layout = parts.row_layout(seats=seats, options=options, settings={})
        row = selectors_director.blank_row(layout, seats)
        assert set(row) <= {"contract", "attackers", "scores", "finish_order", "cards_left",
                            "ender"}


def test_a_match_to_a_target_offers_ten_rows_and_a_match_of_deals_its_deals(director):
    from games import registry

    parts = registry.tournament("leopard")
    for options, length in (({"target": 33}, selectors_director.ROOM), ({"deals": 6}, 6)):
        layout = parts.row_layout(seats=2, options=options, settings={})
        assert selectors_director.sheet_length(parts, layout, seats=2, options=options,
                                               settings={}) == length


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
    ]
    writes = [
        ("post", "/tournaments/new/variety/", {
            "name": "X", "rounds_planned": "1", "seating": "mixing", "seed": "1",
            "bye_points": "3", "order": "default", "option-cycle": "short"}),
        ("post", f"/tournaments/{key}/run/enter", {"enter-name": "Новый"}),
        ("post", f"/tournaments/{key}/run/entrants/{entrant.pk}/withdraw", {}),
        ("post", f"/tournaments/{key}/run/draw", {}),
        ("post", f"/tournaments/{key}/run/rounds/2/swap", {}),
        ("post", f"/tournaments/{key}/run/rounds/2/release", {}),
        ("post", f"/tournaments/{key}/run/tables/{table.pk}/play-here", {}),
        ("post", f"/tournaments/{key}/run/tables/{table.pk}/confirm", {}),
        ("post", f"/tournaments/{key}/run/adjust", {
            "adjust-entrant": entrant.pk, "adjust-round": "1", "adjust-points": "1",
            "adjust-reason": "x"}),
        ("post", f"/tournaments/{key}/tables/{table.pk}/sheet/", sheet_post(SHORT_CYCLE)),
    ]
    return pages, writes


@pytest.fixture
def running(director, scorer, players):
    """Round 1 released with a typed sheet awaiting confirmation; round 2 a draft."""
    tournament = variety(director, players, confirmation=True)
    rows = [{"contract": c, "attackers": a, "scores": s} for c, a, s in SHORT_CYCLE]
    services.enter_sheet(table=first_table(tournament), rows=rows, user=scorer)
    services.draw_round(tournament=tournament, user=director)
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


def test_no_get_changes_anything(client, director, running):
    as_user(client, director)
    pages, writes = every_address(running)
    before = snapshot()
    for _, address, _ in pages:
        assert client.get(address, **EN).status_code in (200, 409), address
    for _, address, _ in writes:
        if "/run/" in address:
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
    services.release_round(round_=running.rounds.get(number=2), user=director)
    services.draw_round(tournament=running, user=director)
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
    assert client.post(f"/tournaments/{running.key}/run/tables/999999/confirm").status_code \
        == 404


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
