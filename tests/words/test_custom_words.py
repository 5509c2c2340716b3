"""A host's pasted word list: normalised, deduplicated by folding, bounded, refused clearly."""

from __future__ import annotations

import pytest

from codebreakers.games.base import Rejection
from codebreakers.games.decrypto.words import (
    CUSTOM_MIN_WORDS,
    DEAL_WORDS,
    split_pasted,
    validate_custom,
)
from codebreakers.games.decrypto.words.folding import fold, normalize

EIGHT = ["lune", "soleil", "étoile", "nuage", "pluie", "neige", "orage", "vent"]
# Sixteen more, so that EIGHT + MORE is a list a host may set.
MORE = [f"mot{i}" for i in range(16)]


def code_of(result: object) -> str:
    assert isinstance(result, Rejection), result
    return result.code


def test_twenty_four_distinct_words_are_accepted_as_given() -> None:
    assert CUSTOM_MIN_WORDS == 24
    assert validate_custom([*EIGHT, *MORE]) == (*EIGHT, *MORE)


def test_words_are_normalised_and_empty_entries_dropped() -> None:
    decomposed = "e\u0301toile"  # é as e + combining acute
    words = ["  ice   cream ", "", "   ", decomposed, "a\tb", *EIGHT[3:], *MORE]
    assert validate_custom(words) == ("ice cream", "étoile", "a b", *EIGHT[3:], *MORE)


def test_first_spelling_wins_and_folded_duplicates_do_not_count() -> None:
    words = [*EIGHT[:7], *MORE, "Lune", "LUNE", "lüne", "etoile", "ÉTOILE"]
    assert code_of(validate_custom(words)) == "custom_words_too_few"
    accepted = validate_custom([*words, "vent"])
    assert accepted == (*EIGHT[:7], *MORE, "vent")


def test_fewer_than_twenty_four_distinct_words_are_refused() -> None:
    """Everyone knows a team's keywords come from the list: 8 words would give them away."""
    assert code_of(validate_custom(EIGHT)) == "custom_words_too_few"
    assert code_of(validate_custom([*EIGHT, *MORE[:15]])) == "custom_words_too_few"
    assert code_of(validate_custom([])) == "custom_words_too_few"
    assert code_of(validate_custom(["", " ", "\u0301"] * 5)) == "custom_words_too_few"


def test_a_stored_setup_needs_only_the_eight_words_a_deal_takes() -> None:
    assert validate_custom(EIGHT, DEAL_WORDS) == tuple(EIGHT)
    assert code_of(validate_custom(EIGHT[:7], DEAL_WORDS)) == "custom_words_too_few"


def test_more_than_2000_words_are_refused() -> None:
    assert isinstance(validate_custom([f"mot{i}" for i in range(2000)]), tuple)
    assert code_of(validate_custom([f"mot{i}" for i in range(2001)])) == "custom_words_too_many"


def test_a_word_over_40_characters_is_refused() -> None:
    assert isinstance(validate_custom([*EIGHT, *MORE, "x" * 40]), tuple)
    rejection = validate_custom([*EIGHT, *MORE, "x" * 41])
    assert code_of(rejection) == "custom_word_too_long"


@pytest.mark.parametrize(
    "raw",
    [
        "lune soleil étoile nuage pluie neige orage vent",
        None,
        {"words": EIGHT},
        tuple(EIGHT),
        [*EIGHT, 3],
        [*EIGHT, None],
        [*EIGHT, "bad\x00word"],
        [*EIGHT, "bell\x07"],
        [*EIGHT, "zero\u200bwidth"],
        [*EIGHT, "right\u202eleft"],
    ],
)
def test_anything_but_a_list_of_plain_words_is_invalid(raw: object) -> None:
    assert code_of(validate_custom(raw)) == "custom_words_invalid"


def test_a_pasted_text_splits_on_lines_commas_and_semicolons() -> None:
    pasted = "lune, soleil;étoile\nnuage\r\npluie,,neige\n\norage；vent、fin"
    assert split_pasted(pasted) == [
        "lune",
        " soleil",
        "étoile",
        "nuage",
        "pluie",
        "neige",
        "orage",
        "vent",
        "fin",
    ]
    assert validate_custom(split_pasted(pasted), DEAL_WORDS) == (*EIGHT, "fin")


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("Crème Brûlée", "cremebrulee"),
        ("ÉCLAIR", "eclair"),
        ("Ёлка", "елка"),
        ("мой", "мой"),
        ("Straße", "strasse"),
        ("해바라기", "해바라기"),
        ("ice  cream", "icecream"),
    ],
)
def test_fold_ignores_case_accents_and_spaces_but_keeps_letters(typed: str, key: str) -> None:
    assert fold(typed) == key


def test_fold_keeps_distinct_russian_letters_apart() -> None:
    assert fold("мой") != fold("мои")


def test_normalize_is_nfc_trimmed_and_collapsed() -> None:
    assert normalize("  e\u0301te\u0301 \n  chaud ") == "été chaud"
