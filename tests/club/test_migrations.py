"""The migrations keep what was stored before them: every deal played replayable, and the
club's players and audit log, with the roles' permissions on them, when the club app took
them over from the games app."""

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
    # (app, None): the app unmigrated, no node of the graph
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


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
    table = old.get_model("games", "Table").objects.create(
        game="leopard", options=options, created_by=user
    )
    deal = old.get_model("games", "Deal").objects.create(
        table=table,
        number=1,
        dealer=0,
        seed=42,
        hands=state.dealt["hands"],
        stock=state.dealt["stock"],
        version=3,
        snapshot={"state": {}, "revealed": seat, "last_actor": seat, "drawn": False},
    )
    events = old.get_model("games", "DealEvent").objects
    events.create(deal=deal, index=0, kind="reveal", seat=seat, data={})
    events.create(deal=deal, index=1, kind="draw", seat=seat, data={})
    events.create(
        deal=deal, index=2, kind="action", seat=seat, data={"seat": seat, "discard": card}
    )
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


BEFORE_CLUB = [("games", "0006_admin_words"), ("tournaments", "0006_admin_words"), ("club", None)]


@pytest.mark.django_db(transaction=True)
def test_the_players_and_audit_log_the_games_app_held_are_the_clubs_after_the_move(
    django_user_model,
):
    """Players, their tables and entries, and the audit entries stored before the club app
    existed are the club's, the same rows; a director still may view them (the roles'
    permissions follow their content types)."""
    from django.contrib.auth.models import Group
    from django.contrib.contenttypes.models import ContentType

    old = migrate(BEFORE_CLUB)
    user = old.get_model("auth", "User").objects.create(username="old")
    player = old.get_model("games", "Player").objects.create(name="Анна", key="анна", user=user)
    table = old.get_model("games", "Table").objects.create(
        game="fantan", options={}, created_by=user
    )
    old.get_model("games", "Seat").objects.create(table=table, position=0, player=player)
    old.get_model("games", "AuditEntry").objects.create(
        user=user, verb="player.add", table=table, data={"name": "Анна"}
    )
    # the roles' grant (tournaments 0002_roles), as it stands on a database of that time
    group, _ = old.get_model("auth", "Group").objects.get_or_create(name="director")
    group.permissions.add(
        *old.get_model("auth", "Permission").objects.filter(
            content_type__app_label="games", codename__in=["view_player", "view_auditentry"]
        )
    )
    assert group.permissions.count() >= 2
    try:
        migrate(executor_leaf())
        from club.models import AuditEntry, Player

        ContentType.objects.clear_cache()
        moved = Player.objects.get(pk=player.pk)
        assert (moved.name, moved.user.username) == ("Анна", "old")
        assert [seat.table_id for seat in moved.seats.all()] == [table.pk]
        entry = AuditEntry.objects.get(verb="player.add", table_id=table.pk)
        assert entry.data == {"name": "Анна"} and entry.user_id == user.pk
        assert ContentType.objects.get_for_model(Player).app_label == "club"
        assert not ContentType.objects.filter(app_label="games", model="player").exists()
        director = django_user_model.objects.create_user("director-after-the-move")
        director.groups.add(Group.objects.get(name="director"))
        assert director.has_perm("club.view_player")
        assert director.has_perm("club.view_auditentry")
    finally:
        migrate(executor_leaf())


BEFORE_REPORTERS = [("tournaments", "0011_check_in")]


