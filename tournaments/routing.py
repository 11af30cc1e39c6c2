from django.urls import re_path

from .consumers import TournamentConsumer

websocket_urlpatterns = [
    re_path(r"^ws/tournaments/(?P<key>[^/]{1,80})/$", TournamentConsumer.as_asgi()),
]
