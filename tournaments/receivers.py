from .models import RoundTable
from .results.services import sync_hotseat_rows
from .services import notify_on_commit


def hotseat_deal_changed(sender, deal, **kwargs) -> None:
    """A deal of a table played here finished (or was reopened): its sheet follows."""
    table = (
        RoundTable.objects.select_related("round__tournament", "hotseat")
        .filter(hotseat_id=deal.table_id)
        .first()
    )
    if table is not None:
        sync_hotseat_rows(table)


def hotseat_table_abandoned(sender, table, **kwargs) -> None:
    """A table played here abandoned: the tournament's Run page shows it stopped."""
    round_table = (
        RoundTable.objects.select_related("round__tournament").filter(hotseat_id=table.pk).first()
    )
    if round_table is not None:
        notify_on_commit(round_table.round.tournament)
