"""``python -m bench.browser`` (in ``make bench``): a move on the screen, measured in a real
browser against real daphne processes: from the request's start until the screen has
settled, and the server's share of it, for every kind of turn of every game.

Chromium (headless, ``/usr/bin/chromium`` through Playwright) plays whole deals of each game
of the registry at its hotseat table (``/t/<key>/``), as its players would: each turn's own
button clicked (the reveal; a card, a pass, a call, a draw, a card chosen, then laid or
discarded, the end of the deal; now and then a take-back; the next deal once the deal is
over), the move drawn at random among the legal ones. Every move is timed in the page:

- **settled**: from the request's start (its resource timing's ``startTime``, read once the
  request has loaded: the answer may be on the screen before) until the answer is swapped
  in and settled, the page's own handlers of the table's ``htmx:afterSettle`` run, and the
  page laid out (a forced layout after the last ``htmx:afterSettle`` of the answer);
- **server**: from the request's start until its first byte (``responseStart``): the
  network on this machine, daphne and Django;
- beside them, the floors, once the move has settled: **the floor of the swap**: the table
  (``#table``) as the move found it (a copy taken before the click) replaced by the HTML of
  the table it left, and laid out, with no script (then the page's own put back): what
  replacing the whole table costs at this move; then, the page come to rest,
  **/healthz**'s first byte, asked by the page with a bare XHR (the served stack's own
  cost), and its **delivery**: from that first byte until the XHR has the answer's body
  (the browser's own cost of handing an answer to the page, which every move pays);
  and **in-process**: the same request (the same form, on a twin table dealt from the same
  seed and played alike) through Django's test client in this process, as ``manage.py
  bench`` times an action: no network, no server.

The moves alternate between the browser's normal speed and its CPU slowed four times (CDP
``Emulation.setCPUThrottlingRate``: a phone's speed, roughly); the server is never slowed.
Two set-ups, each in a process of its own: one daphne process on a SQLite file with the
in-memory channel layer (as ``make run`` serves), then two daphne processes on a throw-away
PostgreSQL database (``bench_browser``) and Redis (database 7; ``BENCH_BROWSER_REDIS_URL``),
the tables spread over both, skipped with a message when either cannot be reached.
This process writes both set-ups' figures as one table (``bench.figures``), each set-up's
process handing its rows over in a file (``python -m bench.browser sqlite``, run alone,
prints its figures and writes none).

The requirements, for every kind of turn and both speeds, by medians: the server's share
within 1.5 times /healthz's first byte and the same request in-process; the settled screen
within the server's share and twice the swap's floor, move by move (each move's browser
share, settled less its own first byte, against twice the floor taken at that move: the
median of the differences, so that the server's own spread, far wider than the browser's,
does not decide it). Each line says "meets" or "MISSES"; it exits 1 on a miss, on an answer
other than 200, or on a traceback in a process's log.
``BENCH_BROWSER_DEALS``: the deals of each game a set-up plays (default 2); then, while a kind
of turn has fewer than ``FEWEST`` moves at a speed (the next deal, the auction's calls), more
deals of the quickest game that has it.
"""

import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import urlencode

from bench import figures as figures_file
from bench.club import each_setup, say, sqlite_club, throwaway_club, write_rows
from config.machine import machine

