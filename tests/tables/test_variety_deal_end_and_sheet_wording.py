"""Выборы's end of deal speaks of points, not tricks; its score sheet
explains the defenders' bonus (*) in a visible note, not only in a tooltip a touch screen
cannot show; and a deal's number is a plain number, its replay and record labelled links."""

import re

import pytest
from django.urls import reverse

from games import selectors
from tests.support.hotseat import HTMX, current, play_to_end, url

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def finished(client, table):
    play_to_end(client, table, **HTMX)
    return current(table), client.get(url(table), **EN).content.decode()


def test_the_verdict_counts_points(host_client, variety_table):
    deal, page = finished(host_client, variety_table)
    attack, defence = deal.result["points"]
    attackers = " & ".join(selectors.names(variety_table)[s] for s in deal.result["attackers"])
    points = "point" if attack == 1 else "points"
    verdict = page.split('class="verdict">')[1].split("<strong>")[0]
    assert (
        f"the attackers {attackers} scored {attack} {points} against the defenders' {defence}."
    ) in verdict, verdict
    assert " took " not in page.split('class="verdict"')[1].split("</p>")[0]


def test_the_sheet_explains_the_bonus_and_labels_the_deal_links(host_client, variety_table):
    deal, page = finished(host_client, variety_table)
    sheet = page[page.index('<table class="scores cycle">') :]
    row = re.search(r'<tr class="new">(.*?)</tr>', sheet, re.S).group(1)
    assert re.search(r'<th scope="row">1</th>', row), row  # the number alone
    record = reverse("deal-record", args=[variety_table.token, deal.number])
    replay = reverse("deal-replay", args=[variety_table.token, deal.number])
    links = dict(re.findall(r'<a href="([^"]+)"[^>]*aria-label="([^"]+)"', row))
    assert links[replay] == f"Replay deal {deal.number}"
    assert links[record] == f"Record of deal {deal.number} (a JSON file)"
    assert re.search(rf'<a href="{record}"[^>]*>record</a>', row)
    note = "* the score includes the defenders’ bonus of 10 points: the attackers lost."
    assert f'<p class="sheet-note">{note}</p>' in sheet
    # on the cycle's own page too
    cycle = host_client.get(url(variety_table, f"cycles/{deal.cycle.number}/"), **EN)
    assert note in cycle.content.decode()
