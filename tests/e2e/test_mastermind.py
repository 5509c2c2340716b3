"""A whole Mastermind match against the computer, played through the browser.

The host creates a classic-size room of two rounds from the home page, seats the computer and
starts. In round 1 the host breaks the computer's code by typing guesses on the keyboard; each
guess is the solver's choice for the rows and keys the page shows (the test reads the board,
never the server). In round 2 the host types a secret code and the computer breaks it. The
after-round comparison with the solver and the final result must then be on the page.
A second test plays one manual-marking row to check the maker's marking panel.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from codebreakers.games.mastermind.scoring import Keys
from codebreakers.games.mastermind.solver import solver_for
from e2e.table_driver import ARTIFACTS, DESKTOP, PHONE, Player

PLAYED_ROWS = ".mm-board .mm-row:not(.mm-row-empty):not(.mm-row-next)"
PLAYED_OR_OVER = f"""n => document.querySelector('.mm-history .mm-attempt') !== null ||
  document.querySelectorAll('{PLAYED_ROWS}').length === n"""


def shown_rows(page: Page) -> list[tuple[tuple[int, ...], Keys]]:
    """The board's played rows as (guess, keys), read from the pegs' numbers and the key dots."""
    rows = []
    for row in page.locator(PLAYED_ROWS).all():
        guess = tuple(int(n) - 1 for n in row.locator(".mm-num").all_inner_texts())
        keys = Keys(row.locator(".mm-key-b").count(), row.locator(".mm-key-w").count())
        rows.append((guess, keys))
    return rows


def create_room(player: Player, server_url: str, folder: Path, manual: bool = False) -> None:
    page = player.page
    page.goto(server_url)
    page.select_option("#new-game", "mastermind")
    page.select_option("#new-size", "classic")
    page.select_option("#new-rounds", "2")
    if manual:  # and a size of its own: classic with 8 rows
        page.select_option("#new-size", "custom")
        expect(page.locator("#new-pegs")).to_have_value("4")
        page.select_option("#new-rows", "8")
        page.check("#new-manual")
    else:
        player.shot(folder, "home-desktop-light", full_page=False)
    page.click("form.create button[type=submit]")
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
    page.fill("#join-name", player.name)
    page.keyboard.press("Enter")
    expect(page.locator(".tag.you")).to_be_visible()


def test_a_match_against_the_computer(browser: Browser, server_url: str) -> None:
    folder = ARTIFACTS / "mastermind"
    folder.mkdir(parents=True, exist_ok=True)
    ada = Player.open(browser, "Ada", DESKTOP)
    page = ada.page
    try:
        create_room(ada, server_url, folder)
        expect(page.locator(".options-summary, .host-panel")).to_contain_text("4")
        # Ada sits as player A (breaks first); the computer takes player B's seat.
        page.click(".team-card-b .bot-add button")
        expect(page.locator(".team-card-b .tag")).to_contain_text("bot")
        ada.shot(folder, "lobby-desktop-light", full_page=False)
        page.click(".host-panel .start")

        # Round 1: Ada breaks, typing each guess on the keyboard.
        expect(page.locator(".mm-entry .mm-submit")).to_be_visible()
        page.check("#mm-possible")
        expect(page.locator(".mm-possible-count")).to_contain_text("1296")
        solver = solver_for(4, 6)
        for n in range(1, 11):
            rows = shown_rows(page)
            assert len(rows) == n - 1
            guess = solver.next_guess(rows)
            for colour in guess:
                page.keyboard.press(str(colour + 1))
            expect(page.locator(".mm-slots .mm-num")).to_have_count(4)
            if n == 2:
                ada.shot(folder, "breaking-desktop-light", full_page=False)
            if n == 3:
                page.set_viewport_size(PHONE)
                ada.shot(folder, "breaking-phone-light")
                page.set_viewport_size(DESKTOP)
            page.keyboard.press("Enter")
            # Either the row is on the board, or it found the code and the round is over.
            page.wait_for_function(PLAYED_OR_OVER, arg=n, timeout=60_000)
            if page.locator(".mm-history .mm-attempt").count():
                break
        expect(page.locator(".mm-history .mm-attempt")).to_have_count(1)
        expect(page.locator(".mm-history")).to_contain_text("You found it")
        expect(page.locator(".mm-compare tbody tr").first).to_be_visible()

        # Round 2: Ada makes the code by keyboard; the computer breaks it.
        expect(page.locator("#mm-entry-title")).to_contain_text("secret code")
        for key in "3161":
            page.keyboard.press(key)
        page.keyboard.press("Backspace")
        page.keyboard.press("5")
        expect(page.locator(".mm-slots .mm-num")).to_have_text(["3", "1", "6", "5"])
        page.keyboard.press("Enter")
        expect(page.locator(".mm-secret .mm-num")).to_have_text(["3", "1", "6", "5"])
        page.emulate_media(color_scheme="dark")
        ada.shot(folder, "making-desktop-dark", full_page=False)
        page.emulate_media(color_scheme="light")
        expect(page.locator(".mm-outcome")).to_be_visible(timeout=60_000)
        expect(page.locator(".mm-history .mm-attempt")).to_have_count(2)
        # The computer found Ada's code: its last row is all black.
        expect(page.locator(".mm-attempt").first).to_contain_text("found it")
        ada.shot(folder, "over-desktop-light")
        page.set_viewport_size(PHONE)
        page.emulate_media(color_scheme="dark")
        ada.shot(folder, "over-phone-dark")
        # Play again: the computer is always ready, so Ada's yes starts the next match.
        page.click(".play-again .again-yes")
        expect(page.locator(".mm-outcome")).to_have_count(0)
        expect(page.locator(".table-head h1")).to_contain_text("1")
        assert ada.errors == [], ada.errors
    finally:
        ada.context.close()


def test_manual_marking_panel(browser: Browser, server_url: str) -> None:
    """Ada makes the code by hand with manual marking; Bea guesses; Ada marks the row."""
    folder = ARTIFACTS / "mastermind"
    folder.mkdir(parents=True, exist_ok=True)
    ada = Player.open(browser, "Ada", DESKTOP)
    bea = Player.open(browser, "Bea", PHONE, "fr-dark")
    try:
        create_room(ada, server_url, folder, manual=True)
        expect(ada.page.locator("#room-opt-size")).to_have_value("custom")
        expect(ada.page.locator("#room-opt-rows")).to_have_value("8")
        bea.join(ada.page.url)
        # Bea took the free seat (player B): she makes the first code, Ada breaks.
        ada.page.click(".host-panel .start")
        expect(bea.page.locator(".mm-entry .mm-random")).to_be_visible()
        for key in "1234":
            bea.page.keyboard.press(key)
        expect(bea.page.locator(".mm-slots .mm-num")).to_have_count(4)
        bea.page.keyboard.press("Enter")
        expect(ada.page.locator(".mm-entry .mm-submit")).to_be_visible()
        expect(ada.page.locator(".mm-rows > li")).to_have_count(8)
        for key in "1243":
            ada.page.keyboard.press(key)
        ada.page.click(".mm-entry .mm-submit")
        expect(ada.page.locator(".mm-keys-wait")).to_be_visible()
        mark = bea.page.locator(".mm-mark")
        expect(mark).to_be_visible()
        for _ in range(3):
            bea.page.click("button[aria-label^='Plus'][aria-label*='noires']")
        bea.page.click("button[aria-label^='Plus'][aria-label*='blanches']")
        expect(bea.page.locator("#mm-black")).to_have_text("3")
        # Four keys fill a 4-peg row: no more can be added.
        expect(
            bea.page.locator("button[aria-label^='Plus'][aria-label*='noires']")
        ).to_be_disabled()
        bea.shot(folder, "marking-phone-dark", full_page=False)
        bea.page.click(".mm-mark-submit")
        expect(ada.page.locator(".mm-board .mm-key-b")).to_have_count(3)
        expect(ada.page.locator(".mm-board .mm-key-w")).to_have_count(1)
        assert ada.errors == [] and bea.errors == []
    finally:
        ada.context.close()
        bea.context.close()
