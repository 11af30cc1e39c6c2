"""Whole tournaments as the club runs them: a Выборы tournament run through the director's,
scorer's, hotseat, admin and public pages; a Фантан and a Леопард tournament imported from
documents; and who may do what on the tournament pages. Every expected standing is worked
out here, from the sheets, without tournaments/standings.py."""

import asyncio
import json
import re
from collections import Counter
from fractions import Fraction
from html import unescape

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse

from club.models import AuditEntry, Player
from club.roles import DIRECTOR, PLAYER
from core.numbers import MINUS
from games import services as games_services
from games.models import Deal
from games.models import Table as HotseatTable
from tests.support import DOCUMENTS
from tests.support.accounts import name_official, user_in
from tests.support.commands import run
from tests.support.hotseat import HTMX, current, play_to_end, take_turn
from tests.support.hotseat import url as hotseat_url
from tournaments import selectors, services
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
from tournaments.results import services as results_services
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}

# Short Выборы cycles that pass every check: (contract, attackers, scores).
CYCLE_A = [
    (2, [0, 1], [16, 16, 10, 10]),  # attackers 16 beat 10: no +10
    (2, [2, 3], [26, 26, 10, 10]),  # attackers 10 lose to 16: each defender 16 + 10
    (2, [0, 2], [16, 10, 16, 10]),
    (8, [1, 3], [-20, -6, -20, -6]),
]  # seat totals 38, 46, 16, 24
CYCLE_B = [
    (1, [0, 1], [12, 12, 0, 0]),
    (5, [0, 2], [10, -10, 10, -10]),
    (4, [1, 2], [14, -4, -4, 14]),  # attackers −4 do not beat 4: defenders 4 + 10
    (6, [0, 3], [20, 6, 6, 20]),
]  # 56, 4, 12, 24
CYCLE_C = [
    (7, [1, 2], [-16, -10, -10, -16]),
    (2, [0, 1], [16, 16, 10, 10]),
    (2, [2, 3], [10, 10, 16, 16]),
    (2, [0, 2], [16, 10, 16, 10]),
]  # 26, 26, 32, 20: seats 0 and 1 tie
CYCLE_D = [
    (3, [0, 1], [20, 20, 6, 6]),
    (2, [1, 3], [10, 16, 10, 16]),
    (5, [2, 3], [25, 25, -15, -15]),  # attackers −15 lose: defenders 15 + 10
    (8, [0, 2], [-8, -18, -8, -18]),
]  # 47, 43, −7, −11
# Row 3 of CYCLE_B as mistyped: the defenders' +10 forgotten.
MISTYPED = (4, [1, 2], [4, -4, -4, 4])
# Row 1 of CYCLE_C as corrected in the admin: the attackers −16, the defenders −10 + 10.
CORRECTED = {"contract": 7, "attackers": [1, 2], "scores": [0, -16, -16, 0]}


# -- users and requests ------------------------------------------------------------------------


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "dora", DIRECTOR, staff=True)


@pytest.fixture
def scorer(django_user_model):
    return user_in(django_user_model, "sam", PLAYER)


@pytest.fixture
def other_scorer(django_user_model):
    return user_in(django_user_model, "sasha", PLAYER)


@pytest.fixture
def member(django_user_model):
    return user_in(django_user_model, "mick")


def alert(response) -> str:
    found = re.findall(r'role="alert">\s*([^<]+)', response.content.decode())
    return " ".join(text.strip() for text in found)


def run_url(tournament, what=""):
    return f"/tournaments/{tournament.key}/run/{what}"


def sheet_url(table):
    return f"/tournaments/{table.round.tournament.key}/tables/{table.pk}/sheet/"


def sheet_post(rows) -> dict:
    """The typed sheet's form fields for Выборы rows (contract, attackers, scores)."""
    data = {"rows": str(max(len(rows), 4))}
    for number, (contract, attackers, scores) in enumerate(rows, start=1):
        data[f"r{number}-contract"] = str(contract)
        for k, seat in enumerate(attackers):
            data[f"r{number}-attackers-{k}"] = str(seat)
        for seat, figure in enumerate(scores):
            data[f"r{number}-scores-{seat}"] = str(figure)
    return data


