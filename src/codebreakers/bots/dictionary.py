"""Is this a dictionary word of the language: the morphology the bots' data is checked with.

Used when building data and in tests, never while playing (the packages are the `test` extra,
imported on first use): scripts/build_bot_vocab.py keeps only dictionary-form common words in
the clue vocabularies, and tests/bots/test_associations.py validates the lexicons with it.
- English, French: simplemma's Wiktionary-derived lemma lists. A word is in dictionary form
  when it is known and is its own lemma: "coming", "oceans" and "chevaux" are not; a
  proper name's or abbreviation's lemma is capitalised ("Dave", "TV"), so those fail too.
- Russian: pymorphy3 (OpenCorpora). Its grammemes mark first names, surnames, places,
  organisations and abbreviations.
- Korean: Kiwi's morphology, which marks proper nouns (NNP) and splits off particles and verb
  endings. Out of context it often ranks a wrong reading first (바다 as a name, 파도 as 파+도),
  so a word counts as a common noun when one of its three best readings is that whole word
  as a common noun (NNG); a vocabulary word needs it as the best reading, and no reading as
  a verb form or stem (보이 as 보+이, 다면 as 다+면).
"""

from __future__ import annotations

from functools import cache
from typing import Any

# pymorphy3's marks of names (first names, surnames, places, organisations) and abbreviations.
RU_NAME_GRAMMEMES = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Abbr"})
# Korean: final syllables typical of English words written in Hangul (다크, 나이트, 스피드), and
# syllables that native words hardly use (뮤직, 퓨전, 주스 is fine but 쥬스 is not, 쇼).
LOAN_FINALS = frozenset("크트프즈브스드")
LOAN_ANYWHERE = frozenset("뮤퓨쥬슈츄튜큐뷰듀샤쇼")


@cache
def morph_ru() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


@cache
def kiwi() -> Any:
    from kiwipiepy import Kiwi

    return Kiwi()


def ru_name(word: str) -> bool:
    """Every reading of `word` is a name, a place, an organisation or an abbreviation."""
    return all(RU_NAME_GRAMMEMES & p.tag.grammemes for p in morph_ru().parse(word))


def ru_clue_form(parse: Any) -> bool:
    """A form people write as a clue: the lemma, an infinitive, or a nominative (a plural
    "тучи" for гром, an adjective agreeing with its keyword "сочная" for груша); not an
    oblique case ("гитаре") nor a finite verb or gerund ("гремит")."""
    from codebreakers.games.decrypto.words.folding import fold

    if fold(parse.word) == fold(parse.normal_form):
        return True
    if parse.tag.POS in {"VERB", "GRND", "PRTS", "ADJS"}:
        return False
    return bool(parse.tag.case == "nomn")


def sounds_transliterated(word: str) -> bool:
    """A Korean noun with the sound pattern of English written in Hangul (다크, 뮤직); verbs
    and adjectives (-다: 크다, 아프다) are native."""
    if not word or word.endswith("다"):
        return False
    return word[-1] in LOAN_FINALS or bool(LOAN_ANYWHERE & set(word))


# Kiwi's tags of a verb or adjective stem with no ending: "부르" where people write "부르다".
KO_STEM_TAGS = frozenset({"VV", "VA", "VX", "XSV", "XSA", "VV-I", "VA-I", "VV-R", "VA-R"})
# Kiwi's tags of foreign letters, Chinese characters, numbers, symbols and unknown words.
KO_FOREIGN_TAGS = frozenset({"SL", "SH", "SN", "SW", "SO", "UN", "NA"})


def ko_readings(word: str) -> list[list[tuple[str, str]]]:
    """Kiwi's three best readings of `word`, each as (form, tag) morphemes, best first."""
    return [[(t.form, t.tag) for t in tokens] for tokens, _ in kiwi().analyze(word, top_n=3)]


def ko_common_noun(word: str, readings: list[list[tuple[str, str]]]) -> bool:
    return any(r == [(word, "NNG")] for r in readings)


def is_vocabulary_word(lang: str, word: str) -> bool:
    """A single common word in its dictionary form, not a name, abbreviation or verb stem."""
    if lang in ("en", "fr"):
        import simplemma

        return bool(simplemma.is_known(word, lang)) and simplemma.lemmatize(word, lang) == word
    if lang == "ru":
        morph = morph_ru()
        if not morph.word_is_known(word) or ru_name(word):
            return False
        return any(p.normal_form == word for p in morph.parse(word))
    if lang == "ko":
        readings = ko_readings(word)
        also_verb = any(r[-1][1] in KO_STEM_TAGS or r[-1][1].startswith("E") for r in readings)
        if readings[0] != [(word, "NNG")] or also_verb:
            return False
        return not sounds_transliterated(word)
    raise KeyError(f"no dictionary for language {lang!r}")
