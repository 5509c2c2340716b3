"""axe-core on every main screen, and the buttons' names, through real games in the browser.

Each screen is visited once and checked in the four combinations of a phone or desktop viewport
and a light or dark theme (resizing the page and switching the system colour scheme, which the
"auto" theme follows): axe-core (tests/e2e/vendor, scripts/vendor-test.sh) must report no
violation of impact moderate or above. On every screen (the waiting room and the tables among
them), each button's accessible name (as Chromium computes it) must be non-empty, and neither it
nor the button's visible text may hold an emoji (Extended_Pictographic): icons are SVG from the
vendored sprite, which render without an emoji font.

One Decrypto game of four covers home, how-to-play, waiting room, encryptor and its final
confirmation, decoding, interception, reveal, tie-break and end; a Mastermind match against the
computer covers the breaker, the maker, the match's end and its replay, a manual-marking room
the marking; a game played over sockets covers the Decrypto replay screens.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.socket_game import play_finished_game, start_socket_game
from e2e.table_driver import DESKTOP, PHONE, Player, misread_twice, start_game, wait_for
from e2e.test_mastermind import create_room, shown_rows

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
SCREENS = ["home", "how-to-play", "waiting room", "encryptor", "encryptor review", "decoding"]
SCREENS += ["reveal"]
SCREENS += ["interception", "tie-break", "end"]
COMBOS = [(PHONE, "light"), (PHONE, "dark"), (DESKTOP, "light"), (DESKTOP, "dark")]
FAILING_IMPACTS = {"moderate", "serious", "critical"}
CONTROLS = {"button", "textbox", "combobox", "checkbox", "radio", "spinbutton"}
PICTOGRAPHIC = re.compile(
    # Extended_Pictographic, by its blocks: what needs an emoji font to be drawn.
    "[\u00a9\u00ae\u203c\u2049\u2122\u2139\u2194-\u2199\u21a9\u21aa\u231a\u231b\u2328\u2388"
    "\u23cf\u23e9-\u23f3\u23f8-\u23fa\u24c2\u25aa\u25ab\u25b6\u25c0\u25fb-\u25fe\u2600-\u2605"
    "\u2607-\u2612\u2614-\u2685\u2690-\u2705\u2708-\u2712\u2714\u2716\u271d\u2721\u2728\u2733"
    "\u2734\u2744\u2747\u274c\u274e\u2753-\u2755\u2757\u2763-\u2767\u2795-\u2797\u27a1\u27b0"
    "\u27bf\u2934\u2935\u2b05-\u2b07\u2b1b\u2b1c\u2b50\u2b55\u3030\u303d\u3297\u3299"
    "\U0001f000-\U0001faff\U0001fc00-\U0001fffd]"
)


# The emoji with no text form in common fonts (DejaVu draws ⚪, ⚠, ▶; nothing draws 🔑).
EMOJI_ONLY = re.compile("[\U0001f000-\U0001faff]")


def axe_violations(page: Page) -> list[str]:
    """axe-core's violations of impact moderate or above on the page as it is now. axe is put in
    by the DevTools protocol (page.evaluate), which the page's CSP does not apply to."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE)
    results = page.evaluate("axe.run(document, { resultTypes: ['violations'] })")
    out = []
    for v in results["violations"]:
        if v["impact"] in FAILING_IMPACTS:
            targets = [" ".join(map(str, n["target"])) for n in v["nodes"]][:4]
            out.append(f"{v['id']} ({v['impact']}): {targets}")
    return out


