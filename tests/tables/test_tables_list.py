"""Tables a member can manage. The list of tables (its state, host,
players and running scores, newest first, a page at a time; "mine" for a member, "all" too
for a director or an organiser), and renaming, finishing or abandoning a table, each
confirmed first; a finished or abandoned table takes no more actions, and its pages say so.

Where only the stored result of a deal matters (the list's scores, a new match), a deal is
ended by writing its result (``end_deal``); where its page matters, it is played to its end
through the services."""

import re

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club import roles
from club.models import AuditEntry
from games import selectors, services
from games.models import Deal, DealEvent, Table
from games.robot_seats import RobotSeat
from tests.support import browser
from tests.support.accounts import name_official
from tests.support.hotseat import HTMX, act, current, finish_deal, stamp, url
from tournaments.models import Round, RoundTable, Tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}


def account(django_user_model, name, *groups):
    """A member in the given role groups, signed in by ``force_login`` (no password to
    hash: that takes longer than the test)."""
    from django.contrib.auth.models import Group

    user = django_user_model.objects.create_user(name)
    user.groups.add(*Group.objects.filter(name__in=groups))
    return user


@pytest.fixture
def host(django_user_model):
    """The member who starts the tables (conftest's, without a password)."""
    return account(django_user_model, "host")


@pytest.fixture
def member(django_user_model, players):
    """A member who plays as Борис (players[1])."""
    user = account(django_user_model, "boris", roles.PLAYER)
    players[1].user = user
    players[1].save()
    return user


@pytest.fixture
def organiser(django_user_model):
    return account(django_user_model, "organiser", roles.ORGANISER)


def start(user, game, players, **options):
    """A table of ``game`` for the first of ``players`` it seats (Фантан: all of them)."""
    if game == "fantan":
        options.setdefault("players", len(players))
    seats = {"leopard": 2, "variety": 4}.get(game, len(players))
    return services.start_table(
        user=user, game=game, players=players[:seats], options=options, seed=1
    )


def end_deal(table, scores, **result):
    """The current deal ended with these scores, as far as the stored result goes."""
    Deal.objects.filter(table=table, number=current(table).number).update(
        is_over=True, result={"scores": scores, **result}
    )


def text(response) -> str:
    """A page's text, tags left out, spaces joined."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def rows(response) -> dict[str, str]:
    """The list's rows as text, by table pk."""
    html = response.content.decode()
    return {
        int(pk): " ".join(re.sub(r"<[^>]+>", " ", row).split())
        for pk, row in re.findall(r'<tr id="table-(\d+)"[^>]*>(.*?)</tr>', html, re.S)
    }


def change(client, table, action, version=None, **fields):
    return client.post(
        url(table, action),
        {"version": table.version if version is None else version, **fields},
        **EN,
    )


# -- the list -------------------------------------------------------------------------------


def test_a_member_lists_the_tables_he_started_or_sits_at_newest_first(
    client, host, member, players
):
    own = start(member, "fantan", [players[1], players[0], players[2]])
    seated = start(host, "variety", players)
    elsewhere = start(host, "leopard", [players[0], players[2]])
    client.force_login(member)
    response = client.get("/tables/", **EN)
    assert response.status_code == 200
    listed = rows(response)
    assert list(listed) == [seated.pk, own.pk]  # newest first; not the table he is not at
    assert elsewhere.pk not in listed
    assert listed[own.pk].startswith("Fan-Tan: Борис, Анна, Вера Fan-Tan playing · deal 1 boris")
    assert "Variety: Анна, Борис, Вера, Глеб Variety playing · deal 1 host" in listed[seated.pk]
    page = response.content.decode()
    assert f'href="{own.get_absolute_url()}"' in page
    assert f'href="{seated.get_absolute_url()}"' in page  # he sits at it: he may open it
    # he started one: he may change it; the other is its host's to change
    assert f"/t/{own.token}/abandon" in page and f"/t/{seated.token}/abandon" not in page
    # the front page shows the same rows, the latest first, and links to the list
    home = client.get("/", **EN)
    assert list(rows(home)) == [seated.pk, own.pk] and 'href="/tables/"' in home.content.decode()


