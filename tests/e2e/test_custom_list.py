"""A host's custom word list in a real browser: the host is told the minimum and why before
submitting, and edits the list; the other players see only its size, never a word of it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import DESKTOP, Player

pytestmark = pytest.mark.browser

WORDS = [f"walrus{i:02d}" for i in range(25)]


def test_only_the_host_sees_the_custom_list(browser: Browser, server_url: str) -> None:
    host = Player.open(browser, "Hana", DESKTOP)
    guest = Player.open(browser, "Gus", DESKTOP, "fr")
    try:
        host.page.goto(server_url)
        host.page.select_option("#new-words", "custom")
        hint = host.page.locator("#new-custom-hint")
        expect(hint).to_contain_text("At least 24 different words")
        host.page.fill("#new-custom", "\n".join([*WORDS[:3], "WALRUS00"]))
        expect(hint).to_contain_text("Different words so far: 3.")
        host.page.fill("#new-custom", "\n".join(WORDS))
        host.page.locator("#new-custom").blur()
        expect(hint).to_contain_text("Different words so far: 25.")
        host.page.click("form.create button[type=submit]")
        host.page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        url = host.page.url
        host.page.fill("#join-name", host.name)
        host.page.keyboard.press("Enter")
        expect(host.page.locator("#room-opt-custom")).to_have_value("\n".join(WORDS))

        guest.join(url)
        expect(guest.page.locator(".options-summary")).to_contain_text(
            "La liste de l'hôte (25 mots)"
        )
        assert guest.page.locator("textarea").count() == 0
        assert "walrus" not in guest.page.content()
        assert not any("walrus" in frame for frame in guest.frames)
    finally:
        host.context.close()
        guest.context.close()
