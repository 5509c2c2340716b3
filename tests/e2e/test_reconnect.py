"""Coming back: a reload in the middle of a round returns the player to the same seat and state,
and a server restart shows the connection banner, reconnects by itself and restores the table
without a reload. Both games are played with the keyboard only, in four interface languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from e2e.server_process import ServerProcess
from e2e.table_driver import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    Player,
    pick_with_keyboard,
    start_game,
    wait_for,
)

pytestmark = pytest.mark.browser

PEOPLE = [("Ann", DESKTOP, "fr"), ("Boris", DESKTOP, "ru-dark"), ("Chloé", PHONE, "en")]
PEOPLE += [("민준", PHONE, "ko-dark")]


def close(players: list[Player]) -> None:
    for p in players:
        p.context.close()


def test_reload_returns_to_the_same_seat_and_state(browser: Browser, server_url: str) -> None:
    folder = ARTIFACTS / "reload"
    folder.mkdir(parents=True, exist_ok=True)
    players, teams, _ = start_game(browser, server_url, PEOPLE, folder)
    try:
        white = teams["white"]
        enc = wait_for(white, Player.is_encryptor, "White's encryptor")[0]
        decider = next(p for p in white if p is not enc)
        code = enc.read_code()
        keywords = enc.keywords()
        # It is the encryptor's move: the tab title says so (and a chime plays, unless muted).
        assert enc.page.title().startswith("● ")
        assert not decider.page.title().startswith("● ")
        # The encryptor types two clues, reloads: the draft (kept by the server) is back.
        enc.page.focus("#clue-0")
        enc.page.keyboard.type("lichen")
        enc.page.keyboard.press("Tab")
        enc.page.keyboard.type("harbor")
        enc.page.wait_for_timeout(1500)  # the draft is sent 0.6 s after the last key
        for p in players:
            p.shot(folder, "1-writing", full_page=False)
        enc.page.reload()
        expect(enc.page.locator("#clue-0")).to_have_value("lichen")
        expect(enc.page.locator("#clue-1")).to_have_value("harbor")
        assert enc.read_code() == code
        assert enc.keywords() == keywords
        # Rule checks before submitting: a digit is only warned about (by the server's check
        # of the draft); one of the team's own keywords blocks the review button.
        enc.page.fill("#clue-2", "3")
        expect(enc.page.locator("#clue-2-msg .warning")).to_be_visible()
        enc.page.fill("#clue-2", keywords[0].upper())
        expect(enc.page.locator("#clue-2-msg .error-text")).to_be_visible()
        expect(enc.page.locator("section.encryptor form button[type=submit]")).to_be_disabled()
        # Keyboard only: the third clue, Enter to review, Enter to transmit.
        enc.page.fill("#clue-2", "")
        enc.page.focus("#clue-2")
        enc.page.keyboard.type("velvet")
        enc.page.keyboard.press("Enter")
        expect(enc.page.locator("section.encryptor .confirm")).to_be_visible()
        enc.page.keyboard.press("Enter")
        expect(enc.page.locator("section.encryptor")).to_have_count(0)
        # The decider picks the code with the keyboard, reloads, finds its proposal and locks.
        expect(decider.page.locator("section.board-own button.lock")).to_be_visible()
        pick_with_keyboard(decider, "own", "white", code)
        expect(decider.page.locator("section.board-own .proposals li")).to_have_count(1)
        decider.page.fill(".notes-row textarea >> nth=0", "fruit? <b>red</b>")
        decider.page.locator(".notes-row textarea").nth(1).focus()  # leaving the field saves it
        decider_keywords = decider.keywords()
        chat_before = decider.page.locator(".chat-lines li").count()
        for p in players:
            p.shot(folder, "2-decoding", full_page=False)
        decider.page.reload()
        expect(decider.page.locator(".table.as-white")).to_be_visible()
        assert decider.keywords() == decider_keywords
        for slot, digit in enumerate(code):
            radio = decider.page.locator(f'input[name="white-own-{slot}"][value="{digit}"]')
            expect(radio).to_be_checked()
        expect(decider.page.locator("section.board-own .proposals li")).to_have_count(1)
        assert decider.page.locator(".chat-lines li").count() == chat_before
        expect(decider.page.locator(".notes-row textarea").first).to_have_value("fruit? <b>red</b>")
        decider.page.focus("section.board-own button.lock")
        decider.page.keyboard.press("Enter")
        expect(decider.page.locator("section.board-own")).to_have_count(0)
        expect(decider.page.locator(".log .verdict.ok")).to_have_count(1)
        for p in players:
            p.shot(folder, "3-revealed")
            assert p.errors == [], p.errors
    finally:
        close(players)


def test_server_restart_shows_the_banner_and_resumes(
    browser: Browser, own_server: ServerProcess
) -> None:
    folder = ARTIFACTS / "restart"
    folder.mkdir(parents=True, exist_ok=True)
    players, teams, _ = start_game(browser, own_server.url, PEOPLE[:4])
    try:
        enc = wait_for(teams["black"], Player.is_encryptor, "Black's encryptor")[0]
        keywords = enc.keywords()
        enc.page.fill("#clue-0", "lantern")
        own_server.stop()
        for p in players:
            expect(p.page.locator(".banner[role=alert]")).to_be_visible()
        enc.page.fill("#clue-1", "gazebo")  # typing goes on while offline
        for p in players:
            p.shot(folder, "1-connection-lost")
        own_server.start()
        for p in players:
            # The next attempt comes at most 15 s (+25 % jitter) after the server is back.
            expect(p.page.locator(".banner")).to_have_count(0, timeout=40_000)
        assert enc.keywords() == keywords
        expect(enc.page.locator("#clue-0")).to_have_value("lantern")
        expect(enc.page.locator("#clue-1")).to_have_value("gazebo")
        enc.page.fill("#clue-2", "basalt")
        enc.page.click("section.encryptor form button[type=submit]")
        enc.page.click("section.encryptor .confirm button.primary")
        expect(enc.page.locator("section.encryptor")).to_have_count(0)
        for p in teams["white"]:
            expect(p.page.locator(".watch:has(h2 .team-black)")).to_contain_text("lantern")
        for p in players:
            assert p.errors == [], p.errors
    finally:
        close(players)
