"""Every kind of page of the site, with the data that shows it: tables of each game in each
phase of a deal (the hand-off screen, each kind of turn, the deal over), their spectators'
pages and replays, each game's seat pages on devices, a tournament with a released round and
a table's entry link, the standings and chart of a tournament of two rounds played, a season
of the Выборы tournaments with its chart, the ladders and a player's ratings with their
chart, and the members' pages.

``build(user)`` makes the data (through the services, as play would) and returns the pages
as (name, address) pairs: first those a visitor sees, then those of the signed-in ``user``,
who is made a director and an organiser (tests/browser/test_accessibility.py runs axe on each
of them, as staff).
"""

from django.contrib.auth.models import Group

from club.models import Player
from club.roles import DIRECTOR, ORGANISER
from games import registry, selectors, services
from tests.support import EXAMPLES
from tournaments import document
from tournaments import services as tournament_services
from tournaments.models import Tournament
from tournaments.run import services as run_services
from tournaments.seasons import services as season_services

NAMES = ["Анна", "Борис", "Вера", "Глеб"]
LIMIT = 1500  # events: far more than any deal below needs


def current(table):
    deal = selectors.current_deal(table)
    deal.table = table
    return deal


def leopard_move(state) -> dict | None:
    """Леопард's move: end the deal once he may, else draw (None: the step) and lay as
    tests/support/leopard.py steers, towards the points that end a deal."""
    from tests.support.leopard import steer

    if state.drawn:
        return steer(state)
    return {"end": True} if state.may_end(state.to_act) else None


MOVES = {"leopard": leopard_move}  # other games: their first legal action


def advance(table, user, until=None):
    """Play the table's current deal through the services, revealing hands as the screen
    does, until ``until(hotseat)`` holds (by default: until the deal is over)."""
    until = until or (lambda hotseat: hotseat.state.is_over())
    move = MOVES.get(table.game, lambda state: None)
    for _ in range(LIMIT):
        deal = current(table)
        hotseat = selectors.load(deal)
        if until(hotseat):
            return hotseat
        if hotseat.state.is_over():
            raise AssertionError(f"the {table.game} deal ended before the state asked for")
        state = hotseat.state
        seat = state.to_act
        if hotseat.handoff:
            services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=user)
            continue
        action = move(state) or (state.steps() or state.legal_actions())[0]
        services.play(
            deal=deal,
            seat=seat,
            expected_version=deal.version,
            user=user,
            action={k: v for k, v in action.items() if k != "seat"},
            device=seat in hotseat.devices,  # a device seat plays from its own page
        )
    raise AssertionError(f"the {table.game} deal never reached the state asked for")


def new_table(user, game, **options):
    seats = registry.rules(game).seats(registry.rules(game).parse_options(options))
    return services.start_table(
        user=user, game=game, players=NAMES[:seats], options=options, seed=7
    )


def shown(hotseat) -> bool:
    return not hotseat.handoff and not hotseat.state.is_over()


def view(hotseat) -> dict:
    return hotseat.state.view(hotseat.state.to_act)


def table_in(user, game, until, **options):
    table = new_table(user, game, **options)
    advance(table, user, until)
    return table


def device_pages(user) -> tuple[list, list]:
    """Each game's table with every seat on its own device: (the seats' pages, the seat to
    act's at his turn and the next seat's waiting; the shared screen's, waiting for him)."""
    seat_pages, screens = [], []
    for game in sorted(registry.GAMES):
        seats = registry.rules(game).seats(registry.rules(game).parse_options({}))
        table = services.start_table(
            user=user,
            game=game,
            players=NAMES[:seats],
            options={},
            seed=7,
            devices=set(range(seats)),
        )
        to_act = selectors.load(current(table)).state.to_act
        by_position = {seat.position: seat for seat in table.seats.all()}
        seat_pages.append((f"{game} seat: his turn", by_position[to_act].get_absolute_url()))
        waiting = by_position[(to_act + 1) % seats]
        seat_pages.append((f"{game} seat: waiting", waiting.get_absolute_url()))
        screens.append((f"{game} shared screen: waiting for a device", table.get_absolute_url()))
    return seat_pages, screens


