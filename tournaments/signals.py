"""Signals other apps may listen to, sent inside the writing transaction."""

from django.dispatch import Signal

# A tournament's results may have changed (a sheet, a correction, a round released or taken
# back): ``tournament``. The club's ratings follow in the same transaction.
results_changed = Signal()
