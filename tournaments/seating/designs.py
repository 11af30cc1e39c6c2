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

32 players are the points of the affine space of dimension 5 over the field of two elements
(the numbers 0 to 31 as five bits, added by exclusive or): a round is the eight translates
of a plane through 0, ``{0, a, b, a ^ b}``, and two players meet in it when their sum is one
of the plane's. Nine planes no two of which share a point but 0 seat 9 rounds without a
repeat (a partial spread of lines of the projective space of dimension 4, at its largest).
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


# 32 players: the planes (a, b) of each round
PLANES = ((1, 2), (4, 8), (5, 10), (6, 16), (7, 18), (9, 17), (11, 20), (13, 19), (14, 23))

PLAYERS = tuple(sorted([*DESIGNS, 32]))  # the numbers of players with a design


def rounds_without_repeats(players: int) -> int:
    """The rounds of the design for this many players at tables of four (0: none)."""
    if players == 32:
        return len(PLANES)
    design = DESIGNS.get(players)
    return design[0] if design else 0


def design_round(players: int, t: int) -> list[list[int]]:
    """Round ``t`` (from 0) of the design for ``players``: its tables of point ids."""
    if players == 32:
        a, b = PLANES[t]
        return [[x, x ^ a, x ^ b, x ^ a ^ b] for x in range(32) if x < min(x ^ a, x ^ b, x ^ a ^ b)]
    m, c, k, base = DESIGNS[players]
    finite = c * m

    def moved(p: int) -> int:
        return p if p >= finite else p - p % m + (p % m + t) % m

    return [[moved(p) for p in table] for table in base]
