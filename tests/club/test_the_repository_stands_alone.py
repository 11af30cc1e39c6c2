"""The repository stands on its own: no file reads or cites a folder beside it, and the test
modules share their helpers through tests/support/, never by importing one another."""

import ast
import os
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# Spelt in pieces: this file is among those read.
OUTSIDE = ("../" + "shared", '"shared" / ' + '"rules"')
SKIPPED = {"locale", "__pycache__", "staticfiles", "node_modules", "records", "venv"}


def project_files() -> list[Path]:
    """The repository's own files: not its catalogues, the virtualenv, caches or build output."""
    found = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") or d == ".ci"]
        dirs[:] = [d for d in dirs if d not in SKIPPED and not d.endswith(".egg-info")]
        found += [
            Path(folder) / name
            for name in names
            if not name.endswith((".pyc", ".mo")) and ".sqlite3" not in name
        ]
    return found


def test_no_file_reads_or_cites_a_folder_beside_the_repository():
    citing = []
    for path in project_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        citing += [f"{path.relative_to(ROOT)}: {word}" for word in OUTSIDE if word in text]
    assert citing == []


def imported_modules(node) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module == "tests":
        return [f"tests.{alias.name}" for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return []


def test_no_test_module_imports_another():
    importing = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if any(
                part.startswith("test_")
                for module in imported_modules(node)
                for part in module.split(".")
            ):
                importing.append(f"{path.relative_to(ROOT)}: {ast.unparse(node)}")
    assert importing == []
