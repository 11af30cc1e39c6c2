from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    """What the whole club shares: its players and members, their roles, the audit log, live
    notices, uploaded documents and the wording of refusals. It imports neither ``games`` nor
    ``tournaments``."""

    name = "club"
    verbose_name = _("Club")

    def ready(self):
        from django.db.backends.signals import connection_created
        from django.db.models.signals import pre_migrate

        from . import backups

        connection_created.connect(backups.on_connection, dispatch_uid="club.backups.protect")
        # pre_migrate is sent once for each app: the club's is the one that backs up
        pre_migrate.connect(backups.before_migrate, sender=self, dispatch_uid="club.backups")
