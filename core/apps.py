from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    """The plumbing every app uses: live notices and the sockets' base, refusals and their
    wording, documents, spreadsheets, charts, number fields and numbers, links and QR codes,
    backups and the health check. It imports no app of the project."""

    name = "core"
    verbose_name = _("Core")

    def ready(self):
        from django.db.backends.signals import connection_created

        from . import backups

        connection_created.connect(backups.on_connection, dispatch_uid="core.backups.protect")
