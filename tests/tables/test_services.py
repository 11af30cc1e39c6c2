"""The service layer: one transaction per write, the log as the truth, notices after commit."""

import threading

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction

from club.models import AuditEntry, Player
from club.services import add_player
from core import notices
from games import selectors, services
from games.engine.records import replay
from games.models import Deal, DealEvent
from tests.support.hotseat import act, current, without_seat


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["fantan", "variety", "leopard"])
def test_the_snapshot_always_equals_the_deal_rebuilt_from_its_log(request, game, host):
    """Reveals, draws, actions and take-backs: the cache never drifts from the log."""
    table = request.getfixturevalue(f"{game}_table")
    step = 0
    while not current(table).is_over:
        action = act(table, choose=step, user=host)
        deal = current(table)
        if step % 7 == 3:  # now and then a misclick, taken back and played again
            deal = services.take_back(
                deal=deal, seat=action["seat"], expected_version=deal.version, user=host
            )
            deal = current(table)
        rebuilt = selectors.rebuild(deal, deal.events.all())
        assert rebuilt.to_json() == deal.snapshot
        assert deal.version == deal.events.count()
        step += 1
    deal = current(table)
    assert replay(selectors.record(deal)).result() == {**deal.result, "complete": True}


@pytest.mark.django_db
def test_a_take_back_of_the_winning_card_reopens_the_deal(fantan_table, host):
    while not current(fantan_table).is_over:
        action = act(fantan_table, user=host)
    deal = current(fantan_table)
    services.take_back(deal=deal, seat=action["seat"], expected_version=deal.version, user=host)
    deal = current(fantan_table)
    assert not deal.is_over and deal.result is None
    assert selectors.load(deal).state.to_act == action["seat"]


@pytest.mark.django_db
def test_every_write_leaves_an_audit_entry_in_its_transaction(fantan_table, host):
    act(fantan_table, user=host)
    verbs = list(AuditEntry.objects.order_by("pk").values_list("verb", "user"))
    assert verbs[-2:] == [("deal.reveal", host.pk), ("deal.action", host.pk)]
    before = AuditEntry.objects.count()
    deal = current(fantan_table)
    with pytest.raises(services.Refused):
        services.take_back(
            deal=deal, seat=(deal.dealer + 3) % 4, expected_version=deal.version, user=host
        )
    assert AuditEntry.objects.count() == before


@pytest.mark.django_db
def test_deal_events_are_append_only(fantan_table, host):
    act(fantan_table, user=host)
    event = DealEvent.objects.first()
    event.data = {"seat": 0, "play": "AS"}
    with pytest.raises(Exception, match="never changed"):
        event.save()
    with pytest.raises(Exception, match="never deleted"):
        event.delete()


@pytest.mark.django_db(transaction=True)
def test_listeners_are_told_after_commit_and_never_of_a_rollback(fantan_table, host):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(services.group_name(fantan_table), channel)
    deal = current(fantan_table)
    seat = selectors.load(deal).state.to_act
    with transaction.atomic():
        services.reveal(deal=deal, seat=seat, expected_version=0, user=host)
        transaction.set_rollback(True)
    with pytest.raises(services.Stale):
        services.reveal(deal=deal, seat=seat, expected_version=5, user=host)
    services.reveal(deal=deal, seat=seat, expected_version=0, user=host)
    message = async_to_sync(layer.receive)(channel)
    assert message == {"type": "live.changed", "stamp": [1, 1]}
    assert current(fantan_table).version == 1


