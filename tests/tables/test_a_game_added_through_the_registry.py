"""A fourth game added through the registry alone: Duel (``tests/support/duel/``), a throw-away game
that lives in the test suite, is started, played and replayed through the shared pages and
records, and played in a tournament, so nothing outside a game's own package has to change to
add one. The registry checks a game's parts when it is registered; a game without tournament
parts (``tests/support/duel/casual/``) is offered for tables only."""

import json
import random
import re
import sys
import types
from contextlib import contextmanager

import pytest
from django.test import Client, modify_settings

from club.roles import DIRECTOR
from games import registry, selectors
from games.engine import InvalidRecord
from games.engine.records import replay
from games.engine.simulate import random_deal
from games.models import Table
from tests.support.accounts import user_in
from tests.support.commands import run, write
from tests.support.duel.engine import RULES as DUEL_RULES
from tests.support.hotseat import (
    HTMX,
    alert,
    card_buttons,
    check_hidden,
    current,
    play_to_end,
    reveal_now,
    stamp,
    unchanged,
    url,
)
from tournaments import services as tournament_services
from tournaments.models import Tournament

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@contextmanager
def duel_registered(package: str = "tests.support.duel"):
    """The game in the registry, and its package an installed app (templates found)."""
    registry.register("duel", package)
    try:
        with modify_settings(INSTALLED_APPS={"append": "tests.support.duel"}):
            yield registry.game("duel")
    finally:
        registry.unregister("duel")


@pytest.fixture
def duel():
    with duel_registered() as game:
        yield game


@pytest.fixture
def duel_table(duel, host_client, players):
    response = host_client.post(
        "/tables/new/duel/", {"seat_0": players[0].pk, "seat_1": players[1].pk}
    )
    assert response.status_code == 302
    return Table.objects.get(token=response["Location"].split("/")[2])


def expected_scores(actions) -> list[int]:
    """The rules as the engine's docstring states them: spades score their rank, hearts
    lose it, for the seat that played them."""
    scores = [0, 0]
    for action in actions:
        rank, suit = int(action["play"][0]), action["play"][1]
        scores[action["seat"]] += rank if suit == "S" else -rank
    return scores


@pytest.mark.django_db
def test_the_front_page_offers_the_new_game_and_its_table_can_be_started(
    duel, host_client, players
):
    home = host_client.get("/", **EN).content.decode()
    assert 'href="/tables/new/duel/"' in home
    assert "Start a Duel table" in home
    form = host_client.get("/tables/new/duel/", **EN)
    assert form.status_code == 200
    page = form.content.decode()
    assert 'name="seat_1"' in page and 'name="seat_2"' not in page  # two seats only

    response = host_client.post(
        "/tables/new/duel/", {"seat_0": players[0].pk, "seat_1": players[1].pk}
    )
    assert response.status_code == 302
    table = Table.objects.get(token=response["Location"].split("/")[2])
    assert response["Location"] == table.get_absolute_url()
    assert table.game == "duel" and table.options == {}
    assert [s.player.name for s in table.seats.all()] == ["Анна", "Борис"]
    deal = table.deals.get()
    assert sorted(len(hand) for hand in deal.dealt["hands"]) == [6, 6]
    page = host_client.get(response["Location"], **EN).content.decode()
    assert "<h1>Duel · deal 1" in page
    russian = host_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<h1>Дуэль · сдача 1" in russian  # each language names the game in its own words
    name = players[(deal.dealer + 1) % 2].name  # the dealer's left plays first
    assert f"Pass the screen to {name}" in page

    refused = host_client.post("/tables/new/duel/", {"seat_0": players[0].pk}, **EN)
    assert refused.status_code == 400 and "Seat two players." in refused.content.decode()


