"""Team ratings: the Weng-Lin model of `openskill`, and the number players are shown.

Model: Plackett-Luce, openskill's default. For two sides (every game here) it is the same
likelihood as Bradley-Terry, it takes tied ranks (a shared Decrypto victory, a drawn Mastermind
match), and its cost grows with the teams, not their pairs. openskill sums a team's players'
skills, which would make a Decrypto team of four twice as strong as a pair: teams here are
rated by their *average* player (`rate`), so unequal teams and the 3-player
variant (a pair against one) start even, and every member of a side moves by the side's
update scaled by their own uncertainty.

Shown rating: conservative, `mu - 3 sigma` (openskill's ordinal: the skill the player very
probably has at least), mapped to a familiar range: `1500 + 25 * (ordinal - 18)`.
scripts/rating_scale.py (200 players, 20,000 games; docs/ratings.md) puts an average player who has
played a while at ordinal ~18 (mu 25, sigma ~2.1), so at 1500, and one mu point at ~24 Elo
points; a newcomer (mu 25, sigma 25/3) shows 1050 and rises as the model grows sure of them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
DISPLAY_CENTRE = 1500.0
DISPLAY_SCALE = 25.0
ORDINAL_AT_CENTRE = 18.0


class Skill(tuple[float, float]):
    """(mu, sigma): what the store keeps of a player's rating in one game."""

    __slots__ = ()

    def __new__(cls, mu: float = MU, sigma: float = SIGMA) -> Skill:
        return super().__new__(cls, (mu, sigma))

    @property
    def mu(self) -> float:
        return self[0]

    @property
    def sigma(self) -> float:
        return self[1]

    @property
    def shown(self) -> float:
        """The conservative rating players see (see the module's docstring)."""
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> float:
    return round(DISPLAY_CENTRE + DISPLAY_SCALE * (mu - 3 * sigma - ORDINAL_AT_CENTRE), 1)


# The model rates each side as one player (its mean skill and mean variance), with no tau of
# its own: tau (openskill's default, the drift that keeps sigma from freezing) is added to each
# player's variance first, as openskill does.
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, tau=1e-12)
TAU = MU / 300
KAPPA = 0.0001  # openskill's floor on a variance's shrink factor


def rate(sides: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """New skills after one game: `sides[i]` finished at place `ranks[i]` (0 first; equal
    places for a draw).

    openskill (a compiled build: it can't be subclassed) sums a team's skills; here each side
    is rated as its average player, and the side's update goes to its members by the
    Weng-Lin rule openskill applies inside a team: a member with variance v in a side of
    variance V moves mu by v/V of the side's move and keeps max(1 - (v/V) delta, kappa) of v.
    """
    variances = [[s.sigma**2 + TAU**2 for s in side] for side in sides]
    means = [
        (sum(s.mu for s in side) / len(side), sum(v) / len(v))
        for side, v in zip(sides, variances, strict=True)
    ]
    virtual = [[MODEL.create_rating([mu, math.sqrt(var)])] for mu, var in means]
    rated = MODEL.rate(virtual, ranks=[float(r) for r in ranks])
    out = []
    for side, side_vars, (mu, var), [after] in zip(sides, variances, means, rated, strict=True):
        omega = after.mu - mu
        delta = 1 - after.sigma**2 / var
        out.append(
            [
                Skill(s.mu + v / var * omega, math.sqrt(v * max(1 - v / var * delta, KAPPA)))
                for s, v in zip(side, side_vars, strict=True)
            ]
        )
    return out
