"""A duplicate round's hand records: ``manage.py tournament deals KEY --round R --json`` and
the directors' and scorers' page (a sheet a deal, curtain cards a seat and deal). The packs
made up from them are what a table played here is dealt; nobody else sees a card of them."""

import json
from collections import Counter

import pytest
from django.core.management.base import CommandError

from club.models import Player
from club.roles import DIRECTOR
from games.engine.cards import CODES
from games.models import Deal
from tests.support.accounts import name_official, user_in
from tests.support.commands import ROOT, run
from tests.support.rules_pages import Tree
from tests.support.tournaments import enter, example, import_text, new_tournament
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
HIGH_TO_LOW = "AKQJT98765432"
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна"]


def deals_json(key, round_number=1) -> dict:
    code, out, err = run("tournament", "deals", key, "--round", str(round_number), "--json")
    assert code == 0, err
    return json.loads(out)


def group(records: dict, size: int) -> dict:
    return next(g for g in records["groups"] if g["size"] == size)


def duplicate(host, game="fantan", names=NAMES, **changes):
    """A duplicate tournament, its entrants entered and round 1 drawn and released."""
    tournament = new_tournament(host, game=game, duplicate=True, order=["percent"], **changes)
    enter(tournament, names, host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    return tournament, round_


# -- the command ------------------------------------------------------------------------------


def test_the_command_prints_every_group_largest_first_each_deal_a_whole_pack_twice_the_same():
    doc = example("duplicate-fantan-fifteen")
    key = import_text(json.dumps(doc)).key
    code, out, err = run("tournament", "deals", key, "--round", "1", "--json")
    assert code == 0, err
    assert run("tournament", "deals", key, "--round", "1", "--json")[1] == out
    records = json.loads(out)
    assert list(records) == ["groups"]
    assert [g["size"] for g in records["groups"]] == [4, 3]  # 15: three tables of 4, one of 3
    for g in records["groups"]:
        # as many deals as a sheet of that size holds in the document
        played = next(t for t in doc["rounds"][0]["tables"] if len(t["players"]) == g["size"])
        assert [d["deal"] for d in g["deals"]] == list(range(1, len(played["rows"]) + 1))
        for d in g["deals"]:
            assert list(d) == ["deal", "dealer", "hands"]  # Фантан deals no stock
            assert d["dealer"] == (d["deal"] - 1) % g["size"]
            assert len(d["hands"]) == g["size"]
            cards = [c for hand in d["hands"] for c in hand]
            assert len(set(cards)) == len(cards) and set(cards) <= set(CODES)
            if g["size"] == 4:
                assert Counter(cards) == Counter(CODES)  # the whole pack (three play without 2♣)
    assert deals_json(key, 2) != records  # another round, other packs


def test_a_table_played_here_is_dealt_the_commands_deals_of_its_size(host):
    tournament, round_ = duplicate(host)
    records = deals_json(tournament.key)
    assert [g["size"] for g in records["groups"]] == [4, 3]
    for table in round_.tables.all():
        size = table.seats.count()
        hotseat = run_services.play_here(table=table, user=host).hotseat
        first = Deal.objects.get(table=hotseat, number=1)
        expected = group(records, size)["deals"][0]
        assert (first.dealt, first.dealer) == ({"hands": expected["hands"]}, expected["dealer"])


def test_leopards_stock_is_printed_top_first_as_the_table_is_dealt_it(host):
    tournament, round_ = duplicate(host, game="leopard", names=NAMES[:2], options={"deals": 2})
    records = deals_json(tournament.key)
    (only,) = records["groups"]
    assert only["size"] == 2 and [d["deal"] for d in only["deals"]] == [1, 2]
    hotseat = run_services.play_here(table=round_.tables.get(), user=host).hotseat
    dealt = Deal.objects.get(table=hotseat, number=1).dealt
    assert only["deals"][0]["stock"] == dealt["stock"] and dealt["stock"]
    assert only["deals"][0]["hands"] == dealt["hands"]


def test_the_command_refuses_what_has_no_hand_records_by_name(host):
    tournament = new_tournament(host, game="fantan", duplicate=True, order=["percent"])
    enter(tournament, NAMES[:4], host)
    run_services.draw_round(tournament=tournament, user=host)
    plain = new_tournament(host, game="fantan", name="Обычный")
    enter(plain, NAMES[:4], host)
    run_services.draw_round(tournament=plain, user=host)
    refusals = [
        (("nope", "1"), "no tournament 'nope'"),
        ((tournament.key, "2"), "round 2 of .* is not drawn yet"),
        ((tournament.key, "9"), "has no round 9"),
        ((tournament.key, "0"), "has no round 0"),
        ((plain.key, "1"), "is not a duplicate tournament"),
    ]
    for (key, number), message in refusals:
        with pytest.raises(CommandError, match=message):
            run("tournament", "deals", key, "--round", number, "--json")
    # a drawn round, not released yet, has its packs made up before it is played
    assert [g["size"] for g in deals_json(tournament.key)["groups"]] == [4]


# -- the page ---------------------------------------------------------------------------------


def page_url(tournament, number=1):
    return f"/tournaments/{tournament.key}/rounds/{number}/hand-records/"


def shown_hands(node) -> list[dict[str, str]]:
    """Each seat's hand in a sheet or slip, by suit as its rows read."""
    return [
        {
            row.find_all("span", class_="visually-hidden")[0].text(): row.find_all("td")[0].text()
            for row in table.find_all("tr")
        }
        for table in node.find_all("table", class_="hand-suits")
    ]


def written(hand: list[str]) -> dict[str, str]:
    """The hand as the page writes it: each suit high to low, 10 for the ten."""
    rows = {}
    for suit, name in SUIT_NAMES.items():
        ranks = sorted((c[0] for c in hand if c[1] == suit), key=HIGH_TO_LOW.index)
        rows[name] = " ".join("10" if r == "T" else r for r in ranks) or "—"
    return rows


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


def test_a_director_prints_a_sheet_a_deal_and_a_curtain_card_a_seat_and_deal(client, director):
    tournament, _ = duplicate(director)
    records = deals_json(tournament.key)
    client.force_login(director)
    response = client.get(page_url(tournament), **EN)
    assert response.status_code == 200
    page = Tree(response.content.decode()).root
    for g in records["groups"]:
        for d in g["deals"]:
            sheet = page.by_id(f"deal-{g['size']}-{d['deal']}").parent
            assert f"Dealer: seat {d['dealer'] + 1}" in sheet.text()
            assert shown_hands(sheet) == [written(hand) for hand in d["hands"]]
    slips = page.find_all("article", class_="curtain-card")
    assert len(slips) == sum(g["size"] * len(g["deals"]) for g in records["groups"])
    four = group(records, 4)["deals"][1]  # deal 2 of the tables of 4, seat 3's slip
    slip = next(
        s for s in slips if s.text().startswith("Seat 3 · Deal 2") and "tables of 4" in s.text()
    )
    assert "Dealer: seat 2" in slip.text()
    assert shown_hands(slip) == [written(four["hands"][2])]  # that seat's hand only
    assert "tournaments.css" in response.content.decode()  # printed on A4, a sheet a page
    css = (ROOT / "static" / "css" / "tournaments.css").read_text(encoding="utf-8")
    assert "@page { size: A4" in css and ".hand-record { break-after: page" in css
    link = f'href="{page_url(tournament)}"'
    assert link in client.get(f"/tournaments/{tournament.key}/run/", **EN).content.decode()
    assert client.get(page_url(tournament), **RU).status_code == 200


def test_leopards_sheet_shows_the_stock_top_card_first(client, director):
    tournament, _ = duplicate(director, game="leopard", names=NAMES[:2], options={"deals": 2})
    stock = deals_json(tournament.key)["groups"][0]["deals"][0]["stock"]
    client.force_login(director)
    page = Tree(client.get(page_url(tournament), **EN).content.decode()).root
    sheet = page.by_id("deal-2-1").parent
    (grid,) = sheet.find_all("ol", class_="stock-grid")
    shown = [li.text() for li in grid.find_all("li")]
    assert shown == [("10" if c[0] == "T" else c[0]) + "♠♥♦♣"["SHDC".index(c[1])] for c in stock]
    assert grid.images()[0] and len(grid.images()) == len(stock)
    # and a slip of it to make up the pack, beside the seats' slips of the deal
    first_deal = page.find_all("section", class_="curtain-deal")[0]
    (slip,) = first_deal.find_all("article", class_="curtain-stock")
    assert [li.text() for li in slip.find_all("li")] == shown
    assert len(first_deal.find_all("article", class_="curtain-card")) == 2


def test_only_the_tournaments_officials_see_its_hand_records(client, director, django_user_model):
    tournament, _ = duplicate(director)
    hands = deals_json(tournament.key)["groups"][0]["deals"][0]["hands"]
    scorer = user_in(django_user_model, "scorer")
    name_official(tournament, scorer)
    player = user_in(django_user_model, "anna")
    Player.objects.filter(name=NAMES[0]).update(user=player)  # an entrant, signed in
    spectator = user_in(django_user_model, "viewer")
    organiser = django_user_model.objects.create_superuser("olga", password="pw-for-tests-only")

    client.logout()
    response = client.get(page_url(tournament), **EN)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for user in (player, spectator):
        client.force_login(user)
        response = client.get(page_url(tournament), **EN)
        assert response.status_code == 403
        text = response.content.decode()
        assert "hand-suits" not in text and "curtain-card" not in text
        assert written(hands[0])["Spades"] not in Tree(text).root.text()
        run_page = client.get(f"/tournaments/{tournament.key}/run/", **EN)
        assert run_page.status_code == 403
    for user in (scorer, organiser):
        client.force_login(user)
        assert client.get(page_url(tournament), **EN).status_code == 200


def test_no_hand_records_for_a_round_not_drawn_or_a_tournament_not_duplicate(client, director):
    tournament, _ = duplicate(director)
    plain = new_tournament(director, game="fantan", name="Обычный")
    enter(plain, NAMES[:4], director)
    run_services.draw_round(tournament=plain, user=director)
    client.force_login(director)
    assert client.get(page_url(tournament, 2)).status_code == 404
    assert client.get(page_url(plain)).status_code == 404
    assert "hand-records" not in client.get(f"/tournaments/{plain.key}/run/").content.decode()
