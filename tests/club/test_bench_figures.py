"""The benchmarks' figures file (bench/figures.py): one section a benchmark, a run replacing
its own and keeping the others; and the test suite's section (bench/suite.py). Pure Python,
a file in a temporary folder."""

from datetime import UTC, datetime

import pytest

from bench import figures, suite
from config.machine import machine


def robots(where, figure="28.9%", **given):
    return figures.record(
        "robots",
        "Robots",
        "python -m bench.robots",
        ["game", "figure"],
        [["fantan", figure]],
        where=where,
        **given,
    )


def test_a_section_is_written_under_the_header_with_its_command_date_and_machine(tmp_path):
    where = tmp_path / "docs" / "latest.md"
    robots(where, notes=["seed 1"], machine="a test machine, 2 cores", date="2026-12-01")
    text = where.read_text(encoding="utf-8")
    assert text.startswith(figures.HEADER)
    assert text.splitlines()[0] == "# Latest benchmark figures, written by `make bench`"
    assert text.endswith(
        "<!-- figures: robots -->\n"
        "## Robots\n\n"
        "`python -m bench.robots`, 2026-12-01, on a test machine, 2 cores.\n\n"
        "| game | figure |\n"
        "| --- | --- |\n"
        "| fantan | 28.9% |\n\n"
        "- seed 1\n"
    )


def test_the_machine_and_the_date_are_this_machine_and_today_in_utc_unless_given(tmp_path):
    text = robots(tmp_path / "latest.md").read_text(encoding="utf-8")
    assert (
        f"`python -m bench.robots`, {datetime.now(UTC).date().isoformat()}, on {machine()}.\n"
        in text
    )


def test_a_run_replaces_its_own_section_and_keeps_the_others_in_their_order(tmp_path):
    where = tmp_path / "latest.md"
    figures.record("seating", "Seating", "python -m bench.seating", ["n"], [[16]], where=where)
    robots(where, machine="m", date="2026-12-01")
    figures.record("bench", "Tables", "python manage.py bench", ["n"], [[1]], where=where)
    before = where.read_text(encoding="utf-8")
    robots(where, "31.0%", machine="m", date="2026-12-02")
    after = where.read_text(encoding="utf-8")
    assert after.count("<!-- figures: robots -->") == 1
    assert "| fantan | 31.0% |" in after and "28.9%" not in after
    assert "2026-12-02" in after and "2026-12-01" not in after
    robots_at = "<!-- figures: robots -->"
    seating_at = "<!-- figures: seating -->"
    assert after.split(robots_at)[0] == before.split(robots_at)[0]  # the header, bench
    assert after.split(seating_at)[1] == before.split(seating_at)[1]
    marks = [line for line in after.splitlines() if line.startswith("<!-- figures:")]
    assert marks == [f"<!-- figures: {k} -->" for k in ("bench", "robots", "seating")]


def test_the_file_is_the_one_bench_figures_names(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCH_FIGURES", str(tmp_path / "trial.md"))
    assert robots(None) == tmp_path / "trial.md"
    assert "| fantan | 28.9% |" in (tmp_path / "trial.md").read_text(encoding="utf-8")


def test_a_cell_stays_on_its_line_and_a_row_has_a_cell_a_column(tmp_path):
    text = robots(tmp_path / "latest.md", "a | b\nc").read_text(encoding="utf-8")
    assert "| fantan | a \\| b c |" in text
    with pytest.raises(ValueError, match="a row of 1 cells under 2 columns"):
        figures.record("robots", "Robots", "x", ["game", "figure"], [["fantan"]], where=None)


def test_the_suites_figures_are_recorded_as_given(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCH_FIGURES", str(tmp_path / "latest.md"))
    suite.main(
        [
            "--date", "2026-12-05", "--machine", "a CI machine, 2 cores",
            "--run", "the other tests on SQLite", "1989", "2", "9m46s",
            "--run", "PostgreSQL and Redis", "727", "3", "529",
            "--whole", "10m5s",
        ]
    )  # fmt: skip
    text = (tmp_path / "latest.md").read_text(encoding="utf-8")
    assert "2026-12-05, on a CI machine, 2 cores.\n" in text
    assert "| the other tests on SQLite | 1,989 | 2 | 9 min 46 s |" in text
    assert "| PostgreSQL and Redis | 727 | 3 | 8 min 49 s |" in text
    assert "| the whole run, the install included | — | — | 10 min 5 s |" in text
