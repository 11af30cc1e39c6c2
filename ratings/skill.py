"""Club ratings, pure Python (no Django): OpenSkill's Plackett–Luce model with the library's
default parameters (docs/decisions.md, "Ratings").

A match is its players and what ranked them (higher is better, equal figures tie); ``rate``
turns each player's (μ, σ) before it into the (μ, σ) after. ``shown`` is the whole number
pages print: the ordinal μ − 3σ on a friendlier scale; ``provisional`` while σ is high.
"""

from collections.abc import Sequence
from fractions import Fraction

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START = (MODEL.mu, MODEL.sigma)  # 25 and 25/3: a player before his first rated match
BASE, SCALE = 1500, 40  # shown = BASE + SCALE × (μ − 3σ): a newcomer shows 1500
PROVISIONAL_SIGMA = 7.0  # for about his first nine matches at tables of four, six of two

Skill = tuple[float, float]  # (μ, σ)


def ranks(points: Sequence[int | Fraction]) -> list[int]:
    """1 for the best figure; equal figures share a rank (competition ranking: 1, 2, 2, 4)."""
    return [1 + sum(1 for other in points if other > mine) for mine in points]


def rate(before: Sequence[Skill], points: Sequence[int | Fraction]) -> list[Skill]:
    """Each player's (μ, σ) after a match, from those before it and his figure in it."""
    if len(before) != len(points) or len(before) < 2:
        raise ValueError("a match has at least two players, each with a figure")
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks(points)])
    return [(team[0].mu, team[0].sigma) for team in after]


def ordinal(skill: Skill) -> float:
    mu, sigma = skill
    return mu - 3 * sigma


def shown(skill: Skill) -> int:
    return round(BASE + SCALE * ordinal(skill))


def provisional(skill: Skill) -> bool:
    return skill[1] >= PROVISIONAL_SIGMA
