"""``restore FILE``: put a backup back as the club's database, after backing up the
database as it is (core/backups.py). A file that is not a backup of the club changes
nothing: exit 2."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from core import backups
from core.wording import refusal_text


class Command(BaseCommand):
    help = (
        "Restore the club's database from a backup (stop the server first); the database "
        "as it was is backed up before."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a backup that manage.py backup made")

    def handle(self, *args, file: str, **options):
        path = Path(file)
        try:
            backups.check(path)
        except backups.BackupRefused as exc:
            self.refused(file, exc, 2)
        try:
            before = backups.restore(path)
        except backups.BackupRefused as exc:
            self.refused(file, exc, 1)
        self.stdout.write(
            _("Restored %(file)s; the database as it was is in %(before)s")
            % {"file": file, "before": before}
        )

    def refused(self, file: str, exc: backups.BackupRefused, code: int):
        self.stderr.write(
            _("%(file)s: not restored: %(reason)s") % {"file": file, "reason": refusal_text(exc)}
        )
        sys.exit(code)
