"""The client's fold (web/fold.js) gives the engine's `match_key` for the texts that matter:
full-width forms, invisible characters, accents, hyphens and spaces (run in Node)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from codebreakers.games.decrypto.words.folding import match_key

FOLD_JS = Path(__file__).parents[2] / "src" / "codebreakers" / "web" / "fold.js"
TEXTS = [
    "Cat", "ｃａｔ", "c\u00adat", "ca\u200bt\ufe0f", "m\u2060oon\u202e", "Crème Brûlée",
    "arc-en-ciel", "arc en ciel", "Arcenciel", "Ёлка", "мой", "мои", "maïs", "mais",
    "해바라기", "사과 를", "ice\tcream", "sous–marin", "ＡＢＣ　ｄｅｆ", "Straße",
]  # fmt: skip


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_the_client_folds_as_the_engine() -> None:
    script = (
        f"const {{ fold }} = await import({json.dumps(FOLD_JS.as_uri())});"
        f"console.log(JSON.stringify({json.dumps(TEXTS)}.map(fold)));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == [match_key(text) for text in TEXTS]
