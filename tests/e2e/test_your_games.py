"""Your games on the home page: a room entered from the home page is listed there when the
player comes back, one click takes them back into it in the same seat, and the name typed to
play became the profile's."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import DESKTOP, Player

pytestmark = pytest.mark.browser


def test_back_home_the_room_is_listed_and_one_click_goes_back_in(
    browser: Browser, server_url: str
) -> None:
    ann = Player.open(browser, "Ann", DESKTOP, "en")
    try:
        page = ann.page
        page.goto(server_url)
        expect(page.locator("#me-title")).to_be_visible()
        page.fill("#quick-name", "Annabel")
        page.click("form.create button[type=submit]")
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        code = page.url.rsplit("/", 1)[1]
        expect(page.locator(".slots-list .player-name:has(.tag.you)")).to_contain_text("Annabel")

        page.goto(server_url)
        listed = page.locator(f".your-games a[href='/r/{code}']")
        expect(listed).to_contain_text("waiting for players")
        expect(page.locator("#me-name")).to_have_value("Annabel")  # the name typed to play
        listed.click()
        page.wait_for_url(re.compile(f"/r/{code}$"))
        expect(page.locator(".slots-list .player-name:has(.tag.you)")).to_contain_text("Annabel")
        expect(page.locator("#join-name")).to_have_count(0)  # the same seat, no new join
    finally:
        ann.context.close()
