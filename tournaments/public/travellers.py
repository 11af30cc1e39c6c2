"""A duplicate tournament's travellers: one deal of a round's group as every table played it,
seat by seat beside the cards that seat held, and a player's scored deals. The public sees
the scored deals alone (``Played.disclosed``): a deal's cards and results tell nothing of one
still to be played elsewhere once every table has played it. The tournament's scorers and
directors see every deal, scored or not."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import cast

from .. import selectors
from ..duplicate.deals import by_suit
from ..duplicate.hand_records import hand_records
from ..duplicate.results import Deal, groups
from ..duplicate.scoring import Board, board_results
from ..sheets import planned_deals
from ..standings import hundredths


def points_shown(value: Fraction) -> int | Decimal:
    """Matchpoints: whole as they usually are, two decimals where Neuberg's formula gives a
    fraction."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else hundredths(value)


@dataclass
class Result:
    """One table's result for one seat of the deal."""

    table: int  # the table's number
    player: str
    player_id: int
    score: int | Fraction | None = None  # None: no row for the deal at this table
    margin: Decimal | None = None
    matchpoints: int | Decimal | None = None
    percent: Decimal | None = None
    adjusted: bool = False  # the director awarded the percentage
    fouled: bool = False  # played with wrong cards: out of the comparison


@dataclass
class SeatView:
    seat: int  # from 1
    dealer: bool
    hand: list[tuple[str, list[str]]]  # (suit, ranks high to low), ♠ ♥ ♦ ♣
    results: list[Result]


@dataclass
class Replay:
    table: int  # the table's number
    watch_key: str


@dataclass
class Traveller:
    round: int
    size: int
    number: int
    scored: bool
    seats: list[SeatView]
    stock: list[str]  # Леопард's stock, top card first
    replays: list[Replay]


@dataclass
class DealLink:
    size: int
    number: int
    scored: bool


@dataclass
class GroupLinks:
    """A round's group (its tables of one size) and the travellers listed for it."""

    size: int
    deals: list[DealLink]


def hand_record(tournament, round_number: int, size: int, number: int):
    """Deal ``number`` of the round's group of ``size`` seats, as its tables were dealt it
    (and as the directors' hand records print it)."""
    (group,) = hand_records(
        tournament.game,
        tournament.options,
        tournament.game_settings,
        seed=tournament.seed,
        round_number=round_number,
        sizes=[size],
    )
    return group.deals[number - 1]


def scored_deal(
    tournament, disclosed: selectors.Played, round_number: int, size: int, number: int
) -> Deal | None:
    """The scored deal, or None: it is not scored yet, or there is no such deal."""
    return next(
        (
            deal
            for deal in selectors.duplicate_deals(
                tournament, disclosed.rounds, disclosed.deal_rulings()
            )
            if (deal.group.round, deal.group.size, deal.number) == (round_number, size, number)
        ),
        None,
    )


def any_deal(
    tournament, released: selectors.Played, round_number: int, size: int, number: int
) -> Deal | None:
    """Any deal of a released round's group, scored or not, as far as its tables have
    played it (the officials' view); None for a group or deal the round does not have."""
    rounds = released.rounds
    if not 1 <= round_number <= len(rounds):
        return None
    group = next(
        (g for g in groups(rounds, over=len(rounds)) if (g.round, g.size) == (round_number, size)),
        None,
    )
    if group is None or not 1 <= number <= (planned_deals(tournament, size) or 0):
        return None
    found = next(
        (
            deal
            for deal in selectors.duplicate_deals(tournament, rounds, released.deal_rulings())
            if (deal.group.round, deal.group.size, deal.number) == (round_number, size, number)
        ),
        None,
    )
    if found is not None:
        return found
    round_ = rounds[round_number - 1]
    players: dict[Hashable, Sequence[Hashable]] = {
        index: round_.tables[index].players for index in group.tables
    }
    return Deal(group, number, Board({}, players, len(group.tables)))


