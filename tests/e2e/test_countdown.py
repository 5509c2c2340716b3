"""The sand timer in a real browser: once one encryptor has transmitted, everyone sees the late
encryptor's 30-second countdown tick down, and when it runs out the typed clues go out."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from e2e.table_driver import ARTIFACTS, DESKTOP, PHONE, Player, start_game, wait_for

PEOPLE = [("Ada", DESKTOP, "en"), ("Bo", PHONE, "fr"), ("Cy", DESKTOP, "en"), ("Di", PHONE, "ko")]


def seconds_left(player: Player) -> int:
    text = player.page.locator(".countdown .time").first.inner_text()
    minutes, seconds = re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups()  # type: ignore[union-attr]
    return int(minutes) * 60 + int(seconds)


def test_the_sand_timer_counts_down_for_everyone_and_submits_the_late_clues(
    browser: Browser, server_url: str
) -> None:
    folder = ARTIFACTS / "countdown"
    folder.mkdir(parents=True, exist_ok=True)
    players, teams, _ = start_game(browser, server_url, PEOPLE, checked_options=["new-sand"])
    try:
        for p in players:  # no countdown before the first transmission
            expect(p.page.locator(".countdown")).to_have_count(0)
        first = wait_for(teams["white"], Player.is_encryptor, "White's encryptor")[0]
        late = wait_for(teams["black"], Player.is_encryptor, "Black's encryptor")[0]
        late.page.fill("#clue-0", "pylon")  # typed, never sent by its author
        late.page.wait_for_timeout(1500)  # the draft goes to the server 0.6 s after the last key
        first.transmit(["zephyr", "harbor", "velvet"])
        for p in players:
            expect(p.page.locator(".countdown")).to_have_count(1)
            assert 20 <= seconds_left(p) <= 30
        before = seconds_left(late)
        late.page.wait_for_timeout(2500)
        assert seconds_left(late) < before  # it ticks
        for p in players:
            p.shot(folder, "sand-timer", full_page=False)
        # When it runs out, the late transmission goes out with what was typed.
        expect(late.page.locator("section.encryptor")).to_have_count(0, timeout=60_000)
        expect(first.page.get_by_text("pylon").first).to_be_visible()
    finally:
        for p in players:
            p.context.close()
