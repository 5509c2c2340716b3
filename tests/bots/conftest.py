"""The embedding model and the four vocabularies, loaded once per test process."""

from __future__ import annotations

import pytest

from codebreakers.bots.lexicon import Lexicon, lexicon
from codebreakers.bots.vocab import LANGUAGES


@pytest.fixture(scope="session")
def lexicons() -> dict[str, Lexicon]:
    return {lang: lexicon(lang) for lang in LANGUAGES}
