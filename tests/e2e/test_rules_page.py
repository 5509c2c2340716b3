"""How to play: the "?" button opens the rules in the interface language on every screen (home,
lobby, table), at the section for what the player is doing, for Decrypto and Mastermind."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import DESKTOP, Player

pytestmark = pytest.mark.browser

RULES = Path(__file__).resolve().parents[2] / "src" / "codebreakers" / "web" / "rules"


def rules(lang: str) -> dict:
    return json.loads((RULES / f"{lang}.json").read_text(encoding="utf-8"))


def open_rules(player: Player) -> None:
    player.page.click("header.topbar button:has-text('?')")
    expect(player.page.locator("dialog.rules")).to_be_visible()


def close_rules(player: Player) -> None:
    player.page.click("dialog.rules .spread button")
    expect(player.page.locator("dialog.rules")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "ko"])
def test_rules_render_in_each_language(browser: Browser, server_url: str, lang: str) -> None:
    text = rules(lang)
    player = Player.open(browser, "Rae", DESKTOP, lang)
    page = player.page
    try:
        page.goto(server_url)  # home: Decrypto's rules, every section, as written
        open_rules(player)
        dialog = page.locator("dialog.rules")
        expect(dialog.locator("#rules-title")).to_have_text(text["decrypto"]["title"])
        sections = text["decrypto"]["sections"]
        expect(dialog.locator(".rules-text section h2")).to_have_text(
            [s["title"] for s in sections]
        )
        first = sections[0]["paragraphs"][0]
        expect(dialog.locator(".rules-text section p").first).to_have_text(first)
        # Outside a room either game's rules can be read.
        dialog.locator(".rules-games button").nth(1).click()
        expect(dialog.locator("#rules-title")).to_have_text(text["mastermind"]["title"])
        close_rules(player)

        # In a Mastermind room, the "?" opens Mastermind's rules at the current phase.
        page.select_option("#new-game", "mastermind")
        page.click("form.create button[type=submit]")
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        open_rules(player)
        expect(dialog.locator("#rules-title")).to_have_text(text["mastermind"]["title"])
        expect(dialog.locator("section.current")).to_have_attribute("id", "rules-overview")
        assert player.errors == [], player.errors
    finally:
        player.context.close()


def test_rules_open_at_the_players_task(browser: Browser, server_url: str) -> None:
    """At a Decrypto table the encryptor's "?" opens at the section on transmitting."""
    player = Player.open(browser, "Eve", DESKTOP, "en")
    page = player.page
    try:
        page.goto(server_url)
        page.click("button.play-now")
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        expect(page.locator(".table")).to_be_visible()
        page.click("aside.guide button.guide-off")
        assert player.is_encryptor()  # the visitor sits first at White: round 1's encryptor
        open_rules(player)
        current = page.locator("dialog.rules section.current")
        expect(current).to_have_attribute("id", "rules-transmit")
        expect(current).to_be_in_viewport()
    finally:
        player.context.close()
