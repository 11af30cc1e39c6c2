"""The tournaments' addresses (under /tournaments/), each domain's own: the seasons', what
anyone may read, the run's, the check-in's and the results' corrections. A table's entry
link is under /e/ (``results.entry_urls``)."""

from django.urls import include, path

urlpatterns = [
    path("seasons/", include("tournaments.seasons.urls")),  # before a tournament's key
    path("", include("tournaments.public.urls")),
    path("", include("tournaments.run.urls")),
    path("", include("tournaments.check_in.urls")),
    path("", include("tournaments.results.urls")),
]
