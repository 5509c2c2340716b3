"""Clue rules: reuse and own keywords are refused; hints about spelling and numbers are warned."""

from __future__ import annotations

import pytest
from decrypto_table import Table

from codebreakers.games.decrypto.clues import (
    check_clues,
    clue_key,
    clue_warnings,
    contains_keyword,
)


@pytest.mark.parametrize(
    ("clue", "keyword"),
    [
        ("cat", "cat"),
        ("CAT", "cat"),
        ("the cat", "cat"),
        ("cats and dogs", "cat"),
        ("Éclair!", "éclair"),
        ("ice cream", "Ice Cream"),
        ("icecream", "ice cream"),
        ("cold ice creams", "ice cream"),
        ("boxes", "box"),
        ("cities", "city"),
        ("horses", "horse"),
        ("chevaux", "cheval"),
        ("gâteaux", "gâteau"),
        ("кошки", "кошка"),
        ("Ёлка", "елка"),
        ("большие коты", "кот"),
        ("사과를 먹다", "사과"),
        ("사과", "사과"),
        # Compatibility forms and invisible characters hide nothing.
        ("c\u00adat", "cat"),
        ("ｃａｔ", "cat"),
        ("ca\u200bt\ufe0f", "cat"),
        ("the c\u2060at", "cat"),
        # Hyphens, spaces and glued spellings are alike.
        ("arcenciel", "arc-en-ciel"),
        ("arc en ciel", "arc-en-ciel"),
        ("un arc-en-ciels", "arc-en-ciel"),
        ("ice cream", "icecream"),
        # ё is optional in Russian spelling; forms made from the keyword.
        ("мед", "мёд"),
        ("ног", "нога"),
        ("меди", "медь"),
        ("музея", "музей"),
        ("종소리를 듣다", "종소리"),
    ],
)
def test_an_own_keyword_as_a_word_is_found(clue: str, keyword: str) -> None:
    assert contains_keyword(clue, keyword)


@pytest.mark.parametrize(
    ("clue", "keyword"),
    [
        ("cart", "car"),
        ("cares", "car"),
        ("plan", "plane"),
        ("firefighter", "fire"),
        ("catalogue", "cat"),
        ("사", "사과"),
        ("ice", "ice cream"),
        ("кит", "кот"),
    ],
)
def test_other_words_are_not_the_keyword(clue: str, keyword: str) -> None:
    assert not contains_keyword(clue, keyword)


@pytest.mark.parametrize(
    ("clue", "keyword"),
    [
        ("princes", "princess"),
        ("mais oui", "maïs"),
        ("mai", "maïs"),
        ("eclair", "éclair"),
        ("мёд", "медь"),
        ("мёда", "медь"),
        ("종이", "종"),
        ("차이", "차"),
        ("별도", "별"),
        ("new", "News"),
        ("new york", "News"),
        ("банка", "банк"),
        ("банк", "банка"),
        ("glasses", "glass"),
        ("glass", "glasses"),
    ],
)
def test_a_different_word_spelled_close_is_allowed_with_a_warning(clue: str, keyword: str) -> None:
    """RULES.md: a clue is refused only if it is the keyword or holds it as a word; a different
    word of the language (a pool word, an accent apart, a shorter stem) is only warned about."""
    keywords = (keyword, "castle", "bread", "apple")
    assert not contains_keyword(clue, keyword)
    assert check_clues([clue, "sea", "sky"], keywords, frozenset()) is None
    assert clue_warnings(clue, keywords, frozenset()) == ["near_form"]


def test_an_invisible_character_does_not_make_a_new_clue() -> None:
    keywords = ("castle", "bread", "apple", "river")
    for clue in ("m\u00adoon", "ｍｏｏｎ", "moo\u200dn", "MOON\u202c"):
        reused = check_clues([clue, "sea", "sky"], keywords, {clue_key("moon")})
        assert reused is not None and reused.code == "clue_reused", clue
    again = check_clues(["ice-cream", "ice cream", "sky"], keywords, frozenset())
    assert again is not None and (again.code, again.detail) == ("clue_reused", "clue 2")


