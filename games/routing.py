from django.urls import re_path

from .consumers import SeatConsumer, TableConsumer, WatchConsumer

websocket_urlpatterns = [
    re_path(r"^ws/t/(?P<token>[A-Za-z0-9_-]{1,32})/$", TableConsumer.as_asgi()),
    re_path(r"^ws/seat/(?P<key>[A-Za-z0-9_-]{1,32})/$", SeatConsumer.as_asgi()),
    re_path(r"^ws/watch/(?P<key>[A-Za-z0-9_-]{1,32})/$", WatchConsumer.as_asgi()),
]