REDIS_URL = os.environ.get("BENCH_BROWSER_REDIS_URL", "redis://127.0.0.1:6379/7")
DATABASE = "bench_browser"
DEALS = int(os.environ.get("BENCH_BROWSER_DEALS", "2"))
FEWEST = 7  # moves of each kind at each speed, at least: a median of three is one move's luck
RATES = (1, 4)  # the browser's CPU: normal, and slowed four times
SERVER_RATIO = 1.5  # the server's share, at most, against /healthz + in-process
FLOORS = 2  # the settled screen, at most, the server's share + this many swap floors
TAKE_BACK = 0.08  # how often a move offered for taking back is taken back
PAUSE = 0.01  # seconds between moves, as between a player's clicks: nothing left running
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# Clicks the move's button and resolves once its answer is on the screen: the times of the
# request (resource timing), of the settled screen, and what was posted (for the twin).
MOVE = """async ({fields, selector}) => {
  // the button: the one a selector names, or the one whose form sends these fields
  const wanted = Object.entries(fields || {}).map(([k, v]) => [k, String(v)]);
  const own = new Set(["csrfmiddlewaretoken", "deal", "version", "seat", "at"]);
  let button = null;
  for (const b of document.querySelectorAll(selector || "#table button")) {
    if (!b.form || b.disabled || b.type !== "submit") continue;
    const sent = new Map([...new FormData(b.form, b)].map(([k, v]) => [k, String(v)]));
    if (selector || (wanted.every(([k, v]) => sent.get(k) === v)
        && [...sent.keys()].every((k) => own.has(k) || fields[k] !== undefined))) {
      button = b;
      break;
    }
  }
  if (!button) return {missing: true};
  const form = button.form;
  const posted = [...new FormData(form, button)].map(([k, v]) => [k, String(v)]);
  // (read now: the answer may replace this very form)
  const method = (form.getAttribute("method") || "get").toLowerCase();
  const action = form.getAttribute("action");
  const found = document.getElementById("table").cloneNode(true);
  performance.clearResourceTimings();
  const settled = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no settled answer after 10 s")), 10000);
    let batch = false;
    const seen = () => {
      if (batch) return;
      batch = true;  // the rest of the answer's settling runs in this same task
      queueMicrotask(() => {
        document.body.offsetHeight;  // the layout, forced
        document.removeEventListener("htmx:afterSettle", seen);
        clearTimeout(timer);
        resolve(performance.now());
      });
    };
    document.addEventListener("htmx:afterSettle", seen);
  });
  button.click();
  const end = await settled;
  // the request's timing, once it has loaded (its answer may be on the screen before)
  const entry = await new Promise((resolve) => {
    const loaded = () => performance.getEntriesByType("resource")
      .filter((e) => e.initiatorType === "xmlhttprequest").pop();
    if (loaded()) return resolve(loaded());
    new PerformanceObserver((list, observer) => {
      if (!loaded()) return;
      observer.disconnect();
      resolve(loaded());
    }).observe({type: "resource"});
  });
  return {
    start: entry.startTime, first: entry.responseStart, end, status: entry.responseStatus,
    bytes: entry.encodedBodySize,
    method, action, posted,
    takeBack: !!document.querySelector("#table form.take-back button"),
    swap: swapFloor(found),
    ...(await served()),
  };
}"""

# The floors, once the move has settled: the table the move found (a copy taken before the
# click) replaced by the HTML of the table it left, and laid out: what replacing the whole
# table costs at this move, nothing of htmx's (then the page's own table put back, its
# scroll and its focus too); then, the page come to rest, /healthz's first byte, asked with
# a bare XHR as the table's requests are, and its delivery: from that first byte until the
# XHR has the answer's body.
FLOORS_JS = """async function served() {
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, REST)));
  performance.clearResourceTimings();
  const reached = await new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let at = null;
    xhr.onreadystatechange = () => {
      if (at === null && xhr.readyState >= 3 && xhr.responseText) at = performance.now();
    };
    xhr.onload = () => resolve(at);
    xhr.onerror = () => reject(new Error("/healthz did not answer"));
    xhr.open("GET", "/healthz");
    xhr.setRequestHeader("Cache-Control", "no-store");
    xhr.send();
  });
  const hz = performance.getEntriesByType("resource").pop();
  return {healthz: hz.responseStart - hz.startTime, delivery: reached - hz.responseStart};
}
function swapFloor(found) {
  const table = document.getElementById("table");
  const focused = document.activeElement;
  const scrolled = window.scrollY;
  const html = table.outerHTML;
  table.replaceWith(found);
  document.body.offsetHeight;
  const started = performance.now();
  const template = document.createElement("template");
  template.innerHTML = html;
  const copy = template.content.firstElementChild;
  found.replaceWith(copy);
  document.body.offsetHeight;
  const swap = performance.now() - started;
  copy.replaceWith(table);
  if (focused && focused !== document.body) focused.focus({preventScroll: true});
  window.scrollTo(0, scrolled);
  document.body.offsetHeight;
  return swap;
}"""
REST = 20  # ms after the next frame, for the page to come to rest before /healthz is asked
MOVE = f"async (args) => {{\nconst REST = {REST};\n{FLOORS_JS}\nreturn await ({MOVE})(args);\n}}"


def percentile(values: list[float], p: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


@dataclass
class Kind:
    """One kind of turn at one speed: each move's times, in milliseconds."""

    settled: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)
    healthz: list[float] = field(default_factory=list)
    delivery: list[float] = field(default_factory=list)
    in_process: list[float] = field(default_factory=list)
    swap: list[float] = field(default_factory=list)
    bytes: list[int] = field(default_factory=list)

    def median(self, name: str) -> float:
        return statistics.median(getattr(self, name))

    @property
    def server_bound(self) -> float:
        return SERVER_RATIO * (self.median("healthz") + self.median("in_process"))

    @property
    def browser(self) -> list[float]:
        """Each move's browser share: settled less its own first byte."""
        return [settled - server for settled, server in zip(self.settled, self.server, strict=True)]

    @property
    def over_floors(self) -> float:
        """The median move's browser share less twice its own swap floor: at most 0 meets."""
        return statistics.median(
            share - FLOORS * swap for share, swap in zip(self.browser, self.swap, strict=True)
        )


