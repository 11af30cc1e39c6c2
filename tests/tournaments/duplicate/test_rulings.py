"""The directors' rulings on duplicate deals (docs/rules/duplicate.md): a fouled table is left
out of the comparisons (Neuberg's formula scores the others), an adjusted seat scores 60, 50
or 40 % with a field figure of 0; the services refuse what the rules refuse and change
nothing then; a ruling changes the standings as the rules say; the director's page offers
the form and refuses anyone who does not direct the tournament."""

import json
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.urls import reverse

from club.models import AuditEntry
from club.roles import DIRECTOR, PLAYER
from club.services import ServiceError, Stale
from tests.support import EXAMPLES
from tests.support.accounts import name_official, user_in
from tests.support.tournaments import import_text
from tournaments import selectors
from tournaments.document import BrokenRule, read
from tournaments.duplicate import services
from tournaments.duplicate.scoring import Board, Scored, board_results, margins, player_totals
from tournaments.models import DealRuling, Round, RoundTable, Tournament

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}

# -- the pure scoring -------------------------------------------------------------------------

# three tables of two: seat 0's margins 2, 0 and −4; seat 1's −2, 0 and 4
BOARD = {
    "rows": {0: [3, 1], 1: [2, 2], 2: [0, 4]},
    "players": {0: ["A", "B"], 1: ["C", "D"], 2: ["E", "F"]},
    "tables": 3,
}


def test_unruled_the_board_scores_every_seat_by_plain_matchpoints():
    results = board_results(Board(**BOARD))
    assert [results[t, 0].percent for t in range(3)] == [100, 50, 0]


def test_a_fouled_tables_result_is_left_out_and_neuberg_scales_the_others():
    results = board_results(Board(**BOARD, fouled=frozenset({1})))
    assert (1, 0) not in results and (1, 1) not in results  # its players get no result
    # two results of three: (MP + 1) × 3 / 2 − 1 of a top of 4
    assert results[0, 0] == Scored(Fraction(2), Fraction(7, 2), Fraction(175, 2), Fraction(3))
    assert results[2, 0] == Scored(Fraction(-4), Fraction(1, 2), Fraction(25, 2), Fraction(-3))
    assert results[2, 1].percent == Fraction(175, 2)
    totals = player_totals([Board(**BOARD, fouled=frozenset({1}))])
    assert "C" not in totals and "D" not in totals


@pytest.mark.parametrize("percent", [60, 50, 40])
def test_an_adjusted_seat_scores_its_percentage_with_a_field_of_nought(percent):
    board = Board(**BOARD, adjusted={(1, 0): Fraction(percent), (2, 1): Fraction(40)})
    results = board_results(board)
    assert results[1, 0] == Scored(Fraction(0), Fraction(percent * 4, 100), percent, 0)
    # the adjusted seat's own result is out of its comparison: Neuberg's for the others
    assert results[0, 0].percent == Fraction(175, 2) and results[2, 0].percent == Fraction(25, 2)
    assert results[2, 1] == Scored(Fraction(0), Fraction(8, 5), Fraction(40), Fraction(0))
    assert results[0, 1].percent == Fraction(25, 2) and results[1, 1].percent == Fraction(175, 2)
    assert player_totals([board])["C"].deals == 1


def test_a_fouled_tables_adjusted_seat_alone_gets_a_result():
    board = Board(**BOARD, fouled=frozenset({1}), adjusted={(1, 0): Fraction(50)})
    results = board_results(board)
    assert results[1, 0].percent == 50 and results[1, 0].field == 0
    assert (1, 1) not in results


# -- the services -----------------------------------------------------------------------------


@pytest.fixture
def nine(db):
    """The worked example: two tables of four a round, the short cycle (4 deals)."""
    return import_text((EXAMPLES / "duplicate-variety-nine.json").read_text(encoding="utf-8"))


@pytest.fixture
def director(django_user_model, nine):
    user = user_in(django_user_model, "td", PLAYER)
    name_official(nine, user, role="director")
    return user


