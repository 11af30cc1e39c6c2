"""The tournaments' addresses, by audience (as Tabbycat splits them): what anyone may read,
and what the directors and scorers use."""

from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.urls_public")),
    path("", include("tournaments.urls_director")),
]
