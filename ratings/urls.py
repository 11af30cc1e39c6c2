from django.urls import path
from django.views.generic import RedirectView

from . import views

urlpatterns = [
    path("ratings/", views.ladders, name="ladders"),
    # the name the other apps' links use: the page lists his tournaments first
    path("ratings/players/<int:pk>/", views.player_page, name="player-tournaments"),
    path("ratings/<str:game>/", views.ladder_page, name="ladder"),
    # the player's page's former address, in links and bookmarks kept from before
    path(
        "tournaments/players/<int:pk>/",
        RedirectView.as_view(pattern_name="player-tournaments", permanent=True, query_string=True),
    ),
]