def test_the_running_scores_are_the_totals_the_table_page_shows(host_client, host, players):
    fantan = start(host, "fantan", players[:3])
    end_deal(fantan, [3, -1, 0])
    services.next_deal(table=fantan, after=1, user=host)
    end_deal(fantan, [-2, 5, 1])
    services.next_deal(table=fantan, after=2, user=host)
    leopard = start(host, "leopard", players, deals=1)  # a match of one deal
    end_deal(leopard, [7, 2], ender=0)
    services.next_deal(table=leopard, after=1, user=host)  # match 2 begins: none finished
    variety = start(host, "variety", players)
    listed = rows(host_client.get("/tables/", **EN))
    assert "Анна 1 Борис 4 Вера 1" in listed[fantan.pk]  # every deal of the table
    assert "playing · deal 3" in listed[fantan.pk]
    page = text(host_client.get(url(fantan), **EN))
    assert "Total 1 4 1" in page  # the table's own running total says the same
    # a game of matches: the current match's totals, as its page shows its sheet
    assert "Match 2 — 1 deal Анна Борис" in listed[leopard.pk]
    assert "Match 1 — 1 deal Match 2 — 1 deal" in listed[leopard.pk]  # both sheets linked
    assert "Score sheet of cycle 1 Анна Борис Вера Глеб" in listed[variety.pk]
    html = host_client.get("/tables/", **EN).content.decode()
    assert f'href="/t/{leopard.token}/cycles/1/"' in html
    assert f'href="/t/{leopard.token}/cycles/2/"' in html
    assert f'href="/t/{variety.token}/cycles/1/"' in html
    assert f"/t/{fantan.token}/cycles/" not in html  # Фантан has a running total only


def test_the_list_comes_twenty_tables_a_page_with_page_links(host_client, host, players):
    tables = [start(host, "fantan", players[:3]) for _ in range(23)]
    first = host_client.get("/tables/", **EN)
    assert list(rows(first)) == [t.pk for t in reversed(tables)][:20]
    html = first.content.decode()
    assert "23 tables, the newest first." in text(first)
    assert '<span aria-current="page">1</span>' in html
    assert '<a href="?page=2" rel="next">Next page</a>' in html
    assert 'aria-label="Page 2">2</a>' in html and "Previous page" not in html
    second = host_client.get("/tables/?page=2", **EN)
    assert list(rows(second)) == [t.pk for t in reversed(tables)][20:]
    assert '<a href="?page=1" rel="prev">Previous page</a>' in second.content.decode()
    assert list(rows(host_client.get("/tables/?page=junk"))) == list(rows(first))


def test_the_list_costs_the_same_queries_for_three_tables_as_for_twenty(host_client, host, players):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert host_client.get("/tables/").status_code == 200
        return len(captured)

    for game in ("fantan", "variety", "leopard"):
        table = start(host, game, players)
        end_deal(table, [1] * table.seats.count(), ender=0)
        services.next_deal(table=table, after=1, user=host)
    few = queries()
    for _ in range(17):
        start(host, "leopard", players)
    assert queries() == few


def test_an_organiser_lists_his_tables_or_every_table_and_a_member_only_his(
    client, host, member, organiser, players
):
    other = start(host, "variety", [players[0], players[2], players[3], players[1]])
    other_not_his = start(host, "leopard", [players[0], players[2]])
    client.force_login(member)
    mine = rows(client.get("/tables/?show=all", **EN))
    assert list(mine) == [other.pk]  # "all" is not his to ask
    assert "Which tables" not in client.get("/tables/", **EN).content.decode()
    client.force_login(organiser)
    assert rows(client.get("/tables/", **EN)) == {}  # he started none and sits at none
    response = client.get("/tables/?show=all", **EN)
    assert list(rows(response)) == [other_not_his.pk, other.pk]
    html = response.content.decode()
    assert '<a href="/tables/?show=all" aria-current="page">All</a>' in html
    assert "Every table of the club" in html
    # he may change any table, but may not open a hotseat screen that is not his: he
    # follows it, and its sheets, as a spectator
    assert f'href="{other_not_his.get_watch_url()}"' in html
    assert f'/t/{other_not_his.token}/"' not in html
    assert f'href="/watch/{other_not_his.watch_key}/cycles/1/"' in html
    assert f"/t/{other_not_his.token}/abandon" in html
    sheet = client.get(f"/watch/{other_not_his.watch_key}/cycles/1/", **EN)
    assert sheet.status_code == 200 and "Match 1 — 4 deals" in text(sheet)
    assert f'href="{other_not_his.get_watch_url()}">Back to the table' in sheet.content.decode()
    assert client.get(f"/watch/{other_not_his.watch_key}/cycles/2/").status_code == 404