def leopard_chosen(table) -> str:
    """The address of a Леопард turn with a card chosen that may be laid: its places marked."""
    hotseat = selectors.load(current(table))
    lay = next(a for a in hotseat.state.legal_actions() if "lay" in a)
    hand = [
        entry.code
        for entry in selectors.table_page(table, current(table), chosen=lay["lay"]).board.hand
    ]
    return f"{table.get_absolute_url()}?card={lay['lay']}&at={hand.index(lay['lay'])}"


def build(user) -> tuple[list, list]:
    """(the visitor's pages, the member's pages): lists of (name, address)."""
    user.groups.add(Group.objects.get(name=DIRECTOR))
    user.groups.add(Group.objects.get_or_create(name=ORGANISER)[0])  # the members' page
    for name in NAMES:
        Player.objects.get_or_create(name=name)
    tables = {}
    # Фантан: each kind of turn, and a finished deal
    tables["fantan handoff"] = new_table(user, "fantan")
    tables["fantan turn: cards to lay"] = table_in(
        user, "fantan", lambda h: shown(h) and view(h)["playable"] and not view(h)["extra"]
    )
    tables["fantan turn: nothing to lay"] = table_in(
        user, "fantan", lambda h: shown(h) and not view(h)["playable"]
    )
    tables["fantan turn: a card more after an ace"] = table_in(
        user, "fantan", lambda h: shown(h) and view(h)["extra"], ace_extra=True
    )
    tables["fantan deal over"] = table_in(user, "fantan", None)
    # Выборы: the auction, a trick being played, a finished deal (the cycle's sheet)
    tables["variety handoff"] = new_table(user, "variety")
    tables["variety turn: auction"] = table_in(
        user, "variety", lambda h: shown(h) and view(h)["phase"] == "auction" and view(h)["calls"]
    )
    tables["variety turn: trick"] = table_in(
        user,
        "variety",
        lambda h: (
            shown(h) and view(h)["phase"] == "play" and view(h)["trick"] and view(h)["last_trick"]
        ),
    )
    tables["variety deal over"] = table_in(user, "variety", None)
    # Леопард: the draw, the choice of a card, a finished deal (the match's sheet)
    tables["leopard handoff"] = new_table(user, "leopard")
    tables["leopard turn: draw"] = table_in(
        user, "leopard", lambda h: shown(h) and view(h)["may_draw"] and len(h.actions) > 12
    )
    tables["leopard turn: choose a card"] = table_in(
        user, "leopard", lambda h: shown(h) and not view(h)["may_draw"] and len(h.actions) > 12
    )
    tables["leopard deal over"] = table_in(user, "leopard", None)

    visitor = [
        ("home", "/"),
        ("sign-in", "/accounts/login/"),
        ("replay upload", "/replay/"),
        ("not found", "/no-such-page/"),
    ]
    visitor += [(f"{game} rules", f"/rules/{game}/") for game in sorted(registry.GAMES)]
    member = [(f"{game} new table", f"/tables/new/{game}/") for game in sorted(registry.GAMES)]
    member += [(name, table.get_absolute_url()) for name, table in tables.items()]
    member.append(
        ("leopard turn: a card chosen", leopard_chosen(tables["leopard turn: choose a card"]))
    )
    for game in sorted(registry.GAMES):
        playing = next(t for n, t in tables.items() if n.startswith(f"{game} turn"))
        over = tables[f"{game} deal over"]
        visitor.append((f"{game} spectators", playing.get_watch_url()))
        member.append((f"{game} replay", f"{over.get_absolute_url()}deals/1/replay/?step=9"))
    for game in ("variety", "leopard"):
        member.append(
            (f"{game} score sheet", f"{tables[f'{game} deal over'].get_absolute_url()}cycles/1/")
        )
    member += [
        ("members", "/members/"),
        ("account", "/account/"),
        ("password change", "/account/password/"),
    ]
    seat_pages, screens = device_pages(user)
    visitor += seat_pages  # a seat's link needs no sign-in
    member += screens
    pages = tournament(user)
    visitor += pages["public"]
    member += pages["director"]
    visitor.append(("tournament standings with its chart", charted_standings()))
    visitor += ladder_pages()
    pages = season(user)
    visitor += pages["public"]
    member += pages["director"]
    return visitor, member


