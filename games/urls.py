from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("rules/<str:game>/", views.rules, name="rules"),
    path("tables/", views.tables, name="tables"),
    path("tables/new/<str:game>/", views.new_table, name="new-table"),
    path("t/<str:token>/", views.table_view, name="table"),
    path("t/<str:token>/reveal", views.reveal, name="table-reveal"),
    path("t/<str:token>/act", views.act, name="table-act"),
    path("t/<str:token>/take-back", views.take_back, name="table-take-back"),
    path("t/<str:token>/robot", views.robot_turn, name="table-robot"),
    path("t/<str:token>/next-deal", views.next_deal, name="table-next-deal"),
    path("t/<str:token>/deals/<int:number>/record.json", views.deal_record, name="deal-record"),
    path("t/<str:token>/deals/<int:number>/replay/", views.deal_replay, name="deal-replay"),
    path("t/<str:token>/cycles/<int:number>/", views.cycle_sheet, name="cycle"),
    path("t/<str:token>/rename", views.rename_table, name="table-rename"),
    path("t/<str:token>/finish", views.finish_table, name="table-finish"),
    path("t/<str:token>/abandon", views.abandon_table, name="table-abandon"),
    path("watch/<str:key>/", views.watch, name="watch"),
    path("watch/<str:key>/deals/<int:number>/record.json", views.watch_record, name="watch-record"),
    path("watch/<str:key>/deals/<int:number>/replay/", views.watch_replay, name="watch-replay"),
    path("watch/<str:key>/cycles/<int:number>/", views.watch_cycle, name="watch-cycle"),
    path("replay/", views.replay_upload, name="replay-upload"),
]
