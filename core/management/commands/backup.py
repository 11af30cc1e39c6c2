"""``backup``: a consistent copy of the database, taken while the club serves, into the
backups folder (``BACKUP_DIR``), the newest ``BACKUP_KEEP`` kept (core/backups.py)."""

import sys

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from core import backups
from core.wording import refusal_text


class Command(BaseCommand):
    help = "Back up the club's database into the backups folder, keeping the newest copies."

    def handle(self, *args, **options):
        try:
            path = backups.take()
        except backups.BackupRefused as exc:
            self.stderr.write(_("no backup: %(reason)s") % {"reason": refusal_text(exc)})
            sys.exit(1)
        self.stdout.write(str(path))