def season(user) -> dict:
    """A season of the Выборы tournaments above: its standings, its leaders' chart, and its
    management page."""
    made = season_services.create_season(
        user=user, name="Осень", game="variety", scoring="places", place_points=[10, 8, 6, 5]
    )
    for joining in Tournament.objects.filter(game="variety").order_by("date", "pk"):
        made = season_services.add_tournament(
            season=made, tournament=joining, user=user, version=made.version
        )
    base = f"/tournaments/seasons/{made.key}/"
    return {
        "public": [("season", base)],
        "director": [
            ("new season", "/tournaments/seasons/new/"),
            ("season manage", f"{base}manage/"),
        ],
    }


def ladder_pages() -> list:
    """The ladders, and a player's page with his ratings and their chart: the Фантан example
    tournament imported (its two rounds' tables rated)."""
    text = (EXAMPLES / "fantan-seven.json").read_text(encoding="utf-8")
    tournament_services.import_document(doc=document.read(text))
    player = Player.objects.get(name="Никита")
    return [
        ("ladders", "/ratings/"),
        ("fantan ladder", "/ratings/fantan/"),
        ("player's ratings with their chart", f"/ratings/players/{player.pk}/"),
    ]


def charted_standings() -> str:
    """The standings of a tournament of two rounds played (its tables counted): with the
    chart of places after each round."""
    text = (EXAMPLES / "variety-five.json").read_text(encoding="utf-8")
    made = tournament_services.import_document(doc=document.read(text))
    return f"/tournaments/{made.key}/standings/"


def tournament(user) -> dict:
    """A Выборы tournament of nine (two tables and a bye), its first round released, one
    table played here, the other's sheet to type in."""
    made = tournament_services.create_tournament(
        user=user,
        name="Кубок",
        game="variety",
        options={"cycle": "short"},
        settings={},
        rounds_planned=3,
        seating="mixing",
        seed=7,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
    )
    for name in NAMES + ["Дарья", "Alice", "Bob", "Carol", "Dave"]:
        run_services.add_entrant(tournament=made, player=name, user=user)
    first = run_services.draw_round(tournament=made, user=user)
    run_services.release_round(round_=first, user=user)
    played, typed = first.tables.order_by("number")
    run_services.play_here(table=played, user=user)
    base = f"/tournaments/{made.key}/"
    entrant = made.entrants.select_related("player").first()
    public = [
        ("tournaments", "/tournaments/"),
        ("tournament", base),
        ("tournament round", f"{base}rounds/1/"),
        ("tournament standings", f"{base}standings/"),
        ("tournament projector", f"{base}projector/"),
        ("player's tournaments", f"/ratings/players/{entrant.player.pk}/"),
        ("table's entry link", f"/e/{typed.entry_key}/"),  # its players' phones, no sign-in
    ]
    director = [
        ("new tournament", "/tournaments/new/variety/"),
        ("tournament run", f"{base}run/"),
        ("withdrawal's confirmation", f"{base}run/entrants/{entrant.pk}/withdraw"),
        ("round's paper sheets", f"{base}rounds/1/sheets/"),
        ("table's sheet", f"{base}tables/{typed.pk}/sheet/"),
    ]
    return {"public": public, "director": director}
