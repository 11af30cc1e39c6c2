"""Signals other apps may listen to, sent inside the writing transaction."""

from django.dispatch import Signal

# A deal has just finished, or a take-back has reopened it: ``deal`` (its ``table`` set).
deal_result_changed = Signal()

# A table is being abandoned: ``table`` (a tournament's table played here shows it stopped).
table_abandoned = Signal()