def as_rows(cycle) -> list[dict]:
    return [{"contract": c, "attackers": a, "scores": s} for c, a, s in cycle]


def seat_names(table) -> list[str]:
    return [seat.entrant.player.name for seat in table.seats.order_by("position")]


def snapshot():
    """Everything a tournament page could change, with the counts of rows, rounds and
    entrants first."""
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
    state = {f"{model.__name__} count": model.objects.count() for model in models}
    state.update({model.__name__: sorted(map(repr, model.objects.values())) for model in models})
    state["audit"] = AuditEntry.objects.count()
    return state


# -- standings worked out by hand ------------------------------------------------------------


def figure(value: Fraction):
    return value.numerator if value.denominator == 1 else float(value)


def by_hand(entrants, rounds, bye_points=3):
    """The standings from ``rounds``: each a list of tables (players in seat order, their
    game points) and the byes. At a table of n a player beating b and tying t others gets
    3 × (2b + t) / (n − 1); a bye gets the bye points; opponents sum the match points of
    everyone met; a win is more points than everyone else at the table. A place is one more
    than the number of entrants better on (match points, points, opponents, wins)."""
    won = {name: Fraction(0) for name in entrants}
    points = dict.fromkeys(entrants, 0)
    wins = dict.fromkeys(entrants, 0)
    met = {name: [] for name in entrants}
    for tables, byes in rounds:
        for names, figures in tables:
            n = len(names)
            for mine, name in zip(figures, names, strict=True):
                others = list(figures)
                others.remove(mine)
                beaten = sum(1 for other in others if mine > other)
                tied = sum(1 for other in others if mine == other)
                won[name] += Fraction(3 * (2 * beaten + tied), n - 1)
                points[name] += mine
                wins[name] += beaten == n - 1
                met[name] += [other for other in names if other != name]
        for name in byes:
            won[name] += bye_points
    opponents = {name: sum((won[other] for other in met[name]), Fraction(0)) for name in entrants}

    def key(name):
        return (won[name], points[name], opponents[name], wins[name])

    ranked = sorted(entrants, key=lambda name: (tuple(-v for v in key(name)), entrants.index(name)))
    result = []
    for name in ranked:
        better = sum(1 for other in entrants if key(other) > key(name))
        equal = sum(1 for other in entrants if key(other) == key(name))
        result.append(
            {
                "place": better + 1,
                "last": better + equal,
                "player": name,
                "match_points": figure(won[name]),
                "points": points[name],
                "opponents": figure(opponents[name]),
                "wins": wins[name],
            }
        )
    return result


def as_json(expected):
    return [{k: v for k, v in row.items() if k != "last"} for row in expected]


def page_standings(html: str) -> list[tuple]:
    """(place, name, match points, points, opponents, wins) from the standings page's
    main table."""
    main = html.split('id="by-round"')[0]
    return re.findall(
        r'<td class="num place">([^<]+)</td>\s*<th scope="row">(?:<a [^>]*>)?([^<]+)'
        r'(?:</a>)?</th>\s*<td class="num strong"[^>]*>([^<]+)</td>\s*<td class="num"[^>]*>'
        r'([^<]+)</td>\s*<td class="num"[^>]*>([^<]+)</td>\s*<td class="num"[^>]*>([^<]+)</td>',
        main,
    )


def shown(expected) -> list[tuple]:
    """What the page should show for ``expected``: a shared place as "2–3", a negative
    figure with the minus sign (the table played here is dealt at random: points may end
    below zero)."""
    return [
        (
            str(row["place"]) if row["place"] == row["last"] else f"{row['place']}–{row['last']}",
            row["player"],
            str(row["match_points"]),
            str(row["points"]).replace("-", MINUS),
            str(row["opponents"]).replace("-", MINUS),
            str(row["wins"]),
        )
        for row in expected
    ]


# -- 1. a whole Выборы tournament through the pages ----------------------------------------


