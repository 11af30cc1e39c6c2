"""``tournament import FILE``, ``tournament standings KEY [--json|--csv]``,
``tournament export KEY``, ``tournament deals KEY --round R [--json]`` (a duplicate
round's hand records) (docs/rules/tournaments.md, "Commands")."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from club.services import ServiceError
from core.documents import Unreadable, read_text
from games.engine.cards import SUIT_SYMBOLS
from tournaments import selectors, services
from tournaments.document import BrokenRule, NotADocument, read
from tournaments.duplicate import hand_records
from tournaments.duplicate.deals import by_suit
from tournaments.duplicate.selectors import round_hand_records
from tournaments.models import Round, Tournament


class Command(BaseCommand):
    help = (
        "Import a tournament document, print a tournament's standings, export it, or print "
        "a duplicate round's hand records."
    )

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
        deals = verbs.add_parser("deals", help="print a duplicate round's hand records")
        deals.add_argument("key")
        deals.add_argument("--round", type=int, required=True, dest="round_number")
        deals.add_argument("--json", action="store_true")

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

    def do_deals(self, key, round_number: int, json: bool, **options):
        found = tournament(key)
        if not found.duplicate:
            raise CommandError(
                f"{found.key!r} is not a duplicate tournament: it has no hand records"
            )
        try:
            groups = round_hand_records(found, round_number)
        except Round.DoesNotExist:
            if 1 <= round_number <= found.rounds_planned:
                raise CommandError(
                    f"round {round_number} of {found.key!r} is not drawn yet: "
                    "its tables' sizes, and so its deals, are not known"
                ) from None
            raise CommandError(
                f"{found.key!r} has no round {round_number} "
                f"(rounds 1 to {found.rounds_planned} are planned)"
            ) from None
        if json:
            self.stdout.write(dumps(hand_records.as_json(groups)))
            return
        for group in groups:
            for deal in group.deals:
                self.stdout.write(
                    f"tables of {group.size} · deal {deal.number} · dealer seat {deal.dealer + 1}"
                )
                for seat, hand in enumerate(deal.dealt["hands"], start=1):
                    self.stdout.write(f"  seat {seat}: {suits_line(hand)}")
                if "stock" in deal.dealt:
                    self.stdout.write(f"  stock, top first: {' '.join(deal.dealt['stock'])}")


def suits_line(hand: list[str]) -> str:
    return "  ".join(
        f"{SUIT_SYMBOLS[suit]} {' '.join(c[0] for c in cards) or '-'}"
        for suit, cards in by_suit(hand).items()
    )


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def tournament(key: str) -> Tournament:
    try:
        return selectors.tournament_by_key(key)
    except Tournament.DoesNotExist:
        raise CommandError(f"no tournament {key!r}") from None
