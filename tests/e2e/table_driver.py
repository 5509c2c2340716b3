"""Drives the browser client like a player: every decision is made from what the page shows.

The encryptors read their code and keywords from their own screens; the test decides what the
deciders lock (right or wrong on purpose) only from what some player's screen showed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

TIMEOUT_MS = 30_000  # generous: the suite shares two cores with servers and browsers
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


@dataclass
class Player:
    """One browser context (one person's phone or laptop) with the frames its socket received."""

    name: str
    context: BrowserContext
    page: Page
    frames: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @classmethod
    def open(
        cls, browser: Browser, name: str, viewport: dict[str, int], lang: str = "en"
    ) -> Player:
        # A two-letter language is a light-theme browser; "ko-dark" is Korean with a dark theme.
        lang, _, scheme = lang.partition("-")
        context = browser.new_context(
            viewport=viewport, locale=lang, color_scheme="dark" if scheme == "dark" else "light"
        )
        context.add_init_script(f"localStorage.setItem('cb.lang', '{lang}')")
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.set_default_navigation_timeout(2 * TIMEOUT_MS)
        player = cls(name, context, page)
        page.on("websocket", lambda ws: ws.on("framereceived", player._frame))
        page.on("dialog", lambda d: (player.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: player.errors.append(str(e)))
        return player

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def shot(self, folder: Path, label: str, full_page: bool = True) -> None:
        path = folder / f"{label}-{self.name_slug}.png"
        if full_page:  # from the top, or the sticky keyword bar is drawn mid-page
            self.page.evaluate("window.scrollTo(0, 0)")
        self.page.screenshot(path=str(path), full_page=full_page)

    @property
    def name_slug(self) -> str:
        return re.sub(r"\W+", "-", self.name.lower()).strip("-")

    # --- room -------------------------------------------------------------------------------

    def join(self, url: str) -> None:
        self.page.goto(url)
        self.page.fill("#join-name", self.name)
        self.page.click(".join-form button[type=submit]")
        expect(self.page.locator(".tag.you")).to_be_visible()

    def quick_join(self, url: str) -> str:
        """Quick join from the home page; the code of the room it lands in."""
        self.page.goto(url)
        self.page.fill("#quick-name", self.name)
        self.page.click("button.quick-join")
        self.page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        expect(self.page.locator(".tag.you")).to_be_visible()
        return self.page.url.rsplit("/", 1)[1]

    def team(self) -> str:
        cls = self.page.locator(".table").get_attribute("class") or ""
        found = re.search(r"as-(white|black)", cls)
        assert found, cls
        return found.group(1)

    def keywords(self) -> list[str]:
        return self.page.locator(".keywords .keyword-list .word").all_text_contents()

    # --- round ------------------------------------------------------------------------------

    def is_encryptor(self) -> bool:
        return self.page.locator("section.encryptor").count() > 0

    def read_code(self) -> list[int]:
        digits = self.page.locator("section.encryptor .secret-code .digit").all_inner_texts()
        return [int(d) for d in digits]

    def transmit(self, clues: list[str]) -> None:
        for i, clue in enumerate(clues):
            self.page.fill(f"#clue-{i}", clue)
        self.page.click("section.encryptor form button[type=submit]")
        self.page.click("section.encryptor .confirm button.primary")
        expect(self.page.locator("section.encryptor")).to_have_count(0)

    def pick(self, board: str, team: str, code: list[int], timeout: float = 30_000) -> None:
        """Choose a code on the decoding (board 'own') or interception (board 'enemy') board of
        the transmission by `team`."""
        for slot, digit in enumerate(code):
            radio = f'input[name="{team}-{board}-{slot}"][value="{digit}"]'
            choice = self.page.locator(f"section.board-{board} label.digit-choice:has({radio})")
            choice.click(timeout=timeout)
        for slot, digit in enumerate(code):
            expect(
                self.page.locator(f'input[name="{team}-{board}-{slot}"][value="{digit}"]')
            ).to_be_checked()

    def can_lock(self, board: str) -> bool:
        return self.page.locator(f"section.board-{board} button.lock").count() > 0

    def lock(self, board: str) -> None:
        self.page.click(f"section.board-{board} button.lock")

    def say(self, channel: str, text: str) -> None:
        self.page.fill(f"#chat-{channel}-input", text)
        self.page.click(f".chat-{channel} .chat-form button[type=submit]")


def wait_for(
    players: list[Player], predicate: Any, what: str, timeout_ms: int = TIMEOUT_MS
) -> list[Player]:
    """Polls every page until `predicate` holds for at least one; returns those it holds for."""
    page = players[0].page
    for _ in range(timeout_ms // 100):
        found = [p for p in players if predicate(p)]
        if found:
            return found
        page.wait_for_timeout(100)
    raise AssertionError(f"no page showed {what}")


def strings_outside_enums(frame: str) -> list[str]:
    """Every string value in a JSON frame except protocol enums (message types, phases...)."""
    enum_keys = {"type", "game", "phase", "status", "channel", "team", "kind", "task", "role"}
    enum_keys |= {"order", "words", "level", "reason", "cause", "target", "winner"}
    out: list[str] = []

    def walk(node: Any, key: str | None) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str) and key not in enum_keys:
            out.append(node)

    walk(json.loads(frame), None)
    return out


def before_game_over(frames: list[str]) -> list[str]:
    """The frames received before the first view of the finished game (then all is public)."""
    over = re.compile(r'"phase":\s*"over"')
    for i, frame in enumerate(frames):
        if over.search(frame):
            return frames[:i]
    return frames


def start_game(
    browser: Browser,
    server_url: str,
    people: list[tuple[str, dict[str, int], str]],
    folder: Path | None = None,
    watchers: Sequence[tuple[str, dict[str, int], str]] = (),
    checked_options: Sequence[str] = (),
) -> tuple[list[Player], dict[str, list[Player]], list[Player]]:
    """The first person creates a room from the home page (ticking the `checked_options` boxes
    of its form, by element id), everyone joins by its link (seated alternately White, Black,
    White...), watchers step out to the spectators, the host starts.
    Returns the seated players, the same by team, and the spectators."""
    players = [Player.open(browser, name, viewport, lang) for name, viewport, lang in people]
    spectators = [Player.open(browser, name, viewport, lang) for name, viewport, lang in watchers]
    host = players[0]
    host.page.goto(server_url)
    for box in checked_options:
        host.page.check(f"#{box}")
    host.page.click("form.create button[type=submit]")
    host.page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
    host.page.fill("#join-name", host.name)
    host.page.click(".join-form button[type=submit]")
    link = host.page.input_value("#share-link")
    code = link.rsplit("/", 1)[1]
    for p in players[1:] + spectators:
        p.join(f"{server_url}/r/{code}")
    for p in spectators:
        p.page.click("button.watch-instead")
    expect(host.page.locator(".slots-list .player-name")).to_have_count(len(players))
    expect(host.page.locator(".spectator-list .player-name")).to_have_count(len(spectators))
    if folder is not None:
        for p in players + spectators:
            p.shot(folder, "0-lobby")
    host.page.click("button.start")
    teams: dict[str, list[Player]] = {"white": [], "black": []}
    for p in players + spectators:
        expect(p.page.locator(".table")).to_be_visible()
    for p in players:
        teams[p.team()].append(p)
    return players, teams, spectators


def play_now(page: Page, server_url: str, name: str) -> None:
    """Takes the home page's Play now path: one name, one click, a table against bots."""
    page.goto(server_url)
    page.fill("#quick-name", name)
    page.click("button.play-now")
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
    expect(page.locator(".table")).to_be_visible()


def pick_with_keyboard(player: Player, board: str, team: str, code: list[int]) -> None:
    """Choose a code with the keyboard only: Tab into each clue's radio group, arrows to move."""
    page = player.page
    for slot, digit in enumerate(code):
        page.focus(f'input[name="{team}-{board}-{slot}"][value="1"]')
        if digit == 1:
            page.keyboard.press("Space")
        for _ in range(digit - 1):
            page.keyboard.press("ArrowRight")
    for slot, digit in enumerate(code):
        expect(
            page.locator(f'input[name="{team}-{board}-{slot}"][value="{digit}"]')
        ).to_be_checked()


# In no keyword pool: a clue from this list can never be mistaken for a leaked keyword.
CLUE_WORDS = [
    "nebula",
    "harbor",
    "velvet",
    "drizzle",
    "lantern",
    "parsley",
    "saffron",
    "whisper",
    "oboe",
    "saddle",
    "orchid",
    "cello",
    "ember",
    "quartz",
    "falcon",
    "canyon",
    "marble",
    "cinder",
    "walrus",
    "tundra",
    "heron",
    "beacon",
    "walnut",
    "mortar",
    "sextant",
    "raven",
    "trellis",
    "fjord",
]


def fresh_clues(keywords: list[str], used: set[str], first: str | None = None) -> list[str]:
    """Three clues never used in this game that share no stem with the encryptor's keywords
    (optionally `first` as the first one)."""
    kws = [k.casefold() for k in keywords]
    out = [first] if first else []
    for word in CLUE_WORDS:
        if word in used or any(k[:4] == word[:4] for k in kws):
            continue
        out.append(word)
        used.add(word)
        if len(out) == 3:
            return out
    raise AssertionError("out of clue words")


def wrong(code: list[int]) -> list[int]:
    return code[1:] + code[:1]


def play_round(
    number: int,
    teams: dict[str, list[Player]],
    clues: Callable[[str, Player, int], list[str]],
    decode_right: dict[str, bool],
    intercept_right: dict[str, bool],
    on_phase: Callable[[int, str], None] = lambda number, phase: None,
) -> dict[str, list[int]]:
    """One round through the pages: each encryptor reads its code on screen and transmits; each
    decider locks its team's decode (right or wrong as asked), then from round 2 the enemy
    interception, right only when asked and using the code the enemy's encryptor was shown."""
    codes: dict[str, list[int]] = {}
    encryptors: dict[str, Player] = {}
    for team, members in teams.items():
        enc = wait_for(members, Player.is_encryptor, f"the {team} encryptor's panel")[0]
        encryptors[team] = enc
        codes[team] = enc.read_code()
        assert len(set(codes[team])) == 3
    on_phase(number, "writing")
    for team, enc in encryptors.items():
        enc.transmit(clues(team, enc, number))
    for team, members in teams.items():
        enemy = "black" if team == "white" else "white"
        decider = wait_for(members, lambda p: p.can_lock("own"), f"the {team} decider")[0]
        decider.pick("own", team, codes[team] if decode_right[team] else wrong(codes[team]))
        on_phase(number, "decoding")
        decider.lock("own")
        expect(decider.page.locator("section.board-own button.lock")).to_have_count(0)
        if number >= 2:
            intercepter = wait_for(members, lambda p: p.can_lock("enemy"), f"{team} interception")[
                0
            ]
            guess = codes[enemy] if intercept_right[team] else wrong(codes[enemy])
            intercepter.pick("enemy", enemy, guess)
            on_phase(number, "intercepting")
            intercepter.lock("enemy")
    return codes


def misread_twice(
    teams: dict[str, list[Player]],
    intercept_in_round_2: bool = False,
    on_phase: Callable[[int, str], None] = lambda number, phase: None,
    after_round_1: Callable[[], None] = lambda: None,
) -> None:
    """Rounds 1 and 2 with fresh clues where both teams misread their own clues twice, so the
    game ends level and goes to the tie-break; `intercept_in_round_2` makes both interceptions
    of round 2 right (still level)."""
    used: set[str] = set()
    for number in (1, 2):
        play_round(
            number,
            teams,
            clues=lambda team, enc, n: fresh_clues(enc.keywords(), used),
            decode_right={"white": False, "black": False},
            intercept_right={team: intercept_in_round_2 and number == 2 for team in teams},
            on_phase=on_phase,
        )
        if number == 1:
            after_round_1()


def measure_first_load(browser: Browser, url: str) -> dict[str, Any]:
    """Bytes a fresh browser (empty cache) transfers to show the table at `url`: every HTTP
    response as it crossed the network (compressed, headers included), per file, plus the
    WebSocket frames received until the table is drawn."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    urls: dict[str, str] = {}
    sizes: dict[str, int] = {}
    ws_bytes: list[int] = []
    cdp.on(
        "Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"])
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])),
    )
    cdp.on(
        "Network.webSocketFrameReceived",
        lambda e: ws_bytes.append(len(e["response"]["payloadData"].encode())),
    )
    try:
        page.goto(url)
        expect(page.locator(".table")).to_be_visible()
        page.wait_for_load_state("networkidle")
        # Files named without the build's path segment (server/http/static.py): "static/app.js".
        files = {
            re.sub(r"^static/[0-9a-f]{12}/", "static/", urls[r].split("/", 3)[3]): n
            for r, n in sizes.items()
            if r in urls
        }
        return {"http_bytes": sum(files.values()), "files": files, "ws_bytes": sum(ws_bytes)}
    finally:
        context.close()
