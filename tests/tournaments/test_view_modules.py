"""The tournaments' pages are modules by domain (``run``, ``check_in``, ``results``,
``seasons``, ``public``): each imports what they share (``tournaments.pages``) and no other
domain's views, so that one domain's pages are read, and changed, without the others'."""

from pathlib import Path

from tests.support.imports import imported

BASE = Path(__file__).resolve().parents[2]


def view_modules(app: Path) -> dict[str, Path]:
    """The app's view modules (``views.py``, ``*_views.py`` of a domain) by dotted name."""
    return {
        ".".join((app.name, *path.relative_to(app).with_suffix("").parts)): path
        for path in sorted(app.glob("*/*.py"))
        if path.stem == "views" or path.stem.endswith("_views")
    }


def foreign_view_imports(app: Path) -> list[str]:
    """Each import of a view module by a view module of another domain."""
    views = view_modules(app)
    wrong = {}  # in order, each once: ``from ..run.views import x`` names the module twice
    for name, path in views.items():
        domain = name.split(".")[1]
        for module, line in imported(path, name.rsplit(".", 1)[0]):
            if module in views and module.split(".")[1] != domain:
                wrong[f"{path.relative_to(app)}:{line} imports {module}"] = None
    return list(wrong)


def test_each_domain_has_its_views():
    domains = {name.split(".")[1] for name in view_modules(BASE / "tournaments")}
    assert domains == {"run", "check_in", "results", "seasons", "public"}


def test_no_view_module_imports_another_domains():
    assert foreign_view_imports(BASE / "tournaments") == []


def test_an_import_of_another_domains_views_is_found_however_it_is_written(tmp_path):
    app = tmp_path / "tournaments"
    sources = {
        "run/views.py": "from ..pages import tournament_for\nfrom . import selectors\n",
        "check_in/views.py": "from ..run.views import render_run\n",
        "results/views.py": "from ..run import views\n",
        "results/entry_views.py": "from .views import labels\n",
        "public/views.py": "def f():\n    import tournaments.seasons.views\n",
        "seasons/views.py": "from tournaments.results import entry_views\n",
    }
    for name, source in sources.items():
        (app / name).parent.mkdir(parents=True, exist_ok=True)
        (app / name).write_text(source)
    assert foreign_view_imports(app) == [
        "check_in/views.py:1 imports tournaments.run.views",
        "public/views.py:2 imports tournaments.seasons.views",
        "results/views.py:1 imports tournaments.run.views",
        "seasons/views.py:1 imports tournaments.results.entry_views",
    ]
