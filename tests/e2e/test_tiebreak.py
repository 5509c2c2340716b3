"""A tie played to its end in the browser: both teams misread their own clues twice in the same
rounds (a tie on points too), so each decider guesses the enemy's keywords in the form, the
owners accept a near miss by hand and confirm, and the team with more right guesses wins."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import ARTIFACTS, DESKTOP, PHONE, Player, misread_twice, start_game

pytestmark = pytest.mark.browser

PEOPLE = [("Ann", DESKTOP, "en"), ("Ben", DESKTOP, "en"), ("Cat", DESKTOP, "en")]
PEOPLE += [("Dan", PHONE, "en")]


def guess(player: Player, words: list[str]) -> None:
    for i, word in enumerate(words):
        player.page.fill(f"#guess-{i}", word)
    player.page.click(".guess-form button[type=submit]")
    expect(player.page.locator(".guess-form")).to_have_count(0)


def test_tiebreak_by_keyword_guessing(browser: Browser, server_url: str) -> None:
    folder = ARTIFACTS / "tiebreak"
    folder.mkdir(parents=True, exist_ok=True)
    players, teams, _ = start_game(browser, server_url, PEOPLE)
    try:
        keywords = {team: members[0].keywords() for team, members in teams.items()}
        misread_twice(teams)
        for p in players:
            expect(p.page.locator(".tiebreak")).to_be_visible()
            p.shot(folder, "1-guessing")
        white_decider = next(p for p in teams["white"] if p.page.locator(".guess-form").count())
        black_decider = next(p for p in teams["black"] if p.page.locator(".guess-form").count())
        # White knows all four of Black's words; Black gets two, a near miss and a wrong one.
        guess(white_decider, keywords["black"])
        near = keywords["white"][1] + "s"
        guess(black_decider, [keywords["white"][0], near, "nothing", keywords["white"][3]])
        white = teams["white"][0].page
        review = white.locator(".review:has(h3 .team-black)")
        expect(review.locator(".verdict.ok")).to_have_count(2)
        for p in players:
            p.shot(folder, "2-reviewing")
        review.locator("tbody tr").nth(1).locator("button").click()  # accept the near miss
        expect(review.locator(".verdict.ok")).to_have_count(3)
        white.click(".tiebreak button.primary")  # White is done reviewing
        black = teams["black"][0].page
        black.click(".tiebreak button.primary")
        for p in players:
            outcome = p.page.locator(".outcome")
            expect(outcome.locator("#end-title .team-badge")).to_have_text(re.compile("White"))
            expect(outcome).to_contain_text("White 4, Black 3")
            p.shot(folder, "3-end")
            assert p.errors == [], p.errors
    finally:
        for p in players:
            p.context.close()
