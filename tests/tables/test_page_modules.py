"""The games app's pages are modules by audience (``games/pages/``): each imports what they
share (``shared``) and no other page module, so that a page of one audience is read, and
changed, without the others'."""

from pathlib import Path

from tests.support.imports import imported

BASE = Path(__file__).resolve().parents[2]
PACKAGE = "games.pages"
SHARED = {"__init__", "shared"}  # the modules every page module may import


def page_imports(folder: Path, package: str = PACKAGE) -> list[str]:
    """Each import of a page module by another module of the folder."""
    pages = {path.stem for path in folder.glob("*.py")} - SHARED
    wrong = {}  # in order, each once: ``from .host import x`` names the module twice
    for path in sorted(folder.glob("*.py")):
        for module, line in imported(path, package):
            name = module.removeprefix(f"{package}.").split(".")[0]
            if module.startswith(f"{package}.") and name in pages:
                wrong[f"{path.name}:{line} imports {name}"] = None
    return list(wrong)


def test_the_pages_are_modules_by_audience():
    pages = {path.stem for path in (BASE / "games" / "pages").glob("*.py")} - SHARED
    assert pages == {"site", "host", "watch", "seat", "replays", "tables"}


def test_no_page_module_imports_another():
    assert page_imports(BASE / "games" / "pages") == []


def test_an_import_of_another_page_module_is_found_however_it_is_written(tmp_path):
    sources = {
        "shared.py": "from .. import selectors\n",
        "host.py": "from .shared import render_table\nfrom . import shared\n",
        "watch.py": "from .host import table_view\n",
        "seat.py": "from . import shared, watch\n",
        "replays.py": "def f():\n    import games.pages.seat\n",
        "tables.py": "from games.pages import host\nfrom ..pages.replays import REPLAY\n",
    }
    for name, source in sources.items():
        (tmp_path / name).write_text(source)
    assert page_imports(tmp_path) == [
        "replays.py:2 imports seat",
        "seat.py:1 imports watch",
        "tables.py:1 imports host",
        "tables.py:2 imports replays",
        "watch.py:1 imports host",
    ]