def test_check_clues_reports_the_first_bad_clue() -> None:
    keywords = ("moon", "castle", "bread", "apple")
    assert check_clues(["sun", "sea", "sky"], keywords, frozenset()) is None
    reused = check_clues(["sun", "Sea ", "sky"], keywords, {"sea"})
    assert reused is not None and (reused.code, reused.detail) == ("clue_reused", "clue 2")
    twice = check_clues(["sun", "S U N", "sky"], keywords, frozenset())
    assert twice is not None and (twice.code, twice.detail) == ("clue_reused", "clue 2")
    own = check_clues(["sun", "sea", "full moons"], keywords, frozenset())
    assert own is not None and (own.code, own.detail) == ("clue_is_keyword", "clue 3")


def test_no_clue_twice_in_a_game_by_either_team() -> None:
    table = Table()
    table.transmit("white", ["sun", "sea", "sky"])
    table.refuse("b1", {"type": "transmit", "clues": ["SÉA", "x1", "y1"]}, "clue_reused")
    table.transmit("black", ["cat", "dog", "cow"])
    table.decode("white")
    table.decode("black")
    table.refuse("w2", {"type": "transmit", "clues": ["a1", "b1", "dog"]}, "clue_reused")


def test_an_own_keyword_is_refused_but_an_enemy_keyword_is_not() -> None:
    table = Table()
    white, black = table.state.table.keywords
    table.refuse("w1", {"type": "transmit", "clues": [f"{white[2]}s", "x", "y"]}, "clue_is_keyword")
    table.transmit("white", [black[0], "x", "y"])


@pytest.mark.parametrize(
    ("clue", "warnings"),
    [
        ("sunrise", []),
        ("route 66", ["digit"]),
        ("letter b", ["single_letter", "spelling_hint"]),
        ("b", ["single_letter"]),
        ("a", ["single_letter"]),
        ("canne à pêche", []),
        ("salle d'eau", []),
        ("кот в сапогах", []),
        ("plan b", ["single_letter"]),
        ("two", ["number_word"]),
        ("deux", ["number_word"]),
        ("четыре", ["number_word"]),
        ("셋", ["number_word"]),
        ("starts like boat", ["spelling_hint"]),
        ("rhymes with goat", ["sound_hint"]),
        ("moonlight", ["keyword_inside"]),
        ("full moon", ["clue_is_keyword"]),
        ("used", ["clue_reused"]),
        ("", []),
    ],
)
def test_warnings(clue: str, warnings: list[str]) -> None:
    keywords = ("moon", "castle", "bread", "apple")
    assert clue_warnings(clue, keywords, frozenset({"used"})) == warnings


def test_number_words_are_those_of_the_keywords_language() -> None:
    french = ("boulanger", "lune", "château", "pomme")
    assert clue_warnings("four", french, frozenset()) == []
    assert clue_warnings("quatre", french, frozenset()) == ["number_word"]
    assert clue_warnings("two", french, frozenset()) == ["number_word"]
    custom = ("Boulanger", "Lune", "Château", "Pomme")  # no pool's words: every language
    assert clue_warnings("four", custom, frozenset()) == ["number_word"]
    assert clue_warnings("four", ("moon", "castle", "bread", "apple"), frozenset()) == [
        "number_word"
    ]


def test_translation_warning_comes_from_the_hook() -> None:
    def looks_translated(clue: str, keywords: object) -> bool:
        return clue == "lune"

    keywords = ("moon", "castle", "bread", "apple")
    assert clue_warnings("lune", keywords, frozenset(), looks_translated) == ["translation"]
    assert clue_warnings("lune", keywords, frozenset()) == []


def test_the_rules_object_passes_the_hook_to_views() -> None:
    from codebreakers.games.base import Viewer
    from codebreakers.games.decrypto import DecryptoRules

    rules = DecryptoRules(translation_check=lambda clue, keywords: clue == "lune")
    table = Table()
    table.do("w1", {"type": "draft", "clues": ["lune", "", ""]})
    view = rules.view(table.state, Viewer("w1"))
    assert view["rounds"][0]["transmissions"]["white"]["clue_warnings"][0] == ["translation"]
