"""The home page and the room lobby: public rooms listed, joining by list and by code, the share
link and QR code, host controls (options, bots, reordering, spectators, removal) seen by all."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import ARTIFACTS, DESKTOP, PHONE, Player

pytestmark = pytest.mark.browser


def names_in(page, team: str) -> list[str]:
    return page.locator(f".team-card-{team} .slots-list .name").all_text_contents()


def test_home_and_lobby_controls(browser: Browser, server_url: str) -> None:
    folder = ARTIFACTS / "lobby"
    folder.mkdir(parents=True, exist_ok=True)
    host = Player.open(browser, "Hana", DESKTOP)
    bea = Player.open(browser, "Bea", PHONE)
    cyr = Player.open(browser, "Cyr", DESKTOP, "fr")
    try:
        host.page.goto(f"{server_url}/r/ZZZZZZ")  # no such room: said so, with a way home
        expect(host.page.locator(".center-card[role=alert]")).to_contain_text("No room")
        host.page.click(".center-card button")
        host.page.select_option("#new-words", "ko")
        host.page.check("#new-public")
        host.page.click("form.create button[type=submit]")
        host.page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        code = host.page.url.rsplit("/", 1)[1]
        host.page.fill("#join-name", host.name)
        host.page.keyboard.press("Enter")
        expect(host.page.locator(".tag.you")).to_be_visible()
        assert host.page.input_value("#share-link").endswith(f"/r/{code}")
        qr_width = host.page.locator("img.qr").evaluate("img => img.naturalWidth")
        assert qr_width > 0

        # Bea finds the room in the public list on the home page; Cyr types its code.
        bea.page.goto(server_url)
        bea.page.locator(f".room-list a:has-text('{code}')").click()
        bea.page.fill("#join-name", bea.name)
        bea.page.click(".join-form button[type=submit]")
        cyr.page.goto(server_url)
        cyr.page.fill("#join-code", code.lower())
        cyr.page.keyboard.press("Enter")
        cyr.page.fill("#join-name", cyr.name)
        cyr.page.click(".join-form button[type=submit]")
        expect(host.page.locator(".slots-list .player-name")).to_have_count(3)
        assert names_in(host.page, "white") == ["Hana", "Cyr"]
        assert names_in(host.page, "black") == ["Bea"]
        expect(cyr.page.locator(".options-summary")).to_contain_text("한국어")

        # Host controls: a bot in Black's second seat, Cyr moved up, Bea made a spectator.
        host.page.select_option("#bot-black-1", "hard")
        host.page.click(".team-card-black .bot-add button")
        expect(cyr.page.locator(".team-card-black .tag")).to_contain_text("bot")
        host.page.click("button[aria-label='Move Cyr up']")
        expect(bea.page.locator(".team-card-white .slots-list .name").first).to_have_text("Cyr")
        host.page.click("button[aria-label='Make Bea a spectator']")
        expect(cyr.page.locator(".spectator-list")).to_contain_text("Bea")
        host.page.select_option("#room-opt-words", "en")
        expect(cyr.page.locator(".options-summary")).to_contain_text("English")
        for p in (host, bea, cyr):
            p.shot(folder, "lobby")
        # Bea closes her phone: her dot turns hollow (offline) for the others.
        bea.context.close()
        expect(host.page.locator(".spectator-list .dot.off")).to_have_count(1)
        host.page.click(".team-card-black li:has(.tag) button.danger")
        expect(cyr.page.locator(".team-card-black .tag")).to_have_count(0)
        for p in (host, cyr):
            assert p.errors == [], p.errors
    finally:
        for p in (host, cyr):
            p.context.close()
