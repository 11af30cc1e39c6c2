"""Seatings without repeats at tables of four, built from a resolvable design (the social
golfer problem's best known schedules; docs/rules/tournaments.md, "Seating"): pure Python.

Each design seats ``N = c·m + k`` players for ``m`` rounds with no pair meeting twice. Its
points are ``c`` copies of the integers mod ``m`` (point ``i·m + a`` is ``a`` of copy ``i``)
and ``k`` fixed points (``c·m`` to ``N − 1``). One round, the base, is stored; round ``t``
adds ``t`` (mod ``m``) to every point of the copies and leaves the fixed points as they are.
The base is chosen so that every difference between two points of a table (within a copy,
or from one copy to another, or a copy and a fixed point) occurs once in all its tables,
which is what makes every pair meet at most once over the ``m`` rounds. For 16, 28 and 40
players (``k = 1``) every pair meets exactly once: resolvable 2-(N, 4, 1) designs.

32 players are seated for 10 rounds by a known schedule of the social golfer problem (its
first was Aguado's, 2004), stored whole: every player meets all but one of the others once.
Its players are four groups of eight, numbered ``8·i + x``: exclusive or of any ``x'`` with
``x`` in all four groups at once maps the schedule onto itself, and the one each player
never meets is ``x ^ 7`` of his own group.
"""

TABLE = 4  # the designs' tables seat four

# players: (m, c, k, the base round's tables)
DESIGNS: dict[int, tuple[int, int, int, tuple[tuple[int, ...], ...]]] = {
    16: (5, 3, 1, ((15, 1, 10, 9), (0, 7, 2, 6), (3, 11, 4, 14), (5, 12, 13, 8))),
    20: (5, 4, 0, ((0, 10, 12, 15), (1, 19, 8, 5), (2, 13, 4, 7), (3, 11, 17, 9), (6, 14, 18, 16))),
    24: (
        7,
        3,
        3,
        (
            (21, 20, 11, 0),
            (22, 14, 5, 10),
            (23, 12, 3, 17),
            (1, 2, 4, 19),
            (6, 7, 9, 13),
            (8, 18, 15, 16),
        ),
    ),
    28: (
        9,
        3,
        1,
        (
            (0, 9, 18, 27),
            (1, 8, 12, 15),
            (2, 7, 10, 17),
            (3, 6, 22, 23),
            (4, 5, 19, 26),
            (11, 16, 21, 24),
            (13, 14, 20, 25),
        ),
    ),
    36: (
        11,
        3,
        3,
        (
            (3, 18, 23, 33),
            (4, 16, 26, 34),
            (8, 11, 24, 35),
            (9, 19, 22, 28),
            (2, 5, 30, 31),
            (13, 14, 25, 32),
            (0, 1, 7, 20),
            (6, 12, 27, 29),
            (10, 15, 17, 21),
        ),
    ),
    40: (
        13,
        3,
        1,
        (
            (0, 13, 26, 39),
            (1, 4, 34, 36),
            (3, 12, 30, 37),
            (9, 10, 33, 38),
            (2, 7, 22, 24),
            (6, 8, 14, 20),
            (5, 11, 16, 21),
            (15, 25, 31, 35),
            (19, 23, 27, 28),
            (17, 18, 29, 32),
        ),
    ),
}


# 32 players: every round, stored whole (its tables four to a line)
# fmt: off
ROUNDS_32: tuple[tuple[tuple[int, ...], ...], ...] = (
    ((0, 1, 20, 21), (2, 3, 22, 23), (4, 5, 16, 17), (6, 7, 18, 19),
     (8, 14, 26, 28), (9, 15, 27, 29), (10, 12, 24, 30), (11, 13, 25, 31)),
    ((0, 2, 4, 6), (1, 3, 5, 7), (8, 9, 12, 13), (10, 11, 14, 15),
     (16, 19, 21, 22), (17, 18, 20, 23), (24, 25, 26, 27), (28, 29, 30, 31)),
    ((0, 3, 12, 15), (1, 10, 19, 31), (2, 9, 16, 28), (4, 7, 8, 11),
     (5, 14, 23, 27), (6, 13, 20, 24), (17, 21, 26, 30), (18, 22, 25, 29)),
    ((0, 5, 25, 28), (1, 12, 23, 26), (2, 7, 27, 30), (3, 14, 21, 24),
     (4, 9, 18, 31), (6, 11, 16, 29), (8, 10, 20, 22), (13, 15, 17, 19)),
    ((0, 8, 16, 24), (1, 9, 17, 25), (2, 10, 18, 26), (3, 11, 19, 27),
     (4, 12, 20, 28), (5, 13, 21, 29), (6, 14, 22, 30), (7, 15, 23, 31)),
    ((0, 9, 19, 26), (1, 15, 16, 30), (2, 11, 17, 24), (3, 13, 18, 28),
     (4, 10, 21, 27), (5, 12, 22, 31), (6, 8, 23, 25), (7, 14, 20, 29)),
    ((0, 10, 23, 29), (1, 11, 22, 28), (2, 8, 21, 31), (3, 9, 20, 30),
     (4, 14, 19, 25), (5, 15, 18, 24), (6, 12, 17, 27), (7, 13, 16, 26)),
    ((0, 11, 18, 30), (1, 2, 13, 14), (3, 8, 17, 29), (4, 15, 22, 26),
     (5, 6, 9, 10), (7, 12, 21, 25), (16, 20, 27, 31), (19, 23, 24, 28)),
    ((0, 13, 22, 27), (1, 4, 24, 29), (2, 15, 20, 25), (3, 6, 26, 31),
     (5, 8, 19, 30), (7, 10, 17, 28), (9, 11, 21, 23), (12, 14, 16, 18)),
    ((0, 14, 17, 31), (1, 8, 18, 27), (2, 12, 19, 29), (3, 10, 16, 25),
     (4, 13, 23, 30), (5, 11, 20, 26), (6, 15, 21, 28), (7, 9, 22, 24)),
)
# fmt: on

PLAYERS = tuple(sorted([*DESIGNS, 32]))  # the numbers of players with a design


def rounds_without_repeats(players: int) -> int:
    """The rounds of the design for this many players at tables of four (0: none)."""
    if players == 32:
        return len(ROUNDS_32)
    design = DESIGNS.get(players)
    return design[0] if design else 0


def design_round(players: int, t: int) -> list[list[int]]:
    """Round ``t`` (from 0) of the design for ``players``: its tables of point ids."""
    if players == 32:
        return [list(table) for table in ROUNDS_32[t]]
    m, c, k, base = DESIGNS[players]
    finite = c * m

    def moved(p: int) -> int:
        return p if p >= finite else p - p % m + (p % m + t) % m

    return [[moved(p) for p in table] for table in base]
