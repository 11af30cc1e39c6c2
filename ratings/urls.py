from django.urls import path
from django.views.generic import RedirectView

from . import views

urlpatterns = [
    path("ratings/", views.ladders, name="ladders"),
    # a player's page: his tournaments first, then his ratings
    path("ratings/players/<int:pk>/", views.player_page, name="player"),
    path("ratings/<str:game>/", views.ladder_page, name="ladder"),
    # the player's page's former address, in links and bookmarks kept from before
    path(
        "tournaments/players/<int:pk>/",
        RedirectView.as_view(pattern_name="player", permanent=True, query_string=True),
    ),
]
