"""The encryptor's clue checks at the input, before review: a form of one's own keyword, a clue
given twice, a blank clue are each shown (translated) at their field, and the review (so the
transmission) stays out of reach until the engine, asked over the socket, accepts the clues."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import DESKTOP, PHONE, Player, start_game, wait_for

pytestmark = pytest.mark.browser

PEOPLE = [("Ann", DESKTOP, "en"), ("Bob", DESKTOP, "fr"), ("Cid", PHONE, "en")]
PEOPLE += [("Dee", PHONE, "ru")]
EN = json.loads(
    (Path(__file__).resolve().parents[2] / "src/codebreakers/web/i18n/en.json").read_text()
)


def test_clue_rules_show_at_the_input_and_block_the_review(
    browser: Browser, server_url: str
) -> None:
    players, teams, _ = start_game(browser, server_url, PEOPLE)
    try:
        enc = wait_for(teams["white"], Player.is_encryptor, "White's encryptor")[0]
        page = enc.page
        review = page.locator("section.encryptor form button[type=submit]")
        keyword = enc.keywords()[0]
        # "batteries" for BATTERY: a form of the team's own keyword, refused by the engine.
        page.fill("#clue-0", "nebula")
        page.fill("#clue-1", keyword.lower() + "s")
        page.fill("#clue-2", "harbor")
        expect(page.locator("#clue-1-msg .clue-refused")).to_have_text(EN["error.clue_is_keyword"])
        expect(page.locator("#clue-1")).to_have_attribute("aria-invalid", "true")
        expect(review).to_be_disabled()
        # The same clue twice in one transmission.
        page.fill("#clue-1", "nebula")
        expect(page.locator("#clue-1-msg .clue-refused")).to_have_text(EN["error.clue_reused"])
        expect(page.locator("#clue-1-msg")).not_to_contain_text("warning.")
        expect(review).to_be_disabled()
        # A blank clue: no transmission either, and the reason is said under the fields.
        page.fill("#clue-1", "")
        expect(page.locator("section.encryptor form [role=status]")).to_have_text(
            EN["error.blank_clue"]
        )
        expect(review).to_be_disabled()
        page.fill("#clue-1", "velvet")
        expect(review).to_be_enabled()
        expect(page.locator("section.encryptor .clue-refused")).to_have_count(0)
        review.click()
        page.click("section.encryptor .confirm button.primary")
        expect(page.locator("section.encryptor")).to_have_count(0)
        assert "warning." not in page.locator("body").inner_text()
        for p in players:
            assert p.errors == []
    finally:
        for p in players:
            p.context.close()
