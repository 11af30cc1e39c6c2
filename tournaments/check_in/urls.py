"""The check-in's addresses (under /tournaments/): the director's list on the run page, a
round drawn again for who is here, and an entrant's own check-in."""

from django.urls import path

from . import views as check_in

urlpatterns = [
    path("<str:key>/run/check-in/everyone", check_in.everyone, name="tournament-check-in-all"),
    path("<str:key>/run/check-in/<int:pk>", check_in.mark, name="tournament-check-in"),
    path("<str:key>/run/rounds/<int:number>/redraw", check_in.redraw, name="tournament-redraw"),
    # an entrant's own check-in, signed in as his club player (no role in the tournament)
    path("<str:key>/check-in", check_in.own, name="tournament-check-in-own"),
    # a player's check-in from his seat's own link: the seat's key is his credential
    path("<str:key>/check-in/seat/<str:seat_key>", check_in.seat, name="tournament-check-in-seat"),
]