def test_a_visitor_sees_no_table(client, host, players):
    start(host, "fantan", players[:3])
    home = client.get("/", **EN)
    assert rows(home) == {} and "Sign in to start a table" in text(home)
    response = client.get("/tables/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_table_with_robots_is_listed_and_managed_under_its_players_and_robots_names(
    client, member, organiser, players
):
    """A robot's seat has no club player: the front page, the lists and the confirmation
    pages name it as the table does, for the member who sat with it and for an organiser."""
    table = start(member, "fantan", [players[1], RobotSeat("club"), RobotSeat("strong")])
    default_name = "Fan-Tan: Борис, Robot 2 (club player), Robot 3 (strong)"
    for user, lists in (
        (member, ["/", "/tables/"]),
        (organiser, ["/", "/tables/", "/tables/?show=all"]),
    ):
        client.force_login(user)
        for address in lists:
            response = client.get(address, **EN)
            assert response.status_code == 200, (user, address)
        assert rows(response)[table.pk].startswith(f"{default_name} Fan-Tan playing · deal 1")
        for action in ("rename", "finish", "abandon"):
            response = client.get(url(table, action), **EN)
            assert response.status_code == 200, (user, action)
            assert (
                f"Table {default_name} Game Fan-Tan Players Борис, Robot 2 "
                "(club player), Robot 3 (strong)" in text(response)
            )


# -- renaming, finishing, abandoning --------------------------------------------------------


def test_a_table_is_renamed_on_its_page_and_keeps_its_default_name_when_left_blank(
    host_client, host, players
):
    table = start(host, "fantan", players[:3])
    form = host_client.get(url(table, "rename?next=/tables/"), **EN)
    assert form.status_code == 200
    assert 'name="name" value=""' in form.content.decode()
    response = change(host_client, table, "rename", name="  Friday   night ", next="/tables/")
    assert response.status_code == 302 and response["Location"] == "/tables/"
    table.refresh_from_db()
    assert (table.name, table.version) == ("Friday night", 1)
    assert "Friday night" in rows(host_client.get("/tables/"))[table.pk]
    assert '<p class="table-name">Friday night</p>' in host_client.get(url(table)).content.decode()
    entry = AuditEntry.objects.get(verb="table.rename")
    assert (entry.user, entry.table, entry.data["name"]) == (host, table, "Friday night")
    change(host_client, table, "rename", name=" ")
    assert rows(host_client.get("/tables/"))[table.pk].startswith("Фантан: Анна, Борис, Вера")
    # a link elsewhere is not followed
    response = change(
        host_client, table, "rename", version=2, name="x", next="https://evil.example/"
    )
    assert response["Location"] == table.get_absolute_url()


def test_abandoning_asks_first_and_leaves_the_deal_in_progress_as_it_was(
    host_client, host, players
):
    table = start(host, "fantan", players[:3])
    act(table, user=host)
    before = current(table)
    confirm = host_client.get(url(table, "abandon"), **EN)
    assert confirm.status_code == 200
    assert "Abandon the table?" in text(confirm) and "Yes, abandon the table" in text(confirm)
    table.refresh_from_db()
    assert table.state == "playing"  # asking changes nothing
    assert change(host_client, table, "abandon").status_code == 302
    table.refresh_from_db()
    assert table.state == Table.State.ABANDONED
    after = current(table)
    assert (after.version, after.snapshot, after.is_over) == (
        before.version,
        before.snapshot,
        False,
    )
    assert DealEvent.objects.filter(deal=after).count() == before.version
    page = host_client.get(url(table), **EN)
    assert "This table was abandoned" in text(page)
    assert "The deal was left unfinished" in text(page)
    html = page.content.decode()
    assert "/reveal" not in html and "/act" not in html and "/take-back" not in html
    assert "Nothing has been played yet" not in text(page)  # its log as it was left
    assert "playing" not in rows(host_client.get("/tables/", **EN))[table.pk]


