"""A deal that other tables are still to play is kept from a table's spectators: a duplicate
round's tables played here are dealt the same cards, and until every table of the group has
played a deal, the spectators of any of them see its number alone (the page and its htmx
partial, the deal's record and replay, the score sheet holding it, the list of tables for
whoever follows a table as its spectators do); once every table has played it, they see it
as ever, and their live page is told so."""

import json
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client

from club import roles
from games import selectors, services
from tests.support.hotseat import HTMX, act, current, finish_deal, leaked_cards, scrub
from tests.support.sockets import ORIGIN, socket
from tests.support.tournaments import enter, new_tournament
from tournaments.duplicate.deals import round_deals
from tournaments.run import services as run_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def duplicate_round(host):
    """A duplicate Леопард round of two tables of two, both played here, each dealt the
    round's two deals."""
    tournament = new_tournament(
        host, game="leopard", seating="swiss", options={"deals": 2}, duplicate=True
    )
    enter(tournament, ["Анна", "Борис", "Вера", "Глеб"], host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    tables = [
        run_services.play_here(table=table, user=host).hotseat
        for table in round_.tables.order_by("number")
    ]
    return tournament, tables


def deal_cards(table, number: int) -> list[str]:
    dealt = table.deals.get(number=number).dealt
    return sorted({code for hand in dealt["hands"] for code in hand} | set(dealt["stock"]))


def addresses(table, number: int) -> dict[str, str]:
    key = table.watch_key
    return {
        "record": f"/watch/{key}/deals/{number}/record.json",
        "replay": f"/watch/{key}/deals/{number}/replay/",
    }


def assert_withheld(client, table, number: int, *, over: bool):
    """The spectators' page and partial say the deal's number alone: no card of it, no log,
    no score; its record, replay and score sheet are refused, holding no card either."""
    words = "has been played here" if over else "is in play"
    cards = deal_cards(table, number)
    for response in (
        client.get(table.get_watch_url(), **EN),
        client.get(table.get_watch_url(), **EN, **HTMX),
    ):
        assert response.status_code == 200
        html = response.content.decode()
        assert f"Deal {number} of 2 {words}; it is the same at every table" in html
        assert not leaked_cards(scrub(html, table), cards), "a spectator sees a card"
        for marker in ("Log of the deal", "table-scores", "running-scores", "score-sheet"):
            assert marker not in html
        assert addresses(table, number)["replay"] not in html
        assert addresses(table, number)["record"] not in html
        assert table.token not in html and "hx-post" not in html
        assert 'data-live="/ws/watch/' in html  # still live: it follows the table
    for address in addresses(table, number).values():
        response = client.get(address, **EN)
        assert response.status_code == 403
        html = response.content.decode()
        assert f"Deal {number} of 2 {words}" in html
        assert not leaked_cards(scrub(html, table), cards)
    cycle = table.cycles.get()
    sheet = client.get(f"/watch/{table.watch_key}/cycles/{cycle.number}/", **EN)
    assert sheet.status_code == 403
    assert "it is shown here once every table has played them" in sheet.content.decode()


@pytest.mark.django_db
def test_the_round_deals_the_same_cards_at_every_table_of_the_group(host):
    tournament, (first, second) = duplicate_round(host)
    assert first.deal_seeds == second.deal_seeds and len(first.deal_seeds) == 2
    assert {s.name for s in first.seats.all()} != {s.name for s in second.seats.all()}
    deals = round_deals(
        "leopard", first.options, seed=tournament.seed, round_number=1, seats=2, count=2
    )
    for table in (first, second):
        deal = current(table)
        assert (deal.dealer, deal.dealt) == (deals[0].dealer, deals[0].dealt)


@pytest.mark.django_db
def test_a_deal_is_kept_from_the_spectators_until_every_table_has_played_it(client, host):
    tournament, (first, second) = duplicate_round(host)
    assert_withheld(client, first, 1, over=False)
    finish_deal(first, host)  # played at the first table, not yet at the second
    assert selectors.deals_shown_to_spectators(first) == 0
    assert_withheld(client, first, 1, over=True)
    assert_withheld(client, second, 1, over=False)
    # the table's own screen shows it as ever
    host_client = client.__class__()
    host_client.force_login(host)
    own = host_client.get(first.get_absolute_url(), **EN).content.decode()
    assert "The deal is over" in own and addresses(first, 1)["replay"] not in own

    finish_deal(second, host)  # now every table of the group has played deal 1
    assert selectors.deals_shown_to_spectators(first) == 1
    for table in (first, second):
        page = client.get(table.get_watch_url(), **EN).content.decode()
        assert "The deal is over" in page and "Log of the deal" in page
        assert addresses(table, 1)["replay"] in page
        record = client.get(addresses(table, 1)["record"])
        assert record.status_code == 200
        assert record.json() == selectors.record(current(table))
        replay = client.get(addresses(table, 1)["replay"], **EN)
        assert replay.status_code == 200
        assert leaked_cards(replay.content.decode(), current(table).dealt["hands"][0])
        sheet = client.get(f"/watch/{table.watch_key}/cycles/1/", **EN)
        assert sheet.status_code == 200

    # the next deal at the first table: kept from its spectators, deal 1 offered to replay
    services.next_deal(table=first, after=1, user=host)
    assert_withheld(client, first, 2, over=False)
    page = client.get(first.get_watch_url(), **EN).content.decode()
    assert addresses(first, 1)["replay"] in page and addresses(first, 1)["record"] in page
    assert client.get(addresses(first, 1)["replay"]).status_code == 200


@pytest.mark.django_db
def test_the_list_of_tables_shows_a_fixed_deal_tables_totals_to_its_host_alone(
    client, host, django_user_model
):
    """A list of many tables asks nothing of each: while a table plays deals fixed in
    advance, which other tables may still be playing, whoever may not open it sees no total
    there (its spectators' page shows what is scored)."""
    from django.contrib.auth.models import Group

    tournament, (first, second) = duplicate_round(host)
    finish_deal(first, host)
    organiser = django_user_model.objects.create_user("organiser")
    organiser.groups.add(*Group.objects.filter(name=roles.ORGANISER))
    client.force_login(organiser)

    def row(table) -> str:
        html = client.get("/tables/?show=all", **EN).content.decode()
        return re.search(rf'<tr id="table-{table.pk}"[^>]*>(.*?)</tr>', html, re.S).group(1)

    assert table_is_followed_as_a_spectator(row(first), first)
    assert "<strong>" not in row(first)  # no running total of the deal kept from him
    finish_deal(second, host)
    assert "<strong>" not in row(first)
    # the table's own host lists it with its totals all along
    client.force_login(host)
    services.next_deal(table=first, after=1, user=host)
    assert "<strong>" in row(first)


def table_is_followed_as_a_spectator(row: str, table) -> bool:
    return f'href="{table.get_watch_url()}"' in row


@pytest.mark.django_db(transaction=True)
def test_the_spectators_live_page_is_told_once_the_other_table_has_played_the_deal(host):
    tournament, (first, second) = duplicate_round(host)
    finish_deal(first, host)

    async def run():
        watcher = socket(f"/ws/watch/{first.watch_key}/", ORIGIN)
        assert (await watcher.connect())[0]
        before = json.loads(await watcher.receive_from())["stamp"]
        await database_sync_to_async(finish_deal)(second, host)
        told = json.loads(await watcher.receive_from(timeout=5))["stamp"]
        await watcher.disconnect()
        return before, told

    before, told = async_to_sync(run)()
    deal = current(first)
    assert before == [1, 1, 0, 0]  # deal 1, over, withheld: not its version
    assert told == [1, deal.version, 0, 1] and told > before
    # the page, fetched again, shows the version it was told: it then shows the deal
    page = Client().get(first.get_watch_url(), **EN).content.decode()
    assert f'data-stamp="1 {deal.version} 0 1"' in page and "Log of the deal" in page


def test_a_withheld_deals_spectators_are_not_told_each_move_of_it(host):
    """The pace of a deal still to be played elsewhere is no spectator's: their page's
    version stays the same move after move, and changes once the deal is over."""
    tournament, (first, second) = duplicate_round(host)
    stamps = set()
    for _ in range(3):
        act(first, user=host)
        stamps.add(tuple(selectors.current_watch_stamp(first)))
    assert stamps == {(1, 0, 0, 0)}
    finish_deal(first, host)
    assert selectors.current_watch_stamp(first) == [1, 1, 0, 0]
