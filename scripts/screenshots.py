"""Takes the pictures in docs/screenshots/ anew from the game as it is now.

Starts `codebreakers serve` on a free port with a fresh SQLite file, then plays through the
browser client with Debian's Chromium (the browser tests' drivers, tests/e2e/): a Decrypto game
of four people on laptops and phones in four interface languages, light and dark, with a
spectator, played to a keyword-guessing tie-break and its end (then the home page of one of
them: the game among their games, their profile beside); a Mastermind match against the
computer; a manual-marking Mastermind row between two people; that Decrypto game's replay. Each
picture is one screen at 1x, named screen-device-language[-dark].png; the old pictures are
removed first.

Usage: .venv/bin/python scripts/screenshots.py   (takes a minute or two)
       .venv/bin/python scripts/screenshots.py replay   (the replay pictures alone, of a game
       played over sockets: the other pictures are kept)
       .venv/bin/python scripts/screenshots.py ratings   (a profile and the leaderboard alone,
       after five rated games played over sockets)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from e2e.server_process import ServerProcess  # noqa: E402
from e2e.socket_game import play_finished_game  # noqa: E402
from e2e.table_driver import (  # noqa: E402
    CHROMIUM_ARGS,
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    Player,
    misread_twice,
    start_game,
    wait_for,
)
from e2e.test_mastermind import create_room, shown_rows  # noqa: E402

from codebreakers.games.mastermind.solver import solver_for  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
# Name, device, interface language (and theme) of each person at the Decrypto table; seated
# alternately White, Black, White, Black. Only the phone player gets the first-game guide.
# The host's language is the keywords'. Round 1: Chris and Boris encrypt, Amélie and Minji decide.
PEOPLE = [("Chris", DESKTOP, "en"), ("Boris", DESKTOP, "ru-dark")]
PEOPLE += [("Amélie", DESKTOP, "fr"), ("Minji", PHONE, "ko-dark")]
WATCHER = ("Eve", DESKTOP, "en")


LANGS = {name: lang for name, _, lang in [*PEOPLE, WATCHER]}
LANGS |= {"Visitor": "en", "Ada": "en", "Ana": "en", "Béa": "fr-dark"}
LANGS |= {"Viewer": "en", "Jiwoo": "ko-dark"}


def label(player: Player) -> str:
    """device-language[-dark] of a player's browser."""
    device = "phone" if player.page.viewport_size == PHONE else "desktop"
    return f"{device}-{LANGS[player.name]}"


def shot(player: Player, screen: str, focus: str | None = None, scroll: str | None = None) -> None:
    """The screen as the player sees it (the viewport, at 1x): from the top, except that a phone
    is scrolled to show `focus`, and any device to show `scroll`."""
    page = player.page
    page.evaluate("window.scrollTo(0, 0)")
    focus = scroll or (focus if page.viewport_size == PHONE else None)
    if focus:
        block = "start" if scroll else "center"
        page.locator(focus).first.evaluate("(e, block) => e.scrollIntoView({ block })", block)
    page.wait_for_timeout(150)  # let a scroll-triggered repaint settle
    path = OUT / f"{screen}-{label(player)}.png"
    page.screenshot(path=str(path), animations="disabled", caret="hide")
    print(f"  {path.relative_to(ROOT)}")


def returning(player: Player) -> Player:
    """Someone who has played before: no first-game hints (only phone players keep them)."""
    if player.page.viewport_size != PHONE:
        player.context.add_init_script("localStorage.setItem('cb.guide.done', '1')")
        if player.page.url.startswith("http"):
            player.page.evaluate("localStorage.setItem('cb.guide.done', '1')")
    return player


def open_player(browser: Browser, name: str, viewport: dict[str, int]) -> Player:
    return returning(Player.open(browser, name, viewport, LANGS[name]))


