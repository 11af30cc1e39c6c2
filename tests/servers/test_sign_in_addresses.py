"""The sign-in throttle counts wrong passwords by the client's address, as real daphne
processes see it: without a declared proxy the socket's own, whatever X-Forwarded-For a
client writes; behind a proxy named in TRUSTED_PROXIES the client that proxy forwards for,
so that one member's wrong passwords do not lock out another behind the same proxy, and a
client that reaches daphne past the proxy cannot choose his address by the header."""

import http.client
from urllib.parse import urlencode

import pytest
from django.utils.crypto import get_random_string

pytestmark = [pytest.mark.servers, pytest.mark.django_db(transaction=True)]

PASSWORD = "the-right-password"
WRONG, SIGNED_IN, LOCKED_OUT = 200, 302, 429
LIMIT = 5  # config.settings.AXES_FAILURE_LIMIT


@pytest.fixture
def anna(django_user_model):
    """A member whose password the served processes can check: hashed as they hash (the
    suite's own hasher is not theirs), with few rounds, to be quick."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    hashed = PBKDF2PasswordHasher().encode(PASSWORD, get_random_string(12), iterations=1000)
    return django_user_model.objects.create(username="anna", password=hashed)


def sign_in(server, password: str, *, forwarded: str | None = None, peer="127.0.0.1") -> int:
    """The sign-in form's POST as ``anna``, from the local address ``peer``, with this
    X-Forwarded-For (if any): the answer's status."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=30, source_address=(peer, 0)
    )
    token = get_random_string(32)
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={token}",
        "X-CSRFToken": token,
        "Accept-Language": "en",
    }
    if forwarded is not None:
        headers["X-Forwarded-For"] = forwarded
    try:
        connection.request(
            "POST",
            "/accounts/login/",
            urlencode({"username": "anna", "password": password}),
            headers,
        )
        response = connection.getresponse()
        body = response.read().decode()
    finally:
        connection.close()
    if response.status == LOCKED_OUT:
        assert "Too many wrong passwords" in body
    return response.status


def lock_out(server, forwarded: list[str], peer="127.0.0.1") -> None:
    """LIMIT wrong passwords, each with the next of ``forwarded``: the last one locks."""
    answers = [sign_in(server, "wrong", forwarded=f, peer=peer) for f in forwarded[:LIMIT]]
    assert answers == [WRONG] * (LIMIT - 1) + [LOCKED_OUT]


def test_without_a_declared_proxy_the_sockets_address_counts_and_the_header_is_ignored(
    served, anna
):
    (server,) = served(1)
    lock_out(server, [f"203.0.113.{n}" for n in range(1, LIMIT + 1)])
    assert sign_in(server, PASSWORD, forwarded="198.51.100.9") == LOCKED_OUT
    assert sign_in(server, PASSWORD) == LOCKED_OUT


def test_behind_a_declared_proxy_two_clients_are_locked_out_apart(served, anna):
    (server,) = served(1, TRUSTED_PROXIES="127.0.0.1, ::1")
    lock_out(server, ["203.0.113.7"] * LIMIT)
    assert sign_in(server, PASSWORD, forwarded="203.0.113.7") == LOCKED_OUT
    # what the client wrote before the proxy appended his address changes nothing
    assert sign_in(server, PASSWORD, forwarded="198.51.100.1, 203.0.113.7") == LOCKED_OUT
    assert sign_in(server, PASSWORD, forwarded="203.0.113.8") == SIGNED_IN


def test_behind_a_declared_proxy_a_header_from_another_peer_is_ignored(served, anna):
    (server,) = served(1, TRUSTED_PROXIES="127.0.0.1")
    lock_out(server, [f"203.0.113.{n}" for n in range(1, LIMIT + 1)], peer="127.0.0.2")
    assert sign_in(server, PASSWORD, forwarded="198.51.100.9", peer="127.0.0.2") == LOCKED_OUT
    # the proxy's own clients are another matter
    assert sign_in(server, PASSWORD, forwarded="203.0.113.1") == SIGNED_IN