def table_of(tournament, round_number: int, number: int) -> RoundTable:
    return RoundTable.objects.get(
        round__tournament=tournament, round__number=round_number, number=number
    )


def state(tournament) -> tuple:
    """What a refused ruling must leave as it was."""
    return (
        list(DealRuling.objects.values_list("pk", "kind", "seat")),
        DealRuling.history.count(),
        AuditEntry.objects.count(),
        Tournament.objects.get(pk=tournament.pk).version,
    )


def test_a_ruling_is_kept_with_its_history_audited_and_announced(nine, director):
    version = Tournament.objects.get(pk=nine.pk).version
    table = table_of(nine, 1, 1)
    ruling = services.rule_deal(
        table=table, deal=2, kind="fouled", reason="  hands   exchanged ", user=director
    )
    assert (ruling.deal, ruling.seat, ruling.kind, ruling.reason) == (
        2,
        None,
        "fouled",
        "hands exchanged",
    )
    (version_,) = ruling.history.all()
    assert (version_.history_user, version_.history_change_reason) == (director, "hands exchanged")
    entry = AuditEntry.objects.get(verb="tournament.ruling")
    assert entry.user == director
    assert entry.data["round"] == 1 and entry.data["deal"] == 2 and entry.data["kind"] == "fouled"
    assert Tournament.objects.get(pk=nine.pk).version == version + 1


def test_a_withdrawn_ruling_is_gone_its_history_saying_who_and_why(nine, director):
    ruling = services.rule_deal(
        table=table_of(nine, 1, 2), deal=1, kind="plus", seat=3, reason="slow play", user=director
    )
    services.withdraw_ruling(ruling=ruling, reason="ruled in error", user=director)
    assert not DealRuling.objects.exists()
    gone = DealRuling.history.get(history_type="-")
    assert (gone.history_user, gone.history_change_reason) == (director, "ruled in error")
    assert (
        AuditEntry.objects.get(verb="tournament.ruling.withdraw").data["reason"] == "ruled in error"
    )
    with pytest.raises(Stale):
        services.withdraw_ruling(ruling=ruling, reason="again", user=director)


