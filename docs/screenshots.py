"""The README's screenshots, taken of the real pages: ``.venv/bin/python docs/screenshots.py``
(or ``make screenshots``).

It makes a throw-away SQLite database in a temporary directory, migrates it, loads the demo
club (``manage.py seed_demo``) and imports a tournament document (``manage.py tournament
import``); then, through the services, it plays a Фантан table into its deal with a hand
shown, a Выборы table into its auction, a Леопард table into its squares, and a Фантан
tournament of sixteen into its second round (a table played here, a sheet typed in). It serves that
database with daphne on a free port of 127.0.0.1 and drives /usr/bin/chromium through
Playwright to save PNGs into docs/screenshots/. Every request stays on 127.0.0.1; the
repository's own database and secret key are not touched.
"""

import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
OUT = BASE_DIR / "docs" / "screenshots"
DOCUMENT = BASE_DIR / "tests" / "support" / "tournament_documents" / "fantan-seven-cards.json"
VIEWPORT = {"width": 1000, "height": 700}
PROJECTOR = {"width": 1280, "height": 720}  # the projector page's own screen
PASSWORD = "screenshots-only-" + secrets.token_urlsafe(8)
DEMO = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Alice", "Bob", "Carol"]  # seed_demo's
NEWCOMERS = ["Ева", "Жанна", "Зоя", "Игорь", "Кирилл", "Лев", "Мария", "Нина"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def configure(workdir: Path) -> dict:
    """The environment config/settings.py reads: this run's database, key and host."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SECRET_KEY_FILE")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{workdir / 'club.sqlite3'}",
        SECRET_KEY=secrets.token_urlsafe(50),
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1",
        PYTHONUNBUFFERED="1",
    )
    os.environ.update(env)
    os.environ.pop("REDIS_URL", None)
    return env


def manage(env: dict, *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


# -- the club's state, made through the services --------------------------------------------


def choose(table, state, seat: int) -> list[dict]:
    """The seat's turn as the club robot would take it (its steps, then its action)."""
    from games import robot_seats

    return [
        {k: v for k, v in action.items() if k != "seat"}
        for action in robot_seats.turn(table.game, state, "club", seed=seat + 7)
    ]


def play(table, user, *, turns: int, reveal_last: bool = True, pick=None) -> None:
    """``turns`` turns of the table's current deal, each revealed and played as its screen
    would, then (``reveal_last``) the next player's hand shown."""
    from games import selectors, services

    for done in range(turns + 1):
        deal = selectors.current_deal(table)
        deal.table = table
        hotseat = selectors.load(deal)
        state = hotseat.state
        if state.is_over() or (done == turns and not reveal_last):
            return
        seat = state.to_act
        if hotseat.handoff:
            deal = services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=user)
            deal.table = table
        if done == turns:
            return
        actions = pick(state, seat) if pick else choose(table, state, seat)
        for action in actions:
            deal = services.play(
                deal=deal, seat=seat, action=action, expected_version=deal.version, user=user
            )
            deal.table = table


def play_deal(table, user) -> None:
    """The current deal played to its end."""
    from games import selectors

    while not selectors.load(selectors.current_deal(table)).state.is_over():
        play(table, user, turns=1, reveal_last=False)


def variety_calls(state, seat: int) -> list[dict]:
    """A call nobody has named yet, so that the auction goes on."""
    named = [n for s in range(4) for n in range(1, 9) if state.named[s] >> n & 1]
    number = next(n for n in (3, 6, 2, 7, 5) if n not in named)
    return [{"call": number, "say": {3: "шесть треф", 6: "длинные пики"}.get(number, "")}]


def type_sheet(table, scorer, lot: random.Random) -> None:
    """A Фантан sheet of two deals typed in by a scorer: one out, the others' cards left."""
    from tournaments.results import services as results_services

    seats = table.seats.count()
    rows = []
    for _ in range(2):
        out = lot.randrange(seats)
        rows.append(
            {
                "finish_order": [out],
                "cards_left": [0 if s == out else lot.randint(1, 9) for s in range(seats)],
            }
        )
    results_services.enter_sheet(table=table, rows=rows, user=scorer)


