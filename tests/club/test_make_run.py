"""``make run`` serves with DEBUG off on a secret key made once into an
untracked file, on the HOST and PORT given (every interface by default, for the room's
phones), printing the address it really serves at and telling the pages where it listens."""

import os
import subprocess
from pathlib import Path

import pytest

from config import addresses
from config import settings as conf

ROOT = Path(__file__).resolve().parents[2]


def dry_run(**variables) -> str:
    """The commands ``make run`` would run (nothing installed or run: ``-n``, ``-o install``)."""
    return subprocess.run(
        [
            "make",
            "-n",
            "-o",
            "install",
            "-o",
            ".secret_key",
            "run",
            *(f"{k}={v}" for k, v in variables.items()),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_make_run_serves_on_the_host_and_port_given_and_prints_them():
    commands = dry_run(HOST="127.0.0.1", PORT="8123")
    assert "daphne -b 127.0.0.1 -p 8123 config.asgi:application" in commands
    assert "config.addresses 127.0.0.1 8123" in commands
    assert "8000" not in commands


def test_make_run_serves_the_rooms_phones_by_default():
    assert "daphne -b 0.0.0.0 -p 8000 " in dry_run()
    assert "config.addresses 0.0.0.0 8000" in dry_run()


def test_make_run_tells_the_pages_where_the_server_listens():
    assert "LISTEN_HOST=0.0.0.0 .venv/bin/daphne -b 0.0.0.0 " in dry_run()
    assert "LISTEN_HOST=127.0.0.1 .venv/bin/daphne -b 127.0.0.1 " in dry_run(HOST="127.0.0.1")


def test_make_run_turns_debug_off_and_allows_the_room_only_on_every_interface():
    makefile = (ROOT / "Makefile").read_text()
    assert "run: export DEBUG = 0" in makefile
    env = {k: v for k, v in os.environ.items() if k not in ("ALLOWED_HOSTS", "HOST", "PORT")}

    def allowed(*variables):
        return subprocess.run(
            [
                "make",
                "--no-print-directory",
                "--eval",
                "allowed-hosts: ; @echo '$(ALLOWED_HOSTS)'",
                "allowed-hosts",
                *variables,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout.strip()

    assert allowed("HOST=0.0.0.0") == allowed() == "*"
    assert allowed("HOST=127.0.0.1") == "127.0.0.1,127.0.0.1,localhost"
    assert allowed("HOST=192.168.0.7") == "192.168.0.7,127.0.0.1,localhost"


def test_the_secret_key_file_is_untracked():
    assert ".secret_key" in (ROOT / ".gitignore").read_text().split()


def test_the_secret_key_comes_from_the_environment_then_the_file(tmp_path, monkeypatch):
    key_file = tmp_path / ".secret_key"
    monkeypatch.setattr(conf, "SECRET_KEY_FILE", key_file)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    assert conf.secret_key() == conf.DEV_SECRET_KEY  # no file yet
    key_file.write_text("from-the-file\n")
    assert conf.secret_key() == "from-the-file"
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    assert conf.secret_key() == "from-the-environment"


@pytest.mark.parametrize(
    ("host", "port", "first"),
    [
        ("127.0.0.1", "8000", "http://127.0.0.1:8000/"),
        ("192.168.0.7", "9000", "http://192.168.0.7:9000/"),
    ],
)
def test_the_printed_address_is_the_one_served(host, port, first):
    assert addresses.addresses(host, port)[0] == first


def test_on_every_interface_the_local_address_is_printed_too():
    found = addresses.addresses("0.0.0.0", "8080")
    assert found[-1] == "http://127.0.0.1:8080/"
    assert all(":8080/" in a and "0.0.0.0" not in a for a in found)


def make_dry_run(target: str) -> str:
    return subprocess.run(
        ["make", "-n", "-o", "install", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_make_check_lints_checks_the_migrations_and_runs_the_suite_without_browser_or_servers():
    commands = make_dry_run("check")
    assert "ruff check ." in commands
    assert "manage.py makemigrations --check --dry-run" in commands
    assert '-m pytest -m "not browser and not servers"' in commands


def test_make_test_still_runs_every_test_on_both_set_ups():
    commands = make_dry_run("test")
    assert "ruff check ." in commands and "makemigrations --check" in commands
    assert "-m tests.support.both_runs " in commands
    assert "not browser" not in commands
