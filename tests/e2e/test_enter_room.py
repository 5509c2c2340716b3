"""Entering a room in one step: the name typed on the home page goes into the room with its
creator, who is seated at once (and host); a visitor who typed a name and a code lands seated;
a visitor with a saved name who opens a link joins with one click."""

from __future__ import annotations

import json
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


def first_visit(player: Player, url: str) -> str:
    """Opens `url` in a browser new to the site: the name of the profile its page was given."""
    with player.page.expect_response(lambda r: r.url.endswith("/api/me")) as answer:
        player.page.goto(url)
    name: str = answer.value.json()["name"]
    return name


def test_a_newcomer_who_types_no_name_plays_under_the_profiles(
    browser: Browser, server_url: str
) -> None:
    """No name typed: Play now seats the visitor under its profile's name (not a "Guest" of
    many), and a link opened by another newcomer offers its own profile's name, one click in."""
    dee = Player.open(browser, "Dee", PHONE, "ko")
    eve = Player.open(browser, "Eve", DESKTOP, "en")
    try:
        dee_name = first_visit(dee, server_url)
        expect(dee.page.locator("#quick-name")).to_have_attribute("placeholder", dee_name)
        dee.page.click("form.create button[type=submit]")
        dee.page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        # Created from the home page with no name: asked, the profile's name offered, selected.
        expect(dee.page.locator("#join-name")).to_have_value(dee_name)
        expect(dee.page.locator("#join-name")).to_be_focused()
        dee.page.click(".join-form button[type=submit]")
        mine = dee.page.locator(".slots-list .player-name:has(.tag.you)")
        expect(mine).to_contain_text(dee_name)
        code = dee.page.url.rsplit("/", 1)[1]

        eve_name = first_visit(eve, f"{server_url}/r/{code}")
        assert eve_name != dee_name
        expect(eve.page.locator("#join-name")).to_have_value(eve_name)
        eve.page.click(".join-form button[type=submit]")
        expect(eve.page.locator(".slots-list .player-name:has(.tag.you)")).to_contain_text(eve_name)

        # Play now with the name field left empty: seated under the profile's name too.
        dee.page.goto(server_url)
        dee.page.click("button.play-mastermind")
        dee.page.wait_for_url(re.compile(r"/r/(?!" + code + r")[A-Z0-9]{6}$"))
        solo = dee.page.url.rsplit("/", 1)[1]
        expect(dee.page.locator(".mm-entry")).to_be_visible()
        humans = [
            p["name"]
            for frame in map(json.loads, dee.frames)
            if frame["type"] == "room" and frame["room"]["code"] == solo
            for p in frame["room"]["players"]
            if p["kind"] == "human"
        ]
        assert humans and set(humans) == {dee_name}
        assert dee.errors == [] and eve.errors == []
    finally:
        for p in (dee, eve):
            p.context.close()
