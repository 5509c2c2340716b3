"""`bot audit`: sampled transmissions with each clue's reason and checks, and the checks catch
the forbidden kinds of clue the issue saw (issue 17)."""

from __future__ import annotations

import json

import pytest

from codebreakers.bots.audit import (
    FORBIDDEN,
    Check,
    audit_clue,
    check_meaning,
    sample,
    summary,
)
from codebreakers.bots.encryptor import Candidate
from codebreakers.bots.lexicon import lexicon
from codebreakers.cli import main

KEYWORDS = {
    "en": ["moon", "piano", "knife", "sail"],
    "ru": ["нож", "пианино", "луна", "зима"],
    "ko": ["칼", "피아노", "눈", "배"],
    "fr": ["pile", "océan", "hiver", "dragon"],
}

# (language, clue, a forbidden kind the audit must flag): the examples and their kin.
FORBIDDEN_CLUES = [
    ("en", "dave", "proper_name"),
    ("en", "kevin", "proper_name"),
    ("en", "zzyzx", "not_dictionary"),
    ("en", "mri", "abbreviation"),
    ("en", "TV", "abbreviation"),
    ("en", "went", "inflected"),
    ("en", "gato", "other_language"),
    ("en", "moons", "keyword_form"),
    ("en", "mood", "alike"),
    ("en", "perspicacity", "rare"),
    ("en", "shit", "offensive"),
    ("en", "sail boat", "keyword_form"),
    ("en", "knife 2", "engine_warning"),
    ("fr", "jacques", "proper_name"),
    ("ru", "ноль", "alike"),
    ("en", "moan", "alike"),
    ("ru", "гитаре", "inflected"),
    ("ru", "москва", "proper_name"),
    ("ru", "мвд", "abbreviation"),
    ("ru", "snow", "other_language"),
    ("ko", "다크", "transliteration"),
    ("ko", "나이트", "transliteration"),
    ("ko", "부르", "verb_stem"),
    ("ko", "바다에", "inflected"),
    ("ko", "music", "other_language"),
]

CLEAN_CLUES = [
    ("en", "keys"),
    ("en", "night sky"),
    ("en", "december"),
    ("en", "blade"),
    ("en", "cockpit"),
    ("en", "camping"),
    ("en", "salon"),
    ("en", "spade"),
    ("fr", "glace"),
    ("fr", "vue"),
    ("ru", "лезвие"),
    ("ru", "снег"),
    ("ko", "건반"),
    ("ko", "바다"),
    ("ko", "케이크"),
    ("ko", "치마"),
    ("ko", "옆으로 걷다"),
    ("ko", "북극"),
    ("ko", "새해 첫날"),
]


def _check(lang: str, clue: str) -> Check:
    return audit_clue(lang, clue, KEYWORDS[lang], [], Check())


@pytest.mark.parametrize(("lang", "clue", "kind"), FORBIDDEN_CLUES)
def test_flags_forbidden_kinds(lang: str, clue: str, kind: str) -> None:
    assert kind in _check(lang, clue).flags


@pytest.mark.parametrize(("lang", "clue"), CLEAN_CLUES)
def test_passes_ordinary_clues(lang: str, clue: str) -> None:
    assert _check(lang, clue).flags == []


def test_near_misses_say_why() -> None:
    keys = _check("en", "keys")
    assert {"kind": "inflected", "detail": "'keys': plural of 'key'"} in keys.near
    assert any(n["kind"] == "rare" for n in _check("en", "stethoscope").near)


def test_translations_and_rival_keywords_are_meaning_checks() -> None:
    lex = lexicon("en")
    keywords = ["winter", "piano", "dragon", "ocean"]
    texts = ["hiver", "keys", "sea"]
    chosen = [Candidate(t, v, 0.0, None) for t, v in zip(texts, lex.embed(texts), strict=True)]
    hiver, keys, _ = check_meaning(lex, keywords, chosen, [1, 2, 4])
    assert hiver.flags == ["translation"]
    assert keys.flags == []


def test_sampled_transmissions_carry_reasons_and_checks() -> None:
    transmissions = sample("en", 4, seed=3, levels=["easy", "hard"])
    assert len(transmissions) == 4
    assert {t["level"] for t in transmissions} <= {"easy", "hard"}
    for t in transmissions:
        assert len(t["keywords"]) == 4 and len(set(t["keywords"])) == 4
        assert sorted(t["code"]) != [] and len(set(t["code"])) == 3
        for clue, digit in zip(t["clues"], t["code"], strict=True):
            assert clue["digit"] == digit and clue["keyword"] == t["keywords"][digit - 1]
            assert clue["source"] in ("lexicon", "vocabulary")
            if clue["source"] == "lexicon":
                assert clue["grade"] in (1, 2, 3)
            assert set(clue["flags"]) <= set(FORBIDDEN)
            assert all({"kind", "detail"} <= set(n) for n in clue["near"])
    # later rounds carry the run's earlier clues: no clue repeats within a run
    given = [c["clue"] for t in transmissions for c in t["clues"]]
    assert len(set(given)) == len(given) or any(t["round"] == 1 for t in transmissions[1:])
    counts = summary(transmissions)
    assert counts["transmissions"] == 4 and counts["clues"] == 12
    assert set(counts["forbidden"]) == set(FORBIDDEN)


def test_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bot", "audit", "--lang", "ru", "--samples", "2", "--seed", "1", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lang"] == "ru" and out["summary"]["transmissions"] == 2
    assert len(out["transmissions"]) == 2
