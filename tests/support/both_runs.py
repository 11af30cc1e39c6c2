"""``python -m tests.support.both_runs PG_URL REDIS_URL [pytest args]``: make test's two runs of the
whole suite, side by side.

The suite runs on the default set-up (SQLite, the in-memory channel layer), and what uses
the database or real server processes runs again on PostgreSQL and Redis, as a served club
runs (``--database-tests-only``: no pure test, no browser test). The two runs share no
database, so they run at once: on two cores that takes about as long as the longer run
rather than both in turn. Each
run's output is shown whole when it ends. Without PostgreSQL or Redis the second run is
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
    print(f"started the run on {name}: {' '.join(command[2:])}", flush=True)
    return name, subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT), log


def main(pg_url: str, redis_url: str, *args: str) -> int:
    default_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    runs = [start("SQLite and the in-memory layer", default_env, list(args))]
    if reachable(pg_url) and reachable(redis_url):
        # No cache plugin: two runs writing one .pytest_cache would race.
        runs.append(
            start(
                "PostgreSQL and Redis",
                {**default_env, "DATABASE_URL": pg_url, "REDIS_URL": redis_url},
                ["-p", "no:cacheprovider", "--database-tests-only", *args],
            )
        )
    elif os.environ.get("CI") == "true":
        print("PostgreSQL or Redis cannot be reached: the second run is required under CI")
        runs[0][1].kill()
        return 1
    else:
        print("PostgreSQL or Redis cannot be reached: the run on them is skipped")
    failed = []
    for name, process, log in runs:
        code = process.wait()
        log.seek(0)
        print(f"\n===== the run on {name} =====", flush=True)
        sys.stdout.write(log.read())
        if code:
            failed.append(name)
    for name in failed:
        print(f"FAILED: the run on {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
