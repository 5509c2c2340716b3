"""Where established players land on openskill's scale: the numbers behind skill.py's mapping.

200 players of known strength (normal, sd 200 Elo) play 20,000 one-against-one games rated by
`codebreakers.skill.rate`; prints their mean mu, sigma and ordinal and the mu a 200-Elo
difference is worth (docs/ratings.md). Run: `python scripts/rating_scale.py`.
"""

from __future__ import annotations

import random
import statistics

from codebreakers.skill import Skill, rate

PLAYERS = 200
GAMES = 20_000
ELO_SD = 200.0


def main() -> None:
    rng = random.Random(1)
    strength = [rng.gauss(0.0, 1.0) for _ in range(PLAYERS)]
    skills = [Skill() for _ in range(PLAYERS)]
    for _ in range(GAMES):
        a, b = rng.sample(range(PLAYERS), 2)
        a_wins = rng.random() < 1 / (1 + 10 ** (-(strength[a] - strength[b]) * ELO_SD / 400))
        [[skills[a]], [skills[b]]] = rate([[skills[a]], [skills[b]]], [0, 1] if a_wins else [1, 0])
    mus = [s.mu for s in skills]
    slope = statistics.linear_regression(strength, mus).slope
    print(f"mean mu {statistics.fmean(mus):.2f}")
    print(f"mean sigma {statistics.fmean(s.sigma for s in skills):.2f}")
    print(f"mean ordinal {statistics.fmean(s.mu - 3 * s.sigma for s in skills):.2f}")
    print(f"mu per {ELO_SD:.0f} Elo {slope:.2f}")


if __name__ == "__main__":
    main()