@pytest.mark.django_db
def test_a_whole_deal_is_played_through_the_pages_and_its_record_replays(
    duel_table, host_client, tmp_path
):
    table = duel_table
    reveal_now(host_client, table)
    deal = current(table)
    state = selectors.load(deal).state
    page = host_client.get(url(table)).content.decode()
    buttons = card_buttons(page)
    assert buttons == set(state.hands[state.to_act])  # his own hand, every card playable
    check_hidden(host_client.get(url(table)), table)  # and not the other one

    assert play_to_end(host_client, table, check=check_hidden, **HTMX) == 12
    deal = current(table)
    assert deal.is_over
    page = host_client.get(url(table), **EN).content.decode()
    assert "The deal is over" in page and "Next deal" in page
    names = selectors.names(table)
    for name, score in zip(names, deal.result["scores"], strict=True):
        assert f'<th scope="row">{name}</th><td>{score}</td>' in page
    assert page.count(" dueled with ") == 12  # the log, worded by the game's own template

    response = host_client.get(url(table, "deals/1/record.json"))
    assert response.status_code == 200
    assert 'filename="duel-' in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["game"] == "duel" and record["hands"] == deal.dealt["hands"]
    assert len(record["actions"]) == 12
    assert deal.result["scores"] == expected_scores(record["actions"])
    assert replay(record).result() == {**deal.result, "complete": True}

    code, out, err = run("replay", str(write(tmp_path / "duel.json", record)))
    assert (code, err) == (0, "")
    assert json.loads(out) == {**deal.result, "complete": True}

    response = host_client.post(url(table, "next-deal"), {"deal": 1})
    assert response.status_code == 302
    second = current(table)
    assert second.number == 2 and second.dealer == (deal.dealer + 1) % 2


@pytest.mark.django_db
def test_a_card_not_in_the_hand_is_refused_by_the_shared_machinery(duel_table, host_client):
    table = duel_table
    reveal_now(host_client, table)
    before = current(table)
    state = selectors.load(before).state
    seat = state.to_act
    for card in (state.hands[1 - seat][0], "AS"):  # the other hand's card; out of the pack
        response = host_client.post(
            url(table, "act"), stamp(before, seat=seat, card=card), **EN, **HTMX
        )
        assert response.status_code == 400
        assert "is not in your hand" in alert(response)
        unchanged(table, before)
        assert 'name="card"' in response.content.decode()  # still his turn, his hand shown
    check_hidden(response, table)  # (the first page names the forged card, as it was posted)


@pytest.mark.django_db
def test_once_unregistered_the_game_is_unknown(host_client, tmp_path):
    with duel_registered() as game:
        state, actions = random_deal(game.rules, {}, 0, random.Random(5))
        record = {**state.record(), "actions": actions}
        assert replay(record).result()["complete"]
        assert host_client.get("/tables/new/duel/").status_code == 200

    assert "duel" not in registry.GAMES
    with pytest.raises(InvalidRecord, match="unknown game 'duel'"):
        replay(record)
    code, out, err = run("replay", str(write(tmp_path / "duel.json", record)))
    assert code == 2 and "unknown game 'duel'" in err
    assert host_client.get("/tables/new/duel/").status_code == 404
    assert "/tables/new/duel/" not in host_client.get("/").content.decode()


# -- the registry's contract: each part checked when the game is registered -----------------


def test_every_game_of_the_club_has_every_part_and_each_keeps_its_protocol():
    for key in registry.GAMES:
        parts = registry.parts(key)
        assert parts.rules.key == key and parts.tournament.key == key
        assert parts.robots is not None and registry.has_tournaments(key)
    assert registry.tournament_keys() == list(registry.GAMES)


def test_optional_parts_that_do_not_exist_are_absent():
    with duel_registered("tests.support.duel.casual"):
        assert registry.rules("duel") is DUEL_RULES
        assert registry.robots("duel") is None and not registry.has_tournaments("duel")
        assert "duel" not in registry.tournament_keys()
        with pytest.raises(registry.NoTournaments):
            registry.tournament("duel")
    with duel_registered():
        assert registry.tournament("duel").key == "duel" and registry.robots("duel") is None


def fake_package(monkeypatch, name: str, **modules: dict) -> None:
    """A package ``name`` whose only modules are ``modules`` (module name: its members)."""
    package = types.ModuleType(name)
    package.__path__ = []  # a package with no files: any other module of it is missing
    monkeypatch.setitem(sys.modules, name, package)
    for module, members in modules.items():
        made = types.ModuleType(f"{name}.{module}")
        made.__dict__.update(members)
        monkeypatch.setitem(sys.modules, f"{name}.{module}", made)


