from .models import RoundTable
from .services import sync_hotseat_rows


def hotseat_deal_changed(sender, deal, **kwargs) -> None:
    """A deal of a table played here finished (or was reopened): its sheet follows."""
    table = (
        RoundTable.objects.select_related("round__tournament", "hotseat")
        .filter(hotseat_id=deal.table_id)
        .first()
    )
    if table is not None:
        sync_hotseat_rows(table)
