"""Smaller things a first game trips on: counts in words in every language ("1 player", "1
игрок"), a new room's keywords in the interface language even after switching it, watching from
the start without taking a seat, a Mastermind chat that speaks of no teams, and no AudioContext
refused (and warned about) after a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from e2e.bot_server import bot_server
from e2e.server_process import ServerProcess
from e2e.table_driver import DESKTOP, PHONE, Player

pytestmark = pytest.mark.browser
__all__ = ["bot_server"]  # the fixture, used by name


def test_counts_languages_and_watching(browser: Browser, bot_server: ServerProcess) -> None:
    url = bot_server.url
    ann = Player.open(browser, "Ann", DESKTOP, "en")
    boris = Player.open(browser, "Boris", PHONE, "ru")
    eve = Player.open(browser, "Eve", PHONE, "en")
    try:
        # Ann's page is English; she switches it to French before creating a room.
        ann.page.goto(url)
        expect(ann.page.locator("#new-words")).to_have_value("en")
        ann.page.select_option("#lang-select", "fr")
        expect(ann.page.locator("#new-words")).to_have_value("fr")
        ann.page.fill("#quick-name", "Ann")
        ann.page.check("#new-public")
        ann.page.click("form.create button[type=submit]")
        ann.page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        expect(ann.page.locator("#room-opt-words")).to_have_value("fr")
        code = ann.page.url.rsplit("/", 1)[1]

        # One player, seven free seats, said right in Russian and in English.
        boris.page.goto(url)
        listed = boris.page.locator(f".room-list li:has-text('{code}')")
        expect(listed).to_contain_text("1 игрок · 7 свободных мест")
        eve.page.goto(url)
        expect(eve.page.locator(f".room-list li:has-text('{code}')")).to_contain_text(
            "1 player · 7 free seats"
        )
        # Eve watches from the start: a spectator at once, no seat taken on the way.
        eve.page.goto(f"{url}/r/{code}")
        eve.page.fill("#join-name", "Eve")
        eve.page.click(".join-form button.join-watch")
        expect(eve.page.locator(".spectator-list .player-name:has(.tag.you)")).to_contain_text(
            "Eve"
        )
        expect(eve.page.locator(".slots-list .tag.you")).to_have_count(0)
        assert not any('"team":"white","index":1' in f.replace(" ", "") for f in ann.frames)
        for p in (ann, boris, eve):
            assert p.errors == []
    finally:
        for p in (ann, boris, eve):
            p.context.close()


def test_mastermind_chat_and_the_chime_after_a_reload(
    browser: Browser, bot_server: ServerProcess
) -> None:
    ada = Player.open(browser, "Ada", DESKTOP, "en")
    console: list[str] = []
    ada.page.on("console", lambda m: console.append(m.text))
    # Counts the AudioContexts the page makes (Chromium here would not warn about them).
    ada.context.add_init_script(
        "window.__audio = 0; const Real = window.AudioContext;"
        "window.AudioContext = class extends Real {"
        " constructor(...a) { super(...a); window.__audio += 1; } };"
    )
    try:
        ada.page.goto(bot_server.url)
        ada.page.fill("#quick-name", "Ada")
        ada.page.click("button.play-mastermind")
        expect(ada.page.locator(".mm-table")).to_be_visible()
        audience = ada.page.locator(".chat-all .audience")
        expect(audience).to_contain_text("Everyone in the room")
        expect(audience).not_to_contain_text("teams")
        expect(ada.page.locator(".mm-board, .mm-entry").first).to_be_visible()
        # It is Ada's move (she breaks first): after a reload, no gesture yet, so no AudioContext
        # (which a browser refuses, with a warning, before a gesture).
        ada.page.reload()
        expect(ada.page.locator(".mm-entry")).to_be_visible()
        assert ada.page.title().startswith("● ")
        ada.page.wait_for_timeout(1500)
        assert [m for m in console if "AudioContext" in m] == []
        assert ada.page.evaluate("window.__audio") == 0
        assert ada.errors == []
    finally:
        ada.context.close()
