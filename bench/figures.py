"""The benchmarks' latest figures, one file (``docs/benchmarks/latest.md``) of one section a
benchmark, each a table with the command, the date and the machine of its run.

A benchmark calls ``record`` once it has its figures: its own section is replaced (or put in
its place, in ``ORDER``) and every other section is kept as it was, so that a benchmark run
alone leaves the others' figures standing. ``BENCH_FIGURES`` names another file (a trial
run's, say). No Django: the served benchmarks call it from processes that do not set it up.
"""

import os
import re
import tempfile
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from config.machine import machine as this_machine

FILE = Path(__file__).resolve().parent.parent / "docs" / "benchmarks" / "latest.md"
# the sections in the order make bench runs them; one of another key goes after them
ORDER = (
    "bench",
    "bench_tournaments",
    "bench_duplicate",
    "live",
    "fanout",
    "seats",
    "robots",
    "seating",
    "ratings",
    "browser",
    "suite",
)
HEADER = """\
# Latest benchmark figures, written by `make bench`

Generated: each benchmark replaces its own section when it runs (`bench/figures.py`), and the
test suite's section is written by `python -m bench.suite`; do not edit it by hand. How each
figure is measured and what it requires: [the benchmarks](../benchmarks.md). Each section
names the command, the date and the machine of its run; figures of different machines or days
do not compare.
"""
MARK = re.compile(r"^<!-- figures: ([a-z_]+) -->$")


def path() -> Path:
    return Path(os.environ.get("BENCH_FIGURES") or FILE)


def record(
    key: str,
    title: str,
    command: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[object]],
    notes: Iterable[str] = (),
    *,
    machine: str | None = None,
    date: str | None = None,
    where: Path | None = None,
) -> Path:
    """Writes the benchmark's section (``key``, under ``title``): the command that measured,
    today's date (UTC) and this machine unless given, its table and its notes. The file written."""
    where = where or path()
    sections = read(where)
    sections[key] = section(key, title, command, columns, rows, notes, machine, date)
    keys = [k for k in ORDER if k in sections] + [k for k in sections if k not in ORDER]
    text = HEADER + "".join("\n" + sections[k] for k in keys)
    where.parent.mkdir(parents=True, exist_ok=True)
    # written whole, then renamed: a reader never finds half a file
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=where.parent, prefix=".latest-", delete=False
    ) as f:
        f.write(text)
    os.replace(f.name, where)
    return where


def read(where: Path) -> dict[str, str]:
    """The file's sections by key, each as written (the header is written afresh)."""
    try:
        lines = where.read_text(encoding="utf-8").splitlines(keepends=True)
    except FileNotFoundError:
        return {}
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines:
        if found := MARK.match(line.rstrip("\n")):
            current = sections.setdefault(found.group(1), [])
            current.clear()
        if current is not None:
            current.append(line)
    return {key: "".join(text).rstrip("\n") + "\n" for key, text in sections.items()}


def section(
    key: str,
    title: str,
    command: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[object]],
    notes: Iterable[str],
    machine: str | None,
    date: str | None,
) -> str:
    rows = [list(row) for row in rows]
    for row in rows:
        if len(row) != len(columns):
            raise ValueError(f"{key}: a row of {len(row)} cells under {len(columns)} columns")
    lines = [
        f"<!-- figures: {key} -->",
        f"## {title}",
        "",
        f"`{command}`, {date or today()}, on {machine or this_machine()}.",
        "",
        "| " + " | ".join(cell(c) for c in columns) + " |",
        "|" + " --- |" * len(columns),
        *("| " + " | ".join(cell(c) for c in row) + " |" for row in rows),
    ]
    notes = list(notes)
    if notes:
        lines += ["", *(f"- {cell(note)}" for note in notes)]
    return "\n".join(lines) + "\n"


def today() -> str:
    # in UTC: Django, once set up, has the process's local time be the club's
    return datetime.now(UTC).date().isoformat()


def cell(value: object) -> str:
    """A table's cell on one line, its bars escaped."""
    return " ".join(str(value).split()).replace("|", "\\|")


def verdict(met: bool) -> str:
    return "meets" if met else "MISSES"
