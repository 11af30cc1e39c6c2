"""The data migration keeps every deal played before it replayable."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import registry, selectors
from games.engine.records import replay

BEFORE = [("games", "0001_initial")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_a_deal_stored_before_the_migration_plays_on_and_replays_after_it(django_user_model):
    """A Леопард deal of the old shape (hands and stock in two columns, a draw logged as an
    event of its own kind, a snapshot of the old format) becomes a deal of the new shape
    whose log rebuilds it and whose record replays."""
    old = migrate(BEFORE)
    rules = registry.rules("leopard")
    options = rules.parse_options({})
    state = rules.new_deal(options, 0, 42)
    seat, card = state.to_act, state.dealt["hands"][state.to_act][0]
    user = old.get_model("auth", "User").objects.create(username="old")
    table = old.get_model("games", "Table").objects.create(game="leopard", options=options,
                                                           created_by=user)
    deal = old.get_model("games", "Deal").objects.create(
        table=table, number=1, dealer=0, seed=42, hands=state.dealt["hands"],
        stock=state.dealt["stock"], version=3,
        snapshot={"state": {}, "revealed": seat, "last_actor": seat, "drawn": False})
    events = old.get_model("games", "DealEvent").objects
    events.create(deal=deal, index=0, kind="reveal", seat=seat, data={})
    events.create(deal=deal, index=1, kind="draw", seat=seat, data={})
    events.create(deal=deal, index=2, kind="action", seat=seat,
                  data={"seat": seat, "discard": card})
    try:
        migrate(executor_leaf())  # and every migration after it
        from games.models import Deal

        migrated = Deal.objects.select_related("table").get(pk=deal.pk)
        assert migrated.dealt == state.dealt
        assert [e.data for e in migrated.events.all()][1] == {"seat": seat, "draw": True}
        hotseat = selectors.load(migrated)  # the old snapshot is rebuilt from the log
        assert hotseat.state.to_act == 1 - seat and hotseat.take_back_seat() == seat
        record = selectors.record(migrated)
        assert record["actions"] == [{"seat": seat, "discard": card}]
        state.apply({"seat": seat, "discard": card})
        assert replay(record).state.to_json() == state.to_json()
    finally:
        migrate(executor_leaf())


def executor_leaf():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()
