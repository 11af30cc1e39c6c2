import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()  # before importing anything that loads models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import re_path  # noqa: E402

from club.consumers import Refuse  # noqa: E402
from config.slots import RequestSlots  # noqa: E402
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
        # a bounded number of requests at once, each with its own database connection
        "http": RequestSlots(django_asgi_app, settings.REQUEST_SLOTS),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
