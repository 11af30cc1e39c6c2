"""Nothing of an unscored duplicate deal leaks (docs/rules/duplicate.md, "Who sees what"):
one table of a round has played deal 1, the other has not; a crawl of every page a player of
the other table and a spectator can reach finds no card of the deal anywhere but that
player's own seat page, and no result of the first table."""

import re
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from django.test import Client

from club.models import Player
from tests.support.accounts import user_in
from tests.support.hotseat import finish_deal, leaked_cards
from tests.support.tournaments import enter, new_tournament
from tournaments import selectors
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зоя"]
SKIPPED = ("/static/", "/i18n/", "/accounts/", "/admin/", "/rules/")
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def crawl(client: Client, starts: list[str]) -> dict[str, str]:
    """Every page a link leads to from ``starts``: its HTML (or text, for a download)."""
    queue, seen, pages = list(starts), set(starts), {}
    while queue:
        path = queue.pop(0)
        response = client.get(path, **EN)
        assert response.status_code < 500, path
        if response.status_code in (301, 302):
            links = [response["Location"]]
        else:
            body = response.content.decode(errors="replace")
            pages[path] = body
            if "text/html" not in response.get("Content-Type", ""):
                continue
            links = re.findall(r'href="([^"]+)"', body)
        for href in links:
            url = urldefrag(urljoin(path, href.replace("&amp;", "&"))).url
            parts = urlsplit(url)
            if parts.netloc not in ("", "testserver") or parts.path.startswith(SKIPPED):
                continue
            target = parts.path + (f"?{parts.query}" if parts.query else "")
            if target not in seen and len(seen) < 400:
                seen.add(target)
                queue.append(target)
    return pages


def without_keys(html: str, keys: list[str]) -> str:
    for key in keys:
        html = html.replace(key, "")
    return re.sub(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+', r"\1", html)


@pytest.fixture
def round_half_played(host, django_user_model):
    """A duplicate Выборы round of two tables on the players' phones: the first has
    finished deal 1, the second is still to play it."""
    tournament = new_tournament(host, duplicate=True, rounds_planned=2, seed=918273645546372819)
    enter(tournament, NAMES, host)
    for name in NAMES:
        Player.objects.filter(name=name).update(user=user_in(django_user_model, f"u-{name}"))
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    first, second = (
        run_services.play_here(table=table, user=host, devices=True).hotseat
        for table in round_.tables.order_by("number")
    )
    finish_deal(first, host)
    return tournament, first, second


def test_no_page_a_player_or_a_spectator_reaches_shows_an_unscored_deal(round_half_played):
    tournament, first, second = round_half_played
    deal = first.deals.get(number=1)
    played_rows = selectors.played(tournament).rounds[0].tables
    assert [len(t.rows) for t in played_rows] == [1, 0]  # the first table's row is in
    pack = sorted(card for hand in deal.dealt["hands"] for card in hand)
    keys = [
        key
        for table in (first, second)
        for key in [table.token, table.watch_key, *table.seats.values_list("key", flat=True)]
    ]
    own_seat = second.seats.get(position=0)
    player = Client()
    player.force_login(own_seat.player.user)
    spectator = Client()
    starts = ["/", f"/tournaments/{tournament.key}/"]
    watch = [f"/watch/{first.watch_key}/", f"/watch/{second.watch_key}/"]
    crawled = {
        "player": crawl(player, [*starts, *watch, f"/s/{own_seat.key}/"]),
        "spectator": crawl(spectator, [*starts, *watch]),
    }
    for who, pages in crawled.items():
        assert f"/tournaments/{tournament.key}/" in pages
        for path, html in pages.items():
            if path.startswith(f"/s/{own_seat.key}/"):
                continue  # his own hand of the deal he is about to play
            leaks = leaked_cards(without_keys(html, keys), pack)
            assert not leaks, f"{who} sees cards of the unscored deal on {path}: {leaks[:4]}"
            # nor the seed, from which every deal of the tournament follows
            assert str(tournament.seed) not in html, f"{who} sees the seed on {path}"
        # nobody is counted with it: nobody has played a scored deal yet
        standings = [p for p in pages if p.endswith(".csv")]
        for path in standings:
            for line in pages[path].splitlines()[1:]:
                assert ",0.0,0.0,0," in line or ",0,0,0," in line, (path, line)
    # the first table's deal is withheld from its spectators: its record and replay too
    for what in ("record.json", "replay/"):
        response = Client().get(f"/watch/{first.watch_key}/deals/1/{what}", **EN)
        assert response.status_code in (403, 404, 409)
        assert not leaked_cards(without_keys(response.content.decode(), keys), pack)
