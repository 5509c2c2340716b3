"""Bot levels: the same reasoning, with more or less care.

- easy: picks among fairly close clues with no thought for the enemy, accepts a thin margin,
  and reads clues with noise (it sometimes misreads a transmission, as a beginner would);
- normal: guards somewhat against interception and reads with a little noise;
- hard: weighs every candidate transmission against how the enemy could intercept it from our
  public clue history, and much more than the others towards clues that read plainly (close to
  their keyword in general, not only through our lexicon: what a person partnered with the bot
  reads); keeps a safe margin for its own team, reads without noise, and intercepts and guesses
  keywords knowing the room's keyword pool, as an experienced player does.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    candidates: int  # clue candidates kept per keyword before the joint choice
    defence: float  # weight of the enemy's interception chance against our own decode chance
    plain: float  # weight of the plain reading's chance (the embedding alone, no lexicon)
    margin: float  # minimum score lead of the true code for our own teammates' reading
    read_noise: float  # Gumbel noise scale added to code scores when reading clues
    use_pool: bool  # reason about the enemy's keywords with the room's keyword pool
    pick_temperature: float  # softness of the final choice among near-best transmissions


LEVELS = {
    "easy": Level("easy", 10, 0.0, 1.0, 0.0, 0.04, False, 0.05),
    "normal": Level("normal", 20, 0.5, 1.0, 0.04, 0.01, False, 0.02),
    # Defence and plain weight measured together (docs/bots.md, "Readable against unreadable"):
    # 6 / 8 keeps the baseline's interceptions near 12% while the readers decode ~80%.
    "hard": Level("hard", 48, 6.0, 8.0, 0.05, 0.0, True, 0.01),
}


def level(name: str) -> Level:
    """The level called `name`; KeyError for an unknown one."""
    return LEVELS[name]
