"""Four people play a whole Decrypto game through the browser client, on three laptops and a phone.

A spectator watches. The game is played once; the checks below then look at what it recorded:
that it reached its end through the UI, that no page ever held the enemy's keywords before the
end (nor a spectator's any keyword), that everything players typed was shown as text, never as
HTML, and what a fresh phone downloads to show the table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    Player,
    before_game_over,
    fresh_clues,
    measure_first_load,
    play_round,
    start_game,
    strings_outside_enums,
    wait_for,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]  # 40 s when the machine is quiet

WEB = Path(__file__).resolve().parents[2] / "src" / "codebreakers" / "web"
NAMES = ["Ann <b>bold</b>", "Bo <img src=x onerror=alert(1)>", "Cy & <i>co</i>", "Dee"]
WATCHER = "Eve <u>watching</u>"
TEAM_CHAT = "<script>alert('team')</script>1-3-4?"
ALL_CHAT = "<b>good luck</b> <img src=x onerror=alert(2)>"
HTML_CLUE = "<em>glow</em>"


@dataclass
class Played:
    players: list[Player]
    spectator: Player
    teams: dict[str, list[Player]]
    keywords: dict[str, list[str]]
    html_before_end: dict[str, list[str]]  # player name -> page HTML at each phase before the end
    rounds: int
    first_load: dict[str, Any]


def ui_words() -> set[str]:
    """Words the interface itself writes (source, styles, catalogs) and the ones this test has
    its players type (names, chat lines: "good luck" names the keyword "luck"): a keyword that
    is one of them can't be told apart on a page, so it is checked in the socket frames only."""
    words = set(re.findall(r"\w+", " ".join([*NAMES, WATCHER, TEAM_CHAT, ALL_CHAT]).lower()))
    for path in [*WEB.glob("**/*.js"), *WEB.glob("**/*.css"), WEB / "index.html"]:
        words |= set(re.findall(r"[a-z]+", path.read_text(encoding="utf-8").lower()))
    for lang in ("en", "fr", "ru", "ko"):
        catalog = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for text in catalog.values():
            words |= set(re.findall(r"\w+", text.lower()))
    return words


def phase_recorder(
    everyone: list[Player], folder: Path, snap: dict[str, list[str]]
) -> Callable[[int, str], None]:
    """Screenshots of every page at the first writing, decoding and intercepting phases, and
    each page's HTML then, for the secrecy check."""
    wanted = {(1, "writing"): "1", (1, "decoding"): "2", (2, "intercepting"): "3"}

    def record(number: int, phase: str) -> None:
        if (number, phase) in wanted:
            for p in everyone:
                p.shot(folder, f"r{number}-{wanted[number, phase]}-{phase}")
                snap[p.name].append(p.page.content())
        if (number, phase) == (1, "decoding"):
            for p in everyone:  # an encryptor may not decode its own clues: no hint to do so
                if p.page.get_by_text("Encryptor this round").count():
                    expect(p.page.locator('aside.guide[data-hint="propose"]')).to_have_count(0)

    return record


@contextmanager
def play_game(browser: Browser, server_url: str) -> Iterator[Played]:
    folder = ARTIFACTS / "full_game"
    folder.mkdir(parents=True, exist_ok=True)
    people = [(NAMES[0], DESKTOP, "en"), (NAMES[1], DESKTOP, "en")]
    people += [(NAMES[2], DESKTOP, "en"), (NAMES[3], PHONE, "en")]
    players: list[Player] = []
    everyone: list[Player] = []
    snap: dict[str, list[str]] = {name: [] for name in [*NAMES, WATCHER]}
    try:
        players, teams, (eve,) = start_game(
            browser, server_url, people, folder, watchers=[(WATCHER, DESKTOP, "en")]
        )
        everyone = [*players, eve]
        keywords = {team: members[0].keywords() for team, members in teams.items()}
        first_load = measure_first_load(browser, players[0].page.url)
        teams["white"][0].say("team", TEAM_CHAT)
        teams["black"][0].say("all", ALL_CHAT)
        rounds = 0
        used: set[str] = set()
        host = players[0]
        while host.page.locator(".outcome").count() == 0:
            rounds += 1
            assert rounds <= 8, "the game should have ended"
            # White decodes right and, in round 2, intercepts Black's code (read from Black's
            # encryptor's screen); Black misreads its own clues twice: White wins after round 2.
            play_round(
                rounds,
                teams,
                clues=lambda team, enc, n: (
                    fresh_clues(enc.keywords(), used, first=HTML_CLUE)
                    if (n, team) == (1, "white")
                    else fresh_clues(enc.keywords(), used)
                ),
                decode_right={"white": True, "black": False},
                intercept_right={"white": True, "black": False},
                on_phase=phase_recorder(everyone, folder, snap),
            )
            wait_for(
                players[:1],
                lambda p, n=rounds + 1: (
                    p.page.locator(".outcome").count() > 0
                    or p.page.locator(f'.tracker li.now:has-text("{n}")').count() > 0
                ),
                f"round {rounds} to end",
            )
            for p in everyone:
                if rounds == 1:
                    p.shot(folder, f"r{rounds}-4-revealed")
                if p.page.locator(".outcome").count() == 0:
                    snap[p.name].append(p.page.content())
        for p in everyone:
            expect(p.page.locator(".outcome")).to_be_visible()
            p.shot(folder, "9-end")
    except Exception:
        for p in everyone:
            p.shot(folder, "failure")
        raise
    else:
        yield Played(players, eve, teams, keywords, snap, rounds, first_load)
    finally:
        for p in everyone:
            p.context.close()


