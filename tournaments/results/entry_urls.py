"""A table's entry link (under /e/): its players report its rows, no sign-in needed."""

from django.urls import path

from . import entry_views as views

urlpatterns = [
    path("<str:key>/", views.entry, name="entry"),
    path("<str:key>/seat", views.entry_seat, name="entry-seat"),
    path("<str:key>/withdraw", views.entry_withdraw, name="entry-withdraw"),
    path("<str:key>/confirm", views.entry_confirm, name="entry-confirm"),
]
