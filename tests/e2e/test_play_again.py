"""Playing again is proposed and joined: two people at White (two bots at Black) finish a game;
one proposes a rematch, the other still reads the end screen (nothing restarted) and sees who is
ready; once the second says yes the new game starts for both."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from e2e.bot_server import bot_server
from e2e.server_process import ServerProcess
from e2e.table_driver import DESKTOP, Player, fresh_clues, wrong

pytestmark = pytest.mark.browser
__all__ = ["bot_server"]  # the fixture, used by name

STEPS = 600


def seat_two_at_white(ann: Player, bob: Player, url: str) -> None:
    ann.page.goto(url)
    ann.page.fill("#quick-name", ann.name)
    ann.page.click("form.create button[type=submit]")
    ann.page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
    expect(ann.page.locator(".host-panel")).to_be_visible()
    bob.join(ann.page.input_value("#share-link"))
    bob.page.click(".team-card-white .empty-slot > button")
    expect(ann.page.locator(".team-card-white .player-name")).to_have_count(2)
    for n in (1, 2):
        ann.page.click(".team-card-black .bot-add button")
        expect(ann.page.locator(".team-card-black .player-name")).to_have_count(n)
    ann.page.click("button.start")


def play_to_the_end(people: list[Player]) -> None:
    """White misdecodes twice: the game is over after round 2, with no tie-break."""
    code: list[int] | None = None  # White's code this round, read by its encryptor
    used: set[str] = set()
    for _ in range(STEPS):
        if all(p.page.locator(".outcome").count() for p in people):
            return
        for p in people:
            page = p.page
            if p.is_encryptor() and page.locator("#clue-0").count():
                code = p.read_code()
                p.transmit(fresh_clues(p.keywords(), used))
            elif p.can_lock("own") and code is not None:
                p.pick("own", "white", wrong(code))
                p.lock("own")
                expect(page.locator("section.board-own button.lock")).to_have_count(0)
            elif p.can_lock("enemy"):
                p.pick("enemy", "black", [1, 2, 3])
                p.lock("enemy")
                expect(page.locator("section.board-enemy button.lock")).to_have_count(0)
        people[0].page.wait_for_timeout(200)
    raise AssertionError("the game did not end")


def test_a_rematch_is_proposed_and_joined(browser: Browser, bot_server: ServerProcess) -> None:
    ann = Player.open(browser, "Ann", DESKTOP, "en")
    bob = Player.open(browser, "Bob", DESKTOP, "en")
    try:
        seat_two_at_white(ann, bob, bot_server.url)
        play_to_the_end([ann, bob])
        for p in (ann, bob):
            expect(p.page.locator(".play-again")).to_be_visible()
        bob.page.click(".play-again .again-yes")  # anyone proposes, not only the host
        expect(ann.page.locator(".play-again .again-ready")).to_contain_text("Bob")
        expect(bob.page.locator(".play-again .again-waiting")).to_contain_text("Ann")
        bob.page.wait_for_timeout(1500)
        for p in (ann, bob):  # nobody was pulled into a new game
            expect(p.page.locator(".outcome")).to_be_visible()
        ann.page.click(".play-again .again-yes")
        for p in (ann, bob):
            expect(p.page.locator(".outcome")).to_have_count(0)
            expect(p.page.locator(".table-head h1")).to_contain_text("1")
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.context.close()
        bob.context.close()