def build() -> dict:
    """The tables and tournament the shots show; their addresses."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from club.models import Player
    from games import services
    from tournaments import roles as officials
    from tournaments import services as tournaments
    from tournaments.models import Tournament
    from tournaments.run import services as run_services

    users = get_user_model().objects
    anna, director, scorer = (users.get(username=n) for n in ("anna", "director", "scorer"))
    anna.set_password(PASSWORD)
    anna.save()
    people = {p.name: p for p in Player.objects.all()}
    four = [people[n] for n in ("Анна", "Борис", "Вера", "Глеб")]

    fantan = services.start_table(
        user=anna, game="fantan", players=four, options={"scoring": "cards"}, seed=5
    )
    play(fantan, anna, turns=14)
    variety = services.start_table(user=anna, game="variety", players=four, options={}, seed=2)
    play(variety, anna, turns=2, pick=variety_calls)
    leopard = services.start_table(
        user=anna, game="leopard", players=[people["Анна"], people["Борис"]], options={}, seed=4
    )
    play(leopard, anna, turns=11)

    night = tournaments.create_tournament(
        user=director,
        name="Клубный вечер",
        game="fantan",
        options={"scoring": "cards"},
        settings={"deals": 2},
        rounds_planned=3,
        seating="mixing",
        seed=11,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
    )
    officials.name_official(tournament=night, account=scorer, role="scorer", by=director)
    run_services.add_entrants(tournament=night, players=[*DEMO, *NEWCOMERS], user=director)
    lot = random.Random(3)
    first = run_services.draw_round(tournament=night, user=director)
    run_services.release_round(round_=first, user=director)
    for typed in first.tables.order_by("number"):
        type_sheet(typed, scorer, lot)
    second = run_services.draw_round(tournament=night, user=director)
    run_services.release_round(round_=second, user=director)
    here, typed, *_ = second.tables.order_by("number")
    table = run_services.play_here(table=here, user=director).hotseat
    play_deal(table, director)
    services.next_deal(table=table, after=1, user=director)
    play(table, director, turns=9, reveal_last=False)
    type_sheet(typed, scorer, lot)
    imported = Tournament.objects.exclude(pk=night.pk).get()
    return {
        "fantan": fantan.get_absolute_url(),
        "variety": variety.get_absolute_url(),
        "leopard": leopard.get_absolute_url(),
        "projector": f"/tournaments/{night.key}/projector/",
        "standings": f"/tournaments/{imported.key}/standings/",
    }


# -- serving and shooting -------------------------------------------------------------------


def serve(env: dict, port: int, log: Path) -> subprocess.Popen:
    with open(log, "w") as out:
        server = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("daphne")),
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "config.asgi:application",
            ],
            cwd=BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"daphne stopped:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    sys.exit(f"daphne did not answer:\n{log.read_text()}")


def shoot(base: str, urls: dict) -> list[Path]:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    saved = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")

        def new_page():
            """A browser of its own (its own cookies), in English; nothing leaves 127.0.0.1."""
            context = browser.new_context(viewport=VIEWPORT, locale="en-GB", base_url=base)
            context.route(
                "**/*",
                lambda route: (
                    route.continue_() if route.request.url.startswith(base + "/") else route.abort()
                ),
            )
            return context.new_page()

        page = new_page()

        def save(name: str, url: str, scroll_to: str | None = None) -> None:
            page.goto(url)
            page.wait_for_load_state("networkidle")
            if scroll_to:
                page.locator(scroll_to).first.evaluate(
                    "e => window.scrollTo(0, e.getBoundingClientRect().top + scrollY - 8)"
                )
            page.mouse.move(0, 0)
            path = OUT / f"{name}.png"
            page.screenshot(path=path)
            saved.append(path)

        page.goto("/accounts/login/")
        page.get_by_label("User name").fill("anna")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in", exact=True).click()
        page.wait_for_url(f"{base}/")
        save("fantan", urls["fantan"], "#table")
        save("variety", urls["variety"], "#table")
        save("leopard", urls["leopard"], "#table")
        page = new_page()  # a visitor's: the tournaments' pages are public
        page.set_viewport_size(PROJECTOR)
        save("projector", urls["projector"])
        page.set_viewport_size(VIEWPORT)
        save("standings", urls["standings"])
        browser.close()
    return saved


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="cardclub-screenshots-") as workdir:
        port = free_port()
        env = configure(Path(workdir))
        manage(env, "migrate", "--noinput")
        manage(env, "seed_demo", "--url", f"http://127.0.0.1:{port}/")
        manage(env, "tournament", "import", str(DOCUMENT))
        urls = build()
        from django.db import connections

        connections.close_all()
        server = serve(env, port, Path(workdir) / "daphne.log")
        try:
            saved = shoot(f"http://127.0.0.1:{port}", urls)
        finally:
            server.terminate()
            server.wait(10)
    for path in saved:
        print(f"{path.relative_to(BASE_DIR)}  {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    sys.path.insert(0, str(BASE_DIR))
    main()
