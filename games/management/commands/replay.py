import json
import sys

from django.core.management.base import BaseCommand

from core.documents import Unreadable, read_text
from games.engine import InvalidRecord
from games.engine.records import IllegalRecordAction, parse, replay


class Command(BaseCommand):
    help = (
        "Check deal records against the rules and print each deal's result as a JSON line. "
        "Exit 0 when all are legal, 1 when an action is illegal, 2 when a file is not a "
        "valid record."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="record files, - for stdin")

    def handle(self, *args, files, **options):
        status = 0
        for name in files:
            try:
                result = replay(parse(read_text(name))).result()
            except (InvalidRecord, Unreadable) as exc:
                self.stderr.write(f"{name}: not a valid record: {exc}")
                status = 2
            except IllegalRecordAction as exc:
                self.stderr.write(
                    f"{name}: illegal action {exc.index} "
                    f"{json.dumps(exc.action, ensure_ascii=False)}: {exc.reason}"
                )
                status = max(status, 1)
            else:
                self.stdout.write(json.dumps(result, ensure_ascii=False))
        if status:
            sys.exit(status)