@pytest.mark.django_db(transaction=True)
def test_a_row_reported_before_its_reporters_were_kept_finds_them_in_the_audit():
    """A row its players reported and confirmed before the rows kept who did is given the
    seats its confirmation's audit entry names; a typed row, none."""
    old = migrate(BEFORE_REPORTERS)
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        key="kubok",
        name="Кубок",
        game="variety",
        options={"cycle": "short"},
        rounds_planned=1,
        seating="mixing",
        seed=1,
        order=["match_points", "points", "opponents", "wins"],
    )
    round_ = old.get_model("tournaments", "Round").objects.create(
        tournament=tournament, number=1, released=True
    )
    tables = old.get_model("tournaments", "RoundTable").objects
    reported = tables.create(round=round_, number=1, entry_key="reported", reported=True)
    typed = tables.create(round=round_, number=2, entry_key="typed")
    rows = old.get_model("tournaments", "SheetRow").objects
    row = rows.create(table=reported, index=1, data={"contract": 2})
    other = rows.create(table=typed, index=1, data={"contract": 2})
    old.get_model("club", "AuditEntry").objects.create(
        verb="sheet.report.confirm",
        data={"tournament": "kubok", "table": reported.pk, "row": 1, "seat": 2, "entered_by": 3},
    )
    try:
        migrate(executor_leaf())
        from tournaments.models import SheetRow

        migrated = SheetRow.objects.get(pk=row.pk)
        assert (migrated.entered_by_seat, migrated.confirmed_by_seat) == (3, 2)
        untouched = SheetRow.objects.get(pk=other.pk)
        assert (untouched.entered_by_seat, untouched.confirmed_by_seat) == (None, None)
    finally:
        migrate(executor_leaf())


@pytest.mark.django_db(transaction=True)
def test_a_look_kept_from_another_icu_is_computed_again():
    """A player whose kept look is not what the club's ICU makes of his name (a soft hyphen
    another ICU kept) gets the look a new name would be checked against."""
    from club.names import look

    old = migrate([("club", "0008_plan_round_verb")])
    Player = old.get_model("club", "Player")
    name = "Ali\u00adce"
    player = Player.objects.create(name=name, key=name.casefold(), look="stale")
    try:
        migrate(executor_leaf())
        from club.models import Player as Migrated

        assert Migrated.objects.get(pk=player.pk).look == look(name)
    finally:
        migrate(executor_leaf())


@pytest.mark.django_db(transaction=True)
def test_a_rating_kept_before_the_ratings_app_took_them_over_is_still_there():
    """The ladders, rated matches, their steps and the ratings stored by the club app are
    the ratings app's after the move, the same rows; their content types follow them."""
    from django.contrib.contenttypes.models import ContentType

    old = migrate([("club", "0009_player_look_again"), ("ratings", None)])
    anna = old.get_model("club", "Player").objects.create(name="Анна", key="анна")
    boris = old.get_model("club", "Player").objects.create(name="Борис", key="борис")
    old.get_model("club", "Ladder").objects.create(game="fantan")
    match = old.get_model("club", "RatedMatch").objects.create(
        game="fantan", key="table:1:deal:1", order="0|table|1", completed_at="2026-01-02T10:00Z"
    )
    steps = old.get_model("club", "RatingStep").objects
    for seat, (player, points, rank) in enumerate([(anna, 9, 1), (boris, -9, 2)]):
        steps.create(
            match=match,
            player=player,
            seat=seat,
            points=points,
            rank=rank,
            mu_before=25,
            sigma_before=8.3,
            mu=26 - rank,
            sigma=8,
        )
    old.get_model("club", "Rating").objects.create(
        player=anna, game="fantan", mu=25.0, sigma=8.0, matches=1
    )
    ContentType.objects.clear_cache()
    ContentType.objects.get_or_create(app_label="club", model="rating")
    try:
        migrate(executor_leaf())
        from ratings.models import Ladder, RatedMatch, Rating

        ContentType.objects.clear_cache()
        rating = Rating.objects.get(player_id=anna.pk, game="fantan")
        assert (rating.mu, rating.sigma, rating.matches) == (25.0, 8.0, 1)
        moved = RatedMatch.objects.get(pk=match.pk)
        assert [(s.player_id, s.rank) for s in moved.steps.all()] == [(anna.pk, 1), (boris.pk, 2)]
        assert Ladder.objects.filter(game="fantan").exists()
        assert ContentType.objects.get_for_model(Rating).app_label == "ratings"
        assert not ContentType.objects.filter(app_label="club", model="rating").exists()
    finally:
        migrate(executor_leaf())
