"""Reads that pages share, each at a fixed number of queries however long the deal."""

from django.db.models import Prefetch
from django.utils.translation import gettext_lazy as _

from . import services
from .engine.cards import RANKS, SUITS, card_index, sort_for_hand
from .engine.leopard import LINES as LEOPARD_LINES
from .engine.leopard import PLACES as LEOPARD_PLACES
from .engine.variety import SAY_LENGTH, TRUMPS
from .models import Cycle, Deal, DealEvent, Seat, Table


def table_by_token(token: str) -> Table:
    """The table with its seats and players (2 queries). Table.DoesNotExist if none."""
    return (Table.objects.select_related("created_by")
            .prefetch_related(Prefetch("seats", Seat.objects.select_related("player")))
            .get(token=token))


def current_deal(table: Table) -> Deal:
    deal = table.deals.select_related("cycle").order_by("-number").first()
    deal.table = table
    return deal


def can_host(user, table: Table) -> bool:
    """The hotseat screen belongs to whoever started the table (and the directors)."""
    return user.is_authenticated and (user.pk == table.created_by_id or user.is_staff)


def names(table: Table) -> list[str]:
    return [seat.player.name for seat in table.seats.all()]


def table_page(table: Table, deal: Deal, chosen: str | None = None) -> dict:
    """What the hotseat page shows, holding no hand but that of the player at the screen.
    ``chosen``: Леопард, the card the player has picked, to show where it may go."""
    players = names(table)
    hotseat = services.load(deal)
    state = hotseat.state
    if state.is_over():
        mode = "over"
    elif hotseat.handoff:
        mode = "handoff"
    else:
        mode = "turn"
    view = state.view(state.to_act if mode == "turn" else None, drawn=hotseat.drawn)
    to_act = view["to_act"]
    take_back_seat = hotseat.take_back_seat()
    context = {
        "table": table,
        "deal": deal,
        "game": table.game,
        "players": players,
        "mode": mode,
        "view": view,
        "hand": sort_for_hand(view["hand"]) if mode == "turn" else [],
        "playable": set(view.get("playable", ())),
        "to_act_name": players[to_act] if to_act is not None else None,
        "take_back": ({"seat": take_back_seat, "name": players[take_back_seat]}
                      if take_back_seat is not None else None),
        "log": deal_log(deal, players),
        "drawn": hotseat.drawn,
    }
    if deal.cycle_id:
        sheet = cycle_table(deal.cycle, players, deal)
        # deals of a cycle are played in turn: only its last can be unfinished
        context["cycle"] = sheet
        context["cycle_position"] = len(sheet["rows"]) + (0 if deal.is_over else 1)
    context.update(GAME_PAGES[table.game](context, table, deal, view, players))
    if table.game == "leopard":
        context.update(leopard_choice(state, view, chosen if mode == "turn" else None))
    context["seats"] = seats(view, deal, players, context.get("sides"))
    return context


def seats(view: dict, deal: Deal, players: list[str], sides: dict | None) -> list[dict]:
    place = {seat: i + 1 for i, seat in enumerate(view.get("finish_order", []))}
    return [{"index": i, "name": name, "count": view["counts"][i], "dealer": i == deal.dealer,
             "to_act": i == view["to_act"], "place": place.get(i),
             "side": sides["of"][i] if sides else None}
            for i, name in enumerate(players)]


def fantan_page(context, table, deal, view, players) -> dict:
    """Fantan: the four suit rows, and the table's running total."""
    start = RANKS.index(view["start_rank"])
    rows = []
    for row in view["rows"]:
        on_table = set(row["cards"])
        rows.append({"suit": row["suit"], "slots": [
            {"code": rank + row["suit"] if rank + row["suit"] in on_table else None,
             "start": i == start}
            for i, rank in enumerate(RANKS)]})
    return {
        "rows": rows,
        "finish": [{"place": i + 1, "name": players[s]}
                   for i, s in enumerate(view["finish_order"])],
        "totals": table_totals(table, players),
    }


def variety_page(context, table, deal, view, players) -> dict:
    """Выборы: the auction, the contract and the sides, the trick, the cycle's sheet."""
    variety_sheet(context["cycle"])
    sides = None
    if view["attackers"]:
        sides = {"attackers": [players[s] for s in view["attackers"]],
                 "defenders": [players[s] for s in view["defenders"]],
                 "of": {s: ("attack" if s in view["attackers"] else "defence")
                        for s in range(4)},
                 "tricks": [sum(view["tricks"][s] for s in view[side])
                            for side in ("attackers", "defenders")]}
    trick = {play["seat"]: play["card"] for play in view["trick"]}
    base = view["to_act"] or 0
    return {
        "contracts": CONTRACTS,
        "contract": CONTRACTS[view["contract"] - 1] if view["contract"] else None,
        "sides": sides,
        "calls": [{**call, "name": players[call["seat"]]} for call in view["calls"]],
        "called": set(view["called"]),
        "say_length": SAY_LENGTH,
            # the trick round the table, the player to act at the bottom, the next on his left
        "trick": [{"seat": s, "name": players[s], "card": trick.get(s),
                   "place": ("bottom", "left", "top", "right")[(s - base) % 4],
                   "led": bool(view["trick"]) and view["trick"][0]["seat"] == s}
                  for s in range(4)],
        "last_trick": ([{**play, "name": players[play["seat"]]} for play in view["last_trick"]]
                       if view["last_trick"] else None),
        "last_winner": players[view["last_winner"]] if view["last_winner"] is not None else None,
    }


def contract(number, counts) -> dict:
    trump = TRUMPS[number]
    return {"number": number, "trumps": SUITS[trump] if trump is not None else None,
            "counts": counts}


