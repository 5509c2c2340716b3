"""The decoder reads transmissions written by people: the development set of
tests/bots/human_transmissions/<lang>.txt (at least 40 per language, written as people write
clues at a table), with honest probabilities.

Issue 17 asks for 90% in every language, and every language meets it. Korean reads 39 of 43
since the lexicon's 절 (bow) gained 세배 and 병 (bottle) 술, the first words a Korean speaker
gives for them: a gap this set's misses showed, so this set no longer tests those two. Its
other misses are clues the lexicon lacks and USE embeds poorly (짠물 nearer 용 than 바다,
밭갈이, 비숍, 옥좌); adding those words because this set holds them would tune the lexicon to
its own test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codebreakers.bots.decoder import decode
from codebreakers.bots.lexicon import Lexicon

SETS = Path(__file__).parent / "human_transmissions"
REQUIRED = {"en": 0.90, "fr": 0.90, "ru": 0.90, "ko": 0.90}


def read_set(lang: str) -> list[tuple[list[str], list[str], list[int]]]:
    """(keywords 1-4, three clues, the code meant) for every line of a language's set."""
    path = SETS / f"{lang}.txt"
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        keywords, clues, code = (part.strip() for part in line.split("|"))
        entry = (
            [k.strip() for k in keywords.split(",")],
            [c.strip() for c in clues.split(";")],
            [int(d) for d in code.split("-")],
        )
        assert len(entry[0]) == 4 and len(entry[1]) == 3 and len(entry[2]) == 3, (path, number)
        out.append(entry)
    return out


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "ko"])
def test_reads_the_development_set(lexicons: dict[str, Lexicon], lang: str) -> None:
    if not (SETS / f"{lang}.txt").exists():
        pytest.skip(f"no development set for {lang} yet")
    sets = read_set(lang)
    assert len(sets) >= 40
    missed = []
    for keywords, clues, code in sets:
        reading = decode(lexicons[lang], keywords, clues)
        assert 0.0 < reading.confidence <= 1.0
        assert abs(float(reading.probabilities.sum()) - 1.0) < 1e-6
        if reading.code != code:
            missed.append(f"{keywords} {clues}: meant {code}, read {reading.code}")
    right = len(sets) - len(missed)
    assert right >= REQUIRED[lang] * len(sets), f"{right} of {len(sets)}; missed:\n" + "\n".join(
        missed
    )


# A second set, written after the lexicons and never used to tune them (issue 17's best
# estimate of how the bots read people they have not met): its first read, 2 December 2026,
# is the floor, so that a change that reads people worse fails here.
UNSEEN_FLOOR = {"en": 26, "fr": 25, "ru": 27, "ko": 31}


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "ko"])
def test_reads_the_unseen_set_no_worse_than_at_first(
    lexicons: dict[str, Lexicon], lang: str
) -> None:
    sets = read_set(f"{lang}_unseen")
    assert len(sets) >= 20
    right = sum(decode(lexicons[lang], kw, clues).code == code for kw, clues, code in sets)
    assert right >= UNSEEN_FLOOR[lang], f"{right} of {len(sets)}"
