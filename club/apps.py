from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    """What the whole club shares: its players and members, their roles, the audit log, live
    notices, uploaded documents and the wording of refusals. It imports neither ``games`` nor
    ``tournaments``."""

    name = "club"
    verbose_name = _("Club")