def play_table_here(client, tournament, table):
    """Play here, then a short cycle's four deals through the hotseat pages; the sheet fills
    itself deal by deal."""
    response = client.post(run_url(tournament, f"tables/{table.pk}/play-here"))
    assert response.status_code == 302, alert(response)
    table.refresh_from_db()
    hotseat = table.hotseat
    assert response["Location"] == hotseat.get_absolute_url()
    assert [seat.player.name for seat in hotseat.seats.order_by("position")] == seat_names(table)
    assert hotseat.options["cycle"] == "short"
    for number in range(1, 5):
        play_to_end(client, hotseat)
        assert table.rows.count() == number  # the deal's result is on the sheet at once
        if number < 4:
            response = client.post(hotseat_url(hotseat, "next-deal"), {"deal": number})
            assert response.status_code == 302, alert(response)
    deals = list(Deal.objects.filter(table=hotseat).order_by("number"))
    assert len(deals) == 4 and all(deal.is_over for deal in deals)
    assert [row.data["scores"] for row in table.rows.order_by("index")] == [
        deal.result["scores"] for deal in deals
    ]
    return [deal.result["scores"] for deal in deals]


def type_sheet(client, table, cycle):
    response = client.post(sheet_url(table), sheet_post(cycle))
    assert response.status_code == 302, alert(response)
    assert [row.data for row in table.rows.order_by("index")] == as_rows(cycle)


def sums(rows: list[list[int]]) -> list[int]:
    return [sum(row[seat] for row in rows) for seat in range(4)]


