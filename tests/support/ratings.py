"""Rated results made fast, for the rating pages' tests and the ratings benchmark: casual
tables whose deals finished with given scores at given times, written with bulk_create as
the games' services would have left them (a game without cycles: each finished deal is a
rated match), and the skills a sequence of matches should give, from ratings.skill's model
alone (not what ratings.services stored)."""

from collections.abc import Sequence
from contextlib import contextmanager
from datetime import datetime

from games.models import Deal, DealEvent, Seat, Table
from ratings import skill


@contextmanager
def given_times(*models):
    """The models' ``created_at`` saved as given rather than as now (auto_now_add), for
    results completed over weeks."""
    fields = [model._meta.get_field("created_at") for model in models]
    for field in fields:
        field.auto_now_add = False
    try:
        yield
    finally:
        for field in fields:
            field.auto_now_add = True


Played = Sequence[tuple[datetime, Sequence[int]]]  # each deal: when it finished, its scores


def casual_tables(user, game: str, tables: Sequence[tuple[Sequence, Played]]) -> list[Table]:
    """Casual tables of ``game``, each (its players in seat order, its finished deals): four
    queries however many (the caller rates them: ratings.services.rebuild)."""
    made = Table.objects.bulk_create(
        Table(game=game, created_by=user, state=Table.State.FINISHED) for _ in tables
    )
    Seat.objects.bulk_create(
        (
            Seat(table=table, position=position, player=player)
            for table, (players, _) in zip(made, tables, strict=True)
            for position, player in enumerate(players)
        ),
        batch_size=2000,
    )
    finished = [
        (table, number, when, scores)
        for table, (players, played) in zip(made, tables, strict=True)
        for number, (when, scores) in enumerate(played, start=1)
    ]
    deals = Deal.objects.bulk_create(
        (
            Deal(
                table=table,
                number=number,
                dealer=(number - 1) % len(scores),
                seed=number,
                dealt={},
                snapshot={},
                version=1,
                is_over=True,
                result={"scores": list(scores)},
            )
            for table, number, _when, scores in finished
        ),
        batch_size=2000,
    )
    with given_times(DealEvent):
        DealEvent.objects.bulk_create(
            (
                DealEvent(deal=deal, index=0, kind=DealEvent.Kind.ACTION, seat=0, created_at=when)
                for deal, (_table, _number, when, _scores) in zip(deals, finished, strict=True)
            ),
            batch_size=2000,
        )
    return made


def expected_skills(matches: Sequence[tuple[Sequence, Sequence[int]]]) -> dict:
    """Each player's (μ, σ) after each of ``matches`` (players, points) in turn, by player:
    the list of his skills, match by match."""
    current: dict = {}
    after: dict = {}
    for players, points in matches:
        rated = skill.rate([current.get(p, skill.START) for p in players], points)
        for player, now in zip(players, rated, strict=True):
            current[player] = now
            after.setdefault(player, []).append(now)
    return after
