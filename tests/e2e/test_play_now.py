"""Play now from the home page: a fresh server seats the visitor with three bots and starts at
once; the visitor plays a whole game through the page (clues as encryptor, locks as decider),
with the first-game guide's hints shown, dismissed and remembered. Play Mastermind: a whole
solo match against the computer."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from codebreakers.games.mastermind.solver import solver_for
from e2e.bot_server import bot_server
from e2e.server_process import ServerProcess
from e2e.table_driver import ARTIFACTS, DESKTOP, Player, fresh_clues, play_now
from e2e.test_mastermind import shown_rows

pytestmark = pytest.mark.browser
__all__ = ["bot_server"]  # the fixture, used by name

GAME_S = 150  # the whole game's bound; with bots at once it takes a fraction of it


def rooms_frames(player: Player) -> list[dict]:
    out = []
    for frame in player.frames:
        parsed = json.loads(frame)
        if parsed["type"] == "room":
            out.append(parsed["room"])
    return out


def test_play_now_plays_a_whole_game_against_bots(
    browser: Browser, bot_server: ServerProcess
) -> None:
    folder = ARTIFACTS / "play-now"
    folder.mkdir(parents=True, exist_ok=True)
    ann = Player.open(browser, "Ann", DESKTOP, "fr")
    page = ann.page
    try:
        play_now(page, bot_server.url, "Ann")
        room = rooms_frames(ann)[-1]
        assert room["options"]["words"] == "fr" and room["status"] == "playing"
        assert sorted(p["kind"] for p in room["players"]) == ["bot", "bot", "bot", "human"]
        # The guide's first hint, dismissed, stays dismissed after a reload.
        guide = page.locator("aside.guide")
        expect(guide).to_be_visible()
        first = guide.get_attribute("data-hint")
        ann.shot(folder, "1-guide")
        page.click("aside.guide button.guide-ok")
        expect(page.locator(f'aside.guide[data-hint="{first}"]')).to_have_count(0)
        page.reload()
        expect(page.locator(".table")).to_be_visible()
        expect(page.locator(f'aside.guide[data-hint="{first}"]')).to_have_count(0)

        used: set[str] = set()
        hints = {first}
        moves = {"transmit": 0, "lock": 0}
        for _ in range(GAME_S * 10):
            if page.locator(".outcome").count():
                break
            if page.locator("aside.guide").count():
                try:
                    hints.add(
                        page.locator("aside.guide").get_attribute("data-hint", timeout=5_000) or ""
                    )
                    page.click("aside.guide button.guide-ok", timeout=5_000)
                except PlaywrightTimeoutError:
                    continue  # the bots moved the game on and its hint went with it: look again
            elif ann.is_encryptor() and page.locator("#clue-0").count():
                ann.transmit(fresh_clues(ann.keywords(), used))
                moves["transmit"] += 1
            elif ann.can_lock("own") or ann.can_lock("enemy"):
                board = "own" if ann.can_lock("own") else "enemy"
                team = ann.team() if board == "own" else ("black", "white")[ann.team() == "black"]
                try:
                    ann.pick(board, team, [1, 2, 3], timeout=5_000)
                    ann.lock(board)
                except PlaywrightTimeoutError:
                    continue  # the bots (no delay) moved the table on meanwhile: look again
                moves["lock"] += 1
            elif page.locator(".guess-form").count():
                for i in range(4):
                    page.fill(f"#guess-{i}", f"mot{i}")
                page.click(".guess-form button[type=submit]")
            elif page.locator(".tiebreak button.primary").count():
                page.click(".tiebreak button.primary")
            else:
                page.wait_for_timeout(100)
        expect(page.locator(".outcome")).to_be_visible()
        ann.shot(folder, "2-end")
        assert moves["transmit"] >= 1 and moves["lock"] >= 1, moves
        assert len(hints) >= 2, hints
        assert ann.errors == [], ann.errors
        # A first game played to its end: no more hints in this browser.
        assert page.evaluate("localStorage.getItem('cb.guide.done')") == "1"
    finally:
        ann.context.close()


def test_play_mastermind_is_a_solo_match_played_to_its_end(
    browser: Browser, bot_server: ServerProcess
) -> None:
    """Play Mastermind: seated against the computer at once; the visitor breaks round 1 with the
    solver's guesses read off the board, draws a random code in round 2, the computer breaks it."""
    folder = ARTIFACTS / "play-now"
    folder.mkdir(parents=True, exist_ok=True)
    kim = Player.open(browser, "Kim", DESKTOP, "ko")
    page = kim.page
    try:
        page.goto(bot_server.url)
        page.click("button.play-mastermind")
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        expect(page.locator('aside.guide[data-hint="mm_breaker"]')).to_be_visible()
        page.click("aside.guide button.guide-ok")
        room = rooms_frames(kim)[-1]
        assert room["game"] == "mastermind" and room["status"] == "playing"
        assert {p["name"] for p in room["players"] if p["kind"] == "human"} == {"손님"}
        pegs, colours, rows = (room["options"][k] for k in ("pegs", "colours", "rows"))
        solver = solver_for(pegs, colours)
        for n in range(1, rows + 1):
            expect(page.locator(".mm-entry .mm-submit")).to_be_visible()
            for colour in solver.next_guess(shown_rows(page)):
                page.keyboard.press(str(colour + 1))
            expect(page.locator(".mm-slots .mm-num")).to_have_count(pegs)
            page.click(".mm-entry .mm-submit")
            played = page.locator(".mm-board .mm-row:not(.mm-row-empty):not(.mm-row-next)")
            expect(page.locator(".mm-history .mm-attempt").or_(played.nth(n - 1))).to_be_visible()
            if page.locator(".mm-history .mm-attempt").count():
                break
            if shown_rows(page)[-1][1].black == pegs:
                break
        expect(page.locator(".mm-history .mm-attempt")).to_have_count(1)
        expect(page.locator('aside.guide[data-hint="mm_maker"]')).to_be_visible()
        page.click("aside.guide button.guide-ok")
        page.click(".mm-entry .mm-random")
        expect(page.locator(".mm-outcome")).to_be_visible(timeout=60_000)
        expect(page.locator(".mm-history .mm-attempt")).to_have_count(2)
        kim.shot(folder, "3-mastermind-end")
        assert kim.errors == [], kim.errors
    finally:
        kim.context.close()
