"""Reads of a duplicate tournament's deals that need the database."""

from django.db.models import Count

from ..models import Round, RoundTable, Tournament
from .hand_records import HandGroup, hand_records


def deals_shown(table) -> int | None:
    """How many of the first deals of a table played here its spectators may see: of a
    duplicate round's table, the scored deals of its group (every one once a later round is
    released); None for any other table (3 queries)."""
    mine = (
        RoundTable.objects.filter(hotseat=table)
        .select_related("round__tournament")
        .annotate(size=Count("seats", distinct=True))
        .first()
    )
    if mine is None or not mine.round.tournament.duplicate:
        return None
    round_ = mine.round
    if Round.objects.filter(
        tournament=round_.tournament_id, number__gt=round_.number, released=True
    ).exists():
        return None
    counts = (
        RoundTable.objects.filter(round=round_)
        .annotate(size=Count("seats", distinct=True), played=Count("rows", distinct=True))
        .values_list("size", "played")
    )
    return min(played for size, played in counts if size == mine.size)


def round_hand_records(tournament: Tournament, number: int) -> list[HandGroup]:
    """Round ``number``'s hand records, a group for each size of its tables
    (Round.DoesNotExist if the round is not drawn) (2 queries)."""
    round_ = Round.objects.get(tournament=tournament, number=number)
    sizes = (
        RoundTable.objects.filter(round=round_)
        .annotate(size=Count("seats"))
        .values_list("size", flat=True)
    )
    return hand_records(
        tournament.game,
        tournament.options,
        tournament.game_settings,
        seed=tournament.seed,
        round_number=number,
        sizes=sizes,
    )
