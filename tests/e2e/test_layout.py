"""Nothing covers what the player has to use, checked by bounding boxes in a real game.

A first game (Play now: the visitor and three bots that move at once) on a fresh browser, so the
first-game guide shows. While the visitor writes clues: on a phone the guide covers none of the
three clue fields, and the secret code stays on screen, under no sticky bar, while each clue is
typed; on a desktop the guide covers no field nor the team chat's Send button. When the visitor
decides: on a phone, once a code is picked, the Lock button is on screen without scrolling past
the last digit picked.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from e2e.bot_server import bot_server
from e2e.server_process import ServerProcess
from e2e.table_driver import ARTIFACTS, DESKTOP, PHONE, Player, fresh_clues, play_now

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
__all__ = ["bot_server"]  # the fixture, used by name

Box = dict[str, float]
# A phone while typing: the on-screen keyboard and its suggestion strip take the lower 410 px.
PHONE_TYPING = {"width": PHONE["width"], "height": PHONE["height"] - 410}


def box(locator: Locator) -> Box:
    found = locator.bounding_box()
    assert found, f"{locator} is not drawn"
    return found


def overlap(a: Box, b: Box) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def to_bottom_edge(target: Locator) -> None:
    """Scrolls as a browser does to show a field being tabbed to: just enough, so it ends up at
    the bottom edge of the screen, where a floating panel would sit."""
    target.evaluate("e => e.scrollIntoView({ block: 'end' })")


def on_screen(page: Page, b: Box) -> bool:
    size = page.viewport_size
    assert size
    return b["y"] >= 0 and b["y"] + b["height"] <= size["height"] and b["x"] >= 0


def check_writing(player: Player) -> None:
    page = player.page
    guide = page.locator("aside.guide")
    expect(guide).to_be_visible()
    fields = [page.locator(f"#clue-{i}") for i in range(3)]
    code = page.locator("section.encryptor .secret-code .code")
    keywords = page.locator(".keywords")
    page.set_viewport_size(PHONE)
    for field in fields:
        to_bottom_edge(field)
        assert not overlap(box(guide), box(field)), "the guide covers a clue field on a phone"
    page.evaluate("window.scrollTo(0, 0)")
    page.set_viewport_size(PHONE_TYPING)
    for i, field in enumerate(fields):
        field.focus()
        to_bottom_edge(field)
        field.press_sequentially("ab")
        where = f"while typing clue {i + 1}: code {box(code)}, keywords {box(keywords)}"
        assert on_screen(page, box(code)), f"the secret code is off screen {where}"
        assert not overlap(box(code), box(keywords)), f"the keyword bar hides the code {where}"
        field.fill("")
    page.set_viewport_size(PHONE)
    player.shot(ARTIFACTS / "layout", "writing-phone", full_page=False)
    page.set_viewport_size(DESKTOP)
    page.evaluate("window.scrollTo(0, 0)")
    send = page.locator(".chat-team .chat-form button[type=submit]")
    for target in [*fields, send]:
        to_bottom_edge(target)
        assert not overlap(box(guide), box(target)), f"the guide covers {target} on a desktop"
    player.shot(ARTIFACTS / "layout", "writing-desktop", full_page=False)


def check_deciding(player: Player, team: str) -> None:
    page = player.page
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    player.pick("own", team, [1, 2, 3], timeout=5_000)
    lock = page.locator("section.board-own button.lock")
    expect(lock).to_be_enabled()
    # Scrolled only as far as a player must to tap the last digit: that row at the bottom edge.
    last_row = page.locator("section.board-own .pick-row").last
    to_bottom_edge(last_row)
    assert on_screen(page, box(lock)), "the Lock button is below the fold on a phone"
    # Scrolled to the board's end, the Lock button is back in its place, under the last row.
    to_bottom_edge(page.locator("section.board-own"))
    assert not overlap(box(lock), box(last_row)), "the Lock button hides the last clue's digits"
    player.shot(ARTIFACTS / "layout", "deciding-phone", full_page=False)


def test_nothing_covers_the_players_controls(browser: Browser, bot_server: ServerProcess) -> None:
    (ARTIFACTS / "layout").mkdir(parents=True, exist_ok=True)
    ann = Player.open(browser, "Ann", PHONE)
    page = ann.page
    checked: set[str] = set()
    used: set[str] = set()
    try:
        play_now(page, bot_server.url, "Ann")
        for _ in range(600):
            if checked == {"writing", "deciding"} or page.locator(".outcome").count():
                break
            if ann.is_encryptor() and page.locator("#clue-0").count():
                if "writing" not in checked and page.locator("aside.guide").count():
                    check_writing(ann)
                    checked.add("writing")
                page.set_viewport_size(PHONE)
                ann.transmit(fresh_clues(ann.keywords(), used))
            elif ann.can_lock("own"):
                if "deciding" not in checked:
                    check_deciding(ann, ann.team())
                    checked.add("deciding")
                ann.pick("own", ann.team(), [1, 2, 3], timeout=5_000)
                ann.lock("own")
                expect(page.locator("section.board-own button.lock")).to_have_count(0)
            elif ann.can_lock("enemy"):
                enemy = "black" if ann.team() == "white" else "white"
                ann.pick("enemy", enemy, [1, 2, 3], timeout=5_000)
                ann.lock("enemy")
                expect(page.locator("section.board-enemy button.lock")).to_have_count(0)
            else:
                page.wait_for_timeout(100)
        assert checked == {"writing", "deciding"}, checked
        assert ann.errors == [], ann.errors
    finally:
        ann.context.close()
