"""``tournament import FILE``, ``tournament standings KEY [--json|--csv]``,
``tournament export KEY`` (docs/rules/tournaments.md, "Commands")."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from club.services import ServiceError
from core.documents import Unreadable, read_text
from tournaments import selectors, services
from tournaments.document import BrokenRule, NotADocument, read
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Import a tournament document, print a tournament's standings, or export it."

    def add_arguments(self, parser):
        verbs = parser.add_subparsers(dest="verb", required=True)
        verbs.add_parser("import", help="create a tournament from its document").add_argument(
            "file", help="the document, - for standard input"
        )
        standings = verbs.add_parser("standings", help="print the standings")
        standings.add_argument("key")
        form = standings.add_mutually_exclusive_group()
        form.add_argument("--json", action="store_true")
        form.add_argument("--csv", action="store_true")
        verbs.add_parser("export", help="print the tournament document").add_argument("key")

    def handle(self, *args, verb, **options):
        getattr(self, f"do_{verb}")(**options)

    def do_import(self, file, **options):
        try:
            doc = read(read_text(file))
        except (NotADocument, Unreadable) as exc:
            self.stderr.write(f"{file}: not a tournament document: {exc}")
            sys.exit(2)
        except BrokenRule as exc:
            self.stderr.write(str(exc))
            sys.exit(1)
        try:
            tournament = services.import_document(doc=doc)
        except ServiceError as exc:  # a player's name that looks like another's, say
            self.stderr.write(f"{file}: {exc}")
            sys.exit(1)
        self.stdout.write(json.dumps({"tournament": tournament.key}, ensure_ascii=False))

    def do_standings(self, key, json: bool, csv: bool, **options):
        standings = selectors.standings(tournament(key))
        if json:
            self.stdout.write(dumps(standings.as_json()))
        elif csv:
            self.stdout.write(standings.as_csv(), ending="")
        else:
            self.stdout.write(
                f"{'place':>5}  {'match points':>12} {'points':>7} "
                f"{'opponents':>9} {'wins':>4}  player"
            )
            for row in standings.rows:
                data = row.as_json()
                self.stdout.write(
                    f"{row.shown_place:>5}  {data['match_points']:>12} "
                    f"{data['points']:>7} {data['opponents']:>9} "
                    f"{data['wins']:>4}  {row.player}"
                )

    def do_export(self, key, **options):
        self.stdout.write(dumps(selectors.document_of(tournament(key)).to_json()))


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def tournament(key: str) -> Tournament:
    try:
        return selectors.tournament_by_key(key)
    except Tournament.DoesNotExist:
        raise CommandError(f"no tournament {key!r}") from None
