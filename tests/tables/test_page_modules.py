"""The games app's pages are modules by audience (``games/pages/``): each imports what they
share (``shared``) and no other page module, so that a page of one audience is read, and
changed, without the others'."""

import ast
from pathlib import Path

BASE = Path(__file__).resolve().parents[2]
PACKAGE = "games.pages"
SHARED = {"__init__", "shared"}  # the modules every page module may import


def imported(path: Path, package: str) -> list[tuple[str, int]]:
    """The modules a module of ``package`` imports (a relative import resolved, and each
    name of ``from package import name`` as a module of its own), with their lines."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, node.lineno))
            found += [(f"{module}.{alias.name}", node.lineno) for alias in node.names]
    return found


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
