"""Every link a page hands to phones (seat links, entry links, "play your seat on this
phone") and its QR code names an address this server answers at, against real daphne
processes started as ``make run`` starts them: on loopback alone, where each link is the
page's own address, opens, and the page says that phones cannot reach it; and on every
interface, where each names this machine's address on its network and the server's port.
Traffic goes to loopback only: a link naming the machine's network address is checked to be
one of this machine's and opened at 127.0.0.1 on the same port and path."""

import html
import re
import socket
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests

from club.models import Player
from club.roles import DIRECTOR, PLAYER
from config.addresses import lan_address
from core import links
from games import services as game_services
from tests.support.accounts import user_in
from tests.support.servers import Member
from tests.support.tournaments import enter, new_tournament
from tournaments.run import services as run_services

pytestmark = [pytest.mark.servers, pytest.mark.django_db(transaction=True)]

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Захар"]
SVG = re.compile(r"<svg\b.*?</svg>", re.S)
URL = re.compile(r"https?://[^\s\"'<>]+")


def club_night(django_user_model):
    """A director's evening: a casual table with two seats on phones, and a tournament's
    released round with one table played on the players' phones and one with real cards
    reporting through its entry link; one of the phones' players has an account. The
    addresses of the pages that show links, and who opens each."""
    director = user_in(django_user_model, "director", DIRECTOR)
    casual = game_services.start_table(
        user=director, game="fantan", players=NAMES[:4], options={}, seed=3, devices={1, 2}
    )
    tournament = new_tournament(director, name="Кубок", seating="swiss")
    enter(tournament, NAMES, director)
    round_ = run_services.draw_round(tournament=tournament, user=director)
    run_services.release_round(round_=round_, user=director)
    on_phones, real_cards = round_.tables.order_by("number")
    run_services.play_here(table=on_phones, user=director, devices=True)
    seated = on_phones.seats.order_by("position").first().entrant.player
    member = user_in(django_user_model, "seated", PLAYER)
    Player.objects.filter(pk=seated.pk).update(user=member)
    return [
        (director, casual.get_absolute_url()),
        (director, f"/tournaments/{tournament.key}/rounds/1/"),
        (director, f"/tournaments/{tournament.key}/rounds/1/sheets/"),
        (member, f"/ratings/players/{seated.pk}/"),
    ]


def handed_out(page: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The absolute links of a page, and each QR code with the link written after it."""
    found = [html.unescape(url) for url in URL.findall(SVG.sub("", page))]
    codes = []
    for code in SVG.finditer(page):
        after = URL.search(SVG.sub("", page[code.end() :]))
        assert after, "a QR code with no link written beside it"
        codes.append((code.group(0), html.unescape(after.group(0))))
    return found, codes


def qr_of(svg: str, url: str) -> str:
    title = re.search(r"<title>(.*?)</title>", svg)
    return links.qr_svg(url, html.unescape(title.group(1)) if title else None)


def is_this_machine(host: str) -> bool:
    """An address of this machine's own: one a socket can be bound to (nothing is sent)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((host, 0))
        except OSError:
            return False
    return True


def pages_and_links(server, pages) -> list[tuple[str, str, list[str]]]:
    """Each page as its viewer sees it (English), and the links it hands to phones."""
    shown = []
    for viewer, path in pages:
        session = Member(viewer).session(server)
        session.headers.pop("HX-Request")
        response = session.get(path, headers={"Accept-Language": "en"})
        assert response.status_code == 200, path
        found, codes = handed_out(response.text)
        for svg, url in codes:
            assert svg == qr_of(svg, url), f"{path}: a QR code of another address than {url}"
        phone_links = [u for u in found if "/s/" in u or "/e/" in u]
        assert phone_links, f"{path} hands no link to phones"
        shown.append((path, response.text, phone_links))
    return shown


def test_on_loopback_every_link_is_the_pages_own_address_and_opens(served, django_user_model):
    pages = club_night(django_user_model)
    (server,) = served(1, LISTEN_HOST="127.0.0.1")
    for path, page, phone_links in pages_and_links(server, pages):
        assert "phones cannot open these links" in html.unescape(page), path
        for url in phone_links:
            assert urlsplit(url).netloc == f"127.0.0.1:{server.port}", (path, url)
            assert requests.get(url, timeout=30).status_code == 200, (path, url)
    server.check()


def test_on_every_interface_every_link_names_this_machines_address_and_the_servers_port(
    served, django_user_model
):
    room = lan_address()
    if room is None:
        pytest.skip("this machine is on no network: its links can only be its loopback")
    assert is_this_machine(room)
    pages = club_night(django_user_model)
    (server,) = served(1, LISTEN_HOST="0.0.0.0")
    for path, page, phone_links in pages_and_links(server, pages):
        assert "phones cannot open" not in html.unescape(page), path
        for url in phone_links:
            parts = urlsplit(url)
            assert (parts.hostname, parts.port) == (room, server.port), (path, url)
            # opened where the tests may send traffic: the same server, port and path
            local = urlunsplit(parts._replace(netloc=f"127.0.0.1:{server.port}"))
            assert requests.get(local, timeout=30).status_code == 200, (path, url)
    server.check()
