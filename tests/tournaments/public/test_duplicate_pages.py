"""A duplicate tournament's public pages (docs/rules/duplicate.md): the standings by
percentage, the travellers of its scored deals with their hand records, a player's scored
deals; a deal still to be played at a table of its group shows nobody but the tournament's
officials a result or a card of it.

The worked example: fifteen players of Фантан, two rounds of two deals; in the last round
table 1 is still to play its deal 2, so deal 2 of the tables of four is not scored."""

import csv
import io
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from club.models import Player
from games import registry
from games import services as game_services
from tests.support import EXAMPLES
from tests.support.accounts import name_official, user_in
from tests.support.rules_pages import Node, Tree
from tests.support.tournaments import import_text
from tournaments import selectors
from tournaments.duplicate.deals import round_deals
from tournaments.models import RoundTable
from tournaments.public import travellers

STANDINGS = [
    ("Борис", "83.33", "1.78", "3"),
    ("Евгений", "68.75", "1.33", "4"),
    ("Quentin", "16.67", "−1.78", "3"),
]


@pytest.fixture
def fifteen(db):
    return import_text((EXAMPLES / "duplicate-fantan-fifteen.json").read_text(encoding="utf-8"))


@pytest.fixture
def director(fifteen, django_user_model):
    user = user_in(django_user_model, "td")
    name_official(fifteen, user, role="director")
    return user


def get(client, name: str, *args, language: str = "en"):
    return client.get(reverse(name, args=args), HTTP_ACCEPT_LANGUAGE=language)


def page_of(response) -> Node:
    assert response.status_code == 200
    return Tree(response.content.decode()).root


def cells(row: Node) -> list[str]:
    return [c.text() for c in row.children if isinstance(c, Node) and c.tag in ("th", "td")]


def body_rows(table: Node) -> list[list[str]]:
    return [cells(row) for row in table.find_all("tbody")[0].find_all("tr")]


def standings_rows(page: Node) -> dict[str, list[str]]:
    return {row[1]: row for row in body_rows(page.find_all("table", class_="standings")[0])}


def seat_sections(page: Node) -> list[Node]:
    return page.find_all("section", class_="traveller-seat")


def hand_record(seat: Node) -> list[str]:
    return [dd.text() for dd in seat.find_all("dd")]


def hand_text(hand: list[str]) -> list[str]:
    """A hand as the hand record writes it: each suit's ranks high to low, 10 for the ten."""
    order = "AKQJT98765432"
    return [
        " ".join(
            "10" if c[0] == "T" else c[0]
            for c in sorted((c for c in hand if c[1] == suit), key=lambda c: order.index(c[0]))
        )
        or "—"
        for suit in "SHDC"
    ]


# -- the standings ---------------------------------------------------------------------------


def test_the_standings_page_ranks_by_percentage_with_the_field_figure_and_the_deals(
    client, fifteen
):
    page = page_of(get(client, "tournament-standings", fifteen.key))
    table = page.find_all("table", class_="standings")[0]
    heads = [th.text() for th in table.find_all("thead")[0].find_all("th")]
    assert heads[:6] == ["Place", "Player", "%", "Field", "Deals", "Match points"]
    rows = standings_rows(page)
    for name, percent, field, deals in STANDINGS:
        assert rows[name][2:5] == [percent, field, deals]
    assert rows["Никита"][2] == "50.00"  # two decimals, always
    assert list(rows)[0] == "Борис"
    assert "ranked by percentage, field figure" in page.text()
    russian = standings_rows(
        page_of(get(client, "tournament-standings", fifteen.key, language="ru"))
    )
    assert russian["Борис"][2] == "83,33"


def test_the_projector_shows_the_percentages_and_the_deal_in_play(client, fifteen):
    page = page_of(get(client, "tournament-projector", fifteen.key))
    assert standings_rows(page)["Борис"][2:5] == ["83.33", "1.78", "3"]
    # the tables of four show the deal their group is at, not how far each one has got
    tables = page.find_all("ol", class_="projector-tables")[0].find_all("li")
    states = [li.find_all(class_="state")[0].text() for li in tables if li.parent.tag == "ol"]
    assert states == ["deal 2 in play"] * 3 + ["counts"]


