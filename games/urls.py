from django.urls import path

from .pages import host, replays, seat, site, tables, watch

urlpatterns = [
    path("", site.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    path("rules/<str:game>/", site.rules, name="rules"),
    path("tables/", tables.tables, name="tables"),
    path("tables/new/<str:game>/", tables.new_table, name="new-table"),
    path("t/<str:token>/", host.table_view, name="table"),
    path("t/<str:token>/reveal", host.reveal, name="table-reveal"),
    path("t/<str:token>/act", host.act, name="table-act"),
    path("t/<str:token>/take-back", host.take_back, name="table-take-back"),
    path("t/<str:token>/next-deal", host.next_deal, name="table-next-deal"),
    path("t/<str:token>/deals/<int:number>/record.json", replays.deal_record, name="deal-record"),
    path("t/<str:token>/deals/<int:number>/replay/", replays.deal_replay, name="deal-replay"),
    path("t/<str:token>/cycles/<int:number>/", host.cycle_sheet, name="cycle"),
    path("t/<str:token>/rename", tables.rename_table, name="table-rename"),
    path("t/<str:token>/finish", tables.finish_table, name="table-finish"),
    path("t/<str:token>/abandon", tables.abandon_table, name="table-abandon"),
    path("watch/<str:key>/", watch.watch, name="watch"),
    path(
        "watch/<str:key>/deals/<int:number>/record.json", replays.watch_record, name="watch-record"
    ),
    path("watch/<str:key>/deals/<int:number>/replay/", replays.watch_replay, name="watch-replay"),
    path("watch/<str:key>/cycles/<int:number>/", watch.watch_cycle, name="watch-cycle"),
    path("t/<str:token>/reissue-seat", tables.reissue_seat, name="table-reissue-seat"),
    path("s/<str:key>/", seat.seat_view, name="seat"),
    path("s/<str:key>/act", seat.seat_act, name="seat-act"),
    path("s/<str:key>/take-back", seat.seat_take_back, name="seat-take-back"),
    path("s/<str:key>/next-deal", seat.seat_next_deal, name="seat-next-deal"),
    path("s/<str:key>/deals/<int:number>/record.json", replays.seat_record, name="seat-record"),
    path("s/<str:key>/deals/<int:number>/replay/", replays.seat_replay, name="seat-replay"),
    path("replay/", replays.replay_upload, name="replay-upload"),
]
