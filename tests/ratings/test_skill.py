"""The rating model: openskill's own update one against one, even starts for unequal teams,
draws, and the shown number's mapping."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from codebreakers.skill import MU, SIGMA, Skill, rate, shown

NEW = Skill()


def test_one_against_one_is_openskills_plackett_luce() -> None:
    model = PlackettLuce()
    for ranks in ([0, 1], [1, 0], [0, 0]):
        a, b = Skill(31.0, 4.0), Skill(22.0, 6.5)
        ours = rate([[a], [b]], ranks)
        [[oa], [ob]] = model.rate(
            [[model.rating(a.mu, a.sigma)], [model.rating(b.mu, b.sigma)]],
            ranks=[float(r) for r in ranks],
        )
        assert ours[0][0].mu == pytest.approx(oa.mu) and ours[0][0].sigma == pytest.approx(oa.sigma)
        assert ours[1][0].mu == pytest.approx(ob.mu) and ours[1][0].sigma == pytest.approx(ob.sigma)


def test_team_size_alone_gives_no_edge() -> None:
    """Four newcomers against two: whoever wins gains what a pair beating a pair would."""
    four_win = rate([[NEW] * 4, [NEW] * 2], [0, 1])
    two_win = rate([[NEW] * 4, [NEW] * 2], [1, 0])
    pair = rate([[NEW] * 2, [NEW] * 2], [0, 1])
    assert four_win[0][0].mu - MU == pytest.approx(pair[0][0].mu - MU)
    assert two_win[1][0].mu - MU == pytest.approx(pair[0][0].mu - MU)
    assert four_win[1][0].mu == pytest.approx(two_win[0][0].mu)  # losers lose alike


def test_a_draw_between_equals_moves_no_mu_and_shrinks_sigma() -> None:
    [[a], [b]] = rate([[NEW], [NEW]], [0, 0])
    assert a.mu == pytest.approx(MU) and b.mu == pytest.approx(MU)
    assert a.sigma < SIGMA


def test_the_surer_member_of_a_side_moves_less() -> None:
    [[sure, unsure], _] = rate([[Skill(25.0, 2.0), NEW], [NEW]], [0, 1])
    assert 0 < sure.mu - 25.0 < unsure.mu - MU


def test_shown_rating() -> None:
    assert NEW.shown == 1050.0  # a newcomer: ordinal 0
    assert shown(24.0, 2.0) == 1500.0  # ordinal 18: an established average player
    assert shown(25.0, 2.0) == 1525.0  # a point of mu: 25 rating points