def test_a_whole_variety_tournament_of_ten_players_over_three_rounds_through_the_pages(
    client, director, scorer, players
):
    as_director = client
    as_director.force_login(director)
    as_scorer = signed_in(scorer)

    response = as_director.post(
        "/tournaments/new/variety/",
        {
            "name": "Зимний кубок",
            "rounds_planned": "3",
            "seating": "mixing",
            "seed": "20270115",
            "bye_points": "3",
            "order": "default",
            "option-cycle": "short",
        },
    )
    assert response.status_code == 302, alert(response)
    tournament = Tournament.objects.get()
    assert (tournament.options["cycle"], tournament.seating, tournament.seed) == (
        "short",
        "mixing",
        20270115,
    )
    response = as_director.post(
        run_url(tournament, "officials"), {"official-account": scorer.pk, "official-role": "scorer"}
    )
    assert response.status_code == 302, alert(response)

    newcomers = ["Дарья", "Евгений", "Жанна", "Зоя", "Игорь", "Кира"]
    for player in players:  # four club players, then six new names
        response = as_director.post(run_url(tournament, "enter"), {"enter-player": player.pk})
        assert response.status_code == 302, alert(response)
    for name in newcomers:
        response = as_director.post(run_url(tournament, "enter"), {"enter-name": name})
        assert response.status_code == 302, alert(response)
    entrants = [e.player.name for e in tournament.entrants.order_by("number")]
    assert entrants == [p.name for p in players] + newcomers

    byes = Counter()
    played = []  # by round: ([(names, game points)], byes)
    typed = {}  # table pk → the cycle typed in
    for number in (1, 2, 3):
        response = as_director.post(run_url(tournament, "draw"))
        assert response.status_code == 302, alert(response)
        round_ = tournament.rounds.get(number=number)
        assert not round_.released
        tables = list(round_.tables.order_by("number").select_related("round__tournament"))
        names = [seat_names(table) for table in tables]
        out = [bye.entrant.player.name for bye in round_.byes.all()]
        assert [len(n) for n in names] == [4, 4] and len(out) == 2
        assert sorted(sum(names, []) + out) == sorted(entrants)  # everyone once
        byes.update(out)
        counts = [byes[name] for name in entrants]
        assert max(counts) - min(counts) <= 1, byes  # two byes only once everyone has one

        response = as_director.post(run_url(tournament, f"rounds/{number}/release"))
        assert response.status_code == 302, alert(response)

        here = {1: tables[0], 2: None, 3: tables[1]}[number]  # played here: rounds 1, 3
        if here is not None:
            dealt = play_table_here(as_director, tournament, here)
        if number == 1:
            typed[tables[1].pk] = CYCLE_A
            type_sheet(as_scorer, tables[1], CYCLE_A)
        elif number == 2:
            first, second = tables
            before = snapshot()
            mistyped = [*CYCLE_B[:2], MISTYPED, CYCLE_B[3]]
            response = as_scorer.post(sheet_url(first), sheet_post(mistyped), **EN)
            assert response.status_code == 400
            html = response.content.decode()
            assert re.search(r'<tr id="row-3" class="refused"', html)
            assert not re.search(r'<tr id="row-[124]" class="refused"', html)
            message = alert(response)
            assert message.startswith("Row 3:") and "must include the +10" in message
            assert (
                html.index('id="row-3"')
                < html.index("must include the +10")
                < html.index('id="row-4"')
            )
            assert 'name="r3-scores-0" value="4"' in html  # what was typed is kept
            assert snapshot() == before and not first.rows.exists()
            typed[first.pk], typed[second.pk] = CYCLE_B, CYCLE_C
            type_sheet(as_scorer, first, CYCLE_B)
            type_sheet(as_scorer, second, CYCLE_C)
        else:
            typed[tables[0].pk] = CYCLE_D
            type_sheet(as_scorer, tables[0], CYCLE_D)
        figures = []
        for table in tables:
            if table == here:
                figures.append(sums(dealt))
            else:
                figures.append(sums([scores for _, _, scores in typed[table.pk]]))
        played.append((list(zip(names, figures, strict=True)), out))

    # six byes, to six different players
    assert sorted(byes[name] for name in entrants) == [0] * 4 + [1] * 6

    # The hotseat tables' figures, read again from their deals in the database.
    for round_number, (tables, _) in enumerate(played, start=1):
        for table in RoundTable.objects.filter(
            round__tournament=tournament, round__number=round_number, hotseat__isnull=False
        ):
            scores = (
                Deal.objects.filter(table=table.hotseat, is_over=True)
                .order_by("number")
                .values_list("result", flat=True)
            )
            assert (seat_names(table), sums([r["scores"] for r in scores])) in tables

    expected = by_hand(entrants, played)
    assert selectors.standings(tournament).as_json() == as_json(expected)
    assert sum(Fraction(str(row["match_points"])) for row in expected) == 3 * (12 + 12 + 6)

    # After round 3, a typed row is corrected in the admin with a reason...
    table_c = RoundTable.objects.get(round__tournament=tournament, round__number=2, number=2)
    row = table_c.rows.get(index=1)
    change = f"/admin/tournaments/sheetrow/{row.pk}/change/"
    response = as_director.post(
        change, {"data": json.dumps(CORRECTED), "reason": "The paper sheet was misread"}
    )
    assert response.status_code == 302, response.content.decode()[:1500]
    row.refresh_from_db()
    assert row.data == CORRECTED
    assert row.history.latest("history_date").history_change_reason == "The paper sheet was misread"
    corrected = [(CORRECTED["contract"], CORRECTED["attackers"], CORRECTED["scores"]), *CYCLE_C[1:]]
    changed = [(list(tables), out) for tables, out in played]
    changed[1][0][1] = (changed[1][0][1][0], sums([s for _, _, s in corrected]))
    assert changed[1][0][1][1] == [42, 20, 26, 36]  # seats 0 and 3 +16, seats 1 and 2 −6
    after = selectors.standings(tournament).as_json()
    assert after != as_json(expected)
    assert after == as_json(by_hand(entrants, changed))

    # ...then put back from its history, with a reason: the standings are as before.
    first_version = row.history.earliest("history_date")
    response = as_director.post(
        f"/admin/tournaments/sheetrow/{row.pk}/history/{first_version.history_id}/",
        {"reason": "The paper was right after all"},
    )
    assert response.status_code == 302, response.content.decode()[:1500]
    row.refresh_from_db()
    assert row.data == as_rows(CYCLE_C)[0]
    assert (
        row.history.latest("history_date").history_change_reason == "The paper was right after all"
    )
    assert selectors.standings(tournament).as_json() == as_json(expected)

    # The public standings page, for anyone, shows the same figures.
    response = Client().get(f"/tournaments/{tournament.key}/standings/", **EN)
    assert response.status_code == 200
    assert page_standings(response.content.decode()) == shown(expected)


# -- a table played here ends with its sheet ---------------------------------------------------


def notices(channel) -> list[list[int]]:
    """The stamps the channel has been sent, in order."""
    layer = get_channel_layer()

    async def drain():
        got = []
        while True:
            try:
                got.append((await asyncio.wait_for(layer.receive(channel), 0.2))["stamp"])
            except TimeoutError:
                return got

    return async_to_sync(drain)()


