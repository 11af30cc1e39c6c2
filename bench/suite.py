"""``python -m bench.suite``: the test suite's figures, as a run of ``make test`` gave them,
into their section of the figures file (``bench.figures``). It times nothing: the suite's
times are those of a whole run on a fresh clone under ``CI=true`` (``bash .ci/run``), read off
its output and given here with that run's date and machine::

    python -m bench.suite --date 2026-12-05 --machine "AMD EPYC, 2 cores" \\
        --run "the browser and server tests on SQLite" 68 4 6m34s \\
        --run "the other tests on SQLite" 1989 2 9m46s \\
        --run "PostgreSQL and Redis" 727 3 8m49s --whole 10m5s

A time is in seconds or as ``6m34s``.
"""

import argparse
import re
import sys

from bench import figures

TIME = re.compile(r"(?:(\d+)m)?(?:(\d+)s?)?")


def seconds(text: str) -> int:
    found = TIME.fullmatch(text.strip())
    if not text.strip() or found is None:
        raise argparse.ArgumentTypeError(f"not a time: {text!r} (seconds, or 6m34s)")
    minutes, rest = found.groups()
    return int(minutes or 0) * 60 + int(rest or 0)


def duration(total: int) -> str:
    minutes, rest = divmod(total, 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.suite", description=__doc__)
    parser.add_argument("--date", required=True, help="the run's date, 2026-12-05")
    parser.add_argument("--machine", required=True, help="the machine it ran on")
    parser.add_argument(
        "--run",
        nargs=4,
        action="append",
        required=True,
        metavar=("NAME", "PASSED", "SKIPPED", "TIME"),
        help="one of make test's runs, as its output names it",
    )
    parser.add_argument("--whole", type=seconds, help="the whole run's time, the install included")
    parser.add_argument("--command", default="CI=true bash .ci/run", help="what was run")
    args = parser.parse_args(argv)
    rows = [
        [name, f"{int(passed):,}", f"{int(skipped):,}", duration(seconds(time))]
        for name, passed, skipped, time in args.run
    ]
    if args.whole is not None:
        rows.append(["the whole run, the install included", "—", "—", duration(args.whole)])
    where = figures.record(
        "suite",
        "The test suite",
        args.command,
        ["run", "passed", "skipped", "time"],
        rows,
        ["The runs go side by side (`tests/support/both_runs.py`)."],
        machine=args.machine,
        date=args.date,
    )
    print(f"the suite's figures written to {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