def test_a_finished_or_abandoned_table_refuses_every_action_and_says_so(host_client, host, players):
    table = start(host, "fantan", players[:3])
    finish_deal(table, host)
    confirm = host_client.get(url(table, "finish"), **EN)
    assert "Yes, finish the table" in text(confirm)
    assert change(host_client, table, "finish").status_code == 302
    deal = current(table)
    response = host_client.post(url(table, "next-deal"), {"deal": deal.number}, **EN)
    assert response.status_code == 409
    assert "This table is finished: nothing more can be played at it." in text(response)
    assert "Next deal" not in text(response)  # the page offers no next deal
    response = host_client.post(url(table, "take-back"), stamp(deal, seat=0), **EN)
    assert response.status_code == 409 and Deal.objects.filter(table=table).count() == 1
    assert current(table).version == deal.version
    assert "finished" in rows(host_client.get("/tables/", **EN))[table.pk]

    open_table = start(host, "variety", players)
    deal = current(open_table)
    assert change(host_client, open_table, "abandon").status_code == 302
    response = host_client.post(url(open_table, "reveal"), stamp(deal, seat=0), **HTMX, **EN)
    assert response.status_code == 409 and current(open_table).version == deal.version
    assert "This table was abandoned: nothing more can be played at it." in text(response)


def test_finishing_is_refused_while_a_deal_is_being_played(host_client, host, players):
    table = start(host, "fantan", players[:3])
    confirm = host_client.get(url(table, "finish"), **EN)
    assert "Yes, finish the table" not in text(confirm)
    response = change(host_client, table, "finish")
    assert response.status_code == 400
    assert "A deal is still being played" in text(response)
    table.refresh_from_db()
    assert (table.state, table.version) == ("playing", 0)


def test_a_stale_page_and_a_second_click_change_nothing(host_client, host, players):
    table = start(host, "leopard", players)
    assert change(host_client, table, "rename", name="A").status_code == 302
    stale = change(host_client, table, "rename", version=0, name="B")
    assert stale.status_code == 409
    assert "The table had changed since this page was shown" in text(stale)
    assert 'name="version" value="1"' in stale.content.decode()  # the page as it is now
    assert change(host_client, table, "abandon", version=1).status_code == 302
    again = change(host_client, table, "abandon", version=1)
    assert again.status_code == 409 and "This table was already abandoned." in text(again)
    assert "Yes, abandon" not in text(again)
    table.refresh_from_db()
    assert (table.name, table.state, table.version) == ("A", "abandoned", 2)
    changes = AuditEntry.objects.filter(table=table, verb__in=["table.rename", "table.abandon"])
    assert changes.count() == 2
    for junk in ({}, {"version": "x"}):
        response = host_client.post(url(table, "rename"), junk, **EN)
        assert response.status_code == 400 and "incomplete or damaged" in text(response)


def test_only_the_host_or_an_organiser_may_change_a_table(
    client, host, member, organiser, players, django_user_model
):
    table = start(host, "fantan", players[:3])
    client.force_login(member)  # seated at it: he may play, not change it
    assert client.get(url(table)).status_code == 200
    for action in ("rename", "finish", "abandon"):
        assert client.get(url(table, action), **EN).status_code == 403
        response = change(client, table, action, name="Mine now")
        assert response.status_code == 403
        assert "Only the member who started this table, or an organiser" in text(response)
    assert "Rename the table" not in text(client.get(url(table), **EN))
    table.refresh_from_db()
    assert (table.name, table.state, table.version) == ("", "playing", 0)
    assert client.post("/t/no-such-table/abandon", {"version": 0}).status_code == 404
    client.logout()
    assert change(client, table, "abandon").status_code == 403
    assert "/accounts/login/" in client.get(url(table, "abandon"))["Location"]
    client.force_login(account(django_user_model, "director", roles.DIRECTOR))
    assert change(client, table, "rename", name="By a director").status_code == 403
    client.force_login(organiser)
    assert change(client, table, "rename", name="By the organiser").status_code == 302
    assert AuditEntry.objects.get(verb="table.rename").user == organiser


