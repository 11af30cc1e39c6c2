"""Settings, demo data, the admin and the table's websocket."""

import asyncio
import os
import re
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command

from club.models import AuditEntry, Player
from config.settings import database_from_url
from config.slots import RequestSlots
from tests.support.hotseat import current


def settings_in_subprocess(**env) -> subprocess.CompletedProcess:
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; "
        "from django.conf import settings; "
        "print(settings.DATABASES['default']['ENGINE'], "
        "settings.CHANNEL_LAYERS['default']['BACKEND'])"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG")
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**clean, **env},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
    )


def test_with_debug_off_the_development_key_is_refused():
    # (no key file: `make run` may have made .secret_key here)
    result = settings_in_subprocess(DEBUG="0", SECRET_KEY_FILE="/nonexistent/.secret_key")
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr
    result = settings_in_subprocess(DEBUG="0", SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr


def test_defaults_are_sqlite_and_the_in_memory_layer_and_the_environment_overrides():
    plain = settings_in_subprocess().stdout.split()
    assert plain == ["django.db.backends.sqlite3", "channels.layers.InMemoryChannelLayer"]
    served = settings_in_subprocess(
        DATABASE_URL="postgresql://u:p@db.example:5433/club", REDIS_URL="redis://127.0.0.1:6379/1"
    ).stdout.split()
    assert served == ["django.db.backends.postgresql", "channels_redis.core.RedisChannelLayer"]


def test_database_urls_are_read_in_full():
    pg = database_from_url("postgresql://club:s%40crет@10.0.0.5:5433/cards")
    assert (pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "cards",
        "club",
        "s@crет",
        "10.0.0.5",
        "5433",
    )
    lite = database_from_url("sqlite:////var/lib/club/club.db")
    assert lite["NAME"] == "/var/lib/club/club.db"
    # concurrent writers wait for the lock instead of failing with "database is locked"
    assert lite["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in lite["OPTIONS"]["init_command"]


@pytest.mark.django_db
def test_the_demo_club_is_loaded_once_and_the_director_once(capsys):
    call_command("seed_demo")
    first = capsys.readouterr().out
    assert re.search(r"as 'director' with the password \S+", first)
    players = Player.objects.count()
    call_command("seed_demo")
    second = capsys.readouterr().out
    assert Player.objects.count() == players >= 6
    assert "password" not in second.split("exists")[0] and "exists" in second
    names = set(Player.objects.values_list("name", flat=True))
    assert {"Анна", "Alice"} <= names  # Russian and Latin names


@pytest.mark.django_db
def test_the_admin_lists_players_tables_and_deals(admin_client, fantan_table, variety_table):
    deal = current(fantan_table)
    cycle = variety_table.cycles.get()
    for path in (
        "/admin/club/player/",
        "/admin/games/table/",
        "/admin/games/deal/",
        "/admin/games/cycle/",
        f"/admin/games/cycle/{cycle.pk}/change/",
        f"/admin/games/table/{fantan_table.pk}/change/",
        f"/admin/games/deal/{deal.pk}/change/",
        "/admin/club/auditentry/",
    ):
        assert admin_client.get(path).status_code == 200, path
    # a deal changes only by its own actions, never by hand
    assert admin_client.get("/admin/games/deal/add/").status_code == 403
    response = admin_client.post(f"/admin/games/deal/{deal.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403 and current(fantan_table).pk == deal.pk


@pytest.mark.django_db
def test_a_player_edited_in_the_admin_goes_through_the_service(admin_client, players):
    response = admin_client.post(
        f"/admin/club/player/{players[0].pk}/change/", {"name": "Анна Петровна", "user": ""}
    )
    assert response.status_code == 302
    assert Player.objects.get(pk=players[0].pk).name == "Анна Петровна"
    assert AuditEntry.objects.filter(verb="player.change").exists()
    response = admin_client.post("/admin/club/player/add/", {"name": "борис", "user": ""})
    assert response.status_code == 200  # the same name in another case is the same person
    assert Player.objects.filter(name__in=["борис", "Борис"]).count() == 1


def test_the_health_check_answers(client, db):
    assert client.get("/healthz").content == b"ok"


def test_the_club_has_its_own_icon_at_favicon_ico_and_in_every_page(client, db):
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's, the error
    pages'): an image of the club's own, never an outside address."""
    response = client.get("/favicon.ico", follow=True)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/")
    icon = b"".join(response.streaming_content) if response.streaming else response.content
    assert icon.startswith(b"<svg")
    linked = re.search(r'<link rel="icon" href="([^"]+)"', client.get("/").content.decode())
    assert linked and linked.group(1) == response.redirect_chain[-1][0]


def test_a_served_installation_passes_the_deployment_check():
    """DEBUG off, a long random key, TLS in front (SECURE_COOKIES=1): `check --deploy` is
    clean; the database connections do not outlive a request under ASGI."""
    clean = {
        k: v
        for k, v in os.environ.items()  # the tests' own async switch too
        if k
        not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env={
            **clean,
            "DEBUG": "0",
            "SECURE_COOKIES": "1",
            "SECRET_KEY": "vR7-" + "".join(chr(97 + i % 26) + str(i) for i in range(30)),
        },
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
    assert database_from_url("postgresql://u@db:5432/club")["CONN_MAX_AGE"] == 0


@pytest.mark.django_db
def test_sign_in_attempts_are_limited(client, django_user_model):
    """Five wrong passwords for a name lock it out for a while, the right one included, with
    a clear message and nothing signed in; another name is not locked."""
    django_user_model.objects.create_user("anna", password="the-right-password")
    for attempt in range(1, 6):
        response = client.post(
            "/accounts/login/", {"username": "anna", "password": "wrong"}, HTTP_ACCEPT_LANGUAGE="en"
        )
        if attempt < 5:
            assert response.status_code == 200 and "do not match" in response.content.decode()
    assert response.status_code == 429  # the fifth locks the name out
    response = client.post(
        "/accounts/login/",
        {"username": "anna", "password": "the-right-password"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 429
    assert "Too many wrong passwords" in response.content.decode()
    assert "_auth_user_id" not in client.session
    django_user_model.objects.create_user("boris", password="his-own-password")
    response = client.post(
        "/accounts/login/", {"username": "boris", "password": "his-own-password"}
    )
    assert response.status_code == 302 and client.session["_auth_user_id"]


def test_the_second_run_knows_whether_its_servers_answer():
    """make test's run on PostgreSQL and Redis starts only when both answer (and fails under
    CI=true otherwise)."""
    import socket

    from config.reachable import reachable

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert reachable(f"redis://127.0.0.1:{port}/0")
    assert not reachable(f"redis://127.0.0.1:{port}/0")  # closed now
    assert not reachable("ftp://127.0.0.1/0")  # no known port


def test_a_server_process_serves_a_bounded_number_of_requests_at_once():
    """Twenty requests at once through three slots: never more than three inside the app
    (each would hold a thread and a database connection), and every one is served."""
    inside, most, served = 0, 0, []

    async def app(scope, receive, send):
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        await asyncio.sleep(0.01)
        inside -= 1
        served.append(scope["n"])

    async def burst():
        slots = RequestSlots(app, 3)
        await asyncio.gather(*(slots({"type": "http", "n": n}, None, None) for n in range(20)))

    asyncio.run(burst())
    assert most == 3 and sorted(served) == list(range(20))
    with pytest.raises(ValueError):
        RequestSlots(app, 0)
