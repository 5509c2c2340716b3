"""Quick join from the home page: the first visitor gets a new public room, the second lands in
the same one (both seated), and the host fills the empty seats with bots from the lobby's offer
(shown at once here: the server's --offer-bots-after is 0) and starts."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from e2e.bot_server import bot_server
from e2e.server_process import ServerProcess
from e2e.table_driver import DESKTOP, PHONE, Player

pytestmark = pytest.mark.browser
__all__ = ["bot_server"]  # the fixture, used by name


def test_quick_join_puts_two_visitors_in_one_room(
    browser: Browser, bot_server: ServerProcess
) -> None:
    ann = Player.open(browser, "Ann", DESKTOP, "ru")
    bob = Player.open(browser, "Bob", PHONE, "en")
    try:
        code = ann.quick_join(bot_server.url)
        assert bob.quick_join(bot_server.url) == code
        for p in (ann, bob):
            expect(p.page.locator(".slots-list .player-name")).to_have_count(2)
        # Only the host is offered bots; one click seats them and the game can start.
        expect(bob.page.locator(".bot-offer")).to_have_count(0)
        offer = ann.page.locator(".bot-offer")
        expect(offer).to_be_visible()
        ann.page.click(".bot-offer button.fill-bots")
        expect(ann.page.locator(".slots-list .player-name")).to_have_count(4)
        expect(offer).to_have_count(0)
        ann.page.click("button.start")
        for p in (ann, bob):
            expect(p.page.locator(".table")).to_be_visible()
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.context.close()
        bob.context.close()