def test_a_table_played_here_stops_at_its_complete_sheet_and_sends_its_players_to_the_round(
    client, director, django_capture_on_commit_callbacks
):
    tournament = services.create_tournament(
        user=director,
        name="Летний кубок",
        game="leopard",
        options={"deals": 1},
        settings={},
        rounds_planned=2,
        seating="swiss",
        seed=3,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
    )
    for name in ("Анна", "Борис"):
        run_services.add_entrant(tournament=tournament, player=name, user=director)
    round_ = run_services.draw_round(tournament=tournament, user=director)
    run_services.release_round(round_=round_, user=director)
    table = run_services.play_here(table=round_.tables.get(), user=director)
    hotseat = table.hotseat
    round_url = reverse("tournament-round", args=[tournament.key, 1])
    client.force_login(director)
    page = client.get(hotseat_url(hotseat), **EN).content.decode()
    assert f'<a href="{round_url}">Played for Летний кубок: round 1, table 1</a>' in page

    # the match's one deal, through the pages; the answer to its last action is kept
    layer = get_channel_layer()
    answers = []
    for step in range(500):
        with django_capture_on_commit_callbacks() as callbacks:
            take_turn(
                client, hotseat, choose=step, check=lambda r, _t: answers.append(r), **HTMX, **EN
            )
        if current(hotseat).is_over:
            break
    deal = current(hotseat)
    listener = async_to_sync(layer.new_channel)()
    for group in (games_services.group_name(hotseat), services.group_name(tournament)):
        async_to_sync(layer.group_add)(group, listener)
    for callback in callbacks:  # once committed: the table's and the tournament's pages
        callback()
    told = notices(listener)

    last = answers[-1].content.decode()
    assert answers[-1].status_code == 200
    assert "The deal is over" in last
    assert "This table's sheet for the tournament is complete" in last
    assert f'<a class="button primary big" href="{round_url}">Back to round 1</a>' in last
    assert "/next-deal" not in last and "take back" not in last
    stamp = re.search(r'data-stamp="([\d ]+)"', last).group(1)
    assert stamp == f"1 {deal.version} 1"  # the deal's last version, the table finished
    assert [1, deal.version, 1] in told  # its other pages follow
    tournament.refresh_from_db()
    assert [tournament.version] in told

    # a forged next deal changes nothing and says why
    before = (
        Deal.objects.count(),
        AuditEntry.objects.count(),
        list(table.rows.values_list("data", flat=True)),
        selectors.standings(tournament).as_json(),
    )
    response = client.post(hotseat_url(hotseat, "next-deal"), {"deal": 1}, **HTMX, **EN)
    assert response.status_code == 409
    assert unescape(alert(response)) == (
        "This table's sheet for the tournament is complete: nothing more is played at it."
    )
    assert (
        Deal.objects.count(),
        AuditEntry.objects.count(),
        list(table.rows.values_list("data", flat=True)),
        selectors.standings(tournament).as_json(),
    ) == before

    # the standings count the sheet's one deal; the page says so, offering no change but
    # its name and the way back to the round
    points = {row["player"]: row["points"] for row in selectors.standings(tournament).as_json()}
    assert [points[name] for name in seat_names(table)] == deal.result["scores"]
    assert [row.data["scores"] for row in table.rows.all()] == [deal.result["scores"]]
    page = client.get(hotseat_url(hotseat), **EN).content.decode()
    assert "This table's sheet for the tournament is complete" in page
    assert f'href="{round_url}">Back to round 1</a>' in page
    assert "/next-deal" not in page and "/finish" not in page and "/abandon" not in page
    finish = AuditEntry.objects.get(verb="table.finish", table=hotseat)
    assert (finish.user, finish.data["reason"]) == (None, "sheet complete")


# -- 2. documents imported, standings worked out by hand --------------------------------------


def import_file(path) -> str:
    code, out, err = run("tournament", "import", str(path))
    assert code == 0, err
    return json.loads(out)["tournament"]


def standings_of(key) -> list[dict]:
    code, out, err = run("tournament", "standings", key, "--json")
    assert code == 0, err
    return json.loads(out)


