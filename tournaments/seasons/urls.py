"""The seasons' addresses (under /tournaments/seasons/): the season page and its CSV, which
anyone may read, and its management, for who may change it."""

from django.urls import path

from . import views

urlpatterns = [
    path("new/", views.new_season, name="season-new"),
    path("<str:key>/", views.season_page, name="season"),
    path("<str:key>/standings.csv", views.season_csv, name="season-csv"),
    path("<str:key>/manage/", views.manage, name="season-manage"),
    path("<str:key>/manage/change", views.change, name="season-change"),
    path("<str:key>/manage/add", views.add_tournament, name="season-add"),
    path("<str:key>/manage/remove", views.remove_tournament, name="season-remove"),
]
