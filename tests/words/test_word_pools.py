"""The shipped keyword pools: big enough, clean, and one spelling per word."""

from __future__ import annotations

import re
import unicodedata

import pytest

from codebreakers.games.decrypto.words import POOL_LANGUAGES, load_pool
from codebreakers.games.decrypto.words.folding import fold

# The letters each pool may use; a hyphen is allowed inside compound words (arc-en-ciel).
SCRIPTS = {
    "en": re.compile(r"[a-z]+(-[a-z]+)*"),
    "fr": re.compile(r"[a-zàâæçéèêëîïôœùûüÿ]+(-[a-zàâæçéèêëîïôœùûüÿ]+)*"),
    "ru": re.compile(r"[а-яё]+(-[а-яё]+)*"),
    "ko": re.compile(r"[\uac00-\ud7a3]+"),
}


def test_the_languages_are_the_four_of_the_site() -> None:
    assert POOL_LANGUAGES == ("en", "fr", "ru", "ko")


@pytest.mark.parametrize("lang", POOL_LANGUAGES)
def test_pool_holds_at_least_440_keywords(lang: str) -> None:
    assert len(load_pool(lang)) >= 440


@pytest.mark.parametrize("lang", POOL_LANGUAGES)
def test_pool_words_are_nfc_single_lowercase_words_of_the_right_script(lang: str) -> None:
    bad = [
        word
        for word in load_pool(lang)
        if unicodedata.normalize("NFC", word) != word or not SCRIPTS[lang].fullmatch(word)
    ]
    assert bad == []


@pytest.mark.parametrize("lang", POOL_LANGUAGES)
def test_pool_has_no_duplicates_after_folding(lang: str) -> None:
    seen: dict[str, str] = {}
    clashes = []
    for word in load_pool(lang):
        key = fold(word)
        if key in seen:
            clashes.append((seen[key], word))
        seen[key] = word
    assert clashes == []


def test_pools_of_different_languages_are_different_lists() -> None:
    pools = {lang: set(load_pool(lang)) for lang in POOL_LANGUAGES}
    assert len(pools["en"] & pools["fr"]) < len(pools["en"]) // 4
    assert not pools["en"] & pools["ru"]
    assert not pools["en"] & pools["ko"]


def test_load_pool_is_cached_and_refuses_unknown_languages() -> None:
    assert load_pool("fr") is load_pool("fr")
    with pytest.raises(KeyError):
        load_pool("de")
    with pytest.raises(KeyError):
        load_pool("../en")
