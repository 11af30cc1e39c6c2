"""``make wheels-only`` proves that every dependency installs from a wheel, nothing compiled:
in a new venv of a temporary folder, pip installs the project with wheels alone, then the
players' names' tests run there. It fetches from PyPI, so the suite does not run it: it
checks what it would run (``make -n``), and that ``make test`` does not run it."""

import shlex
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIP_INSTALL = "-m pip install --only-binary=:all: -e '.[dev]'"


def dry_run(*targets: str) -> str:
    """The commands make would run for ``targets`` (nothing installed or run)."""
    return subprocess.run(
        ["make", "--no-print-directory", "-n", "-o", "install", "-o", ".secret_key", *targets],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def commands() -> list[list[str]]:
    """``make wheels-only``'s recipe as the shell reads it: its commands, split on ``&&``."""
    script = dry_run("wheels-only").replace("\\\n", " ")
    words = shlex.split(script)
    found: list[list[str]] = [[]]
    for word in words:
        if word == "&&":
            found.append([])
        else:
            found[-1].append(word)
    return found


def test_wheels_only_installs_the_project_from_wheels_alone_in_a_temporary_venv():
    script = dry_run("wheels-only")
    assert script.count(PIP_INSTALL) == 1
    assert '"$venv/bin/python" ' + PIP_INSTALL in script
    made, cleared, venv, pip, install, tests = commands()
    assert made == ["venv=$(mktemp -d)/venv"]  # under a temporary folder, not .venv
    assert cleared[:2] == ["trap", 'rm -rf "$(dirname "$venv")"'] and cleared[2] == "EXIT"
    assert venv[1:] == ["-m", "venv", "$venv"]
    upgrade = "-m pip install --quiet --only-binary=:all: --upgrade pip"
    assert pip == ["$venv/bin/python", *upgrade.split()]
    assert install == ["$venv/bin/python", *shlex.split(PIP_INSTALL)]
    assert tests[:3] == ["$venv/bin/python", "-m", "pytest"]
    assert tests[-1] == "tests/club/test_player_names.py"
    assert not any(word.startswith(("--no-binary", "--prefer-binary")) for word in script.split())


def test_make_test_does_not_run_wheels_only():
    for target in ("test", "check", "install"):
        script = subprocess.run(
            ["make", "--no-print-directory", "-n", "-B", "-o", ".secret_key", target],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert "--only-binary" not in script and "mktemp" not in script, target
