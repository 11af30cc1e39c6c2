import json

from django.core.management.base import BaseCommand, CommandError

from games.registry import GAMES
from ratings import ladder, services


class Command(BaseCommand):
    help = (
        "Print a game's ladder of the club's ratings (GAME, --json for a list of objects), or "
        "recompute every rating from the results alone (rebuild [GAME ...])."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "what", metavar="GAME|rebuild", help=f"{', '.join(sorted(GAMES))} or rebuild"
        )
        parser.add_argument("games", nargs="*", metavar="GAME", help="with rebuild: only these")
        parser.add_argument("--json", action="store_true", help="print the ladder as JSON")

    def handle(self, *args, what: str, games: list[str], json: bool, **options):
        if what == "rebuild":
            for game in games or sorted(GAMES):
                known(game)
                count = services.rebuild(game)
                self.stdout.write(f"{game}: {count} rated matches")
            return
        if games:
            raise CommandError("only rebuild takes more than one game")
        rungs = ladder.ladder(known(what))
        if json:
            self.stdout.write(dumps([rung.as_json() for rung in rungs]))
            return
        for rung in rungs:
            mark = "?" if rung.provisional else ""
            self.stdout.write(
                f"{rung.place:>4}  {rung.player.name:<30} {rung.rating:>5}{mark:<1} "
                f"{rung.matches:>5} {rung.change:+5d}"
            )


def known(game: str) -> str:
    if game not in GAMES:
        raise CommandError(f"no game {game!r}: {', '.join(sorted(GAMES))}")
    return game


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)
