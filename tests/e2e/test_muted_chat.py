"""The encryptor whose team decodes sees both chat panels without an input (its teammates read
all chat too); a teammate keeps both inputs. A real browser against a real server."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import DESKTOP, Player

pytestmark = pytest.mark.browser


def test_the_muted_encryptor_has_no_chat_input(browser: Browser, server_url: str) -> None:
    made = httpx.post(f"{server_url}/api/rooms", json={"game": "decrypto", "options": {}})
    assert made.status_code == 201, made.text
    players = [Player.open(browser, name, DESKTOP) for name in ("Ann", "Bo", "Cy", "Dee")]
    try:
        for p in players:
            p.join(made.json()["url"])
        players[0].page.click("button.start")
        for p in players:
            expect(p.page.locator(".chat-all")).to_be_visible()
        encryptor = next(p for p in players if p.is_encryptor())
        expect(encryptor.page.locator("#chat-all-input")).to_be_visible()
        team = encryptor.team()
        encryptor.transmit(["sunrise", "harbour", "violin"])
        for channel in ("team", "all"):
            expect(encryptor.page.locator(f".chat-{channel} .muted-note")).to_be_visible()
            expect(encryptor.page.locator(f"#chat-{channel}-input")).to_have_count(0)
        mate = next(p for p in players if p is not encryptor and p.team() == team)
        expect(mate.page.locator("#chat-all-input")).to_be_visible()
        expect(mate.page.locator("#chat-team-input")).to_be_visible()
    finally:
        for p in players:
            p.context.close()
