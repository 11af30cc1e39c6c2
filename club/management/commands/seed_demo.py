import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand

from club import roles, services
from club.models import Player

DEMO_PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Alice", "Bob", "Carol"]
# (username, what the account is, its club role, the club player the account is): one of
# each role. The organiser is a superuser; the director directs the tournaments he creates
# and names their scorers, such as the scorer (a member of no club role but a player's).
ACCOUNTS = [
    ("organiser", "organiser", roles.ORGANISER, None),
    ("director", "director", roles.DIRECTOR, None),
    ("scorer", "scorer", roles.PLAYER, None),
    ("anna", "player", roles.PLAYER, "Анна"),
]


class Command(BaseCommand):
    help = (
        "Load the demo club once (a few players) and create one account of each role "
        "(organiser, director, scorer, player) once, printing how to sign in. Running it "
        "again adds nothing twice."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000/",
            help="the address the club is served at, to print how to sign in "
            "(make run gives its own)",
        )

    def handle(self, *args, **options):
        self.url = options["url"].rstrip("/")
        added = [name for name in DEMO_PLAYERS if not Player.objects.filter(name=name).exists()]
        for name in added:
            services.add_player(name=name)
        self.stdout.write(
            f"Demo players: {len(added)} added, {len(DEMO_PLAYERS) - len(added)} already there."
        )
        for username, role, group, player in ACCOUNTS:
            self.account(username, role, group, player)

    def account(self, username: str, role: str, group: str, player: str | None) -> None:
        """One account of the role, made once; its password shown only then."""
        User = get_user_model()
        if User.objects.filter(username=username).exists():
            self.stdout.write(
                f"The {role}'s account '{username}' exists; to set a new "
                f"password: python manage.py changepassword {username}"
            )
            return
        password = secrets.token_urlsafe(12)
        if group == roles.ORGANISER:
            user = User.objects.create_superuser(username, password=password)
        else:
            user = User.objects.create_user(username, password=password)
        user.groups.add(Group.objects.get(name=group))
        if player:  # the account is this club player's: he may open his tables
            member = Player.objects.get(name=player)
            member.user = user
            services.save_player(player=member)
        self.stdout.write(
            self.style.SUCCESS(
                f"Created the {role}'s account. Sign in at {self.url}/accounts/login/ "
                f"as '{username}' with the password {password} (shown only this once)."
            )
        )
