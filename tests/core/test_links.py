"""The address a link handed to phones names, by where the server listens (core.links): the
room's address for a page opened on loopback of a server on every interface; the page's own
otherwise; and what the page says when phones cannot open it."""

import pytest
from django.test import RequestFactory
from django.utils import translation

from core import links


def page_at(host: str):
    return RequestFactory().get("/t/x/", HTTP_HOST=host)


@pytest.fixture
def room(monkeypatch):
    monkeypatch.setattr(links, "lan_address", lambda: "192.168.1.23")


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_on_every_interface_a_page_opened_on_loopback_links_to_the_rooms_address(
    settings, room, host
):
    settings.LISTEN_HOST = "0.0.0.0"
    settings.ALLOWED_HOSTS = ["*"]
    assert links.room_url(page_at(host), "/s/k/") == "http://192.168.1.23:8000/s/k/"
    assert links.shut_out(page_at(host)) is None


def test_on_every_interface_a_page_opened_at_the_rooms_address_keeps_it(settings, room):
    settings.LISTEN_HOST = "0.0.0.0"
    settings.ALLOWED_HOSTS = ["*"]
    request = page_at("10.0.0.5:8000")
    assert links.room_url(request, "/s/k/") == "http://10.0.0.5:8000/s/k/"


def test_on_loopback_alone_links_are_the_pages_own_and_phones_are_told_they_cannot(settings, room):
    settings.LISTEN_HOST = "127.0.0.1"
    request = page_at("127.0.0.1:8000")
    assert links.room_url(request, "/s/k/") == "http://127.0.0.1:8000/s/k/"
    with translation.override("en"):
        assert "phones cannot open these links" in links.shut_out(request)
    assert "make run HOST=0.0.0.0" in links.shut_out(request)


def test_on_every_interface_with_no_network_phones_are_told_why(settings, monkeypatch):
    monkeypatch.setattr(links, "lan_address", lambda: None)
    settings.LISTEN_HOST = "0.0.0.0"
    request = page_at("127.0.0.1:8000")
    assert links.room_url(request, "/s/k/") == "http://127.0.0.1:8000/s/k/"
    with translation.override("en"):
        assert "on no network" in links.shut_out(request)


def test_a_served_club_links_to_the_address_each_page_was_reached_at(settings, room):
    settings.LISTEN_HOST = ""
    settings.ALLOWED_HOSTS = ["club.example.org", "127.0.0.1"]
    assert links.room_url(page_at("club.example.org"), "/e/k/") == "http://club.example.org/e/k/"
    assert links.room_url(page_at("127.0.0.1:8001"), "/e/k/") == "http://127.0.0.1:8001/e/k/"
    assert links.shut_out(page_at("club.example.org")) is None
