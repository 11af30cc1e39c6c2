"""The sections of the two management commands' figures (``manage.py bench``,
``manage.py bench_tournaments``) in the figures file (``bench.figures``), each made from the
figures the command prints with ``--json``."""

from bench import figures as figures_file


def bench(figures: dict, *, deals: int, nth: int, most_ratio: float) -> None:
    """``manage.py bench``: a column a game."""
    games = list(figures["simulate"])

    def row(what: str, of: dict, text) -> list[str]:
        return [what, *(text(of[key]) if key in of else "—" for key in games)]

    hotseat, devices = figures["hotseat"], figures["devices"]
    actions = next(iter(hotseat.values()))["actions"]
    rows = [
        row("`simulate GAME`: random deals a second", figures["simulate"], "{:,.0f}".format),
        row(
            f"one hotseat action, median of {actions}",
            hotseat,
            lambda h: f"{h['action_ms']:.2f} ms",
        ),
        row(
            f"SQL queries of one action: the first and the {nth}th of a deal "
            "(the deal's fewest to most)",
            hotseat,
            lambda h: (
                f"{h['queries_first']} and {h['queries_nth'] or '—'} "
                f"({h['queries_min']} to {h['queries_max']})"
            ),
        ),
        row(
            f"one action from a seat's own device, median of {actions}",
            devices,
            lambda d: f"{d['device_ms']:.2f} ms",
        ),
        row(
            "the same at the shared screen, in turn", devices, lambda d: f"{d['shared_ms']:.2f} ms"
        ),
        row(
            f"device against shared screen (required: at most {most_ratio})",
            devices,
            lambda d: f"{d['ratio']:.2f}: {figures_file.verdict(d['ratio'] <= most_ratio)}",
        ),
    ]
    if "durability" in figures:
        d = figures["durability"]
        rows.append(
            row(
                f"one action, SQLite `synchronous` FULL (as served) against NORMAL, in turn, "
                f"medians of {actions} each",
                {d["game"]: d},
                lambda d: f"{d['full_ms']:.2f} ms against {d['normal_ms']:.2f} ms",
            )
        )
    rows.append(
        row(
            "SQL queries of the score-sheet page, after the cycle's first deal and its last",
            figures["score_sheet"],
            lambda q: " and ".join(str(count) for count in q.values()),
        )
    )
    notes = [f"The trivial view (`/healthz`): median {figures['trivial_ms']:.2f} ms."]
    if "durability" in figures:
        notes.append(f"The database in {figures['durability']['folder']}.")
    figures_file.record(
        "bench",
        "Engines, actions and queries",
        f"python manage.py bench --deals {deals}",
        ["what", *games],
        rows,
        notes,
        machine=figures["machine"],
    )


def tournaments(figures: dict, *, players: int, rounds: int) -> None:
    """``manage.py bench_tournaments``."""
    game, s, i = figures["game"], figures["seating"], figures["import"]
    rows = [
        [
            f"`seating {game} --players {players} --rounds {rounds}` (mixing)",
            f"{s['seconds']:.2f} s, {s['repeats']} repeats",
        ],
        [
            f"import of a {players}-player, {rounds}-round {game} tournament document "
            f"({i['rows']:,} sheet rows)",
            f"{i['seconds']:.2f} s",
        ],
    ]
    for page, p in figures["pages"].items():
        name = page.removeprefix("tournament-")
        rows += [
            [
                f"SQL queries of the {name} page, 8 players and {players} players",
                f"{p['queries_small']} and {p['queries_big']}",
            ],
            [
                f"the {name} page of the {players}-player tournament, median render",
                f"{p['big_ms']:.0f} ms",
            ],
        ]
    figures_file.record(
        "bench_tournaments",
        "Tournaments",
        f"python manage.py bench_tournaments --game {game} --players {players} --rounds {rounds}",
        ["what", "figure"],
        rows,
    )


def duplicate(
    figures: dict, *, players: int, rounds: int, ratio_most: float, deals_most: float
) -> None:
    """``manage.py bench_duplicate``."""
    game, q, p, d = figures["game"], figures["queries"], figures["pages"], figures["deals"]
    groups = group_names(d["groups"])
    rows = [
        [
            f"SQL queries of a duplicate {game} tournament's standings page, 8 players and "
            f"{players} players (required: the same)",
            f"{q['small']} and {q['big']}: {figures_file.verdict(q['small'] == q['big'])}",
        ],
        [
            f"the standings page of the {players}-player, {rounds}-round tournament, duplicate "
            f"and not, medians of renders in turn (required: a ratio under {ratio_most})",
            f"{p['duplicate_ms']:.0f} ms and {p['plain_ms']:.0f} ms, ratio {p['ratio']:.2f}: "
            f"{figures_file.verdict(p['ratio'] < ratio_most)}",
        ],
        [
            f"a round's deals and hand records ({groups}), median and slowest "
            f"(required: under {deals_most * 1000:.0f} ms)",
            f"{d['median_ms']:.2f} ms and {d['slowest_ms']:.2f} ms: "
            f"{figures_file.verdict(d['slowest_ms'] < deals_most * 1000)}",
        ],
    ]
    figures_file.record(
        "bench_duplicate",
        "Duplicate tournaments",
        f"python manage.py bench_duplicate --game {game} --players {players} --rounds {rounds}",
        ["what", "figure"],
        rows,
    )


def group_names(groups: list[dict]) -> str:
    """A round's groups in words: "50 tables of 4, 8 deals"."""
    return ", ".join(f"{g['tables']} tables of {g['size']}, {g['deals']} deals" for g in groups)
