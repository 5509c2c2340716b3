"""HTML typed into custom keywords and private notes is shown as text in a real browser.

The other browser tests cover names, clues and chat; this adds what they leave out:
a room created with custom words that are HTML (every player sees its team's four), and a note
full of markup. Debian's Chromium through Playwright, never a downloaded browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from codebreakers.campaigns.killable_nodes import Node
from e2e.table_driver import DESKTOP, Player

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAYLOADS = [
    "<b>bold</b>", "<img src=x onerror=alert(1)>", "a&amp;b", "<script>alert(2)</script>",
    "plain", "<i>ital</i>", '"quote"', "<svg onload=alert(3)>",
]  # fmt: skip
# A host's list needs 24 words: each payload three times over, so every dealt word is one.
WORDS = [f"{payload} {n}" for n in (1, 2, 3) for payload in PAYLOADS]
NOTE = "<img src=y onerror=alert(4)> <b>red</b>"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    node = Node(f"sqlite:///{tmp_path / 'html.db'}", None, tmp_path / "server.log")
    node.start()
    try:
        yield node.http
    finally:
        node.stop()


def test_custom_words_and_notes_are_inert(site: str, browser: Browser) -> None:
    options = {"words": "custom", "custom_words": WORDS}
    made = httpx.post(f"{site}/api/rooms", json={"game": "decrypto", "options": options})
    assert made.status_code == 201, made.text
    link = made.json()["url"]
    players = [Player.open(browser, name, DESKTOP) for name in ("Ann", "Bo", "Cy", "Dee")]
    try:
        for p in players:
            p.join(link)
        players[0].page.click("button.start")
        shown: list[str] = []
        for p in players:
            expect(p.page.locator(".keywords .keyword-list .word")).to_have_count(4)
            shown += p.keywords()
        assert len(set(shown)) == 8 and set(shown) <= set(WORDS)
        assert all(shown.count(word) == 2 for word in shown)  # to both players of its team
        note = players[1].page.locator(".notes-row textarea").first
        note.fill(NOTE)
        note.blur()
        expect(note).to_have_value(NOTE)
        for p in players:
            assert (
                p.page.locator("img[src=x], img[src=y], svg[onload], script:text('alert')").count()
                == 0
            )
            assert p.dialogs == [], f"{p.name}: typed HTML ran: {p.dialogs}"
            assert p.errors == [], p.errors
    finally:
        for p in players:
            p.context.close()