def decrypto(browser: Browser, url: str, scratch: Path) -> str:
    """The Decrypto pictures; returns the game's id (for its replay)."""
    home = open_player(browser, "Visitor", DESKTOP)
    home.page.goto(url)
    expect(home.page.locator("form.create")).to_be_visible()
    shot(home, "home")
    home.page.click("button[aria-label='How to play']")
    expect(home.page.locator("dialog.rules section").first).to_be_visible()
    shot(home, "rules")
    home.context.close()

    players, teams, (eve,) = start_game(browser, url, PEOPLE, scratch, watchers=[WATCHER])
    for p in players:  # start_game's full-page pictures of the waiting room
        if p in (players[0], players[3]):
            (scratch / f"0-lobby-{p.name_slug}.png").rename(OUT / f"lobby-{label(p)}.png")
    everyone = [returning(p) for p in [*players, eve]]
    try:
        taken: set[str] = set()

        def on_phase(number: int, phase: str) -> None:
            if (number, phase) == (1, "writing"):
                boris = next(p for p in teams["black"] if p.is_encryptor())  # both are writing
                boris.page.fill("#clue-0", "nebula")
                shot(boris, "encryptor", "section.encryptor")
                boris.page.fill("#clue-0", "")
            elif (number, phase) == (1, "decoding") and "decoding" not in taken:
                taken.add("decoding")
                for p in players:
                    if p.can_lock("own"):
                        shot(p, "decoding", "section.board-own")
                        if p.page.viewport_size == PHONE:  # its top, with the first-game guide
                            shot(p, "table")
            elif (number, phase) == (2, "intercepting") and "intercepting" not in taken:
                taken.add("intercepting")
                p = wait_for(players, lambda p: p.can_lock("enemy"), "an interceptor")[0]
                shot(p, "interception", "section.board-enemy")

        for p in players:
            p.say("team", "1-3-4?" if p is players[0] else "ok")

        def reveal() -> None:
            host = players[0]
            expect(host.page.locator(".log .log-round .verdict").first).to_be_visible()
            shot(host, "reveal", scroll=".log")

        misread_twice(teams, intercept_in_round_2=True, on_phase=on_phase, after_round_1=reveal)
        for p in players:
            expect(p.page.locator(".tiebreak")).to_be_visible()
        guessers = [p for p in players if p.page.locator(".guess-form").count()]
        for p in guessers:
            enemy = "black" if p.team() == "white" else "white"
            words = teams[enemy][0].keywords()
            for i, word in enumerate([*words[:2], "nothing", words[3] + "s"]):
                p.page.fill(f"#guess-{i}", word)
        shot(guessers[0], "tiebreak", ".tiebreak")
        for p in guessers:
            p.page.click(".guess-form button[type=submit]")
        for team in ("white", "black"):
            teams[team][0].page.click(".tiebreak button.primary")
        expect(eve.page.locator(".outcome")).to_be_visible()
        shot(eve, "end-spectator", scroll="#end-title")
        chris = players[0]  # back on the home page: the game among his, his profile beside
        chris.page.goto(url)
        expect(chris.page.locator(".your-games a[href^='/g/']")).to_be_visible()
        shot(chris, "home-yours", scroll=".your-games")
        href = eve.page.locator("a.replay-link").get_attribute("href") or ""
        return href.split("/g/")[1].split("?")[0]
    finally:
        for p in everyone:
            p.context.close()


def mastermind(browser: Browser, url: str, scratch: Path) -> None:
    ada = open_player(browser, "Ada", DESKTOP)
    page = ada.page
    try:
        create_room(ada, url, scratch)
        page.click(".team-card-b .bot-add button")
        page.click(".host-panel .start")
        solver = solver_for(4, 6)
        for n in range(3):
            expect(page.locator(".mm-entry .mm-submit")).to_be_visible()
            for colour in solver.next_guess(shown_rows(page)):
                page.keyboard.press(str(colour + 1))
            if n < 2:
                expect(page.locator(".mm-entry .mm-submit")).to_be_enabled()
                page.keyboard.press("Enter")
                page.wait_for_function(
                    "n => document.querySelectorAll('.mm-board .mm-row:not(.mm-row-empty)"
                    ":not(.mm-row-next)').length === n",
                    arg=n + 1,
                )
        shot(ada, "mastermind-breaking")
    finally:
        ada.context.close()
    ana = open_player(browser, "Ana", DESKTOP)
    bea = open_player(browser, "Béa", PHONE)
    try:
        create_room(ana, url, scratch, manual=True)
        bea.join(ana.page.url)
        ana.page.click(".host-panel .start")
        expect(bea.page.locator(".mm-entry .mm-random")).to_be_visible()
        for key in "1234":
            bea.page.keyboard.press(key)
        bea.page.keyboard.press("Enter")
        expect(ana.page.locator(".mm-entry .mm-submit")).to_be_visible()
        for key in "1243":
            ana.page.keyboard.press(key)
        ana.page.click(".mm-entry .mm-submit")
        expect(bea.page.locator(".mm-mark")).to_be_visible()
        for _ in range(2):
            bea.page.click("button[aria-label^='Plus'][aria-label*='noires']")
        shot(bea, "mastermind-marking", ".mm-mark")
    finally:
        ana.context.close()
        bea.context.close()