def moves(figures: dict, kind: str, rate: int) -> int:
    """How many moves of the kind have been timed at the rate."""
    return len(figures[kind, rate].settled) if (kind, rate) in figures else 0


def kind_of(post: dict) -> str:
    """The kind of turn a move is, by what its form sends."""
    fields = post["fields"]
    if post["what"] != "act":
        return post["what"]
    for name in ("card", "pass", "call", "draw", "end", "lay", "discard"):
        if name in fields:
            return name
    return "act"


def next_move(table, rng: random.Random, take_back: bool) -> dict:
    """What the table's screen is to press now, from the deal as the database has it: the
    next deal, the reveal (or now and then the take-back it offers), or a random legal
    action (the step before it, where one is due); its form's fields."""
    from games import registry, selectors
    from games.engine import IllegalAction

    deal = selectors.current_deal(table)
    deal.table = table
    if deal.is_over:
        return {"what": "next-deal", "fields": {}}
    hotseat = selectors.load(deal)
    if hotseat.handoff:
        if take_back and rng.random() < TAKE_BACK:
            return {"what": "take-back", "fields": {}}
        return {"what": "reveal", "fields": {}}
    action = rng.choice(hotseat.state.legal_actions())
    try:
        hotseat.state.check_steps(action)
    except IllegalAction:  # a step (a draw, say) comes first
        action = hotseat.state.steps()[0]
    fields = registry.game(table.game).moves.fields(action)
    # a card laid or discarded is chosen first (its own request: the page with it marked)
    choose = fields.get("lay") or fields.get("discard")
    return {"what": "act", "fields": fields, "choose": choose}


BUTTONS = {
    "reveal": "#table form[action$='/reveal'] button",
    "take-back": "#table form.take-back button",
    "next-deal": "#table form[action$='/next-deal'] button",
}


class Twin:
    """The twin table of the page's, in this process: every request the page sends is sent
    again to it, through Django's test client, and timed."""

    def __init__(self, user, table):
        from django.test import Client

        self.client = Client(HTTP_HOST="127.0.0.1")
        self.client.force_login(user)
        self.table = table

    def replay(self, source_token: str, move: dict) -> float:
        path = move["action"].replace(source_token, self.table.token)
        fields = urlencode([tuple(pair) for pair in move["posted"]])
        started = time.perf_counter()
        if move["method"] == "post":
            response = self.client.post(
                path,
                fields,
                content_type="application/x-www-form-urlencoded",
                HTTP_HX_REQUEST="true",
            )
        else:
            response = self.client.get(f"{path}?{fields}", HTTP_HX_REQUEST="true")
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200:
            raise RuntimeError(f"the twin answered {response.status_code} to {path}")
        return elapsed


def twin_tables(user, game: str, seed: int):
    """Two tables of the game dealt alike: the page's and its twin."""
    from tests.support.live import new_table

    return new_table(user, game, seed), new_table(user, game, seed)


def play(page, cdp, server, user, game: str, seed: int, db, figures: dict, statuses: dict):
    """One whole deal of ``game`` on the page, then its next deal; each move timed. The kinds
    of turn it had."""
    table, twin_table = db.submit(twin_tables, user, game, seed).result()
    twin = db.submit(Twin, user, twin_table).result()
    page.goto(f"{server.url}{table.get_absolute_url()}")
    page.locator("#table").wait_for()
    rng = random.Random(seed)
    take_back = False
    throttled = 1
    kinds = set()
    while True:
        move = db.submit(next_move, table, rng, take_back).result()
        steps = []
        if move.get("choose"):
            steps.append(("choose", {"card": move["choose"]}))
        if move["what"] == "act":
            steps.append((kind_of(move), move["fields"]))
        else:
            steps.append((move["what"], None))
        for kind, fields in steps:
            # each kind of turn at each speed in turn
            rate = RATES[sum(moves(figures, kind, r) for r in RATES) % 2]
            if rate != throttled:
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                throttled = rate
            time.sleep(PAUSE)
            answer = page.evaluate(MOVE, {"fields": fields, "selector": BUTTONS.get(kind)})
            if answer.get("missing"):
                raise RuntimeError(f"{game}: no button for {kind} {fields} on the page")
            in_process = db.submit(twin.replay, table.token, answer).result()
            figures_of = figures.setdefault((kind, rate), Kind())
            figures_of.settled.append(answer["end"] - answer["start"])
            figures_of.server.append(answer["first"] - answer["start"])
            figures_of.bytes.append(answer["bytes"])
            figures_of.healthz.append(answer["healthz"])
            figures_of.delivery.append(answer["delivery"])
            figures_of.swap.append(answer["swap"])
            figures_of.in_process.append(in_process)
            statuses[answer["status"]] = statuses.get(answer["status"], 0) + 1
            take_back = answer["takeBack"] and kind != "take-back"
            kinds.add(kind)
        if move["what"] == "next-deal":
            return kinds


