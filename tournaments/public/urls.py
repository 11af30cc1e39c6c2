"""What anyone may read, signed in or not: GET only."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("<str:key>/", views.tournament_page, name="tournament"),
    path("<str:key>/rounds/<int:round_number>/", views.round_page, name="tournament-round"),
    path(
        "<str:key>/rounds/<int:round_number>/deals/<int:size>/<int:number>/",
        views.traveller_page,
        name="tournament-traveller",
    ),
    path("<str:key>/standings/", views.standings_page, name="tournament-standings"),
    path("<str:key>/standings.csv", views.standings_csv, name="tournament-standings-csv"),
    path("<str:key>/sheets.csv", views.sheets_csv, name="tournament-sheets-csv"),
    path("<str:key>/projector/", views.projector, name="tournament-projector"),
]
