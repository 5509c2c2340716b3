"""`codebreakers bot audit`: sampled bot transmissions, each clue with why and what it risked.

A person who sits with a bot must be able to read its clues, and the rules forbid some kinds
of clue outright. This samples transmissions as the bots write them in play (four random pool
keywords, a random code, at each level, in a run of rounds so that later rounds carry our
earlier clues as history) and checks every clue with knowledge the bots do not play with:

- forbidden kinds (`FORBIDDEN`, a clue with any is a failure): a proper name, an abbreviation,
  not a dictionary word, a word of another language or a transliteration, a sound- or
  spelling-alike of any of the four keywords, a form of a keyword, a translation of one, an
  inflected form where a dictionary form exists, a verb stem, a rare word, an offensive word,
  or anything the engine warns about;
- near misses (`near`): how close the clue came to one of those lines, and to pointing at
  another of our keywords as much as at its own.

The morphology comes from registry packages that ship their data (bots/dictionary.py loads
them): simplemma's Wiktionary lemmas (en, fr), pymorphy3's OpenCorpora dictionary (ru), Kiwi
(ko); frequencies from wordfreq, in the room's language and its neighbours; edit distance from
rapidfuzz, on jamo for Hangul. The packages are the `test` extra: the audit is a measurement,
never part of play.

    codebreakers bot audit --lang en --samples 1000 --seed 1 --json [--level hard]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from codebreakers.bots.closeness import keyword_table
from codebreakers.bots.encryptor import Candidate, choose_transmission
from codebreakers.bots.levels import LEVELS, level
from codebreakers.bots.lexicon import Lexicon, lexicon
from codebreakers.bots.rules import BOT_MAX_COSINE, TRANSLATION_COSINE, used_keys
from codebreakers.bots.wordforms import root_key, same_root
from codebreakers.games.decrypto.clues import clue_warnings
from codebreakers.games.decrypto.words import load_pool
from codebreakers.games.decrypto.words.folding import fold

FORBIDDEN = (
    "proper_name",
    "abbreviation",
    "not_dictionary",
    "other_language",
    "transliteration",
    "alike",
    "keyword_form",
    "translation",
    "inflected",
    "verb_stem",
    "rare",
    "offensive",
    "engine_warning",
)
# Zipf frequency (log10 per billion words) under which a word is rare (a hit), or nearly.
RARE_ZIPF = 2.0
NEAR_RARE_ZIPF = 3.0
# Another language's frequency this far above ours, for a word not very common in ours: the
# word is that language's ("mar" in English is Spanish: 5.1 there, 4.2 here).
OTHER_LANGUAGE_LEAD = 0.75
NEAR_OTHER_LANGUAGE_LEAD = 0.4
COMMON_HERE = 4.5
# Normalised edit similarity (1 - distance / longer length, jamo for Hangul) from which a clue
# is a spelling-alike of a keyword; from NEAR_ALIKE it is reported.
ALIKE = 0.67
NEAR_ALIKE = 0.5
# A clue whose score for its keyword leads the next keyword's by less than this nearly points
# at two of ours.
NEAR_LEAD = 0.05
NEAR_TRANSLATION = BOT_MAX_COSINE - 0.08
# Languages whose frequencies betray a word of another language, per room language.
NEIGHBOURS = {
    "en": ("fr", "es", "it", "de", "pt", "nl"),
    "fr": ("en", "es", "it", "de", "pt"),
    "ru": ("uk", "bg"),
    "ko": (),
}
SCRIPTS = {"en": "LATIN", "fr": "LATIN", "ru": "CYRILLIC", "ko": "HANGUL"}
# English month and day names are capitalised in the dictionary but are not names of people
# or places: a clue "december" is an ordinary word.
EN_CAPITALISED_WORDS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ]
)
# Vulgar and offensive words, folded: whole words, or (ending in "-") the start of any word.
OFFENSIVE_ROOTS = {
    "en": (
        "fuck-",
        "shit-",
        "cunt-",
        "bitch-",
        "whore-",
        "slut-",
        "nigg-",
        "fag",
        "faggot-",
        "retard-",
        "rape",
        "rapist",
        "porn-",
        "cock",
        "dick",
        "pussy",
        "bastard-",
        "wank-",
        "twat-",
    ),
    "fr": (
        "merde-",
        "putain-",
        "salop-",
        "pute",
        "putes",
        "connard-",
        "connass-",
        "encul-",
        "niquer",
        "nique",
        "bite",
        "couille-",
        "pede",
        "pedes",
        "bougnoul-",
        "batard-",
        "branl-",
    ),
    "ru": (
        "хуй-",
        "хуе-",
        "хуя-",
        "пизд-",
        "ебат-",
        "ебан-",
        "бляд-",
        "сука",
        "суки",
        "мудак-",
        "пидор-",
        "жопа",
        "жопы",
        "говн-",
        "дерьм-",
        "шлюх-",
    ),
    "ko": ("씨발-", "시발-", "좆-", "병신-", "개새끼-", "지랄-", "보지", "자지", "섹스-", "창녀-"),
}
# Irregular plurals that lemmatise to their singular (regular ones are recognised by ending).
IRREGULAR_PLURALS = frozenset(
    [
        "teeth",
        "feet",
        "geese",
        "mice",
        "lice",
        "men",
        "women",
        "children",
        "people",
        "oxen",
        "dice",
        "leaves",
        "wolves",
        "knives",
        "wives",
        "lives",
        "halves",
        "yeux",
        "cieux",
    ]
)
PARTICIPLE_ENDINGS = {
    "en": ("ing", "ed", "en"),
    "fr": ("é", "ée", "és", "ées", "ant", "u", "ue", "us", "ues", "i", "ie", "is", "ies"),
}
KO_NOUNS = frozenset({"NNG", "NNB", "NR", "NP"})
NOMINAL = frozenset({"NOUN", "ADJF", "PRTF"})
VOWELS = frozenset("aeiouyéèêàâîôûœ")
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_COMPOUND = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)


@dataclass
class Check:
    """What one clue hit (`flags`, forbidden kinds) and came close to (`near`, with why)."""

    flags: list[str] = field(default_factory=list)
    near: list[dict[str, object]] = field(default_factory=list)

    def hit(self, kind: str) -> None:
        if kind not in self.flags:
            self.flags.append(kind)

    def close(self, kind: str, detail: str) -> None:
        self.near.append({"kind": kind, "detail": detail})


@cache
def _frequencies(lang: str) -> dict[str, float]:
    from wordfreq import get_frequency_dict

    return get_frequency_dict(lang)


def zipf(word: str, lang: str) -> float:
    """Zipf frequency of a single word (0 when wordfreq's list for `lang` lacks it)."""
    freq = _frequencies(lang).get(word.lower(), 0.0)
    return round(math.log10(freq * 1e9), 2) if freq > 0.0 else 0.0


def words_of(clue: str) -> list[str]:
    return _TOKEN.findall(clue)


def _script(word: str) -> str:
    names = {unicodedata.name(ch, "?").split()[0] for ch in word if ch.isalpha()}
    return names.pop() if len(names) == 1 else "MIXED"


def spelling_similarity(a: str, b: str) -> float:
    """1 - edit distance / longer length, on folded forms (Hangul as jamo)."""
    from rapidfuzz.distance import Levenshtein

    ka, kb = root_key(a).replace(" ", ""), root_key(b).replace(" ", "")
    if not ka or not kb:
        return 0.0
    return 1.0 - Levenshtein.distance(ka, kb) / max(len(ka), len(kb))


def _same_onset(a: str, b: str) -> bool:
    """Two short words (4 letters or fewer, 3 jamo in Hangul) sharing their first two letters
    and of nearly one length: "нож" / "ноль" (a hit: the shorter has 3 letters and half of the
    letters agree), "bone" / "body" (a near miss)."""
    ka, kb = root_key(a), root_key(b)
    short = 4 if not any("\uac00" <= ch <= "\ud7a3" for ch in a + b) else 3
    return (
        max(len(ka), len(kb)) <= short
        and abs(len(ka) - len(kb)) <= 1
        and len(ka) >= 2
        and ka[:2] == kb[:2]
    )


def check_alike(check: Check, clue: str, keywords: Sequence[str]) -> None:
    """Spelling- or sound-alikes of ANY of our keywords, and forms of them."""
    for keyword in keywords:
        for part in {clue, *words_of(clue)}:
            if same_root(part, keyword):
                check.hit("keyword_form")
            similarity = spelling_similarity(part, keyword)
            onset = _same_onset(part, keyword)
            shortest = min(len(root_key(part)), len(root_key(keyword)))
            if similarity >= ALIKE or (onset and shortest <= 3 and similarity >= NEAR_ALIKE):
                check.hit("alike")
            elif similarity >= NEAR_ALIKE or onset:
                check.close("alike", f"{part!r} ~ {keyword!r} ({similarity:.2f})")


def check_language(check: Check, clue: str, lang: str) -> None:
    """Script, and frequency here against the neighbouring languages."""
    for word in words_of(clue):
        if _script(word) != SCRIPTS[lang]:
            check.hit("other_language")
            continue
        ours = zipf(word, lang)
        if ours >= COMMON_HERE:
            continue
        # a word that is not rare here is ours too ("salon", "chef", "mist" in English): in
        # Russian, one pymorphy3 knows; simplemma lists only forms that differ from their lemma
        if lang == "ru":
            ours_too = ours >= RARE_ZIPF and known_here(word, lang)
        else:
            ours_too = ours >= NEAR_RARE_ZIPF
        for other in NEIGHBOURS[lang]:
            theirs = zipf(word, other)
            lead = theirs - ours
            if lead >= OTHER_LANGUAGE_LEAD and not ours_too:
                check.hit("other_language")
            elif lead >= NEAR_OTHER_LANGUAGE_LEAD:
                check.close("other_language", f"{word!r}: {other} {theirs} vs {ours}")


def known_here(word: str, lang: str) -> bool:
    """Whether pymorphy3's Russian dictionary knows `word`."""
    from codebreakers.bots.dictionary import morph_ru

    return bool(lang == "ru" and morph_ru().word_is_known(word.lower()))


def check_frequency(check: Check, clue: str, lang: str) -> None:
    """A rare word (or, for a phrase, its rarest word)."""
    words = words_of(clue)
    if not words:
        check.hit("not_dictionary")
        return
    rarest = min(zipf(w, lang) for w in words)
    # wordfreq's Korean list holds MeCab tokens, so a compound noun (눈사람) may be missing:
    # a missing Korean word is only a near miss (Kiwi below says whether it is a word).
    if rarest < RARE_ZIPF and not (lang == "ko" and rarest == 0.0):
        check.hit("rare")
    elif rarest < NEAR_RARE_ZIPF:
        check.close("rare", f"Zipf {rarest}")


def offensive(word: str, lang: str) -> bool:
    folded = fold(word)
    return any(
        folded.startswith(root[:-1]) if root.endswith("-") else folded == root
        for root in OFFENSIVE_ROOTS[lang]
    )


def check_offensive(check: Check, clue: str, lang: str) -> None:
    """Whole words, a hyphenated one as one word ("pique-nique" is no "nique")."""
    if any(offensive(w, lang) for w in _COMPOUND.findall(clue)):
        check.hit("offensive")


def _check_latin(check: Check, clue: str, lang: str) -> None:
    import simplemma

    words = words_of(clue)
    for word in words:
        if word.isupper() and len(word) > 1:
            check.hit("abbreviation")
        low = word.lower()
        if not simplemma.is_known(low, lang):
            # simplemma lists the forms that differ from their lemma, and lemmas only when
            # some form points at them: an unknown word is a dictionary word when common
            frequent = zipf(low, lang) >= NEAR_RARE_ZIPF
            unspoken = not set(low) & VOWELS or (len(low) <= 3 and not set(low[:2]) & VOWELS)
            if frequent and unspoken:
                check.hit("abbreviation")  # frequent yet no word to say: "mri", "tgv"
            elif not frequent and (len(words) == 1 or len(low) > 3):
                check.hit("not_dictionary")
            continue
        lemma = simplemma.lemmatize(low, lang)
        if lemma.isupper() and len(lemma) > 1:
            check.hit("abbreviation")
        elif lemma[:1].isupper() and low not in EN_CAPITALISED_WORDS:
            check.hit("proper_name")
        elif len(words) == 1 and lemma != low:
            _check_latin_form(check, low, lemma, lang)


def _plural_of(word: str, lemma: str, lang: str) -> bool:
    if word in (lemma + "s", lemma + "es", lemma + "x") or word in IRREGULAR_PLURALS:
        return True
    if lang == "en":
        return lemma.endswith("y") and word == lemma[:-1] + "ies"
    return lemma.endswith("al") and word == lemma[:-2] + "aux"


def _check_latin_form(check: Check, word: str, lemma: str, lang: str) -> None:
    """A word that is not its own lemma. Near misses: a plural noun, what people write ("keys"
    for piano, "étoiles" for lune); a participle, which is often a noun or an adjective too
    ("camping", "hidden"; simplemma knows no parts of speech); a lemma far rarer than the word
    (simplemma's slips: "spade" -> "spay"). A spelling variant ("defence") is no form at all.
    Anything else (a verb form "fell", a feminine "belle") is an inflected form."""
    from rapidfuzz.distance import Levenshtein

    if _plural_of(word, lemma, lang):
        check.close("inflected", f"{word!r}: plural of {lemma!r}")
    elif word.endswith(PARTICIPLE_ENDINGS[lang]):
        check.close("inflected", f"{word!r}: participle of {lemma!r}, or a noun or adjective")
    elif zipf(lemma, lang) < zipf(word, lang) - 0.5:
        check.close("inflected", f"{word!r}: simplemma's lemma {lemma!r} is rarer")
    elif not (len(word) == len(lemma) >= 6 and Levenshtein.distance(word, lemma) == 1):
        check.hit("inflected")


def _check_ru(check: Check, clue: str) -> None:
    from codebreakers.bots.dictionary import RU_NAME_GRAMMEMES, morph_ru

    morph = morph_ru()
    words = words_of(clue)
    for word in words:
        low = word.lower()
        if not morph.word_is_known(low):
            check.hit("not_dictionary")
            continue
        parses = morph.parse(low)
        if all(RU_NAME_GRAMMEMES & p.tag.grammemes for p in parses):
            check.hit("abbreviation" if any("Abbr" in p.tag for p in parses) else "proper_name")
        if len(words) > 1 or any(fold(p.normal_form) == fold(low) for p in parses):
            continue
        nominative = [p for p in parses if p.tag.POS in NOMINAL and p.tag.case == "nomn"]
        if nominative:
            check.close("inflected", f"{low!r}: nominative of {nominative[0].normal_form!r}")
        else:
            check.hit("inflected")


def _check_ko(check: Check, clue: str) -> None:
    """Kiwi's three best readings of each word out of context: a word one of them reads as a
    whole common noun is one ("바다" is also a name, 바다/NNP, first); else the best reading
    says what it is. Kiwi tags every noun its dictionary lacks as a proper noun (북극, 제빵사
    as well as 서울), so a proper noun is only a near miss. Kiwi cannot tell an everyday
    loanword (케이크) from a transliteration where a native word is in use (뮤직 for 음악):
    both sound transliterated, a near miss, and a hit when Kiwi does not know the word as a
    common noun either (다크, 나이트: English words as brand names)."""
    from codebreakers.bots.dictionary import kiwi, sounds_transliterated

    words = words_of(clue)
    for word in words:
        readings = [tokens for tokens, _ in kiwi().analyze(word, top_n=3)]
        noun = any(len(r) == 1 and r[0].tag in KO_NOUNS and r[0].form == word for r in readings)
        tags = [m.tag for m in readings[0]] if readings else []
        if any(t in {"SL", "SH", "SN"} for t in tags):
            check.hit("other_language")
        if sounds_transliterated(word):
            if not noun and "NNP" in tags:
                check.hit("transliteration")
            else:
                check.close("transliteration", f"{word!r} sounds like a loanword")
        if noun:
            continue
        if tags == ["NNP"]:
            check.close("proper_name", f"{word!r}: Kiwi knows no common noun {word!r}")
        elif len(words) > 1:
            continue  # a phrase has its particles and endings: 옆으로 걷다
        elif any(t.startswith(("J", "E")) for t in tags) and not word.endswith("다"):
            check.hit("inflected")
        elif tags and tags[-1] in {"VV", "VA", "XR"}:
            check.hit("verb_stem")
        elif not tags or tags[0] in {"UN", "W_URL"}:
            check.hit("not_dictionary")


def check_dictionary(check: Check, clue: str, lang: str) -> None:
    """Names, abbreviations, unknown words, inflected forms and verb stems, by morphology."""
    if lang in ("en", "fr"):
        _check_latin(check, clue, lang)
    elif lang == "ru":
        _check_ru(check, clue)
    else:
        _check_ko(check, clue)


def check_meaning(
    lex: Lexicon, keywords: Sequence[str], chosen: Sequence[Candidate], code: Sequence[int]
) -> list[Check]:
    """Per clue: translation cosine, and the lead of its keyword over our other keywords."""
    checks = []
    texts = [c.text for c in chosen]
    vectors = np.stack([c.vector for c in chosen])
    raw = vectors @ lex.embed(keywords).T
    table = keyword_table(lex, keywords, texts, vectors)
    for i, digit in enumerate(code):
        one = Check()
        top = float(raw[i].max())
        if top >= TRANSLATION_COSINE:
            one.hit("translation")
        elif top >= NEAR_TRANSLATION:
            closest = keywords[int(raw[i].argmax())]
            one.close("translation", f"cosine {top:.2f} with {closest!r}")
        others = np.delete(table[i], digit - 1)
        lead = float(table[i, digit - 1] - others.max())
        if lead < NEAR_LEAD:
            rival = [k for j, k in enumerate(keywords) if j != digit - 1][int(others.argmax())]
            one.close("other_keyword", f"lead {lead:.3f} over {rival!r}")
        checks.append(one)
    return checks


def audit_clue(
    lang: str, clue: str, keywords: Sequence[str], used: Sequence[str], check: Check
) -> Check:
    """Every string-level check of one clue (the meaning checks are already in `check`)."""
    if clue_warnings(clue, tuple(keywords), used_keys(used)):
        check.hit("engine_warning")
    check_alike(check, clue, keywords)
    check_language(check, clue, lang)
    check_frequency(check, clue, lang)
    check_offensive(check, clue, lang)
    check_dictionary(check, clue, lang)
    return check


def _reason(candidate: Candidate) -> dict[str, object]:
    a = candidate.association
    if a is None:
        return {"source": "vocabulary"}
    return {"source": "lexicon", "grade": a.grade, "sense": a.sense}


def sample(lang: str, samples: int, seed: int, levels: Sequence[str]) -> list[dict[str, object]]:
    """`samples` transmissions: runs of 1-5 rounds on four random pool keywords, one level per
    run (cycling through `levels`), each round a random code; every round is audited."""
    lex = lexicon(lang)
    pool = list(load_pool(lang))
    rng = np.random.default_rng(seed)
    out: list[dict[str, object]] = []
    run = 0
    while len(out) < samples:
        lvl = level(levels[run % len(levels)])
        run += 1
        keywords = [pool[i] for i in rng.choice(len(pool), size=4, replace=False)]
        history: dict[int, list[str]] = {n: [] for n in (1, 2, 3, 4)}
        used: list[str] = []
        for rnd in range(1, int(rng.integers(1, 6)) + 1):
            if len(out) == samples:
                break
            code = [int(d) for d in rng.permutation([1, 2, 3, 4])[:3]]
            chosen = choose_transmission(
                lex, keywords, code, history, used, lvl, rng, intercepted=rnd > 1
            )
            checks = check_meaning(lex, keywords, chosen, code)
            clues = []
            for candidate, digit, check in zip(chosen, code, checks, strict=True):
                audit_clue(lang, candidate.text, keywords, used, check)
                clues.append(
                    {
                        "clue": candidate.text,
                        "digit": digit,
                        "keyword": keywords[digit - 1],
                        **_reason(candidate),
                        "flags": check.flags,
                        "near": check.near,
                    }
                )
            out.append(
                {
                    "level": lvl.name,
                    "round": rnd,
                    "keywords": keywords,
                    "code": code,
                    "clues": clues,
                }
            )
            for candidate, digit in zip(chosen, code, strict=True):
                history[digit].append(candidate.text)
                used.append(candidate.text)
    return out


def summary(transmissions: Sequence[dict[str, object]]) -> dict[str, object]:
    """Counts per forbidden kind and per near-miss kind, and the clues' sources."""
    clues = [c for t in transmissions for c in t["clues"]]  # type: ignore[attr-defined]
    forbidden = Counter(kind for c in clues for kind in c["flags"])
    near = Counter(n["kind"] for c in clues for n in c["near"])
    return {
        "transmissions": len(transmissions),
        "clues": len(clues),
        "forbidden_clues": sum(bool(c["flags"]) for c in clues),
        "forbidden": {kind: forbidden[kind] for kind in FORBIDDEN},
        "near": dict(sorted(near.items())),
        "sources": dict(sorted(Counter(c["source"] for c in clues).items())),
        "levels": dict(sorted(Counter(t["level"] for t in transmissions).items())),
    }


def _text(transmission: dict[str, object]) -> str:
    head = (
        f"[{transmission['level']}, round {transmission['round']}] "
        f"{', '.join(transmission['keywords'])}  code "  # type: ignore[arg-type]
        f"{'-'.join(map(str, transmission['code']))}"  # type: ignore[call-overload]
    )
    lines = [head]
    for c in transmission["clues"]:  # type: ignore[attr-defined]
        why = c["source"] if c["source"] == "vocabulary" else f"lexicon grade {c['grade']}"
        if c.get("sense"):
            why += f" ({c['sense']})"
        marks = "".join(f"  FORBIDDEN:{f}" for f in c["flags"])
        marks += "".join(f"  near {n['kind']}: {n['detail']}" for n in c["near"])
        lines.append(f"  {c['digit']} {c['keyword']} -> {c['clue']}  [{why}]{marks}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.samples < 1:
        print("--samples: at least 1", file=sys.stderr)
        return 2
    levels = list(LEVELS) if args.level == "all" else [args.level]
    transmissions = sample(args.lang, args.samples, args.seed, levels)
    result = {
        "lang": args.lang,
        "seed": args.seed,
        "level": args.level,
        "summary": summary(transmissions),
        "transmissions": transmissions,
    }
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print("\n".join(_text(t) for t in transmissions))
        print(json.dumps(result["summary"], ensure_ascii=False))
    return 0
