"""The duplicate setting (docs/rules/duplicate.md, "The setting"): chosen with the
tournament on its form or in its document, refused where the rules refuse it, kept by the
export, and a duplicate round's tables played here dealt the round's deals."""

import json

import pytest
from django.core.management import call_command

from club.roles import DIRECTOR
from games import registry
from tests.support import EXAMPLES
from tests.support.accounts import user_in
from tests.support.tournaments import enter, import_text, new_tournament
from tournaments import selectors, services
from tournaments.document import DuplicateRefused, NotADocument, read
from tournaments.duplicate.deals import round_deals
from tournaments.models import Tournament
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зоя"]


def test_a_match_to_a_target_score_cannot_be_duplicate(host):
    with pytest.raises(services.TournamentError) as refused:
        new_tournament(
            host, game="leopard", seating="swiss", options={"target": 30}, duplicate=True
        )
    assert "a match to a target score cannot be duplicate" in str(refused.value)
    assert not Tournament.objects.exists()
    tournament = new_tournament(
        host, game="leopard", seating="swiss", options={"deals": 2}, duplicate=True
    )
    assert tournament.duplicate
    assert tournament.order == ["match_points", "points", "opponents", "wins"]


def test_percent_field_and_deals_rank_a_duplicate_tournament_only(host):
    for key in ("percent", "field", "deals"):
        with pytest.raises(services.TournamentError) as refused:
            new_tournament(host, order=[key, "points"])
        assert "rank a duplicate tournament only" in str(refused.value)
    assert not Tournament.objects.exists()
    assert new_tournament(host, order=["deals", "percent"], duplicate=True).order == [
        "deals",
        "percent",
    ]


def test_a_document_says_duplicate_and_its_default_order_is_percent_then_field():
    text = (EXAMPLES / "duplicate-variety-nine.json").read_text(encoding="utf-8")
    data = json.loads(text)
    doc = read(text)
    assert doc.duplicate and doc.order == ["percent", "field"]
    assert doc.to_json()["duplicate"] is True
    assert "duplicate" not in read(json.dumps({**data, "duplicate": False})).to_json()
    with pytest.raises(NotADocument, match="duplicate must be true or false"):
        read(json.dumps({**data, "duplicate": "yes"}))
    with pytest.raises(DuplicateRefused, match="rank a duplicate tournament only"):
        read(json.dumps({**data, "duplicate": False, "order": ["percent"]}))
    leopard = {**data, "game": "leopard", "options": {"target": 30}, "rounds": []}
    with pytest.raises(DuplicateRefused, match="cannot be duplicate"):
        read(json.dumps(leopard))


@pytest.mark.parametrize("name", ["duplicate-variety-nine", "duplicate-fantan-fifteen"])
def test_the_export_keeps_duplicate_and_its_import_gives_the_same_standings(name, capsys):
    first = import_text((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    call_command("tournament", "export", first.key)
    exported = capsys.readouterr().out
    assert json.loads(exported)["duplicate"] is True
    again = import_text(exported)
    assert again.duplicate
    assert selectors.standings(again).as_json() == selectors.standings(first).as_json()
    expected = json.loads((EXAMPLES / f"{name}.standings.json").read_text(encoding="utf-8"))
    keys = expected[0].keys()
    shown = [{k: row[k] for k in keys} for row in selectors.standings(again).as_json()]
    assert json.dumps(shown, ensure_ascii=False) == json.dumps(expected, ensure_ascii=False)


def test_the_new_tournament_form_makes_a_duplicate_tournament_ranked_by_percentage(
    client, django_user_model
):
    client.force_login(user_in(django_user_model, "director", DIRECTOR))
    form = {
        "name": "Дубль",
        "rounds_planned": "2",
        "seating": "mixing",
        "seed": "5",
        "bye_points": "3",
        "order": "default",
        "option-cycle": "short",
    }
    page = client.get("/tournaments/new/variety/", **EN).content.decode()
    assert 'name="duplicate"' in page
    response = client.post("/tournaments/new/variety/", {**form, "duplicate": "on"}, **EN)
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.duplicate and tournament.order == ["percent", "field"]
    # percentages without duplicate: refused with the reason, nothing made
    response = client.post(
        "/tournaments/new/variety/", {**form, "name": "Не дубль", "order": "percent"}, **EN
    )
    assert response.status_code == 400
    assert "rank a duplicate tournament only" in response.content.decode()
    assert Tournament.objects.count() == 1


def test_every_table_of_a_duplicate_round_played_here_is_dealt_the_rounds_deals(host):
    tournament = new_tournament(host, duplicate=True, rounds_planned=2)
    enter(tournament, NAMES, host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    first, second = round_.tables.order_by("number")
    dealt = [
        run_services.play_here(table=table, user=host).hotseat.deals.get(number=1)
        for table in (first, second)
    ]
    parts = registry.tournament("variety")
    expected = round_deals(
        "variety",
        parts.table_options(tournament.options, 4),
        seed=tournament.seed,
        round_number=1,
        seats=4,
        count=4,
    )[0]
    assert dealt[0].dealt == dealt[1].dealt == expected.dealt
    assert dealt[0].dealer == dealt[1].dealer == expected.dealer == 0
    players = [
        {seat.player_id for seat in deal.table.seats.all()} for deal in dealt
    ]  # other players, the same cards
    assert not players[0] & players[1]


def test_a_tournament_that_is_not_duplicate_deals_each_table_its_own_cards(host):
    tournament = new_tournament(host)
    enter(tournament, NAMES, host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    tables = [
        run_services.play_here(table=table, user=host).hotseat for table in round_.tables.all()
    ]
    assert all(table.deal_seeds == [] for table in tables)
    assert tables[0].deals.get().dealt != tables[1].deals.get().dealt