def bad_buttons(page: Page) -> list[str]:
    """Buttons whose accessible name is empty or holds an emoji, or whose text holds one, and
    controls whose name shows an object where a text was meant."""
    cdp = page.context.new_cdp_session(page)
    try:
        tree = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    named = [
        (n["role"]["value"], str(n.get("name", {}).get("value", "")))
        for n in tree
        if not n.get("ignored") and n.get("role", {}).get("value") in CONTROLS
    ]
    names = [name for role, name in named if role == "button"]
    texts = page.locator("button:visible").all_inner_texts()
    assert names, "no button on the page"
    out = [f"name {n!r}" for n in names if not n.strip() or PICTOGRAPHIC.search(n)]
    # A name built from an element instead of a text ("Message to [object Object]").
    out += [f"{role} name {n!r}" for role, n in named if "[object" in n]
    return out + [f"text {t!r}" for t in texts if PICTOGRAPHIC.search(t)]


class Audit:
    """What the screens reported, gathered so one run lists every problem at once."""

    def __init__(self) -> None:
        self.problems: dict[str, list[str]] = {}
        self.screens: list[str] = []

    def screen(self, player: Player, name: str) -> None:
        page = player.page
        self.screens.append(name)
        found = bad_buttons(page)
        size = page.viewport_size
        for viewport, scheme in COMBOS:
            page.set_viewport_size(viewport)
            page.emulate_media(color_scheme=scheme)
            page.wait_for_function("s => document.documentElement.dataset.theme === s", arg=scheme)
            wide = "phone" if viewport is PHONE else "desktop"
            found += [f"[{wide}, {scheme}] {v}" for v in axe_violations(page)]
        page.emulate_media(color_scheme="light")
        if size:
            page.set_viewport_size(size)
        if found:
            self.problems[name] = sorted(set(found))

    def check(self, expected: list[str]) -> None:
        assert self.screens == expected
        report = "\n".join(f"{s}:\n  " + "\n  ".join(p) for s, p in self.problems.items())
        assert not self.problems, f"accessibility problems:\n{report}"


def test_every_decrypto_screen(browser: Browser, server_url: str) -> None:
    audit = Audit()
    people = [("Ann", DESKTOP, "en"), ("Ben", DESKTOP, "en"), ("Cat", DESKTOP, "en")]
    people += [("Dan", DESKTOP, "en")]
    visitor = Player.open(browser, "Vic", DESKTOP)
    players: list[Player] = [visitor]
    try:
        visitor.page.goto(server_url)
        audit.screen(visitor, "home")
        visitor.page.click("button[aria-label='How to play']")
        dialog = visitor.page.locator("dialog.rules")
        expect(dialog.locator("section").first).to_be_visible()
        # The rules' role marks are the table's SVG icons, not emoji that need an emoji font.
        expect(dialog.locator("svg.icon-key-round").first).to_be_visible()
        assert not EMOJI_ONLY.search(dialog.inner_text())
        audit.screen(visitor, "how-to-play")
        visitor.context.close()

        seen: set[str] = set()
        team_of: dict[str, list[Player]] = {}

        def on_phase(number: int, phase: str) -> None:
            everyone = [p for members in team_of.values() for p in members]
            if phase == "writing" and "encryptor" not in seen:
                seen.add("encryptor")
                encryptor = wait_for(everyone, Player.is_encryptor, "an encryptor")[0]
                audit.screen(encryptor, "encryptor")
                page = encryptor.page  # the final confirmation, then back to the fields
                for i, clue in enumerate(["zeppelin", "quasar", "ginkgo"]):
                    page.fill(f"#clue-{i}", clue)
                page.click("section.encryptor form button[type=submit]")
                expect(page.locator("section.encryptor .confirm")).to_be_visible()
                audit.screen(encryptor, "encryptor review")
                page.click("section.encryptor .confirm button:not(.primary)")
            elif phase == "decoding" and "decoding" not in seen:
                seen.add("decoding")
                audit.screen(wait_for(everyone, lambda p: p.can_lock("own"), "a decider")[0], phase)
            elif phase == "intercepting" and "interception" not in seen:
                seen.add("interception")
                interceptor = wait_for(everyone, lambda p: p.can_lock("enemy"), "an interceptor")
                audit.screen(interceptor[0], "interception")

        players, teams, _ = start_game(browser, server_url, people)
        team_of.update(teams)
        # The keywords carry their pool's language, for a screen reader's pronunciation.
        expect(players[0].page.locator(".keywords .word").first).to_have_attribute("lang", "en")
        # The host's waiting room was left behind by the start: a second room shows one again.
        lobby_host = Player.open(browser, "Host", DESKTOP)
        guest = Player.open(browser, "Guest", DESKTOP)
        players += [lobby_host, guest]
        lobby_host.page.goto(server_url)
        lobby_host.page.click("form.create button[type=submit]")
        lobby_host.page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        joined = lobby_host.page.locator(".tag.you")
        expect(lobby_host.page.locator("#join-name").or_(joined)).to_be_visible()
        if not joined.count():  # a creator not seated by the room's creation joins by name
            lobby_host.page.fill("#join-name", lobby_host.name)
            lobby_host.page.click(".join-form button[type=submit]")
        guest.join(lobby_host.page.url)
        lobby_host.page.click(".team-card-black .bot-add button")
        expect(lobby_host.page.locator(".slots-list .player-name")).to_have_count(3)
        audit.screen(lobby_host, "waiting room")

        def reveal() -> None:
            host = teams["white"][0]
            expect(host.page.locator(".log .log-round .verdict").first).to_be_visible()
            audit.screen(host, "reveal")

        misread_twice(teams, on_phase=on_phase, after_round_1=reveal)
        decider = wait_for(players[:4], lambda p: p.page.locator(".guess-form").count() > 0, "tb")
        audit.screen(decider[0], "tie-break")
        for p in players[:4]:
            if p.page.locator(".guess-form").count():
                for i in range(4):
                    p.page.fill(f"#guess-{i}", f"word{i}")
                p.page.click(".guess-form button[type=submit]")
        for team in ("white", "black"):
            page = teams[team][0].page
            page.click(".tiebreak button.primary")
        expect(players[0].page.locator(".outcome")).to_be_visible()
        audit.screen(players[0], "end")
    finally:
        for p in players:
            p.context.close()
    audit.check(SCREENS)