REFUSED = {
    "deal 0": {"deal": 0, "kind": "fouled"},
    "deal 5 of 4": {"deal": 5, "kind": "fouled"},
    "a seat beyond the table": {"deal": 1, "kind": "average", "seat": 4},
    "an adjusted result with no seat": {"deal": 1, "kind": "minus"},
    "a fouled deal with a seat": {"deal": 1, "kind": "fouled", "seat": 0},
    "no reason": {"deal": 1, "kind": "fouled", "reason": "   "},
    "no such ruling": {"deal": 1, "kind": "half"},
    "a stale page": {"deal": 1, "kind": "fouled", "seen": "3.99"},
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_a_refused_ruling_changes_nothing(nine, director, case):
    services.rule_deal(table=table_of(nine, 2, 1), deal=3, kind="fouled", reason="x", user=director)
    before = state(nine)
    arguments = {"reason": "a reason", **REFUSED[case]}
    with pytest.raises(ServiceError):
        services.rule_deal(table=table_of(nine, 1, 1), user=director, **arguments)
    assert state(nine) == before


def test_a_second_ruling_on_the_same_deal_and_seat_is_refused(nine, director):
    table = table_of(nine, 1, 1)
    services.rule_deal(table=table, deal=1, kind="fouled", reason="x", user=director)
    services.rule_deal(table=table, deal=1, kind="average", seat=0, reason="x", user=director)
    before = state(nine)
    for kind, seat in (("fouled", None), ("plus", 0)):
        with pytest.raises(ServiceError, match="withdraw it first"):
            services.rule_deal(table=table, deal=1, kind=kind, seat=seat, reason="y", user=director)
    assert state(nine) == before


def test_a_tournament_that_is_not_duplicate_has_no_rulings(db, django_user_model):
    five = import_text((EXAMPLES / "variety-five.json").read_text(encoding="utf-8"))
    user = user_in(django_user_model, "td", PLAYER)
    before = state(five)
    with pytest.raises(ServiceError, match="duplicate"):
        services.rule_deal(
            table=RoundTable.objects.filter(round__tournament=five).first(),
            deal=1,
            kind="fouled",
            reason="x",
            user=user,
        )
    assert state(five) == before


def test_a_round_not_released_has_no_rulings(nine, director):
    Round.objects.filter(tournament=nine, number=2).update(released=False)
    with pytest.raises(ServiceError, match="released"):
        services.rule_deal(
            table=table_of(nine, 2, 1), deal=1, kind="fouled", reason="x", user=director
        )
    assert not DealRuling.objects.exists()


# -- the standings ----------------------------------------------------------------------------


def totals(tournament) -> dict:
    return {row.player: row.duplicate for row in selectors.standings(tournament).rows}


def deal_margins(tournament, round_number: int, table_number: int, deal: int) -> dict:
    """Each player's margin on a deal, from the table's stored row."""
    table = table_of(tournament, round_number, table_number)
    names = [seat.entrant.player.name for seat in table.seats.order_by("position")]
    scores = table.rows.get(index=deal).data["scores"]
    return dict(zip(names, margins(scores), strict=True))


def two_table_percent(mine: Fraction, other: Fraction) -> Fraction:
    """A comparison of two tables, both played: 100, 50 or 0."""
    return Fraction(100 if mine > other else 50 if mine == other else 0)


def test_a_fouled_table_loses_the_deal_and_the_other_scores_it_by_neuberg(nine, director):
    before = totals(nine)
    first, second = deal_margins(nine, 1, 1, 1), deal_margins(nine, 1, 2, 1)
    services.rule_deal(
        table=table_of(nine, 1, 1), deal=1, kind="fouled", reason="wrong packs", user=director
    )
    after = totals(nine)
    for mine, theirs in ((first, second), (second, first)):
        for (name, margin), opposite in zip(mine.items(), theirs.values(), strict=True):
            was = before[name]
            percent, field = two_table_percent(margin, opposite), (margin - opposite) / 2
            if mine is first:  # no result: one deal fewer
                assert after[name].deals == was.deals - 1
                assert after[name].percent == (was.percent * was.deals - percent) / (was.deals - 1)
                assert after[name].field == was.field - field
            else:  # alone in the comparison: 50 %, field 0
                assert after[name].deals == was.deals
                assert after[name].percent == was.percent + (50 - percent) / was.deals
                assert after[name].field == was.field - field


def test_an_adjusted_seat_scores_its_percentage_and_the_other_seat_stands_alone(nine, director):
    before = totals(nine)
    first, second = deal_margins(nine, 2, 1, 2), deal_margins(nine, 2, 2, 2)
    (mine, margin), (theirs, other) = next(iter(first.items())), next(iter(second.items()))
    services.rule_deal(
        table=table_of(nine, 2, 1), deal=2, kind="plus", seat=0, reason="misinformed", user=director
    )
    after = totals(nine)
    deals = before[mine].deals
    assert after[mine].deals == deals
    was = two_table_percent(margin, other)
    assert after[mine].percent == before[mine].percent + (60 - was) / deals
    assert after[mine].field == before[mine].field - (margin - other) / 2
    # seat 0 of the other table: one result of a comparison of two, by Neuberg 50 %
    was = two_table_percent(other, margin)
    assert after[theirs].percent == before[theirs].percent + (50 - was) / before[theirs].deals
    # the rest of both tables are not touched
    for name in [*list(first)[1:], *list(second)[1:]]:
        assert after[name] == before[name]


def test_the_standings_read_a_fixed_number_of_queries_with_rulings(
    nine, director, django_assert_num_queries
):
    with django_assert_num_queries(8):
        selectors.standings(nine)
    for deal in (1, 2, 3):
        services.rule_deal(
            table=table_of(nine, 1, 2), deal=deal, kind="minus", seat=1, reason="x", user=director
        )
    with django_assert_num_queries(8):
        selectors.standings(nine)


# -- the director's page ----------------------------------------------------------------------


def rule_post(round_number: int, table: RoundTable, **fields) -> dict:
    data = {"table": table.pk, "deal": 1, "kind": "fouled", "seat": "", "reason": "wrong packs"}
    data.update(fields)
    return {f"ruling{round_number}-{key}": value for key, value in data.items()}


def rule_url(tournament, number=1):
    return reverse("tournament-rule-deal", args=[tournament.key, number])


def test_the_director_rules_from_the_rounds_part_of_his_page_and_withdraws(client, nine, director):
    client.force_login(director)
    page = client.get(reverse("tournament-run", args=[nine.key]), **EN).content.decode()
    assert 'name="ruling1-kind"' in page and 'name="ruling2-kind"' in page
    assert 'name="ruling1-seen" value="0.0"' in page
    table = table_of(nine, 1, 2)
    answer = client.post(
        rule_url(nine), rule_post(1, table, kind="average", seat=2, seen="0.0"), **EN
    )
    assert answer.status_code == 302 and answer["Location"].endswith("#rulings-1")
    ruling = DealRuling.objects.get()
    assert (ruling.table, ruling.deal, ruling.seat, ruling.kind) == (table, 1, 2, "average")
    page = client.get(reverse("tournament-run", args=[nine.key]), **EN).content.decode()
    assert "Table 2, deal 1, seat 3 (Sybil): average (50 %) — wrong packs" in page
    withdraw = reverse("tournament-withdraw-ruling", args=[nine.key, ruling.pk])
    assert withdraw in page
    assert client.post(withdraw, {"reason": "ruled in error"}, **EN).status_code == 302
    assert not DealRuling.objects.exists()


def test_a_refused_ruling_comes_back_with_its_message(client, nine, director):
    client.force_login(director)
    table = table_of(nine, 1, 1)
    answer = client.post(rule_url(nine), rule_post(1, table, kind="plus"), **EN)
    assert answer.status_code == 400
    assert "Choose the seat given the adjusted result." in answer.content.decode()
    answer = client.post(rule_url(nine), rule_post(1, table, reason=""), **EN)
    assert answer.status_code == 400 and 'role="alert"' in answer.content.decode()
    stale = client.post(rule_url(nine), rule_post(1, table, seen="2.7"), **EN)
    assert stale.status_code == 409
    assert client.post(rule_url(nine, 3), rule_post(3, table), **EN).status_code == 404
    gone = reverse("tournament-withdraw-ruling", args=[nine.key, 999999])
    assert client.post(gone, {"reason": "x"}, **EN).status_code == 409
    assert not DealRuling.objects.exists()


@pytest.mark.parametrize("who", ["visitor", "player", "another tournament's director", "scorer"])
def test_only_the_tournaments_directors_rule(client, django_user_model, nine, director, who):
    ruling = services.rule_deal(
        table=table_of(nine, 1, 1), deal=1, kind="fouled", reason="x", user=director
    )
    if who != "visitor":
        user = user_in(django_user_model, "someone", DIRECTOR if "director" in who else PLAYER)
        if who == "scorer":
            name_official(nine, user, role="scorer")
        client.force_login(user)
    answer = client.post(rule_url(nine), rule_post(1, table_of(nine, 1, 2)), **EN)
    assert answer.status_code == 403
    withdraw = reverse("tournament-withdraw-ruling", args=[nine.key, ruling.pk])
    assert client.post(withdraw, {"reason": "x"}, **EN).status_code == 403
    assert list(DealRuling.objects.all()) == [ruling]


def test_the_traveller_shows_a_ruling_as_such_with_its_reason(client, nine, director):
    services.rule_deal(
        table=table_of(nine, 1, 2),
        deal=1,
        kind="plus",
        seat=0,
        reason="slow play by the opponents",
        user=director,
    )
    services.rule_deal(
        table=table_of(nine, 1, 1), deal=2, kind="fouled", reason="hands swapped", user=director
    )
    url = reverse(
        "tournament-traveller", kwargs={"key": nine.key, "round_number": 1, "size": 4, "number": 1}
    )
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "adjusted" in page and "60.00" in page
    assert "table 2, seat 1: average plus (60 %) — slow play by the opponents" in page
    url = reverse(
        "tournament-traveller", kwargs={"key": nine.key, "round_number": 1, "size": 4, "number": 2}
    )
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "fouled" in page and "hands swapped" in page


def test_the_export_keeps_the_rulings_and_its_import_gives_the_same_standings(
    nine, director, capsys
):
    services.rule_deal(
        table=table_of(nine, 1, 1), deal=2, kind="fouled", reason="hands swapped", user=director
    )
    services.rule_deal(
        table=table_of(nine, 2, 2), deal=1, kind="minus", seat=3, reason="slow", user=director
    )
    call_command("tournament", "export", nine.key)
    exported = json.loads(capsys.readouterr().out)
    assert exported["rulings"] == [
        {
            "round": 1,
            "table": 1,
            "deal": 2,
            "seat": None,
            "ruling": "fouled",
            "reason": "hands swapped",
        },
        {"round": 2, "table": 2, "deal": 1, "seat": 3, "ruling": "minus", "reason": "slow"},
    ]
    again = import_text(json.dumps(exported, ensure_ascii=False))
    assert DealRuling.objects.filter(table__round__tournament=again).count() == 2
    assert selectors.standings(again).as_json() == selectors.standings(nine).as_json()
    assert (
        selectors.standings(again).as_json()
        != selectors.standings(
            import_text((EXAMPLES / "duplicate-variety-nine.json").read_text(encoding="utf-8"))
        ).as_json()
    )


FOULED_SECOND = {"round": 1, "table": 1, "deal": 2, "seat": None, "ruling": "fouled", "reason": "x"}
BROKEN = {
    "no such table": ({**FOULED_SECOND, "table": 3}, "there is no such round or table"),
    "no such deal": ({**FOULED_SECOND, "deal": 5}, "has deals 1 to 4: there is no such deal"),
    "unknown ruling": ({**FOULED_SECOND, "ruling": "lucky"}, "Choose the ruling."),
    "fouled with a seat": ({**FOULED_SECOND, "seat": 1}, "for the whole table: choose no seat"),
    "adjusted with no seat": ({**FOULED_SECOND, "ruling": "plus"}, "Choose the seat given"),
    "a seat not at the table": (
        {**FOULED_SECOND, "ruling": "plus", "seat": 4},
        "That seat is not at the table.",
    ),
    "no reason": ({**FOULED_SECOND, "reason": " "}, "gives its reason"),
    "a field more": ({**FOULED_SECOND, "by": "me"}, "a ruling is an object"),
}


@pytest.mark.parametrize("case", BROKEN, ids=list(BROKEN))
def test_a_documents_ruling_that_breaks_a_rule_is_refused_saying_which(case):
    ruling, message = BROKEN[case]
    data = json.loads((EXAMPLES / "duplicate-variety-nine.json").read_text(encoding="utf-8"))
    with pytest.raises(BrokenRule) as refused:
        read(json.dumps({**data, "rulings": [ruling]}))
    assert str(refused.value).startswith("ruling 1: ") and message in str(refused.value)
    twice = {**data, "rulings": [FOULED_SECOND, FOULED_SECOND]}
    with pytest.raises(BrokenRule, match="ruling 2: a second ruling on the same deal"):
        read(json.dumps(twice))
    not_duplicate = {**data, "duplicate": False, "order": ["points"], "rulings": [FOULED_SECOND]}
    with pytest.raises(BrokenRule, match="only a duplicate tournament's deals are ruled on"):
        read(json.dumps(not_duplicate))
