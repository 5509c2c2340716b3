"""Replays in the browser: a finished game stepped through at /g/{id} with the buttons and the
arrow keys, as a player of either team and as a spectator, the secrets checked on the page at
each step; the address carries the step and viewpoint (a reload and a shared link open the same
moment); reached from the end screen; a record file chosen or dropped on /replay; a running
game refused with a translated message."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.socket_game import FinishedGame, play_finished_game, start_socket_game
from e2e.table_driver import ARTIFACTS, DESKTOP, PHONE, Player

pytestmark = pytest.mark.browser
FOLDER = ARTIFACTS / "replay"


def position(page: Page) -> tuple[int, int]:
    """(step, steps) from the aria-live position line."""
    text = page.locator(".replay-position strong").inner_text()
    numbers = [int(w) for w in text.split() if w.isdigit()]
    return numbers[0], numbers[1]


def step_to(page: Page, step: int) -> None:
    expect(page.locator(".replay-position strong")).to_contain_text(f"Step {step} of")


def table_html(page: Page) -> str:
    return page.locator("fieldset.replay-table").inner_html()


def test_stepping_through_a_game_as_each_viewpoint(browser: Browser, server_url: str) -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    game = play_finished_game(server_url)
    ann = game.seats["Ann"]
    black_words = game.keywords["black"]
    viewer = Player.open(browser, "Viewer", DESKTOP)
    page = viewer.page
    try:
        page.goto(f"{server_url}/g/{game.game_id}?as={ann}")
        expect(page.locator("#replay-title")).to_contain_text("Decrypto")
        expect(page.locator("#replay-as")).to_have_value(ann)
        step, steps = position(page)
        assert step == 1 and steps > 5
        expect(page.locator(".keywords")).to_contain_text(
            game.keywords["white"][0], ignore_case=True
        )
        # Next with the button, then the arrow keys; the focus stays on the button throughout.
        page.click("#replay-next")
        step_to(page, 2)
        expect(page.locator("#replay-next")).to_be_focused()
        page.keyboard.press("ArrowRight")
        step_to(page, 3)
        page.keyboard.press("ArrowLeft")
        step_to(page, 2)
        assert page.url.endswith(f"/g/{game.game_id}?as={ann}&step=2")
        # Chat as it stood: all chat only (team chat stays with its team), up to the step.
        page.keyboard.press("Home")
        step_to(page, 1)
        expect(page.locator(".chat-all")).not_to_contain_text("nice clues")
        page.keyboard.press("ArrowRight")
        step_to(page, 2)
        expect(page.locator(".chat-all")).to_contain_text("nice clues")
        expect(page.locator(".chat-all")).not_to_contain_text("gg")
        viewer.shot(FOLDER, "step-2-white")
        # Every step but the last: nothing of Black's keywords on Ann's page.
        for n in range(1, steps):
            page.keyboard.press("ArrowRight" if n > 1 else "Home")
            step_to(page, n)
            html = table_html(page).lower()
            assert not any(w.lower() in html for w in black_words), n
            assert all(w.lower() in html for w in game.keywords["white"]), n
        # The last step shows the end: every keyword, the winner.
        page.keyboard.press("End")
        step_to(page, steps)
        expect(page.locator("#replay-next")).to_have_attribute("aria-disabled", "true")
        page.keyboard.press("ArrowRight")  # nothing past the end
        step_to(page, steps)
        html = table_html(page).lower()
        assert all(w.lower() in html for w in black_words)
        expect(page.locator(".outcome")).to_be_visible()
        expect(page.locator(".chat-all")).to_contain_text("gg")  # said after the end
        assert "our plan" not in page.content()
        viewer.shot(FOLDER, "end-white")

        # A reload (or the shared link) opens the same moment from the same seat.
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        step_to(page, 3)
        link = page.locator("#replay-link").input_value()
        assert link == f"{server_url}/g/{game.game_id}?as={ann}&step=3"
        page.reload()
        step_to(page, 3)
        expect(page.locator("#replay-as")).to_have_value(ann)

        # Another seat at the same moment: Bob (Black) sees his keywords and none of White's.
        moves = page.locator(".replay-position .muted").inner_text().split()[1]
        page.select_option("#replay-as", game.seats["Bob"])
        expect(page).to_have_url(f"{server_url}/g/{game.game_id}?as={game.seats['Bob']}&step=3")
        assert page.locator(".replay-position .muted").inner_text().split()[1] == moves
        html = table_html(page).lower()
        assert all(w.lower() in html for w in black_words)
        assert not any(w.lower() in html for w in game.keywords["white"])

        # A spectator sees nobody's keywords before the end.
        page.goto(f"{server_url}/g/{game.game_id}?as=spectator")
        step, steps = position(page)
        for n in range(1, steps):
            if n > 1:
                page.keyboard.press("ArrowRight")
            step_to(page, n)
            html = table_html(page).lower()
            for words in game.keywords.values():
                assert not any(w.lower() in html for w in words), n
        assert viewer.errors == []
    finally:
        viewer.context.close()


def test_autoplay_runs_to_the_end_and_stops(browser: Browser, server_url: str) -> None:
    game = play_finished_game(server_url)
    viewer = Player.open(browser, "Viewer", PHONE, "fr-dark")
    page = viewer.page
    try:
        page.goto(f"{server_url}/g/{game.game_id}?as=all")
        _, steps = position(page)
        page.goto(f"{server_url}/g/{game.game_id}?as=all&step={steps - 2}")
        play = page.locator(".replay-play")
        play.click()
        expect(play).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".replay-position strong")).to_contain_text(f"{steps} sur {steps}")
        expect(play).to_have_attribute("aria-pressed", "false")
        expect(play).to_have_attribute("aria-disabled", "true")
        viewer.shot(FOLDER, "end-all-phone-fr-dark")
        assert viewer.errors == []
    finally:
        viewer.context.close()


def test_from_the_end_screen_to_the_replay(browser: Browser, server_url: str) -> None:
    game = play_finished_game(server_url)
    visitor = Player.open(browser, "Visitor", DESKTOP)
    page = visitor.page
    try:
        page.goto(f"{server_url}/r/{game.code}")
        link = page.locator("a.replay-link")
        expect(link).to_be_visible()
        link.click()
        expect(page).to_have_url(f"{server_url}/g/{game.game_id}?as=spectator")
        expect(page.locator("#replay-as")).to_have_value("spectator")
        page.go_back()
        expect(page.locator("a.replay-link")).to_be_visible()
    finally:
        visitor.context.close()


def test_a_running_game_is_refused(browser: Browser, server_url: str) -> None:
    code, tabs = start_socket_game(server_url, ("Ann", "Bob", "Cid", "Dee"))
    for tab in tabs:
        tab.wait_version(0)
    game_id = httpx.get(f"{server_url}/api/rooms/{code}").json()["game_id"]
    visitor = Player.open(browser, "Visitor", DESKTOP, "ru")
    try:
        visitor.page.goto(f"{server_url}/g/{game_id}?as={tabs[0].you}")
        expect(visitor.page.locator("[role=alert] h1")).to_have_text("Партия ещё не закончена.")
        words = [
            w
            for tab in tabs
            if tab.view
            for w in tab.view["teams"][tab.view["you"]["team"]]["keywords"]
        ]
        page = visitor.page.locator("main").inner_html().lower()
        assert len(set(words)) == 8 and not any(w.lower() in page for w in words)
    finally:
        visitor.context.close()
        for tab in tabs:
            tab.ws.close()


def record_file(server_url: str, game: FinishedGame, folder: Path) -> Path:
    path = folder / f"{game.game_id}.json"
    path.write_text(httpx.get(f"{server_url}/api/games/{game.game_id}/record").text)
    return path


def drop_file(page: Page, name: str, text: str) -> None:
    """Drops a file on the replay screen, as a file dragged from the desktop would be."""
    page.evaluate(
        """([name, text]) => {
          const dt = new DataTransfer();
          dt.items.add(new File([text], name, { type: "application/json" }));
          const target = document.querySelector(".replay");
          const how = { dataTransfer: dt, bubbles: true, cancelable: true };
          target.dispatchEvent(new DragEvent("dragover", how));
          target.dispatchEvent(new DragEvent("drop", how));
        }""",
        [name, text],
    )


def test_a_record_file_chosen_or_dropped(browser: Browser, server_url: str, tmp_path: Path) -> None:
    game = play_finished_game(server_url)
    path = record_file(server_url, game, tmp_path)
    stored = httpx.get(f"{server_url}/api/games/{game.game_id}/replay?as=spectator").json()
    visitor = Player.open(browser, "Visitor", DESKTOP, "ko")
    page = visitor.page
    try:
        page.goto(server_url)
        page.click(".replay-from-file a")
        expect(page).to_have_url(f"{server_url}/replay")
        # Chosen with the file input (reachable by keyboard: a labelled input).
        page.set_input_files("#replay-file-input", str(path))
        expect(page.locator(".replay-position strong")).to_contain_text(
            f"{len(stored['steps'])}단계 중 1단계"
        )
        expect(page.locator("#replay-link")).to_have_count(0)  # nothing to share but the file
        page.keyboard.press("End")
        expect(page.locator(".outcome")).to_be_visible()
        # A file that is no record: a translated refusal, and the picker to try again.
        drop_file(page, "notes.json", json.dumps({"format": "something"}))
        expect(page.locator("[role=alert] h1")).to_have_text(
            "다시 볼 수 있는 게임 기록 파일이 아닙니다."
        )
        # Dropped: the good file again, as another viewpoint.
        drop_file(page, path.name, path.read_text())
        expect(page.locator(".replay-position strong")).to_be_visible()
        page.select_option("#replay-as", game.seats["Ann"])
        expect(page).to_have_url(f"{server_url}/replay?as={game.seats['Ann']}&step=1")
        expect(page.locator(".keywords")).to_contain_text(
            game.keywords["white"][0], ignore_case=True
        )
        assert visitor.errors == []
    finally:
        visitor.context.close()
