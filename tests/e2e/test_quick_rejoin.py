"""Quick join, back home, Quick join again in the same browser: still one player in the room,
and still its host (with the host's controls), not a second, offline copy of the visitor."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from e2e.server_process import ServerProcess
from e2e.table_driver import DESKTOP, Player

pytestmark = pytest.mark.browser


def test_quick_join_twice_is_still_one_player_and_host(
    browser: Browser, own_server: ServerProcess
) -> None:
    ann = Player.open(browser, "Ann", DESKTOP, "en")
    try:
        code = ann.quick_join(own_server.url)
        expect(ann.page.locator(".host-panel")).to_be_visible()
        ann.page.click("a.brand")  # home, through the app
        expect(ann.page.locator("#quick-name")).to_be_visible()
        ann.page.click("button.quick-join")
        ann.page.wait_for_url(re.compile(rf"/r/{code}$"))
        expect(ann.page.locator(".host-panel")).to_be_visible()
        expect(ann.page.locator(".slots-list .player-name")).to_have_count(1)
        expect(ann.page.locator(".slots-list .player-name .dot.off")).to_have_count(0)
        # A reload keeps the one seat too.
        ann.page.reload()
        expect(ann.page.locator(".host-panel")).to_be_visible()
        expect(ann.page.locator(".slots-list .player-name")).to_have_count(1)
        assert ann.errors == []
    finally:
        ann.context.close()
