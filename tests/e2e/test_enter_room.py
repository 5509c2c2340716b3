"""Entering a room in one step: the name typed on the home page goes into the room with its
creator, who is seated at once (and host); a visitor who typed a name and a code lands seated;
a visitor with a saved name who opens a link joins with one click."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import DESKTOP, PHONE, Player

pytestmark = pytest.mark.browser


def test_the_home_pages_name_goes_into_the_room(browser: Browser, server_url: str) -> None:
    ann = Player.open(browser, "Ann", DESKTOP, "fr")
    bob = Player.open(browser, "Bob", PHONE, "en")
    cid = Player.open(browser, "Cid", PHONE, "ru")
    try:
        ann.page.goto(server_url)
        ann.page.fill("#quick-name", "Ann")
        ann.page.click("form.create button[type=submit]")
        ann.page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        mine = ann.page.locator(".slots-list .player-name:has(.tag.you)")
        expect(mine).to_contain_text("Ann")
        expect(ann.page.locator(".host-panel")).to_be_visible()
        expect(ann.page.locator("#join-name")).to_have_count(0)
        code = ann.page.url.rsplit("/", 1)[1]

        bob.page.goto(server_url)
        bob.page.fill("#quick-name", "Bob")
        bob.page.fill("#join-code", code.lower())
        bob.page.press("#join-code", "Enter")
        expect(bob.page.locator(".slots-list .player-name:has(.tag.you)")).to_contain_text("Bob")
        expect(bob.page.locator("#join-name")).to_have_count(0)

        # A name saved on an earlier visit, then a link: the form is filled, one click joins.
        cid.page.goto(server_url)
        cid.page.fill("#quick-name", "Cid")
        cid.page.goto(f"{server_url}/r/{code}")
        expect(cid.page.locator("#join-name")).to_have_value("Cid")
        cid.page.click(".join-form button[type=submit]")
        expect(cid.page.locator(".slots-list .player-name:has(.tag.you)")).to_contain_text("Cid")
        for p in (ann, bob, cid):
            expect(p.page.locator(".slots-list .player-name")).to_have_count(3)
            assert p.errors == []
    finally:
        for p in (ann, bob, cid):
            p.context.close()