def test_mastermind_breaker_and_maker(browser: Browser, server_url: str) -> None:
    from codebreakers.games.mastermind.solver import solver_for

    audit = Audit()
    ada = Player.open(browser, "Ada", DESKTOP)
    page = ada.page
    folder = Path(__file__).resolve().parents[2] / "test-artifacts" / "a11y"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        create_room(ada, server_url, folder)
        page.click(".team-card-b .bot-add button")
        expect(page.locator(".team-card-b .tag")).to_contain_text("bot")
        page.click(".host-panel .start")
        expect(page.locator(".mm-entry .mm-submit")).to_be_visible()
        solver = solver_for(4, 6)
        for n in range(1, 11):
            if n == 2:
                audit.screen(ada, "mastermind breaker")
            for colour in solver.next_guess(shown_rows(page)):
                page.keyboard.press(str(colour + 1))
            expect(page.locator(".mm-entry .mm-submit")).to_be_enabled()
            page.keyboard.press("Enter")
            played = page.locator(".mm-board .mm-row:not(.mm-row-empty):not(.mm-row-next)")
            expect(page.locator(".mm-history .mm-attempt").or_(played.nth(n - 1))).to_be_visible()
            if page.locator(".mm-history .mm-attempt").count():
                break
        expect(page.locator("#mm-entry-title")).to_contain_text("secret code")
        audit.screen(ada, "mastermind maker")
        page.click(".mm-entry .mm-random")
        expect(page.locator(".mm-outcome")).to_be_visible(timeout=60_000)
        audit.screen(ada, "mastermind end")
        page.click("a.replay-link")
        expect(page.locator(".replay-position")).to_be_visible()
        expect(page.locator("fieldset.replay-table .mm-table")).to_be_visible()
        page.keyboard.press("ArrowRight")
        expect(page.locator(".replay-position strong")).to_contain_text("Step 2 of")
        # The replay's entry is read-only: a digit key fills no hole.
        page.keyboard.press("1")
        first = page.locator(".replay-table .mm-entry .mm-slots button").first
        expect(first).to_have_attribute("aria-label", "Hole 1: empty")
        ada.shot(folder, "mastermind-replay")
        audit.screen(ada, "mastermind replay")
    finally:
        ada.context.close()
    marking(browser, server_url, audit, folder)
    screens = ["mastermind breaker", "mastermind maker", "mastermind end", "mastermind replay"]
    audit.check([*screens, "mastermind marking"])