def traveller(tournament, played_: selectors.Played, deal: Deal, scored: bool) -> Traveller:
    """The deal's traveller; ``played_`` the rounds it was found in (their table models)."""
    group, board = deal.group, deal.board
    models = played_.tables[group.round - 1]
    ids = {entrant.player.name: entrant.player_id for entrant in played_.entrants}
    results = board_results(board)
    dealt = hand_record(tournament, group.round, group.size, deal.number)
    seats = []
    for seat in range(group.size):
        shown = []
        for index in group.tables:
            name = str(board.players[index][seat])  # the document's rounds: players by name
            result = Result(
                models[index].number,
                name,
                ids[name],
                adjusted=(index, seat) in board.adjusted,
                fouled=index in board.fouled,
            )
            if index in board.rows:
                result.score = board.rows[index][seat]
            scored_ = results.get((index, seat))
            if scored_ is not None:
                result.margin = None if result.adjusted else hundredths(scored_.margin)
                result.matchpoints = points_shown(scored_.matchpoints)
                result.percent = hundredths(scored_.percent)
            shown.append(result)
        hand = by_suit(dealt.dealt["hands"][seat])
        seats.append(
            SeatView(
                seat + 1,
                dealt.dealer == seat,
                [(suit, [card[0] for card in cards]) for suit, cards in hand.items()],
                shown,
            )
        )
    replays = [
        Replay(models[index].number, models[index].watch_key)
        for index in group.tables
        if models[index].hotseat_id is not None and models[index].watch_key and index in board.rows
    ]
    return Traveller(
        group.round,
        group.size,
        deal.number,
        scored,
        seats,
        list(dealt.dealt.get("stock", [])),
        replays,
    )


def round_links(
    tournament,
    disclosed: selectors.Played,
    released: selectors.Played | None,
    round_number: int,
) -> list[GroupLinks]:
    """The travellers a round's page lists, group by group: the scored deals; with
    ``released`` (the rounds with every row: the officials' view) every deal of the group,
    the scored ones marked."""
    scored = {
        (deal.group.size, deal.number)
        for deal in selectors.duplicate_deals(
            tournament, disclosed.rounds, disclosed.deal_rulings()
        )
        if deal.group.round == round_number
    }
    if released is None:
        sizes = sorted({size for size, _ in scored})
        return [
            GroupLinks(size, [DealLink(size, n, True) for s, n in sorted(scored) if s == size])
            for size in sizes
        ]
    rounds = released.rounds
    found = []
    for group in groups(rounds, over=len(rounds)):
        if group.round != round_number:
            continue
        count = planned_deals(tournament, group.size) or 0
        found.append(
            GroupLinks(
                group.size,
                [DealLink(group.size, n, (group.size, n) in scored) for n in range(1, count + 1)],
            )
        )
    return sorted(found, key=lambda links: links.size)


@dataclass
class PlayerDeal:
    """One scored deal a player played: where, and his percentage on it (None: no result,
    his table fouled it)."""

    round: int
    size: int
    number: int
    table: int  # the table's number
    seat: int  # from 1
    percent: Decimal | None
    adjusted: bool


def player_deals(played_: selectors.Played, name: str) -> list[PlayerDeal]:
    """The scored deals of a duplicate tournament that the player of ``name`` played, in
    round and deal order (``played_`` disclosed)."""
    tournament = played_.tournament
    if not tournament.duplicate:
        return []
    found = []
    for deal in selectors.duplicate_deals(tournament, played_.rounds, played_.deal_rulings()):
        board = deal.board
        results = board_results(board)
        for index, players in board.players.items():
            if name not in players:
                continue
            seat = list(players).index(name)
            if index not in board.rows and (index, seat) not in board.adjusted:
                continue  # not played there, and no result given
            result = results.get((index, seat))
            found.append(
                PlayerDeal(
                    deal.group.round,
                    deal.group.size,
                    deal.number,
                    played_.tables[deal.group.round - 1][cast(int, index)].number,
                    seat + 1,
                    None if result is None else hundredths(result.percent),
                    (index, seat) in board.adjusted,
                )
            )
    return found
