from django.urls import re_path

from .consumers import TableConsumer

websocket_urlpatterns = [
    re_path(r"^ws/t/(?P<token>[A-Za-z0-9_-]{1,32})/$", TableConsumer.as_asgi()),
]