def test_a_tournaments_table_is_changed_by_a_director_of_that_tournament_only(
    client, django_user_model, players
):
    """Its sheet counts for the tournament: its host may play it, not end it (here a host
    who is not, or no longer, a director of it), nor may a director of no role in it."""
    owner = account(django_user_model, "owner", roles.PLAYER)
    table = start(owner, "fantan", players[:3])
    tournament = Tournament.objects.create(
        key="spring",
        name="Spring cup",
        game="fantan",
        rounds_planned=2,
        seating="mixing",
        seed=1,
        order=[],
    )
    RoundTable.objects.create(
        round=Round.objects.create(tournament=tournament, number=1, released=True),
        number=1,
        hotseat=table,
    )
    client.force_login(owner)
    response = change(client, table, "abandon")
    assert response.status_code == 403
    assert "played for a tournament: only a director of that tournament may change it" in text(
        response
    )
    listed = client.get("/tables/", **EN)
    assert "Spring cup, round 1" in rows(listed)[table.pk]
    assert 'href="/tournaments/spring/rounds/1/"' in listed.content.decode()
    assert f"/t/{table.token}/abandon" not in listed.content.decode()
    td = account(django_user_model, "td", roles.DIRECTOR)
    client.force_login(td)
    assert change(client, table, "abandon").status_code == 403
    name_official(tournament, td, role="director")
    confirm = client.get(url(table, "abandon"), **EN)
    assert "This table is played for Spring cup, round 1" in text(confirm)
    assert change(client, table, "abandon").status_code == 302


def test_a_tournaments_table_is_finished_by_its_complete_sheet_not_by_hand(
    client, organiser, players
):
    """A finished tournament's table says its sheet is complete: before, a director may
    abandon it (the deals finished so far stay on its sheet), not finish it."""
    table = start(organiser, "fantan", players[:3])
    end_deal(table, [3, -1, 0])
    tournament = Tournament.objects.create(
        key="spring",
        name="Spring cup",
        game="fantan",
        rounds_planned=2,
        seating="mixing",
        seed=1,
        order=[],
    )
    RoundTable.objects.create(
        round=Round.objects.create(tournament=tournament, number=1, released=True),
        number=2,
        hotseat=table,
    )
    client.force_login(organiser)
    page = text(client.get(url(table), **EN))
    assert "Played for Spring cup: round 1, table 2" in page
    assert "Finish the table" not in page and "Abandon the table" in page
    listed = rows(client.get("/tables/", **EN))[table.pk]
    assert "Finish" not in listed and "Abandon" in listed
    confirm = client.get(url(table, "finish"), **EN)
    assert "finished once its sheet is complete; to stop it before, abandon it" in text(confirm)
    assert "Yes, finish the table" not in text(confirm)
    response = change(client, table, "finish")
    assert response.status_code == 400
    table.refresh_from_db()
    assert (table.state, table.version) == ("playing", 0)
    assert not AuditEntry.objects.filter(verb="table.finish").exists()


# -- the table page -------------------------------------------------------------------------


