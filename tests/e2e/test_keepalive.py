"""A dropped network is noticed both ways, with the default intervals: when one player's
browser goes offline (Playwright's offline mode, the socket left open and silent), the others
see that player away within ~12 s and the player sees "reconnecting"; a chat line written
meanwhile shows as pending; back online, the tables catch up (a transmission made meanwhile,
the pending line sent) without a reload."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import DESKTOP, PHONE, Player, start_game, wait_for

pytestmark = pytest.mark.browser

PEOPLE = [("Ann", DESKTOP, "en"), ("Bob", DESKTOP, "en"), ("Cid", PHONE, "en")]
PEOPLE += [("Dee", PHONE, "en")]
NOTICE_MS = 12_000


def test_a_cut_network_is_seen_by_everyone_and_recovered(browser: Browser, server_url: str) -> None:
    players, teams, _ = start_game(browser, server_url, PEOPLE)
    try:
        white_enc = wait_for(teams["white"], Player.is_encryptor, "White's encryptor")[0]
        away = next(p for p in teams["black"] if not p.is_encryptor())
        other = next(p for p in teams["black"] if p is not away)
        dot = f'.table-head .player-name:has-text("{away.name}") .dot'
        expect(white_enc.page.locator(dot)).to_have_class("dot on")
        away.context.set_offline(True)
        cut = time.monotonic()
        expect(white_enc.page.locator(dot)).to_have_class("dot off", timeout=NOTICE_MS)
        expect(other.page.locator(dot)).to_have_class("dot off", timeout=NOTICE_MS)
        expect(away.page.locator(".banner")).to_contain_text("Reconnecting", timeout=NOTICE_MS)
        assert time.monotonic() - cut < NOTICE_MS / 1000 + 2
        # Written while offline: shown as pending, not lost.
        away.say("all", "still here")
        expect(away.page.locator(".chat-all .chat-lines li.pending")).to_contain_text("still here")
        # The game goes on without them: White transmits.
        white_enc.transmit(["nebula", "harbor", "velvet"])
        away.context.set_offline(False)
        expect(away.page.locator(".banner")).to_have_count(0)
        expect(white_enc.page.locator(dot)).to_have_class("dot on")
        expect(away.page.locator(".chat-all .chat-lines li.pending")).to_have_count(0)
        for p in players:
            expect(p.page.locator(".chat-all .chat-lines")).to_contain_text("still here")
        expect(away.page.locator("section.watch .clue-list").first).to_contain_text("nebula")
        for p in players:
            assert p.errors == []
    finally:
        for p in players:
            p.context.close()
