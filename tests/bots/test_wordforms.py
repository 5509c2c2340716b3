from __future__ import annotations

import pytest

from codebreakers.bots.wordforms import looks_alike, same_root


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ocean", "oceans"),
        ("Océan", "ocean"),
        ("winter", "winters"),
        ("fire", "campfire"),
        ("banque", "banquier"),
        ("cheval", "chevaux"),
        ("зима", "зимой"),
        ("зима", "зимний"),
        ("дракон", "дракона"),
        ("바다", "바닷가"),
        ("바다", "밤바다"),
        ("soie", "soyeux"),
        ("roi", "royal"),
        ("peau", "pelage"),
        ("fleur", "floral"),
        ("cœur", "cordial"),
        ("нога", "ножной"),
        ("рука", "ручной"),
        ("книга", "книжный"),
        ("друг", "дружба"),
        ("пустой", "пуща"),
    ],
)
def test_forms_of_one_word(a: str, b: str) -> None:
    assert same_root(a, b)
    assert same_root(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("cat", "car"),
        ("ocean", "sea"),
        ("piano", "violin"),
        ("зима", "снег"),
        ("губа", "зуб"),
        ("바다", "파도"),
    ],
)
def test_different_words(a: str, b: str) -> None:
    assert not same_root(a, b)


@pytest.mark.parametrize(
    ("a", "b", "alike"),
    [
        ("ноль", "нож", True),
        ("baker", "banker", True),
        ("sea", "see", True),
        ("waves", "ocean", False),
        ("moon", "spoon", False),
        ("파도", "바다", False),
    ],
)
def test_looks_alike(a: str, b: str, alike: bool) -> None:
    assert looks_alike(a, b) is alike
    assert looks_alike(b, a) is alike