# Фантан, scoring "cards": the first out scores the cards the others hold; the others lose
# theirs. Round 1: table [Алла, Богдан, Вика, Гриша] 10−4=6, −3−1=−4, −2+7=5, −5−2=−7 →
# 6, 2, 4, 0; table of three [Дина, Егор, Жора] −3+5=2, 4−2=2, −1−3=−4 → Дина and Егор beat
# one and tie one: 3×(2+1)/2 = 4.5 each, Жора 0. Round 2: table [Вика, Дина, Жора, Егор]
# −4+5=1, −2−1=−3, 8−3=5, −2−1=−3 → 4, 1 (a tie: 3×1/3), 6, 1; table of three
# [Гриша, Алла, Богдан] −5+4=−1, −2−3=−5, 7−1=6 → 3, 0, 6.
# Totals: Алла 6+0=6, 6−5=1; Богдан 2+6=8, −4+6=2; Вика 4+4=8, 5+1=6; Гриша 0+3=3, −7−1=−8;
# Дина and Егор 4.5+1=5.5, 2−3=−1; Жора 0+6=6, −4+5=1 (42 match points in all: 12+9 twice).
# Opponents: Алла (Богдан 8+Вика 8+Гриша 3)+(Гриша 3+Богдан 8)=30; Богдан (6+8+3)+(3+6)=26;
# Вика (6+8+3)+(Дина 5.5+Жора 6+Егор 5.5)=34; Гриша (6+8+8)+(6+8)=36;
# Дина (Егор 5.5+Жора 6)+(Вика 8+Жора 6+Егор 5.5)=31, Егор the same 31;
# Жора (5.5+5.5)+(8+5.5+5.5)=30. Wins: Алла (6 in round 1), Жора and Богдан (round 2).
# Алла and Жора are equal on every key: both third; Дина and Егор: both fifth.
FANTAN_STANDINGS = [
    {"place": 1, "player": "Вика", "match_points": 8, "points": 6, "opponents": 34, "wins": 0},
    {"place": 2, "player": "Богдан", "match_points": 8, "points": 2, "opponents": 26, "wins": 1},
    {"place": 3, "player": "Алла", "match_points": 6, "points": 1, "opponents": 30, "wins": 1},
    {"place": 3, "player": "Жора", "match_points": 6, "points": 1, "opponents": 30, "wins": 1},
    {"place": 5, "player": "Дина", "match_points": 5.5, "points": -1, "opponents": 31, "wins": 0},
    {"place": 5, "player": "Егор", "match_points": 5.5, "points": -1, "opponents": 31, "wins": 0},
    {"place": 7, "player": "Гриша", "match_points": 3, "points": -8, "opponents": 36, "wins": 0},
]

# Леопард, matches of two deals (6 a win, 3 each for a draw). Round 1: Ира 10+3=13 lose to
# Костя 7+12=19; Лена 8+4=12 lose to Миша 8+6=14. Round 2: Костя 14+6=20 draw Миша 5+15=20;
# Ира 9+4=13 lose to Лена 2+16=18. Round 3: Костя 26+1=27 beat Лена 0+2=2; Миша 4+10=14 lose
# to Ира 16+3=19. Match points: Ира 0+0+6=6, Костя 6+3+6=15, Лена 0+6+0=6, Миша 6+3+0=9.
# Points: Ира 13+13+19=45, Костя 19+20+27=66, Лена 12+18+2=32, Миша 14+20+14=48.
# Opponents: Ира 15+6+9=30, Костя 6+9+6=21, Лена 9+6+15=30, Миша 6+15+6=27.
# Wins (a draw is none): Ира 1, Костя 2, Лена 1, Миша 1. Ира before Лена on points.
LEOPARD_STANDINGS = [
    {"place": 1, "player": "Костя", "match_points": 15, "points": 66, "opponents": 21, "wins": 2},
    {"place": 2, "player": "Миша", "match_points": 9, "points": 48, "opponents": 27, "wins": 1},
    {"place": 3, "player": "Ира", "match_points": 6, "points": 45, "opponents": 30, "wins": 1},
    {"place": 4, "player": "Лена", "match_points": 6, "points": 32, "opponents": 30, "wins": 1},
]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("fantan-seven-cards.json", FANTAN_STANDINGS),
        ("leopard-swiss-four.json", LEOPARD_STANDINGS),
    ],
)
def test_fantan_tables_of_three_and_four_and_leopard_swiss_imported_from_documents(
    name, expected, tmp_path
):
    key = import_file(DOCUMENTS / name)
    assert standings_of(key) == expected
    tournament = Tournament.objects.get(key=key)
    assert tournament.rounds.filter(released=True).count() == tournament.rounds.count()

    code, out, err = run("tournament", "export", key)
    assert code == 0, err
    exported = tmp_path / "exported.json"
    exported.write_text(out, encoding="utf-8")
    again = import_file(exported)
    assert again != key
    assert standings_of(again) == expected


