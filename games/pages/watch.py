"""A table's spectators' pages (``/watch/<key>/``): for anyone with its spectators' key,
signed in or not (``shared.table_watched``); no hand shown and nothing to press."""

from .shared import render_table, sheet_response, table_watched


@table_watched
def watch(request, table):
    """A table as its spectators see it: no hand, no face-down card, no stock, and nothing
    to press."""
    return render_table(request, table, spectator=True)


@table_watched
def watch_cycle(request, table, number):
    """A cycle's (or match's) score sheet for its spectators, as their page shows it."""
    return sheet_response(request, table, number, spectator=True)
