"""Reads that pages share, each at a fixed number of queries however long the deal."""

from django.db.models import Prefetch

from . import services
from .engine.cards import RANKS, sort_for_hand
from .models import Deal, DealEvent, Seat, Table


def table_by_token(token: str) -> Table:
    """The table with its seats and players (2 queries). Table.DoesNotExist if none."""
    return (Table.objects.select_related("created_by")
            .prefetch_related(Prefetch("seats", Seat.objects.select_related("player")))
            .get(token=token))


def current_deal(table: Table) -> Deal:
    return table.deals.order_by("-number").first()


def can_host(user, table: Table) -> bool:
    """The hotseat screen belongs to whoever started the table (and the directors)."""
    return user.is_authenticated and (user.pk == table.created_by_id or user.is_staff)


def names(table: Table) -> list[str]:
    return [seat.player.name for seat in table.seats.all()]


def table_page(table: Table, deal: Deal) -> dict:
    """What the hotseat page shows, holding no hand but that of the player at the screen."""
    players = names(table)
    hotseat = services.load(deal)
    state = hotseat.state
    over = state.is_over()
    if over:
        mode = "over"
    elif hotseat.handoff:
        mode = "handoff"
    else:
        mode = "turn"
    view = state.view(state.to_act if mode == "turn" else None)
    to_act = view["to_act"]
    place = {seat: i + 1 for i, seat in enumerate(view["finish_order"])}
    seats = [{"index": i, "name": name, "count": view["counts"][i],
              "dealer": i == deal.dealer, "to_act": i == to_act, "place": place.get(i)}
             for i, name in enumerate(players)]
    start = RANKS.index(view["start_rank"])
    rows = []
    for row in view["rows"]:
        on_table = set(row["cards"])
        rows.append({"suit": row["suit"], "slots": [
            {"code": rank + row["suit"] if rank + row["suit"] in on_table else None,
             "start": i == start}
            for i, rank in enumerate(RANKS)]})
    take_back_seat = hotseat.take_back_seat()
    return {
        "table": table,
        "deal": deal,
        "players": players,
        "seats": seats,
        "mode": mode,
        "view": view,
        "rows": rows,
        "hand": sort_for_hand(view["hand"]) if mode == "turn" else [],
        "playable": set(view["playable"]),
        "to_act_name": players[to_act] if to_act is not None else None,
        "take_back": ({"seat": take_back_seat, "name": players[take_back_seat]}
                      if take_back_seat is not None else None),
        "finish": [{"place": i + 1, "name": players[s]}
                   for i, s in enumerate(view["finish_order"])],
        "log": deal_log(deal, players),
        "totals": table_totals(table, players),
    }


def deal_log(deal: Deal, players: list[str]) -> list[dict]:
    """The deal's events in order, as sentences' parts; hand-offs are not shown."""
    entries = []
    for event in deal.events.all():
        if event.kind == DealEvent.Kind.REVEAL:
            continue
        data = event.data["undone"] if event.kind == DealEvent.Kind.TAKE_BACK else event.data
        entries.append({"index": event.index, "kind": event.kind, "name": players[event.seat],
                        "card": data.get("play"), "passed": bool(data.get("pass"))})
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
