"""The tournaments' service layer: a tournament from entry to standings, every write in one
transaction with its audit entry, and a table played here whose result reaches the
tournament in the transaction of its last action."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import AuditEntry
from games import services as games_services
from tests.support import EXAMPLES
from tests.support.hotseat import act, current
from tests.support.tournaments import enter, new_tournament
from tournaments import selectors, services
from tournaments.document import BrokenRule, NotADocument, read
from tournaments.models import Bye, Round, SheetRow, TableSeat, Tournament
from tournaments.results import services as results_services
from tournaments.run import services as run_services

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья"]

pytestmark = pytest.mark.django_db


def test_options_that_a_table_a_round_may_need_cannot_play_are_refused(host):
    with pytest.raises(services.TournamentError) as refused:
        new_tournament(host, game="fantan", options={"start_rank": "2"})
    assert str(refused.value) == (
        "These options cannot be played at a table of 3, which a round may need."
    )
    assert not Tournament.objects.exists()
    assert (
        new_tournament(host, game="fantan", options={"start_rank": "3"}).options["start_rank"]
        == "3"
    )


def seated(round_: Round) -> tuple[list[list[str]], list[str]]:
    tables = [
        [seat.entrant.player.name for seat in table.seats.order_by("position")]
        for table in round_.tables.order_by("number")
    ]
    return tables, [bye.entrant.player.name for bye in round_.byes.all()]


SHORT_CYCLE = [  # Выборы, contract 2 (+2 a trick): seats 0 and 1 attack and take 8 tricks
    {"contract": 2, "attackers": [0, 1], "scores": [16, 16, 10, 10]},
    {"contract": 2, "attackers": [2, 3], "scores": [10, 10, 16, 16]},
    {"contract": 2, "attackers": [0, 2], "scores": [16, 10, 16, 10]},
    {"contract": 2, "attackers": [0, 3], "scores": [16, 10, 10, 16]},
]


def test_a_round_is_seated_as_a_draft_changed_by_hand_released_and_its_sheet_counts(host):
    tournament = new_tournament(host)
    entrants = enter(tournament, NAMES, host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    assert not round_.released
    tables, byes = seated(round_)
    assert [len(t) for t in tables] == [4] and len(byes) == 1
    assert sorted(tables[0] + byes) == sorted(NAMES)
    # the director swaps the bye with the first seat
    bye = next(e for e in entrants if e.player.name == byes[0])
    first = next(e for e in entrants if e.player.name == tables[0][0])
    run_services.swap(round_=round_, first=bye, second=first, user=host)
    swapped, byes_after = seated(round_)
    assert swapped[0][0] == bye.player.name and byes_after == [first.player.name]
    with pytest.raises(services.TournamentError):  # not before it is released
        results_services.enter_sheet(table=round_.tables.get(), rows=SHORT_CYCLE, user=host)
    run_services.release_round(round_=round_, user=host)
    with pytest.raises(services.TournamentError):  # a released round stays as it is
        run_services.swap(round_=round_, first=bye, second=first, user=host)
    results_services.enter_sheet(table=round_.tables.get(), rows=SHORT_CYCLE, user=host)
    standings = selectors.standings(tournament).as_json()
    by_name = {row["player"]: row for row in standings}
    # seat 0 took 16+10+16+16, seat 1 16+10+10+10, seat 2 10+16+16+10, seat 3 10+16+10+16
    totals = dict(zip(swapped[0], [58, 46, 52, 52], strict=True))
    for name, points in totals.items():
        assert by_name[name]["points"] == points
    assert by_name[swapped[0][0]]["match_points"] == 6 and by_name[swapped[0][0]]["wins"] == 1
    assert by_name[swapped[0][2]]["match_points"] == 3  # tied second and third: 3 each
    assert by_name[first.player.name]["match_points"] == 3  # the bye
    verbs = set(AuditEntry.objects.values_list("verb", flat=True))
    assert {
        "tournament.create",
        "round.draw",
        "round.swap",
        "round.release",
        "sheet.enter",
    } <= verbs


def test_a_faulty_row_names_its_row_and_nothing_is_saved(host):
    tournament = new_tournament(host)
    enter(tournament, NAMES[:4], host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    rows = [dict(row) for row in SHORT_CYCLE]
    rows[2] = {"contract": 2, "attackers": [0, 2], "scores": [16, 10, 14, 10]}  # partners differ
    with pytest.raises(services.SheetRefused) as refused:
        results_services.enter_sheet(table=round_.tables.get(), rows=rows, user=host)
    assert refused.value.row == 3
    assert not SheetRow.objects.exists()
    too_many = SHORT_CYCLE + [SHORT_CYCLE[0]]  # a fifth row after a complete short cycle
    with pytest.raises(services.SheetRefused) as refused:
        results_services.enter_sheet(table=round_.tables.get(), rows=too_many, user=host)
    assert refused.value.row == 5 and not SheetRow.objects.exists()


def test_with_confirmation_a_typed_sheet_counts_once_another_scorer_confirms(
    host, django_user_model
):
    tournament = new_tournament(host, confirmation=True)
    enter(tournament, NAMES[:4], host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    table = round_.tables.get()
    results_services.enter_sheet(table=table, rows=SHORT_CYCLE, user=host)
    assert {row["match_points"] for row in selectors.standings(tournament).as_json()} == {0}
    with pytest.raises(services.TournamentError):
        results_services.confirm_sheet(table=table, user=host)  # not the one who typed it
    other = django_user_model.objects.create_user("second", password="pw-for-tests-only")
    results_services.confirm_sheet(table=table, user=other)
    assert sum(row["match_points"] for row in selectors.standings(tournament).as_json()) == 12


def test_late_entry_is_seated_from_the_next_round_and_a_withdrawal_is_not_seated_again(host):
    tournament = new_tournament(host, game="leopard", seating="swiss", options={"deals": 1})
    entrants = enter(tournament, NAMES[:4], host)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=host), user=host
    )
    late = run_services.add_entrant(tournament=tournament, player="Дарья", user=host)
    run_services.withdraw(entrant=entrants[0], user=host)
    assert late.joined_round == 2
    second = run_services.draw_round(tournament=tournament, user=host)
    tables, byes = seated(second)
    names = sorted(n for t in tables for n in t) + byes
    assert "Дарья" in names and NAMES[0] not in names and len(names) == 4


def play_deal(hotseat, host):
    step = 0
    while not current(hotseat).is_over:
        act(hotseat, choose=step, user=host)
        step += 1
    return current(hotseat)


def test_a_table_played_here_fills_its_sheet_in_the_transaction_of_its_last_action(host):
    tournament = new_tournament(host, game="leopard", seating="swiss", options={"deals": 2})
    enter(tournament, NAMES[:2], host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    table = run_services.play_here(table=round_.tables.get(), user=host)
    hotseat = table.hotseat
    assert [s.player.name for s in hotseat.seats.order_by("position")] == [
        seat.entrant.player.name for seat in table.seats.order_by("position")
    ]
    with pytest.raises(services.TournamentError):  # its sheet comes from its deals
        results_services.enter_sheet(
            table=table, rows=[{"scores": [1, 2], "ender": None}], user=host
        )
    act(hotseat, user=host)
    assert not SheetRow.objects.exists()
    deal = play_deal(hotseat, host)
    row = SheetRow.objects.get(table=table)
    assert row.data["scores"] == deal.result["scores"]
    # a take-back of the last action reopens the deal, and its row goes with it
    last = deal.events.order_by("index").last()
    games_services.take_back(deal=deal, seat=last.seat, expected_version=deal.version, user=host)
    assert not SheetRow.objects.filter(table=table).exists()
    deal = current(hotseat)  # the same last action again ends the deal again
    games_services.play(
        deal=deal,
        seat=last.seat,
        action={k: v for k, v in last.data.items() if k != "seat"},
        expected_version=deal.version,
        user=host,
    )
    first = current(hotseat)
    assert SheetRow.objects.get(table=table).data["scores"] == first.result["scores"]
    games_services.next_deal(table=hotseat, after=1, user=host)
    second = play_deal(hotseat, host)
    assert [row.data["scores"] for row in table.rows.order_by("index")] == [
        first.result["scores"],
        second.result["scores"],
    ]
    points = {r["player"]: r["points"] for r in selectors.standings(tournament).as_json()}
    names = [seat.entrant.player.name for seat in table.seats.order_by("position")]
    assert [points[n] for n in names] == [
        a + b for a, b in zip(first.result["scores"], second.result["scores"], strict=True)
    ]
    # the deal that completes the sheet finishes the table: nothing more is played at it,
    # not even the take-back of that deal's last action
    hotseat.refresh_from_db()
    assert hotseat.state == "finished"
    last = second.events.order_by("index").last()
    with pytest.raises(games_services.Closed):
        games_services.take_back(
            deal=second, seat=last.seat, expected_version=second.version, user=host
        )
    assert table.rows.count() == 2


def test_the_worked_examples_import_and_export_to_the_same_standings(host):
    for name in ("fantan-seven", "variety-five"):
        doc = read((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
        tournament = services.import_document(doc=doc, user=host)
        expected = json.loads((EXAMPLES / f"{name}.standings.json").read_text("utf-8"))
        assert selectors.standings(tournament).as_json() == expected
        again = services.import_document(
            doc=read(json.dumps(selectors.document_of(tournament).to_json())), user=host
        )
        assert selectors.standings(again).as_json() == expected


def test_the_standings_cost_the_same_queries_for_a_small_and_a_big_tournament(host):
    small = services.import_document(
        doc=read((EXAMPLES / "variety-five.json").read_text("utf-8")), user=host
    )
    players = [f"Игрок {i}" for i in range(40)]
    rounds = [
        {
            "tables": [
                {"players": players[t * 4 : (t + 1) * 4], "rows": SHORT_CYCLE} for t in range(10)
            ],
            "byes": [],
        }
        for _ in range(3)
    ]
    big = services.import_document(
        doc=read(
            json.dumps(
                {
                    "tournament": "Большой",
                    "game": "variety",
                    "options": {"cycle": "short"},
                    "players": players,
                    "rounds": rounds,
                }
            )
        ),
        user=host,
    )
    counts = []
    for tournament in (small, big):
        with CaptureQueriesContext(connection) as queries:
            selectors.standings(tournament)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


@pytest.mark.parametrize(
    "broken, where",
    [
        (
            lambda d: d["rounds"][0]["tables"][0]["rows"][1].update(contract=9),
            "round 1, table 1, row 2:",
        ),
        (lambda d: d["rounds"][0]["tables"][0]["players"].append("Mallory"), "round 1, table 1:"),
        (lambda d: d["rounds"][1]["byes"].append("Nobody"), "round 2:"),
        (lambda d: d["rounds"][0]["tables"][0]["players"].pop(), "round 1, table 1:"),
    ],
)
def test_a_broken_document_names_the_place_of_its_first_broken_rule(broken, where):
    doc = json.loads((EXAMPLES / "variety-five.json").read_text("utf-8"))
    broken(doc)
    with pytest.raises(BrokenRule) as caught:
        read(json.dumps(doc))
    assert str(caught.value).startswith(where), str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        '{"game": "variety"',
        "[]",
        '{"game": "poker"}',
        '{"tournament": "x", "game": "variety", "players": ["a"], '
        '"rounds": [], "options": {"trumps": "S"}}',
        '{"tournament": "x", "game": "variety", "players": "a", "rounds": []}',
    ],
)
def test_what_is_not_a_tournament_document_is_refused_as_such(text):
    with pytest.raises(NotADocument):
        read(text)


def test_nothing_is_saved_when_an_import_fails_midway(host, monkeypatch):
    doc = read((EXAMPLES / "variety-five.json").read_text("utf-8"))

    def fail(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Bye.objects, "bulk_create", fail)
    with pytest.raises(RuntimeError):
        services.import_document(doc=doc, user=host)
    assert not TableSeat.objects.exists() and not Round.objects.exists()