def test_the_standings_csv_download_and_command_have_the_percentages(client, fifteen):
    response = get(client, "tournament-standings-csv", fifteen.key)
    assert response["Content-Disposition"].startswith("attachment;")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0])[:5] == ["place", "player", "percent", "field", "deals"]
    first = rows[0]
    assert [first[key] for key in ("player", "percent", "field", "deals")] == [
        "Борис",
        "83.33",
        "1.78",
        "3",
    ]
    out = StringIO()
    call_command("tournament", "standings", fifteen.key, "--csv", stdout=out)
    printed = {row["player"]: row for row in csv.DictReader(io.StringIO(out.getvalue()))}
    assert list(next(iter(printed.values())))[:5] == [
        "place",
        "player",
        "percent",
        "field",
        "deals",
    ]
    for name, percent, field, deals in STANDINGS:
        assert [printed[name][key] for key in ("percent", "field", "deals")] == [
            percent,
            field.replace("−", "-"),
            deals,
        ]


# -- the travellers --------------------------------------------------------------------------


def test_a_traveller_shows_every_tables_result_seat_by_seat_and_the_hand_record(client, fifteen):
    page = page_of(get(client, "tournament-traveller", fifteen.key, 1, 4, 1))
    seats = seat_sections(page)
    assert len(seats) == 4
    # seat 1 went out first at table 1 alone: margin 1 − 0 = 1 there, 0 − ⅓ at the others
    assert body_rows(seats[0]) == [
        ["1", "Борис", "1", "1.00", "4", "100.00"],
        ["2", "Xena", "0", "−0.33", "1", "25.00"],
        ["3", "Анна", "0", "−0.33", "1", "25.00"],
    ]
    deal = round_deals(
        "fantan", fifteen.options, seed=fifteen.seed, round_number=1, seats=4, count=1
    )[0]
    for seat, hand in zip(seats, deal.dealt["hands"], strict=True):
        assert hand_record(seat) == hand_text(hand)
    assert "(dealer)" in seats[0].find_all("h2")[0].text()


def test_a_traveller_links_the_replay_of_each_table_played_here(client, fifteen, director):
    table = RoundTable.objects.get(round__tournament=fifteen, round__number=1, number=2)
    players = [seat.entrant.player for seat in table.seats.order_by("position")]
    parts = registry.tournament("fantan")
    hotseat = game_services.start_table(
        user=director,
        game="fantan",
        players=players,
        options=parts.table_options(fifteen.options, 4),
        seed=1,
    )
    RoundTable.objects.filter(pk=table.pk).update(hotseat=hotseat)
    page = page_of(get(client, "tournament-traveller", fifteen.key, 1, 4, 2))
    replays = [a.attrs["href"] for a in page.find_all("a") if "/replay/" in a.attrs["href"]]
    assert replays == [reverse("watch-replay", args=[hotseat.watch_key, 2])]


def test_the_round_page_lists_the_scored_travellers_alone_to_the_public(client, fifteen, director):
    def links(page):
        return sorted(a.attrs["href"] for a in page.find_all(class_="travellers")[0].find_all("a"))

    base = f"/tournaments/{fifteen.key}/rounds/2/deals"
    public = page_of(get(client, "tournament-round", fifteen.key, 2))
    assert links(public) == [f"{base}/3/1/", f"{base}/3/2/", f"{base}/4/1/"]
    client.force_login(director)
    official = page_of(get(client, "tournament-round", fifteen.key, 2))
    assert links(official) == [f"{base}/3/1/", f"{base}/3/2/", f"{base}/4/1/", f"{base}/4/2/"]
    assert "not scored yet" in official.find_all(class_="travellers")[0].text()