# Выборы's eight contracts as the auction shows them: trumps, and what the tricks count.
def leopard_page(context, table, deal, view, players) -> dict:
    """Леопард: the two squares with their points and scoring lines."""
    squares = []
    for seat, square in enumerate(view["squares"]):
        lines = [{"places": [LEOPARD_PLACES[i] for i in line], "points": points}
                 for line, points in zip(LEOPARD_LINES, view["lines"][seat], strict=True)
                 if points]
        squares.append({"seat": seat, "name": players[seat], "places": square,
                        "sum": view["sums"][seat], "lines": lines,
                        "scoring": {i for line, points in zip(LEOPARD_LINES,
                                                              view["lines"][seat],
                                                              strict=True)
                                    if points for i in line}})
    return {"squares": squares,
            "ender": players[view["ender"]] if view["ender"] is not None else None,
            "opponent": players[1 - view["to_act"]] if view["to_act"] is not None else None}


def leopard_choice(state, view, chosen: str | None) -> dict:
    """The hand after the draw, and for the chosen card every place it may go."""
    if not view["drawn"]:
        return {"chosen": None, "targets": set()}
    drawn = view["drawn"]
    codes = view["hand"] + [drawn]
    if chosen not in codes:
        chosen = None
    targets = set()
    if chosen:
        targets = {(square, LEOPARD_PLACES[place])
                   for square, place in state.places_for(view["to_act"], card_index(chosen))}
    # the drawn card after the hand, marked: with two packs its twin may be in the hand
    hand = [{"code": code, "drawn": False} for code in sort_for_hand(view["hand"])]
    hand.append({"code": drawn, "drawn": True})
    marked = next(e for e in reversed(hand) if e["code"] == chosen) if chosen else None
    for entry in hand:
        entry["chosen"] = entry is marked
    return {"hand": hand, "chosen": chosen, "targets": targets}


CONTRACTS = [
    contract(1, _("the side with more tricks: +12")),
    contract(2, _("+2 a trick")),
    contract(3, _("+2 a spade")),
    contract(4, _("+1 a red card, −1 a black card")),
    contract(5, _("+5 a black ten or jack, −5 a red ten or jack")),
    contract(6, _("+1 a red card; the lowest card wins the trick")),
    contract(7, _("−2 a club")),
    contract(8, _("−2 a trick")),
]
GAME_PAGES = {"fantan": fantan_page, "variety": variety_page, "leopard": leopard_page}


def deal_log(deal: Deal, players: list[str]) -> list[dict]:
    """The deal's events in order; showing a hand on the screen is not an entry."""
    entries = []
    for event in deal.events.all():
        if event.kind == DealEvent.Kind.REVEAL:
            continue
        data = event.data["undone"] if event.kind == DealEvent.Kind.TAKE_BACK else event.data
        if event.kind == DealEvent.Kind.DRAW:
            entries.append({"index": event.index, "kind": "draw", "name": players[event.seat]})
            continue
        lay = data.get("lay")
        face_down = lay is not None and lay[0] in "JQ"  # Леопард: nobody sees its face
        entries.append({"index": event.index, "kind": event.kind, "name": players[event.seat],
                        "card": data.get("play") or data.get("discard")
                        or (None if face_down else lay),
                        "passed": bool(data.get("pass")),
                        "call": data.get("call"), "say": data.get("say"),
                        "discard": "discard" in data, "lay": lay is not None,
                        "face_down": face_down, "ended": bool(data.get("end")),
                        "square": players[data["square"]] if lay is not None else None,
                        "place": data.get("place") or (lay and lay[0])})
    return entries


def table_totals(table: Table, players: list[str]) -> dict:
    """Each finished deal's scores and their running total (1 query)."""
    rows = []
    totals = [0] * len(players)
    for number, dealer, result in (table.deals.filter(is_over=True).order_by("number")
                                   .values_list("number", "dealer", "result")):
        scores = result["scores"]
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        rows.append({"number": number, "dealer": players[dealer], "scores": scores})
    return {"rows": rows, "totals": totals}


def cycle_table(cycle: Cycle, players: list[str], latest: Deal | None = None) -> dict:
    """The cycle's (or match's) score sheet: a column per player, a row per finished deal,
    the totals and, once it is complete, its winners (1 query)."""
    rows = []
    totals = [0] * len(players)
    deals = (cycle.deals.filter(is_over=True).order_by("number")
             .values_list("number", "dealer", "result"))
    results = []
    for position, (number, dealer, result) in enumerate(deals, start=1):
        results.append(result)
        totals = [t + s for t, s in zip(totals, result["scores"], strict=True)]
        rows.append({"position": position, "number": number, "dealer": players[dealer],
                     "result": result, "scores": result["scores"],
                     "new": latest is not None and latest.is_over and number == latest.number})
    complete = cycle.is_complete(results)
    best = max(totals) if complete else None
    return {"cycle": cycle, "rows": rows, "totals": totals, "complete": complete,
            "winners": [players[s] for s, t in enumerate(totals) if t == best]
            if complete else [],
            "players": players}


def variety_sheet(sheet: dict) -> dict:
    """Выборы' rows also name the contract, the attackers, and mark the defenders' bonus."""
    players = sheet["players"]
    for row in sheet["rows"]:
        result = row["result"]
        row["contract"] = result["contract"]
        row["attackers"] = [players[s] for s in result["attackers"]]
        row["attackers_won"] = result["attackers_won"]
        row["cells"] = [{"score": score, "bonus": not result["attackers_won"]
                         and seat in result["defenders"]}
                        for seat, score in enumerate(result["scores"])]
    return sheet
