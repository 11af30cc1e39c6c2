"""The packages import one way: ``core`` imports no app; ``club`` imports only ``core``;
``games`` may import both but neither ``tournaments`` nor ``ratings``; ``tournaments`` may
import all three but never ``ratings``, which may import every app and is imported by none."""

from pathlib import Path

from tests.support.imports import imported

BASE = Path(__file__).resolve().parents[2]
FORBIDDEN = {
    "core": {"club", "games", "tournaments", "ratings"},
    "club": {"games", "tournaments", "ratings"},
    "games": {"tournaments", "ratings"},
    "tournaments": {"ratings"},
}


def imports(path: Path, base: Path):
    """The top-level packages a module imports (a relative import stays in its app), with
    their lines."""
    package = ".".join(path.relative_to(base).parts[:-1])
    return {(module.split(".")[0], line) for module, line in imported(path, package)}


def wrong_imports(base: Path) -> list[str]:
    return [
        f"{path.relative_to(base)}:{line} imports {name}"
        for app, banned in FORBIDDEN.items()
        for path in sorted((base / app).rglob("*.py"))
        for name, line in sorted(imports(path, base), key=lambda found: found[1])
        if name in banned
    ]


def test_no_app_imports_an_app_above_it():
    assert wrong_imports(BASE) == []


def test_an_import_against_the_order_is_found_wherever_it_stands(tmp_path):
    for app, source in [
        ("core", "from club.models import Player\n"),
        ("club", "from games.models import Table\n"),
        ("club/sub", "def f():\n    import tournaments.roles\n"),
        ("games", "from tournaments import roles\nfrom club import roles\n"),
        ("tournaments", "from games import registry\nfrom club import roles\n"),
        ("tournaments/sub", "from ratings.services import rerate\n"),
        ("games/sub", "def f():\n    from ratings import ladder\n"),
        ("ratings", "from tournaments import signals\nfrom games import signals\n"),
    ]:
        (tmp_path / app).mkdir(parents=True)
        (tmp_path / app / "module.py").write_text(source)
    (tmp_path / "games" / "own.py").write_text("from .tournament import TOURNAMENT\n")
    assert wrong_imports(tmp_path) == [
        "core/module.py:1 imports club",
        "club/module.py:1 imports games",
        "club/sub/module.py:2 imports tournaments",
        "games/module.py:1 imports tournaments",
        "games/sub/module.py:2 imports ratings",
        "tournaments/sub/module.py:1 imports ratings",
    ]