def test_an_unscored_deal_has_no_traveller_but_for_the_directors(client, fifteen, director):
    response = get(client, "tournament-traveller", fifteen.key, 2, 4, 2)
    assert response.status_code == 404
    deal = round_deals(
        "fantan", fifteen.options, seed=fifteen.seed, round_number=2, seats=4, count=2
    )[1]
    for hand in deal.dealt["hands"]:  # not one of its cards in the answer
        assert " ".join(hand_text(hand)) not in response.content.decode()
    client.force_login(director)
    page = page_of(get(client, "tournament-traveller", fifteen.key, 2, 4, 2))
    assert "Not scored yet" in page.text()
    seats = seat_sections(page)
    # table 1 has not played it: the two tables that have are compared, by Neuberg's formula
    first = body_rows(seats[0])
    assert first[0] == ["1", "Рита", "not played"]
    assert [row[:2] for row in first[1:]] == [["2", "Павел"], ["3", "Quentin"]]
    for seat, hand in zip(seats, deal.dealt["hands"], strict=True):
        assert hand_record(seat) == hand_text(hand)


def test_no_other_deal_group_or_round_has_a_traveller(client, fifteen, director):
    wrong = [(1, 4, 3), (1, 5, 1), (3, 4, 1), (0, 4, 1), (1, 4, 0), (1, 3, 3)]
    for args in wrong:
        assert get(client, "tournament-traveller", fifteen.key, *args).status_code == 404
    client.force_login(director)
    for args in wrong:
        assert get(client, "tournament-traveller", fifteen.key, *args).status_code == 404
    plain = import_text((EXAMPLES / "fantan-seven.json").read_text(encoding="utf-8"))
    assert get(client, "tournament-traveller", plain.key, 1, 4, 1).status_code == 404


def test_the_unscored_deals_rows_are_on_no_public_page(client, fifteen):
    page = page_of(get(client, "tournament-round", fifteen.key, 2))
    tables = page.find_all("table", class_="round-table")
    for table in tables[:3]:  # the tables of four: their second deal is not scored
        assert "deal 2 in play" in table.find_all("caption")[0].text()
        assert all(row[1:] == ["—", "—"] for row in body_rows(table))
    assert [row[1] for row in body_rows(tables[3])] == ["0", "1", "1"]  # the table of three
    sheets = csv.reader(
        io.StringIO(get(client, "tournament-sheets-csv", fifteen.key).content.decode())
    )
    assert [line[:3] for line in sheets if line[0] == "2"] == [
        ["2", "1", "1"],
        ["2", "2", "1"],
        ["2", "3", "1"],
        ["2", "4", "1"],
        ["2", "4", "2"],
    ]


# -- a player's page -------------------------------------------------------------------------


def test_a_players_page_lists_his_scored_deals_with_their_percentages(client, fifteen):
    boris = Player.objects.get(name="Борис")
    page = page_of(client.get(reverse("player", args=[boris.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    table = next(
        t
        for t in page.find_all("table")
        if t.find_all("caption") and t.find_all("caption")[0].text() == "Scored deals"
    )
    rows = body_rows(table)
    # deal 2 of the tables of four in round 2 is not scored: three deals, as in the standings
    assert [(row[0], row[1]) for row in rows] == [
        ("1", "deal 1, tables of 4"),
        ("1", "deal 2, tables of 4"),
        ("2", "deal 1, tables of 4"),
    ]
    assert rows[0][4] == "100.00"
    assert table.find_all("a")[0].attrs["href"] == reverse(
        "tournament-traveller", args=[fifteen.key, 1, 4, 1]
    )


def test_a_players_deals_agree_with_his_percentage_in_the_standings(fifteen):
    played_ = selectors.played(fifteen).disclosed()
    for name, percent, _field, deals in STANDINGS:
        mine = travellers.player_deals(played_, name)
        assert len(mine) == int(deals)
        mean = sum(deal.percent for deal in mine) / len(mine)
        assert abs(float(mean) - float(percent)) < 0.01