def check_the_game_reaches_its_end_through_the_ui(game: Played) -> None:
    # Black misread its own clues in rounds 1 and 2: two ⚫, White wins after round 2.
    assert game.rounds == 2
    for p in game.players:
        outcome = p.page.locator(".outcome")
        expect(outcome.locator("#end-title .team-badge")).to_have_text(re.compile("White"))
        # Every keyword is revealed to everyone at the end.
        for words in game.keywords.values():
            for word in words:
                expect(outcome).to_contain_text(word)
        assert p.errors == [], p.errors
    black = game.teams["black"][0].page
    tokens = black.locator(".token-team")
    expect(tokens.nth(1).locator(".token.miscommunication.got")).to_have_count(2)
    expect(tokens.nth(0).locator(".token.interception.got")).to_have_count(1)
    # The complete game record (setup, every action, the chat) downloads from the end screen.
    with black.expect_download() as download:
        black.locator(".outcome button").last.click()
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["game"] == "decrypto" and record["complete"] is True
    assert ALL_CHAT in json.dumps(record, ensure_ascii=False)


def assert_never_held(p: Player, words: list[str], pages: list[str], ui: set[str]) -> int:
    """`words` are in none of the frames `p` received before the end, nor in the page HTML at
    any recorded phase (words the interface itself uses are only checked in the frames).
    Returns how many words were checked on the page."""
    frames = before_game_over(p.frames)
    assert len(frames) > 10
    values = {s.casefold() for f in frames for s in strings_outside_enums(f)}
    checked = 0
    for word in words:
        assert word.casefold() not in values, f"{word!r} reached {p.name}'s socket"
        if word.casefold() in ui:
            continue
        for html in pages:
            checked += 1
            found = re.search(rf"(?<!\w){re.escape(word.casefold())}(?!\w)", html.casefold())
            assert not found, f"{word!r} is on {p.name}'s page"
    return checked


def check_no_page_holds_the_enemy_keywords_before_the_end(game: Played) -> None:
    ui = ui_words()
    checked = 0
    for team, members in game.teams.items():
        enemy_words = game.keywords["black" if team == "white" else "white"]
        for p in members:
            checked += assert_never_held(p, enemy_words, game.html_before_end[p.name], ui)
    assert checked > 0


def check_the_spectator_sees_the_board_without_secrets(game: Played) -> None:
    eve = game.spectator
    both = game.keywords["white"] + game.keywords["black"]
    assert assert_never_held(eve, both, game.html_before_end[eve.name], ui_words()) > 0
    for html in game.html_before_end[eve.name][1:]:  # every table phase after the lobby
        assert 'class="table as-spectator"' in html
        assert 'class="keywords' not in html and "board-own" not in html
    expect(eve.page.locator(".log .log-round")).to_have_count(game.rounds)


def check_typed_text_is_shown_literally(game: Played) -> None:
    for p in [*game.players, game.spectator]:
        page = p.page
        assert p.dialogs == [], "an alert ran: typed HTML was executed"
        for name in NAMES:  # each was the encryptor once: the round log names them all
            expect(page.locator(".log")).to_contain_text(name)
        expect(page.locator(".chat-all .chat-lines")).to_contain_text(ALL_CHAT)
        expect(page.locator(".log")).to_contain_text(HTML_CLUE)
        assert page.locator(".chat-lines b, .chat-lines img, .log em, .log b").count() == 0
    white = game.teams["white"]
    black = game.teams["black"]
    for p in white:
        expect(p.page.locator(".chat-team .chat-lines")).to_contain_text(TEAM_CHAT)
    for p in [*black, game.spectator]:
        assert TEAM_CHAT not in p.page.content(), "White's team chat reached someone else"
    host = game.players[0].page
    expect(host.locator(".chat-all .who")).to_contain_text(black[0].name)


def check_first_load_of_the_table_stays_under_150_kb(game: Played) -> None:
    """The size budget of the client (docs/performance.md, "Browser client first load"): what a
    phone with an empty cache downloads to show a running table, compressed as sent."""
    load = game.first_load
    (ARTIFACTS / "first-load.json").write_text(json.dumps(load, indent=2))
    print(
        f"\nfirst load: {load['http_bytes']} B over HTTP in {len(load['files'])} files, "
        f"{load['ws_bytes']} B of WebSocket frames"
    )
    for name, size in sorted(load["files"].items(), key=lambda kv: -kv[1]):
        print(f"  {size:7d}  {name}")
    assert "static/vendor/preact.js" in load["files"]
    assert load["http_bytes"] < 150 * 1024


def test_a_whole_game_through_the_browser(browser: Browser, server_url: str) -> None:
    """One game, then every check on what it recorded (a single test, so that pytest-xdist
    never plays the game twice on two workers)."""
    with play_game(browser, server_url) as game:
        check_the_game_reaches_its_end_through_the_ui(game)
        check_no_page_holds_the_enemy_keywords_before_the_end(game)
        check_the_spectator_sees_the_board_without_secrets(game)
        check_typed_text_is_shown_literally(game)
        check_first_load_of_the_table_stays_under_150_kb(game)
