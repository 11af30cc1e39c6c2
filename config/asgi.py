import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # before importing anything that loads models

from django.conf import settings  # noqa: E402

from config import bodies  # noqa: E402
from config.handler import OneThreadASGIHandler  # noqa: E402

# each request whole in one thread, error pages included, of as many as it has request
# slots, kept from request to request (config.handler)
django_asgi_app = OneThreadASGIHandler(settings.REQUEST_SLOTS)
# a body over the limit refused before daphne reads it (config.bodies)
bodies.install(settings.REQUEST_BODY_LIMIT)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from config.slots import RequestSlots  # noqa: E402
from core.backups import DailyBackups  # noqa: E402
from core.consumers import Refuse  # noqa: E402
from games import robot_turns  # noqa: E402
from games import routing as games_routing  # noqa: E402
from tournaments import routing as tournaments_routing  # noqa: E402

# Every other address is refused cleanly rather than failing inside the router.
websocket_urlpatterns = (
    games_routing.websocket_urlpatterns
    + tournaments_routing.websocket_urlpatterns
    + [re_path(r"", Refuse.as_asgi())]
)

application = ProtocolTypeRouter(
    {
        # a bounded number of requests at once, each with its own database connection; a
        # backup once a day (BACKUP_EVERY_HOURS), taken beside them
        "http": DailyBackups(
            RequestSlots(django_asgi_app, settings.REQUEST_SLOTS), settings.BACKUP_EVERY_HOURS
        ),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# The robots' turns are this process's from its start, whatever page is open (and after a
# restart, those that fell due meanwhile); daphne sends no lifespan events to start it by.
robot_turns.serve()