@pytest.mark.concurrency
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["fantan", "variety", "leopard"])
def test_two_concurrent_submissions_of_one_turn_apply_exactly_one(request, game, host):
    table = request.getfixturevalue(f"{game}_table")
    deal = current(table)
    seat = selectors.load(deal).state.to_act
    services.reveal(deal=deal, seat=seat, expected_version=0, user=host)
    deal = current(table)
    for step in selectors.load(deal).state.steps():  # a step first, where the game has one
        services.play(
            deal=deal,
            seat=seat,
            action=without_seat(step),
            expected_version=deal.version,
            user=host,
        )
        deal = current(table)
    legal = selectors.load(deal).state.legal_actions()
    version = deal.version
    results = []
    barrier = threading.Barrier(2)

    def submit(action):
        try:
            barrier.wait()
            services.play(
                deal=deal,
                seat=seat,
                action={k: v for k, v in action.items() if k != "seat"},
                expected_version=deal.version,
                user=host,
            )
            results.append("applied")
        except Exception as exc:  # whatever went wrong, the assertion shows it
            results.append(type(exc).__name__)
        finally:
            connection.close()
            notices.close_loop()

    # two different cards of the same turn, as from two tabs at once
    threads = [threading.Thread(target=submit, args=(legal[i % len(legal)],)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["Stale", "applied"]
    deal = Deal.objects.get(pk=deal.pk)
    assert deal.version == version + 1 and deal.events.count() == version + 1


@pytest.mark.concurrency
@pytest.mark.django_db(transaction=True)
def test_concurrent_next_deal_clicks_deal_once(fantan_table, host):
    while not current(fantan_table).is_over:
        act(fantan_table, user=host)
    results = []
    barrier = threading.Barrier(3)

    def click():
        try:
            barrier.wait()
            services.next_deal(table=fantan_table, after=1, user=host)
            results.append("dealt")
        except Exception as exc:  # whatever went wrong, the assertion shows it
            results.append(type(exc).__name__)
        finally:
            connection.close()
            notices.close_loop()

    threads = [threading.Thread(target=click) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["Stale", "Stale", "dealt"]
    assert fantan_table.deals.count() == 2


@pytest.mark.django_db
def test_a_new_name_becomes_a_club_player_once(host, players):
    table = services.start_table(
        user=host,
        game="fantan",
        options={"players": 3},
        players=[players[0], "  Новый   Игрок ", players[1]],
    )
    again = add_player(name="новый игрок")
    assert [s.player.name for s in table.seats.all()][1] == "Новый Игрок"
    assert again == table.seats.all()[1].player


@pytest.mark.django_db
def test_a_table_is_refused_for_the_wrong_number_of_players(host, players):
    with pytest.raises(services.Refused):
        services.start_table(user=host, game="fantan", options={}, players=players[:3])
    with pytest.raises(services.Refused):
        services.start_table(user=host, game="fantan", options={"players": 7}, players=players)


@pytest.mark.django_db
@pytest.mark.parametrize("say", ["six clubs\x00", "\x07", "a\u200bb"])
def test_an_announcement_with_a_control_character_is_refused_and_changes_nothing(
    variety_table, host, say
):
    """A NUL byte is refused as bad input on SQLite and PostgreSQL alike (PostgreSQL cannot
    store it)."""
    deal = current(variety_table)
    seat = selectors.load(deal).state.to_act
    deal = services.reveal(deal=deal, seat=seat, expected_version=0, user=host)
    with pytest.raises(services.Refused) as refused:
        services.play(
            deal=deal,
            seat=seat,
            action={"call": 2, "say": say},
            expected_version=deal.version,
            user=host,
        )
    assert "printable" in refused.value.message
    assert current(variety_table).version == deal.version


@pytest.mark.django_db
def test_a_name_with_a_control_character_is_refused(host):
    with pytest.raises(services.Refused):
        add_player(name="Анна\x00", by=host)
    assert not Player.objects.filter(name__startswith="Анна").exists()


@pytest.mark.django_db(transaction=True)
def test_with_the_channel_layer_down_a_write_still_succeeds_and_the_failure_is_logged(
    fantan_table, host, client, monkeypatch, caplog
):
    """Redis down: the action is saved and answered as a success; the lost notice is logged
    (pages catch up on their next fetch)."""
    layer = get_channel_layer()

    async def down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(layer, "group_send", down)
    client.force_login(host)
    deal = current(fantan_table)
    seat = selectors.load(deal).state.to_act
    with caplog.at_level("WARNING", logger="core.notices"):
        response = client.post(
            f"/t/{fantan_table.token}/reveal",
            {"deal": 1, "version": 0, "seat": seat},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200
    assert current(fantan_table).version == 1
    assert "not sent" in caplog.text