def test_replay_screens(browser: Browser, server_url: str) -> None:
    audit = Audit()
    game = play_finished_game(server_url)
    code, tabs = start_socket_game(server_url, ("Ann", "Bob", "Cid", "Dee"))
    viewer = Player.open(browser, "Viewer", DESKTOP)
    page = viewer.page
    try:
        page.goto(f"{server_url}/g/{game.game_id}?as={game.seats['Ann']}&step=3")
        expect(page.locator(".replay-position strong")).to_contain_text("Step 3 of")
        audit.screen(viewer, "replay")
        page.keyboard.press("End")
        expect(page.locator(".outcome")).to_be_visible()
        audit.screen(viewer, "replay end")
        page.goto(f"{server_url}/replay")
        expect(page.locator("#replay-file-input")).to_be_attached()
        audit.screen(viewer, "replay file")
        running = httpx.get(f"{server_url}/api/rooms/{code}").json()["game_id"]
        page.goto(f"{server_url}/g/{running}")
        expect(page.locator("[role=alert] h1")).to_be_visible()
        audit.screen(viewer, "replay refused")
    finally:
        viewer.context.close()
        for tab in tabs:
            tab.ws.close()
    audit.check(["replay", "replay end", "replay file", "replay refused"])


def test_leaderboard_and_profile_screens(browser: Browser, server_url: str) -> None:
    """Four browsers with profiles play five public (rated) games over sockets: a profile with
    its rating chart and last games, and a leaderboard with them on it."""
    audit = Audit()
    people = []
    for _ in range(4):
        answer = httpx.get(f"{server_url}/api/me")
        people.append((answer.json()["profile_id"], answer.cookies["cb_id"]))
    for _ in range(5):
        play_finished_game(server_url, identities=tuple(s for _, s in people), public=True)
    viewer = Player.open(browser, "Viewer", DESKTOP)
    page = viewer.page
    try:
        page.goto(f"{server_url}/u/{people[0][0]}")
        expect(page.locator(".rating-chart")).to_be_visible()
        expect(page.locator(".profile .room-list li")).to_have_count(5)
        audit.screen(viewer, "profile")
        page.goto(f"{server_url}/leaderboard?game=decrypto&page=1")
        expect(page.locator(".board-table tbody tr")).to_have_count(4)
        audit.screen(viewer, "leaderboard")
    finally:
        viewer.context.close()
    audit.check(["profile", "leaderboard"])


def marking(browser: Browser, server_url: str, audit: Audit, folder: Path) -> None:
    """Manual marking: Bea makes the code, Ada guesses a row, Bea's marking panel."""
    ada = Player.open(browser, "Ada", DESKTOP)
    bea = Player.open(browser, "Bea", DESKTOP)
    try:
        create_room(ada, server_url, folder, manual=True)
        bea.join(ada.page.url)
        ada.page.click(".host-panel .start")
        expect(bea.page.locator(".mm-entry .mm-random")).to_be_visible()
        bea.page.click(".mm-entry .mm-random")
        expect(ada.page.locator(".mm-entry .mm-submit")).to_be_visible()
        for key in "1243":
            ada.page.keyboard.press(key)
        ada.page.click(".mm-entry .mm-submit")
        expect(bea.page.locator(".mm-mark")).to_be_visible()
        audit.screen(bea, "mastermind marking")
    finally:
        ada.context.close()
        bea.context.close()
