"""``python -m tests.support.both_runs PG_URL REDIS_URL [pytest args]``: make test's runs of the
whole suite on both set-ups, side by side.

The suite runs on the default set-up (SQLite, the in-memory channel layer), in two processes:
its browser tests and those against real server processes, and the others (``make check``'s).
What uses the database or real server processes runs
again on PostgreSQL and Redis, as a served club runs (``--database-tests-only``: no pure
test, no browser test). The runs share no database (each SQLite run's test database is named
by its process), so they run at once: the browser tests spend much of their time waiting on
chromium and the servers, and three runs keep two cores busy where two would not.
Each run's output is shown whole when it ends. Without PostgreSQL or Redis the last run is
skipped with a message, or fails the command under ``CI=true``.
"""

import os
import subprocess
import sys
import tempfile

from config.reachable import reachable


def start(name: str, env: dict, args: list[str]) -> tuple[str, subprocess.Popen, object]:
    log = tempfile.TemporaryFile("w+", encoding="utf-8")
    command = [sys.executable, "-m", "pytest", *args]
    print(f"started the run of {name}: {' '.join(command[2:])}", flush=True)
    return name, subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT), log


def main(pg_url: str, redis_url: str, *args: str) -> int:
    default_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    # Only the first run keeps pytest's cache (--lf): runs writing one .pytest_cache would race.
    runs = [
        start(
            "the browser and server tests on SQLite",
            default_env,
            ["-m", "browser or servers", *args],
        ),
        start(
            "the other tests on SQLite and the in-memory layer",
            default_env,
            ["-p", "no:cacheprovider", "-m", "not browser and not servers", *args],
        ),
    ]
    if reachable(pg_url) and reachable(redis_url):
        runs.append(
            start(
                "the database tests on PostgreSQL and Redis",
                {**default_env, "DATABASE_URL": pg_url, "REDIS_URL": redis_url},
                ["-p", "no:cacheprovider", "--database-tests-only", *args],
            )
        )
    elif os.environ.get("CI") == "true":
        print("PostgreSQL or Redis cannot be reached: the run on them is required under CI")
        for _, process, _ in runs:
            process.kill()
        return 1
    else:
        print("PostgreSQL or Redis cannot be reached: the run on them is skipped")
    failed = []
    for name, process, log in runs:
        code = process.wait()
        log.seek(0)
        print(f"\n===== the run of {name} =====", flush=True)
        sys.stdout.write(log.read())
        if code:
            failed.append(name)
    for name in failed:
        print(f"FAILED: the run of {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
