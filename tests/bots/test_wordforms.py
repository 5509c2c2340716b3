from __future__ import annotations

import pytest

from codebreakers.bots.wordforms import same_root


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
    ],
)
def test_forms_of_one_word(a: str, b: str) -> None:
    assert same_root(a, b)
    assert same_root(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [("cat", "car"), ("ocean", "sea"), ("piano", "violin"), ("зима", "снег"), ("바다", "파도")],
)
def test_different_words(a: str, b: str) -> None:
    assert not same_root(a, b)
