"""Keyboard flow at the table: after Transmit or Lock the focus lands on what comes next, not
on the page body; a half-picked decode (two clues of three) survives a reload, as clue drafts
do. Played through Play now (a bot teammate, two bots at Black, bots moving at once)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from e2e.bot_server import bot_server
from e2e.server_process import ServerProcess
from e2e.table_driver import DESKTOP, Player, fresh_clues, play_now

pytestmark = pytest.mark.browser
__all__ = ["bot_server"]  # the fixture, used by name

STEPS = 600
ON_BODY = "document.activeElement === document.body || document.activeElement === null"


def test_focus_after_moves_and_a_half_picked_decode(
    browser: Browser, bot_server: ServerProcess
) -> None:
    ann = Player.open(browser, "Ann", DESKTOP, "en")
    page = ann.page
    try:
        play_now(page, bot_server.url, "Ann")
        page.click("aside.guide button.guide-off")
        used: set[str] = set()
        done = {"transmit": False, "lock": False}
        for _ in range(STEPS):
            if all(done.values()) or page.locator(".outcome").count():
                break
            if ann.is_encryptor() and page.locator("#clue-0").count():
                for i, clue in enumerate(fresh_clues(ann.keywords(), used)):
                    page.fill(f"#clue-{i}", clue)
                page.click("section.encryptor form button[type=submit]")
                expect(page.locator("section.encryptor .confirm")).to_be_visible()
                page.keyboard.press("Enter")  # the confirmation holds the focus: Enter sends
                expect(page.locator("section.encryptor")).to_have_count(0)
                page.wait_for_timeout(300)
                assert not page.evaluate(ON_BODY), "focus fell to the body after Transmit"
                done["transmit"] = True
            elif ann.can_lock("own") and not done["lock"]:
                team = ann.team()
                choice = 'section.board-own label.digit-choice:has(input[name="{}"][value="{}"])'
                page.click(choice.format(f"{team}-own-0", 2))
                page.click(choice.format(f"{team}-own-1", 3))
                page.reload()
                expect(page.locator(f'input[name="{team}-own-0"][value="2"]')).to_be_checked()
                expect(page.locator(f'input[name="{team}-own-1"][value="3"]')).to_be_checked()
                page.click(choice.format(f"{team}-own-2", 1))
                page.focus("section.board-own button.lock")
                page.keyboard.press("Enter")
                expect(page.locator("section.board-own button.lock")).to_have_count(0)
                page.wait_for_timeout(300)
                assert not page.evaluate(ON_BODY), "focus fell to the body after Lock"
                done["lock"] = True
            elif ann.can_lock("own") or ann.can_lock("enemy"):
                board = "own" if ann.can_lock("own") else "enemy"
                team = (
                    ann.team()
                    if board == "own"
                    else ("black" if ann.team() == "white" else "white")
                )
                ann.pick(board, team, [1, 2, 3])
                ann.lock(board)
            page.wait_for_timeout(200)
        assert all(done.values()), done
        assert ann.errors == []
    finally:
        ann.context.close()