class HalfTournament:
    """Tournament parts that forgot most of the Protocol."""

    key = "duel"
    seating = "mixing"
    setting_names = ()

    def table_sizes(self, entrants: int) -> list[int]:
        return [2] * (entrants // 2)


@pytest.mark.parametrize(
    ("modules", "said"),
    [
        (
            {"engine": {"RULES": DUEL_RULES}, "tournament": {"TOURNAMENT": HalfTournament()}},
            [
                "tournament.TOURNAMENT.check_row() is missing",
                "tournament.TOURNAMENT.row_layout() is missing",
                "TournamentParts",
            ],
        ),
        (
            {"engine": {"RULES": DUEL_RULES}, "tournament": {"PARTS": HalfTournament()}},
            ["tournament.TOURNAMENT is missing"],
        ),
        (
            {"engine": {"RULES": object()}},
            ["engine.RULES.key is missing", "engine.RULES.deal() is missing", "base.Rules"],
        ),
        (
            {"tournament": {"TOURNAMENT": registry.tournament("leopard")}},
            [
                "there is no module tests.broken_duel.engine",
                "tournament.TOURNAMENT.key is 'leopard', not the game's key 'duel'",
            ],
        ),
        (
            {
                "engine": {"RULES": DUEL_RULES},
                "robots": {
                    "ROBOTS": {"grandmaster": object},
                    "MEASURE": "won",
                    "TARGETS": (),
                    "BENCH_SAMPLES": 8,
                },
            },
            ["robots.sample_state() is missing"],
        ),
        (
            {
                "engine": {"RULES": DUEL_RULES},
                "robots": {
                    "ROBOTS": {"grandmaster": object},
                    "MEASURE": "goals",
                    "TARGETS": (),
                    "BENCH_SAMPLES": 8,
                    "sample_state": lambda view, rng: None,
                },
            },
            [
                "robots.ROBOTS has an unknown strength 'grandmaster'",
                "robots.MEASURE is 'goals', not one of won, points",
            ],
        ),
    ],
)
def test_a_game_whose_parts_break_their_protocol_is_refused_at_registration(
    monkeypatch, modules, said
):
    fake_package(monkeypatch, "tests.broken_duel", **modules)
    with pytest.raises(registry.BrokenGame) as refused:
        registry.register("duel", "tests.broken_duel")
    message = str(refused.value)
    assert message.startswith("the game 'duel' (tests.broken_duel) breaks its parts' Protocols")
    for words in said:
        assert words in message
    assert "duel" not in registry.GAMES
    with pytest.raises(registry.UnknownGame):
        registry.rules("duel")


def test_a_game_registered_under_another_key_than_its_rules_name_is_refused():
    with pytest.raises(registry.BrokenGame, match="RULES.key is 'duel', not the game's key 'dual'"):
        registry.register("dual", "tests.support.duel")
    assert "dual" not in registry.GAMES


# -- tournaments: offered only for a game with tournament parts ------------------------------


@pytest.fixture
def director_client(django_user_model):
    client = Client()
    client.force_login(user_in(django_user_model, "director", DIRECTOR))
    return client


DUEL_DOCUMENT = {  # Duel's scores add up to 0 at every deal; a sheet is two deals
    "tournament": "Duel night",
    "game": "duel",
    "date": "2025-03-01",
    "players": ["Ada", "Ben", "Cy", "Di"],
    "rounds": [
        {
            "tables": [
                {"players": ["Ada", "Ben"], "rows": [{"scores": [5, -5]}, {"scores": [-3, 3]}]},
                {"players": ["Cy", "Di"], "rows": [{"scores": [10, -10]}, {"scores": [-4, 4]}]},
            ],
            "byes": [],
        },
        {
            "tables": [
                {"players": ["Ada", "Cy"], "rows": [{"scores": [1, -1]}, {"scores": [-1, 1]}]},
                {"players": ["Ben", "Di"], "rows": [{"scores": [-7, 7]}, {"scores": [2, -2]}]},
            ],
            "byes": [],
        },
    ],
}
# Round 1: Ada 2 beats Ben −2, Cy 6 beats Di −6 (6 match points each winner); round 2: Ada
# and Cy tie at 0 (3 each), Di 5 beats Ben −5. Cy and Ada have 9 match points, Cy more game
# points; opponents' match points: Cy 6 + 9, Ada 0 + 9, Di 9 + 0, Ben 9 + 6.
DUEL_STANDINGS = [
    {"place": 1, "player": "Cy", "match_points": 9, "points": 6, "opponents": 15, "wins": 1},
    {"place": 2, "player": "Ada", "match_points": 9, "points": 2, "opponents": 9, "wins": 1},
    {"place": 3, "player": "Di", "match_points": 6, "points": -1, "opponents": 9, "wins": 1},
    {"place": 4, "player": "Ben", "match_points": 0, "points": -7, "opponents": 15, "wins": 0},
]


@pytest.mark.django_db
def test_a_game_without_tournament_parts_is_offered_for_tables_only_and_nothing_answers_500(
    director_client, tmp_path
):
    with duel_registered("tests.support.duel.casual"):
        home = director_client.get("/", **EN).content.decode()
        assert 'href="/tables/new/duel/"' in home  # its tables are played as ever...
        form = director_client.get("/tables/new/duel/", **EN).content.decode()
        assert 'name="seat_1"' in form and 'name="robot_0"' not in form  # (no robots)

        listed = director_client.get("/tournaments/", **EN)  # ...but never in a tournament
        assert listed.status_code == 200
        page = listed.content.decode()
        assert 'href="/tournaments/new/fantan/"' in page
        assert "/tournaments/new/duel/" not in page and "New Duel tournament" not in page
        for method in (director_client.get, director_client.post):
            assert method("/tournaments/new/duel/", **EN).status_code == 404

        path = write(tmp_path / "duel.json", {**DUEL_DOCUMENT, "rounds": []})
        code, out, err = run("tournament", "import", str(path))
        assert (code, out) == (2, "")
        assert "not a tournament document: the game 'duel' is not played in tournaments" in err
        with pytest.raises(tournament_services.TournamentError) as refused:
            tournament_services.create_tournament(
                user=None,
                name="Duel night",
                game="duel",
                options={},
                settings={},
                rounds_planned=1,
                seating="mixing",
                seed=1,
                bye_points=3,
                order=["match_points"],
            )
        assert str(refused.value) == (
            "These settings do not fit: the game 'duel' is not played in tournaments"
        )
        code, out, err = run_seating("duel")
        assert code == 1 and "the game 'duel' is not played in tournaments" in err
        assert not Tournament.objects.exists()


def run_seating(game: str) -> tuple[int, str, str]:
    from django.core.management.base import CommandError

    try:
        return run("seating", game, "--players", "4", "--rounds", "1", "--seed", "1")
    except CommandError as exc:
        return 1, "", str(exc)


@pytest.mark.django_db
def test_a_game_with_tournament_parts_is_offered_and_its_document_reaches_the_standings(
    director_client, tmp_path
):
    with duel_registered():
        page = director_client.get("/tournaments/", **EN).content.decode()
        assert 'href="/tournaments/new/duel/"' in page and "New Duel tournament" in page
        assert director_client.get("/tournaments/new/duel/", **EN).status_code == 200

        broken = json.loads(json.dumps(DUEL_DOCUMENT))
        broken["rounds"][1]["tables"][1]["rows"][1] = {"scores": [2, -1]}
        code, out, err = run("tournament", "import", str(write(tmp_path / "bad.json", broken)))
        assert code == 1
        assert err.strip() == ("round 2, table 2, row 2: The two scores must add up to 0, not 1.")
        assert not Tournament.objects.exists()

        code, out, err = run(
            "tournament", "import", str(write(tmp_path / "duel.json", DUEL_DOCUMENT))
        )
        assert (code, err) == (0, "")
        key = json.loads(out)["tournament"]
        code, out, err = run("tournament", "standings", key, "--json")
        assert (code, err) == (0, "")
        assert json.loads(out) == DUEL_STANDINGS

        for address in ("", "rounds/1/", "rounds/2/", "standings/", "projector/"):
            response = Client().get(f"/tournaments/{key}/{address}", **EN)
            assert response.status_code == 200, address
        standings = Client().get(f"/tournaments/{key}/standings/", **EN).content.decode()
        # the standings' rows, by their names' links (the tournament's random key may spell a name)
        ranked = re.findall(r'<th scope="row"><a href="[^"]*">([^<]+)</a></th>', standings)
        assert ranked == ["Cy", "Ada", "Di", "Ben"]
        code, out, err = run("tournament", "export", key)
        assert json.loads(out)["rounds"] == DUEL_DOCUMENT["rounds"]
