"""The directors' and scorers' addresses (under /tournaments/)."""

from django.urls import path

from . import views

urlpatterns = [
    path("new/<str:game>/", views.new_tournament, name="tournament-new"),
    path("<str:key>/run/", views.run, name="tournament-run"),
    path("<str:key>/run/enter", views.enter, name="tournament-enter"),
    path("<str:key>/run/entrants/<int:pk>/withdraw", views.withdraw, name="tournament-withdraw"),
    path(
        "<str:key>/run/entrants/<int:pk>/undo-withdrawal",
        views.undo_withdrawal,
        name="tournament-undo-withdrawal",
    ),
    path("<str:key>/run/draw", views.draw, name="tournament-draw"),
    path("<str:key>/run/plan-round", views.plan_round, name="tournament-plan-round"),
    path("<str:key>/run/rounds/<int:number>/swap", views.swap, name="tournament-swap"),
    path("<str:key>/run/rounds/<int:number>/release", views.release, name="tournament-release"),
    path(
        "<str:key>/run/rounds/<int:number>/swap-preview",
        views.swap_preview,
        name="tournament-swap-preview",
    ),
    path("<str:key>/run/tables/<int:pk>/play-here", views.play_here, name="tournament-play-here"),
    path("<str:key>/run/tables/<int:pk>/confirm", views.confirm, name="tournament-confirm"),
    path("<str:key>/run/adjust", views.adjust, name="tournament-adjust"),
    path("<str:key>/run/rounds/<int:number>/rule", views.rule_deal, name="tournament-rule-deal"),
    path(
        "<str:key>/run/rulings/<int:pk>/withdraw",
        views.withdraw_ruling,
        name="tournament-withdraw-ruling",
    ),
    path("<str:key>/run/officials", views.name_official, name="tournament-name-official"),
    path(
        "<str:key>/run/officials/<int:pk>/remove",
        views.remove_official,
        name="tournament-remove-official",
    ),
    path(
        "<str:key>/rounds/<int:number>/sheets/", views.round_sheets, name="tournament-round-sheets"
    ),
    path(
        "<str:key>/rounds/<int:number>/hand-records/",
        views.hand_records,
        name="tournament-hand-records",
    ),
    path("<str:key>/tables/<int:pk>/sheet/", views.table_sheet, name="tournament-sheet"),
]
