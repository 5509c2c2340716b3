"""The decoder reads clue sets written by people, in each language, and is calibrated-ish."""

from __future__ import annotations

import pytest

from codebreakers.bots.decoder import decode
from codebreakers.bots.lexicon import Lexicon

# (language, keywords 1-4, three clues a person wrote, the code they meant)
HUMAN_SETS = [
    ("en", "ocean,piano,dragon,winter", "waves;snowflake;fire breathing", [1, 4, 3]),
    ("en", "ocean,piano,dragon,winter", "keys and pedals;salt water;December", [2, 1, 4]),
    ("en", "doctor,bread,castle,rocket", "baker;space launch;knight", [2, 4, 3]),
    ("en", "doctor,bread,castle,rocket", "hospital;toast;moat", [1, 2, 3]),
    ("en", "apple,train,moon,guitar", "railway;strings;orchard", [2, 4, 1]),
    ("en", "apple,train,moon,guitar", "rails;stars;pie", [2, 3, 1]),
    ("fr", "océan,piano,dragon,hiver", "vagues;neige;cracher du feu", [1, 4, 3]),
    ("fr", "médecin,pain,château,fusée", "boulangerie;espace;chevalier", [2, 4, 3]),
    ("fr", "pomme,train,lune,guitare", "gare;cordes;verger", [2, 4, 1]),
    ("fr", "médecin,pain,château,fusée", "hôpital;baguette;donjon", [1, 2, 3]),
    ("fr", "pomme,train,lune,guitare", "rails;étoiles;compote", [2, 3, 1]),
    ("ru", "океан,пианино,дракон,зима", "волны;снег;огнедышащий", [1, 4, 3]),
    ("ru", "врач,хлеб,замок,ракета", "пекарня;космос;рыцарь", [2, 4, 3]),
    ("ru", "яблоко,поезд,луна,гитара", "вокзал;струны;фрукт", [2, 4, 1]),
    ("ru", "врач,хлеб,замок,ракета", "больница;батон;крепость", [1, 2, 3]),
    ("ru", "яблоко,поезд,луна,гитара", "рельсы;звёзды;компот", [2, 3, 1]),
    ("ko", "바다,피아노,용,겨울", "파도;눈사람;불꽃", [1, 4, 3]),
    ("ko", "의사,빵,성,로켓", "제빵사;우주;기사", [2, 4, 3]),
    ("ko", "사과,기차,달,기타", "철도;현악기;과수원", [2, 4, 1]),
    ("ko", "의사,빵,성,로켓", "병원;토스트;왕궁", [1, 2, 3]),
    ("ko", "사과,기차,달,기타", "철로;별;과일", [2, 3, 1]),
]


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "ko"])
def test_reads_human_clues(lexicons: dict[str, Lexicon], lang: str) -> None:
    """All but at most one of each language's sets are read right (USE embeds some short
    words poorly, Korean one-syllable nouns such as 빵 above all: docs/bots.md)."""
    sets = [s for s in HUMAN_SETS if s[0] == lang]
    right = 0
    for _, keywords, clues, code in sets:
        reading = decode(lexicons[lang], keywords.split(","), clues.split(";"))
        assert 0.0 < reading.confidence <= 1.0
        assert abs(float(reading.probabilities.sum()) - 1.0) < 1e-6
        right += reading.code == code
    assert len(sets) >= 5
    assert right >= len(sets) - 1, f"{right} of {len(sets)}"