def deals(figures: dict, games: list[str]):
    """The games to deal, one at a time: each of ``games`` DEALS times; then, while a kind of
    turn has fewer than FEWEST moves at a speed, the quickest game (by its deals' seconds so
    far) that has it. Told each deal's kinds of turn and seconds by ``send``."""
    planned = [game for _ in range(DEALS) for game in games]
    had: dict[str, set] = {game: set() for game in games}
    seconds: dict[str, list[float]] = {game: [] for game in games}
    while True:
        if planned:
            game = planned.pop(0)
        else:
            few = {
                kind
                for kinds in had.values()
                for kind in kinds
                if min(moves(figures, kind, rate) for rate in RATES) < FEWEST
            }
            if not few:
                return
            game = min(
                (g for g in games if had[g] & few), key=lambda g: statistics.mean(seconds[g])
            )
        kinds, took = yield game
        had[game] |= kinds
        seconds[game].append(took)


def signed_in(browser, server, member):
    """A laptop's tab, signed in as the member (his session cookie): its context, the tab and
    the script errors it will collect."""
    context = browser.new_context(locale="ru-RU", viewport={"width": 1280, "height": 800})
    context.add_cookies(
        [{"name": "sessionid", "value": member.cookies["sessionid"], "url": server.url}]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def run(setup: str, processes: int, env: dict, user) -> dict:
    from playwright.sync_api import sync_playwright

    from games.registry import GAMES
    from tests.support.servers import Member, Servers

    figures: dict = {}
    statuses: dict = {}
    db = ThreadPoolExecutor(1)  # the database and the test client, off Playwright's loop
    member = db.submit(Member, user).result()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as logs:
        with Servers(processes, env, log_dir=logs) as servers, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            try:
                dealt = deals(figures, list(GAMES))
                game = next(dealt)
                for n in itertools.count():
                    server = servers[n % len(servers)]
                    context, page, errors = signed_in(browser, server, member)
                    began = time.monotonic()
                    try:
                        cdp = context.new_cdp_session(page)
                        kinds = play(page, cdp, server, user, game, n + 1, db, figures, statuses)
                    finally:
                        context.close()
                    if errors:
                        raise RuntimeError(f"{game}: script errors on the page: {errors}")
                    try:
                        game = dealt.send((kinds, time.monotonic() - began))
                    except StopIteration:
                        break
            finally:
                browser.close()
            servers.stop()
            servers.check()
    db.submit(lambda: __import__("django.db").db.connections.close_all()).result()
    db.shutdown()
    return {
        "setup": setup,
        "seconds": time.monotonic() - started,
        "deals": n + 1,
        "statuses": statuses,
        "kinds": {
            f"{kind} {rate}": vars(values) for (kind, rate), values in sorted(figures.items())
        },
    }


ORDER = "reveal card pass call draw choose lay discard end take-back next-deal".split()


def report(result: dict) -> bool:
    """Prints the set-up's table; whether every kind of turn meets the requirements."""
    say(
        f"browser {result['setup']}: {result['deals']} deals, "
        f"{sum(result['statuses'].values())} moves in {result['seconds']:.0f} s; medians and "
        "95th percentiles in ms, CPU x1 and x4"
    )
    say(
        "| turn | CPU | moves | settled: median, p95 | server: median, p95 | browser: "
        "median, p95 | /healthz | in-process | delivery | swap floor | KB | server <= "
        f"{SERVER_RATIO} x (healthz + in-process) | browser - {FLOORS} x floor, by move <= 0 |"
    )
    say("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    met = True
    kinds = {name: Kind(**values) for name, values in result["kinds"].items()}
    for name in sorted(kinds, key=lambda n: (ORDER.index(n.split()[0]), n)):
        k = kinds[name]
        turn, rate = name.split()
        server_ok = k.median("server") <= k.server_bound
        settled_ok = k.over_floors <= 0
        met = met and server_ok and settled_ok
        say(
            f"| {turn} | x{rate} | {len(k.settled)} | {k.median('settled'):.1f}, "
            f"{percentile(k.settled, 95):.1f} | {k.median('server'):.1f}, "
            f"{percentile(k.server, 95):.1f} | {statistics.median(k.browser):.1f}, "
            f"{percentile(k.browser, 95):.1f} | {k.median('healthz'):.1f} | "
            f"{k.median('in_process'):.1f} | {k.median('delivery'):.1f} | "
            f"{k.median('swap'):.1f} | "
            f"{statistics.median(k.bytes) / 1024:.1f} | "
            f"{k.server_bound:.1f}: {'meets' if server_ok else 'MISSES'} | "
            f"{k.over_floors:.1f}: {'meets' if settled_ok else 'MISSES'} |"
        )
    return met


def setup_sqlite() -> dict | None:
    with sqlite_club() as (env, user):
        say(
            f"browser machine: {machine()}; SQLite in {tempfile.gettempdir()}, the in-memory "
            "channel layer, 1 daphne process"
        )
        return run(LABELS["sqlite"], 1, env, user)


def setup_postgresql() -> dict | None:
    with throwaway_club("browser benchmark on PostgreSQL and Redis", DATABASE, REDIS_URL) as club:
        if club is None:
            return None
        env, user = club
        say(
            f"browser machine: {machine()}; PostgreSQL and Redis (db 7) on this machine, "
            "2 daphne processes"
        )
        return run(LABELS["postgresql"], 2, env, user)


SETUPS = {"sqlite": setup_sqlite, "postgresql": setup_postgresql}
LABELS = {"sqlite": "SQLite, 1 process", "postgresql": "PostgreSQL and Redis, 2 processes"}
COLUMNS = [
    "set-up",
    "turn",
    "CPU",
    "moves",
    "settled (p95)",
    "server (p95)",
    "browser (p95)",
    "/healthz",
    "in-process",
    "delivery",
    "swap floor",
    "answer",
    f"server ≤ {SERVER_RATIO} × (healthz + in-process)",
    f"browser − {FLOORS} × floor, median move ≤ 0",
]


def rows(result: dict) -> list[list]:
    """The set-up's lines of the figures file's table, medians in ms."""
    kinds = {name: Kind(**values) for name, values in result["kinds"].items()}
    lines = []
    for name in sorted(kinds, key=lambda n: (ORDER.index(n.split()[0]), n)):
        k = kinds[name]
        turn, rate = name.split()
        lines.append(
            [
                result["setup"],
                turn,
                f"×{rate}",
                len(k.settled),
                f"{k.median('settled'):.1f} ({percentile(k.settled, 95):.1f})",
                f"{k.median('server'):.1f} ({percentile(k.server, 95):.1f})",
                f"{statistics.median(k.browser):.1f} ({percentile(k.browser, 95):.1f})",
                f"{k.median('healthz'):.1f}",
                f"{k.median('in_process'):.1f}",
                f"{k.median('delivery'):.1f}",
                f"{k.median('swap'):.1f}",
                f"{statistics.median(k.bytes) / 1024:.1f} KB",
                f"{k.server_bound:.1f}: "
                + figures_file.verdict(k.median("server") <= k.server_bound),
                f"{k.over_floors:.1f}: {figures_file.verdict(k.over_floors <= 0)}",
            ]
        )
    return lines


def main(argv: list[str]) -> int:
    if not os.path.exists(CHROMIUM):
        say(f"browser benchmark skipped: {CHROMIUM} is missing (apt-get install chromium)")
        return 0
    if argv:  # one set-up, in this process; its rows into the file named after it, if any
        result = SETUPS[argv[0]]()
        if result is None:
            return 0
        met = report(result)
        others = {k: v for k, v in result["statuses"].items() if k != 200}
        write_rows(
            argv,
            rows(result),
            [
                f"{result['setup']}: {result['deals']} deals, "
                f"{sum(result['statuses'].values())} moves in {result['seconds']:.0f} s"
                + (f"; other answers {others}." if others else ".")
            ],
        )
        return 0 if met and set(result["statuses"]) == {200} else 1
    code, lines, notes = each_setup("bench.browser", LABELS)
    if lines:
        figures_file.record(
            "browser",
            "A move on the screen",
            "python -m bench.browser",
            COLUMNS,
            lines,
            [
                "Medians in ms, the 95th percentiles in brackets; chromium 1280×800, the "
                "daphne processes on the same machine.",
                *notes,
            ],
        )
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
