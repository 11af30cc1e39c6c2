"""A typed sheet's rows corrected, one by one with their history (under /tournaments/)."""

from django.urls import path

from . import views

urlpatterns = [
    path("<str:key>/tables/<int:pk>/rows/", views.table_rows, name="tournament-rows"),
    path("<str:key>/tables/<int:pk>/rows/<int:index>/", views.row, name="tournament-row"),
    path(
        "<str:key>/tables/<int:pk>/rows/<int:index>/revert",
        views.revert,
        name="tournament-row-revert",
    ),
]
