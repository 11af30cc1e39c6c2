"""The tournaments' addresses, by audience (as Tabbycat splits them): what anyone may read,
what the directors and scorers use, and the seasons'."""

from django.urls import include, path

urlpatterns = [
    path("seasons/", include("tournaments.seasons.urls")),  # before a tournament's key
    path("", include("tournaments.public.urls")),
    path("", include("tournaments.run.urls")),
    path("", include("tournaments.check_in.urls")),
    path("", include("tournaments.results.urls")),
]
