"""A table page's regions: the answer to a page that says which regions it shows carries only
those that changed, out of band, and the table's own attributes in a header; any other
answer carries the whole table (games/regions.py)."""

import html
import json
import re

import pytest
from django.test import Client

from games import regions, selectors
from tests.support.hotseat import (
    HTMX,
    alert,
    check_hidden,
    current,
    form_fields,
    next_action,
    stamp,
    step_first,
    url,
)

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]

REGION = re.compile(r'id="region-([a-z]+)" data-digest="([0-9a-f]{16})"')


def digests(response) -> dict[str, str]:
    return dict(REGION.findall(response.content.decode()))


def naming(shown: dict[str, str]) -> dict:
    return {"HTTP_X_REGIONS": ",".join(f"{name}={digest}" for name, digest in shown.items())}


def posts_of_a_deal(table):
    """What the table's screen posts, one after the other, until the deal is over: the
    reveal, the step due, the action (the first legal one, then the next, and so on)."""
    for turn in range(500):
        deal = current(table)
        if deal.is_over:
            return
        hotseat = selectors.load(deal)
        if hotseat.handoff:
            yield "reveal", stamp(deal, seat=hotseat.state.to_act)
            continue
        action = next_action(hotseat, turn)
        move = step_first(hotseat, action) or action
        yield "act", stamp(deal, seat=move["seat"], **form_fields(table, move))
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_each_answer_of_a_whole_deal_carries_the_regions_that_changed_and_only_those(
    host_client, table, language
):
    reader = {"HTTP_ACCEPT_LANGUAGE": language}
    shown = digests(host_client.get(url(table), **reader))
    assert shown.keys() == regions.NAMES
    fewer = 0
    for what, fields in posts_of_a_deal(table):
        response = host_client.post(url(table, what), fields, **HTMX, **reader, **naming(shown))
        assert response.status_code == 200, alert(response)
        check_hidden(response, table)
        page = response.content.decode()
        assert 'id="table"' not in page  # the table itself stays: only regions come
        assert response["HX-Reswap"] == "none"
        assert "X-Regions" in response["Vary"]
        # the page afresh, whole: what the page must show after this answer
        afresh = host_client.get(url(table), **HTMX, **reader)
        now = digests(afresh)
        sent = digests(response)
        assert sent == {name: now[name] for name in regions.NAMES if now[name] != shown[name]}
        assert page.count('hx-swap-oob="true"') == len(sent) + 1  # and the announcement
        fresh_stamp = re.search(r'data-stamp="([0-9 ]+)"', afresh.content.decode()).group(1)
        fresh_title = re.search(r'data-title="([^"]+)"', afresh.content.decode()).group(1)
        attributes = json.loads(response["X-Table-Attributes"])
        assert attributes == {
            "data-stamp": fresh_stamp,
            "data-my-turn": None,
            "data-title": html.unescape(fresh_title),
        }
        fewer += len(sent) < len(regions.NAMES)
        shown = now
    assert fewer, "every answer carried every region"


def test_the_next_deal_comes_region_by_region_too(host_client, table):
    for what, fields in posts_of_a_deal(table):
        assert host_client.post(url(table, what), fields, **HTMX).status_code == 200
    shown = digests(host_client.get(url(table)))
    response = host_client.post(url(table, "next-deal"), {"deal": 1}, **HTMX, **naming(shown))
    assert response.status_code == 200, alert(response)
    afresh = digests(host_client.get(url(table), **HTMX))
    assert digests(response) == {n: afresh[n] for n in regions.NAMES if afresh[n] != shown[n]}
    assert "head" in digests(response)  # the deal's number in the heading


def test_a_refusal_answers_the_whole_table_with_its_message(host_client, table):
    shown = digests(host_client.get(url(table)))
    deal = current(table)
    fields = stamp(deal, seat=selectors.load(deal).state.to_act)
    assert host_client.post(url(table, "reveal"), fields, **HTMX).status_code == 200
    again = host_client.post(
        url(table, "reveal"), fields, HTTP_ACCEPT_LANGUAGE="en", **HTMX, **naming(shown)
    )
    assert again.status_code == 409
    page = again.content.decode()
    assert 'id="table"' in page and "moved on" in alert(again)
    assert "HX-Reswap" not in again and digests(again).keys() == regions.NAMES


@pytest.mark.parametrize(
    "header",
    [
        "",
        "head=0123456789abcdef",  # not every region
        "head=0123456789abcdef,seats=zz",  # not a digest
        "nothing=0123456789abcdef",
        ",".join(f"{n}=0123456789abcdef" for n in sorted(regions.NAMES)) + ",head=0123456789abcdef",
    ],
    ids=["empty", "some", "garbled", "unknown", "twice"],
)
def test_a_page_that_does_not_name_every_region_once_gets_the_whole_table(
    host_client, table, header
):
    response = host_client.get(url(table), **HTMX, HTTP_X_REGIONS=header)
    assert response.status_code == 200
    assert 'id="table"' in response.content.decode()
    assert digests(response).keys() == regions.NAMES
    assert "HX-Reswap" not in response


def test_a_seat_page_says_in_its_attributes_when_its_turn_has_come(client, host, players):
    from games import services

    table = services.start_table(
        user=host, game="fantan", players=players, options={}, seed=7, devices={0, 1, 2, 3}
    )
    seats = {seat.position: seat for seat in table.seats.all()}
    deal = current(table)
    to_act = selectors.load(deal).state.to_act
    page = f"/s/{seats[to_act].key}/"
    shown = digests(client.get(page))
    response = client.get(page, **HTMX, **naming(shown))
    assert response.status_code == 200
    assert digests(response) == {}  # nothing changed
    assert json.loads(response["X-Table-Attributes"])["data-my-turn"] == ""
    other = f"/s/{seats[(to_act + 1) % 4].key}/"
    shown = digests(client.get(other))
    response = client.get(other, **HTMX, **naming(shown))
    assert json.loads(response["X-Table-Attributes"])["data-my-turn"] is None


def test_a_robots_turn_comes_whole_so_that_its_form_asks_for_the_robots_move(host, players):
    """htmx fires a load trigger once an element: the robot's form (asked for on load) comes
    as a new element, in place of the page's."""
    from games import services
    from games.robot_seats import RobotSeat

    table = services.start_table(
        user=host,
        game="fantan",
        players=[*players[:3], RobotSeat("beginner")],
        options={},
        seed=7,
    )
    client = Client()
    client.force_login(host)
    for what, fields in posts_of_a_deal(table):
        if selectors.load(current(table)).state.to_act == 3:
            break
        assert client.post(url(table, what), fields, **HTMX).status_code == 200
    other = {name: "0" * 16 for name in regions.NAMES}  # a page showing other regions
    response = client.get(url(table), **HTMX, **naming(other))
    page = response.content.decode()
    assert 'class="robot-turn"' in page
    turn = re.search(r'<section[^>]* id="region-turn"[^>]*>', page).group(0)
    assert 'hx-swap-oob="true"' in turn
    assert page.count('hx-swap-oob="true"') == len(digests(response)) + 1  # the announcement