def test_the_fantan_documents_halves_and_shared_places_reach_the_standings_page(client):
    key = import_file(DOCUMENTS / "fantan-seven-cards.json")
    response = client.get(f"/tournaments/{key}/standings/", **EN)
    assert response.status_code == 200
    rows = page_standings(response.content.decode())
    assert [(place, name, mp) for place, name, mp, *_ in rows] == [
        ("1", "Вика", "8"),
        ("2", "Богдан", "8"),
        ("3–4", "Алла", "6"),
        ("3–4", "Жора", "6"),
        ("5–6", "Дина", "5.5"),
        ("5–6", "Егор", "5.5"),
        ("7", "Гриша", "3"),
    ]


# -- 3. who may do what ------------------------------------------------------------------------


@pytest.fixture
def running(director, scorer, other_scorer, players):
    """Eight entrants, confirmation asked: round 1 released, its table 1 typed in by another
    scorer (awaiting confirmation), its table 2 blank; round 2 a draft."""
    tournament = services.create_tournament(
        user=director,
        name="Весенний кубок",
        game="variety",
        options={"cycle": "short"},
        settings={},
        rounds_planned=3,
        seating="mixing",
        seed=4242,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
        confirmation=True,
    )
    name_official(tournament, scorer)
    name_official(tournament, other_scorer)
    for player in [*players, "Дарья", "Евгений", "Жанна", "Зоя"]:
        run_services.add_entrant(tournament=tournament, player=player, user=director)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=director), user=director
    )
    first, _ = tables_of(tournament, 1)
    results_services.enter_sheet(table=first, rows=as_rows(CYCLE_A), user=other_scorer)
    run_services.draw_round(tournament=tournament, user=director)
    return tournament


def tables_of(tournament, number) -> list[RoundTable]:
    return list(
        RoundTable.objects.select_related("round__tournament")
        .filter(round__tournament=tournament, round__number=number)
        .order_by("number")
    )


def addresses(tournament):
    """(page GETs, {name: (address, data)} of every write) of the running tournament."""
    first, second = tables_of(tournament, 1)
    entrant = tournament.entrants.order_by("number").last()
    round2 = tournament.rounds.get(number=2)
    swap_a, swap_b = [
        seat.entrant_id
        for seat in TableSeat.objects.filter(table__round=round2).order_by("table", "position")
    ][0::4][:2]
    key = tournament.key
    pages = [
        "/tournaments/new/variety/",
        f"/tournaments/{key}/run/",
        f"/tournaments/{key}/rounds/1/sheets/",
        sheet_url(second),
    ]
    writes = {
        "create": (
            "/tournaments/new/variety/",
            {
                "name": "Другой",
                "rounds_planned": "1",
                "seating": "mixing",
                "seed": "1",
                "bye_points": "3",
                "order": "default",
                "option-cycle": "short",
            },
        ),
        "enter": (f"/tournaments/{key}/run/enter", {"enter-name": "Новичок"}),
        "withdraw": (
            f"/tournaments/{key}/run/entrants/{entrant.pk}/withdraw",
            {"confirm": "withdraw", "rounds": "2"},
        ),  # its confirmation's form
        "swap": (
            f"/tournaments/{key}/run/rounds/2/swap",
            {"swap2-first": swap_a, "swap2-second": swap_b},
        ),
        "release": (f"/tournaments/{key}/run/rounds/2/release", {}),
        "draw": (f"/tournaments/{key}/run/draw", {}),
        "play-here": (f"/tournaments/{key}/run/tables/{second.pk}/play-here", {}),
        "adjust": (
            f"/tournaments/{key}/run/adjust",
            {
                "adjust-entrant": entrant.pk,
                "adjust-round": "1",
                "adjust-points": "-2",
                "adjust-reason": "late",
            },
        ),
        "confirm": (f"/tournaments/{key}/run/tables/{first.pk}/confirm", {}),
        "sheet": (sheet_url(second), sheet_post(CYCLE_B)),
    }
    return pages, writes