def test_the_table_page_links_every_match_sheet_and_its_changes(host_client, host, players):
    table = start(host, "leopard", players, deals=1)
    page = host_client.get(url(table), **EN).content.decode()
    assert f'href="/t/{table.token}/cycles/1/">The score sheet on a page of its own' in page
    assert f'href="/t/{table.token}/rename"' in page
    assert f'href="/t/{table.token}/abandon"' in page
    assert f'href="/t/{table.token}/finish"' not in page  # its deal is being played
    end_deal(table, [7, 2], ender=0)
    services.next_deal(table=table, after=1, user=host)
    page = host_client.get(url(table), **EN).content.decode()
    assert f'href="/t/{table.token}/cycles/2/">The score sheet on a page of its own' in page
    assert f'Earlier sheets: <a href="/t/{table.token}/cycles/1/">Match 1 — 1 deal</a>' in page
    # each action's partial carries the sheets, not the changes (their links stay below)
    partial = host_client.get(url(table), **HTMX, **EN).content.decode()
    assert "Earlier sheets" in partial and "/rename" not in partial


def test_a_change_tells_the_live_pages_once_it_is_committed(
    host_client, host, players, django_capture_on_commit_callbacks
):
    table = start(host, "fantan", players[:3])
    layer = get_channel_layer()
    listener = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(services.group_name(table), listener)
    page = host_client.get(url(table)).content.decode()
    assert 'data-stamp="1 0"' in page
    with django_capture_on_commit_callbacks() as callbacks:
        assert change(host_client, table, "rename", name="Late game").status_code == 302
    assert len(callbacks) == 1  # sent after the commit, not before
    callbacks[0]()
    notice = async_to_sync(layer.receive)(listener)
    async_to_sync(layer.group_discard)(services.group_name(table), listener)
    assert notice["stamp"] == [1, 0, 1]  # newer than what the page shows: it fetches itself
    table.refresh_from_db()
    assert selectors.deal_stamp(table) == [1, 0, 1]
    assert 'data-stamp="1 0 1"' in host_client.get(url(table), **HTMX).content.decode()


# -- in Russian -----------------------------------------------------------------------------


def test_the_list_and_the_confirmation_speak_russian(host_client, host, players):
    table = start(host, "fantan", players[:3])
    listed = rows(host_client.get("/tables/", **RU))[table.pk]
    assert "идёт игра · сдача 1" in listed
    assert "Бросить" in listed and "Переименовать" in listed
    confirm = text(host_client.get(url(table, "abandon"), **RU))
    assert "Бросить стол?" in confirm and "Да, бросить стол" in confirm
    change(host_client, table, "abandon")
    assert "брошен" in rows(host_client.get("/tables/", **RU))[table.pk]
    response = host_client.post(url(table, "reveal"), stamp(current(table), seat=0), **RU)
    assert "Этот стол брошен: за ним больше не играют." in text(response)


# -- in a browser ---------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_renaming_and_abandoning_a_table_in_a_browser(open_page, user, players):
    table = start(user, "fantan", players[:3])
    page = open_page()
    page.goto("/accounts/login/?next=/tables/")
    browser.sign_in(page)
    page.wait_for_url("**/tables/")
    row = page.locator(f"#table-{table.pk}")
    row.get_by_role("link", name="Rename Fan-Tan: Анна, Борис, Вера").click()
    page.get_by_label("Name").fill("Friday night")
    page.get_by_role("button", name="Save the name").click()
    page.wait_for_url("**/tables/")
    assert row.get_by_role("link", name="Friday night", exact=True).is_visible()
    row.get_by_role("link", name="Abandon Friday night").click()
    assert page.get_by_role("heading", name="Abandon the table?").is_visible()
    page.get_by_role("link", name="Cancel").click()  # asking changed nothing
    page.wait_for_url("**/tables/")
    assert "playing · deal 1" in row.locator(".state").inner_text()
    row.get_by_role("link", name="Abandon Friday night").click()
    page.get_by_role("button", name="Yes, abandon the table").click()
    page.wait_for_url("**/tables/")
    assert row.locator(".state").inner_text() == "abandoned"
    assert not row.get_by_role("link", name="Abandon Friday night").count()
    row.get_by_role("link", name="Friday night", exact=True).click()
    page.wait_for_url(f"**{table.get_absolute_url()}")
    assert page.get_by_role("status").filter(has_text="This table was abandoned").is_visible()
    assert not page.get_by_role("button").filter(has_text="show my hand").count()
    assert not page.script_errors