def replay(browser: Browser, url: str, game_id: str) -> None:
    """A White player's view part-way through, and the end as a spectator on a phone."""
    viewer = open_player(browser, "Viewer", DESKTOP)
    page = viewer.page
    try:
        page.goto(f"{url}/g/{game_id}?as=spectator")
        expect(page.locator(".replay-position")).to_be_visible()
        seats = page.locator("#replay-as option").evaluate_all("os => os.map(o => o.value)")
        page.goto(f"{url}/g/{game_id}?as={seats[0]}&step=8")
        expect(page.locator(".replay-position")).to_contain_text("Step 8")
        shot(viewer, "replay")
    finally:
        viewer.context.close()
    phone = open_player(browser, "Jiwoo", PHONE)
    try:
        phone.page.goto(f"{url}/g/{game_id}?as=spectator")
        expect(phone.page.locator(".replay-position")).to_be_visible()
        phone.page.keyboard.press("End")
        expect(phone.page.locator(".outcome")).to_be_visible()
        shot(phone, "replay-end")
    finally:
        phone.context.close()


def ratings(browser: Browser, url: str) -> None:
    """Four browsers with profiles play five public (rated) games over sockets: one player's
    profile on a laptop, the leaderboard on a phone."""
    people = []
    for _ in range(4):
        answer = httpx.get(f"{url}/api/me")
        people.append((answer.json()["profile_id"], answer.cookies["cb_id"]))
    for _ in range(5):
        play_finished_game(url, identities=tuple(s for _, s in people), public=True)
    viewer = open_player(browser, "Viewer", DESKTOP)
    try:
        viewer.page.goto(f"{url}/u/{people[1][0]}")
        expect(viewer.page.locator(".rating-chart")).to_be_visible()
        shot(viewer, "profile")
    finally:
        viewer.context.close()
    phone = open_player(browser, "Jiwoo", PHONE)
    try:
        phone.page.goto(f"{url}/leaderboard")
        expect(phone.page.locator(".board-table tbody tr")).to_have_count(4)
        shot(phone, "leaderboard")
    finally:
        phone.context.close()


def main() -> None:
    only_replay = sys.argv[1:] == ["replay"]
    only_ratings = sys.argv[1:] == ["ratings"]
    OUT.mkdir(parents=True, exist_ok=True)
    if only_ratings:
        with tempfile.TemporaryDirectory() as tmp:
            server = ServerProcess(Path(tmp))
            server.start()
            try:
                with sync_playwright() as pw:
                    browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                    expect.set_options(timeout=TIMEOUT_MS)
                    ratings(browser, server.url)
                    browser.close()
            finally:
                server.stop()
        return
    for old in [] if only_replay else OUT.glob("*.png"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp))
        server.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                expect.set_options(timeout=TIMEOUT_MS)
                if only_replay:
                    game_id = play_finished_game(server.url).game_id
                else:
                    game_id = decrypto(browser, server.url, Path(tmp))
                    mastermind(browser, server.url, Path(tmp))
                replay(browser, server.url, game_id)
                if not only_replay:
                    ratings(browser, server.url)
                browser.close()
        finally:
            server.stop()
    print(f"{len(list(OUT.glob('*.png')))} pictures in {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
