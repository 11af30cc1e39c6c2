import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games import services
from games.models import Player

DEMO_PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Alice", "Bob", "Carol"]
DIRECTOR = "director"


class Command(BaseCommand):
    help = ("Load the demo club once (a few players) and create the director's account once, "
            "printing how to sign in. Running it again adds nothing twice.")

    def handle(self, *args, **options):
        added = [name for name in DEMO_PLAYERS if not Player.objects.filter(name=name).exists()]
        for name in added:
            services.add_player(name=name)
        self.stdout.write(f"Demo players: {len(added)} added, "
                          f"{len(DEMO_PLAYERS) - len(added)} already there.")
        User = get_user_model()
        if User.objects.filter(username=DIRECTOR).exists():
            self.stdout.write(f"The director's account '{DIRECTOR}' exists; to set a new "
                              f"password: python manage.py changepassword {DIRECTOR}")
            return
        password = secrets.token_urlsafe(12)
        User.objects.create_superuser(DIRECTOR, password=password)
        self.stdout.write(self.style.SUCCESS(
            f"Created the director's account. Sign in at http://127.0.0.1:8000/accounts/login/ "
            f"as '{DIRECTOR}' with the password {password} (shown only this once)."))