DIRECTORS_WRITES = ("create", "enter", "withdraw", "swap", "release", "draw", "play-here", "adjust")


def test_a_visitor_is_sent_to_sign_in_from_every_page_and_refused_every_write(running):
    visitor = Client()
    pages, writes = addresses(running)
    before = snapshot()
    for address in pages:
        response = visitor.get(address)
        assert response.status_code == 302, address
        assert response["Location"].startswith("/accounts/login/?next="), address
    for name, (address, data) in writes.items():
        assert visitor.post(address, data).status_code == 403, name
    assert snapshot() == before


def test_a_plain_member_gets_403_on_every_director_and_scorer_page_and_write(running, member):
    as_member = signed_in(member)
    pages, writes = addresses(running)
    before = snapshot()
    for address in pages:
        assert as_member.get(address, **EN).status_code == 403, address
    for name, (address, data) in writes.items():
        assert as_member.post(address, data, **EN).status_code == 403, name
    assert snapshot() == before


def test_a_scorer_types_in_and_confirms_but_may_not_create_seat_release_swap_adjust_or_play(
    running, scorer
):
    as_scorer = signed_in(scorer)
    pages, writes = addresses(running)
    before = snapshot()
    for name in DIRECTORS_WRITES:
        address, data = writes[name]
        assert as_scorer.post(address, data, **EN).status_code == 403, name
    assert as_scorer.get("/tournaments/new/variety/").status_code == 403
    assert snapshot() == before
    for address in pages[1:]:
        assert as_scorer.get(address, **EN).status_code == 200, address

    first, second = tables_of(running, 1)
    address, data = writes["sheet"]
    assert as_scorer.post(address, data).status_code == 302
    assert second.rows.count() == 4
    second.refresh_from_db()
    assert second.entered_by == scorer and second.confirmed_by is None
    address, data = writes["confirm"]
    response = as_scorer.post(address, data)
    assert response.status_code == 302, alert(response)
    first.refresh_from_db()
    assert first.confirmed_by == scorer
    names = seat_names(first)
    points = {row["player"]: row["points"] for row in selectors.standings(running).as_json()}
    assert [points[name] for name in names] == [38, 46, 16, 24]  # it counts now


def test_a_director_may_do_everything(running, director):
    as_director = signed_in(director)
    pages, writes = addresses(running)
    for address in pages:
        assert as_director.get(address, **EN).status_code == 200, address
    first, second = tables_of(running, 1)
    round2 = running.rounds.get(number=2)
    entrant = running.entrants.order_by("number").last()
    swap_a, swap_b = writes["swap"][1]["swap2-first"], writes["swap"][1]["swap2-second"]
    place_a = TableSeat.objects.get(table__round=round2, entrant_id=swap_a)
    place_b = TableSeat.objects.get(table__round=round2, entrant_id=swap_b)

    for name in ("confirm", "sheet", *DIRECTORS_WRITES):
        if name == "play-here":
            continue  # the sheet just typed in: a round 2 table is played here below
        address, data = writes[name]
        response = as_director.post(address, data, **EN)
        assert response.status_code == 302, (name, alert(response))

    first.refresh_from_db()
    assert first.confirmed_by == director
    assert second.rows.count() == 4
    assert Tournament.objects.filter(name="Другой", created_by=director).exists()
    assert running.entrants.filter(player__name="Новичок").exists()
    entrant.refresh_from_db()
    assert entrant.withdrawn_after == 2
    for place, now in ((place_a, swap_b), (place_b, swap_a)):  # the swap: seats recreated
        assert (
            TableSeat.objects.get(table_id=place.table_id, position=place.position).entrant_id
            == now
        )
    assert running.rounds.get(number=2).released
    assert running.rounds.count() == 3 and not running.rounds.get(number=3).released
    assert Adjustment.objects.get(round__tournament=running).points == -2

    table = tables_of(running, 2)[0]
    response = as_director.post(run_url(running, f"tables/{table.pk}/play-here"))
    assert response.status_code == 302, alert(response)
    table.refresh_from_db()
    assert table.hotseat is not None
