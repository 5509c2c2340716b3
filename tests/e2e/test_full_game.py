"""Four people play a whole Decrypto game through the browser client, on three laptops and a phone.

The game is played once per module (fixture `game`); the tests below check what it recorded:
that it reached its end through the UI, that no page ever held the enemy's keywords before the
end, and that everything players typed was shown as text, never as HTML.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    Player,
    before_game_over,
    start_game,
    strings_outside_enums,
    wait_for,
)

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "src" / "codebreakers" / "web"
NAMES = ["Ann <b>bold</b>", "Bo <img src=x onerror=alert(1)>", "Cy & <i>co</i>", "Dee"]
TEAM_CHAT = "<script>alert('team')</script>1-3-4?"
ALL_CHAT = "<b>good luck</b> <img src=x onerror=alert(2)>"
HTML_CLUE = "<em>glow</em>"


@dataclass
class Played:
    players: list[Player]
    teams: dict[str, list[Player]]
    keywords: dict[str, list[str]]
    html_before_end: dict[str, list[str]]  # player name -> page HTML at each phase before the end
    rounds: int


def ui_words() -> set[str]:
    """Words the interface itself writes (source, styles, English catalog): a keyword that is
    one of them can't be told apart on a page, so it is checked in the socket frames only."""
    words: set[str] = set()
    for path in [*WEB.glob("**/*.js"), *WEB.glob("**/*.css"), WEB / "index.html"]:
        words |= set(re.findall(r"[a-z]+", path.read_text(encoding="utf-8").lower()))
    for lang in ("en", "fr", "ru", "ko"):
        catalog = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for text in catalog.values():
            words |= set(re.findall(r"\w+", text.lower()))
    return words


CLUE_WORDS = [
    "comet",
    "harbor",
    "velvet",
    "thunder",
    "lantern",
    "meadow",
    "copper",
    "whisper",
    "glacier",
    "saddle",
    "orchid",
    "compass",
    "ember",
    "quartz",
    "falcon",
    "canyon",
    "marble",
    "cinder",
    "violin",
    "tundra",
    "pepper",
    "beacon",
    "walnut",
    "shadow",
    "kettle",
    "raven",
    "tulip",
    "anchor",
]


def fresh_clues(keywords: list[str], used: set[str]) -> list[str]:
    """Three clues never used in this game that share no stem with the encryptor's keywords."""
    kws = [k.casefold() for k in keywords]
    out: list[str] = []
    for word in CLUE_WORDS:
        if word in used or any(k[:4] == word[:4] for k in kws):
            continue
        out.append(word)
        used.add(word)
        if len(out) == 3:
            return out
    raise AssertionError("out of clue words")


def play_round(
    number: int,
    teams: dict[str, list[Player]],
    folder: Path,
    snap: dict[str, list[str]],
    used: set[str],
) -> None:
    everyone = teams["white"] + teams["black"]
    codes: dict[str, list[int]] = {}
    encryptors: dict[str, Player] = {}
    for team, members in teams.items():
        enc = wait_for(members, Player.is_encryptor, f"the {team} encryptor's panel")[0]
        encryptors[team] = enc
        codes[team] = enc.read_code()
        assert sorted(set(codes[team])) == sorted(codes[team]) and len(codes[team]) == 3
    if number == 1:
        for p in everyone:
            p.shot(folder, f"r{number}-1-writing")
            snap[p.name].append(p.page.content())
    for team, enc in encryptors.items():
        clues = fresh_clues(enc.keywords(), used)
        if number == 1 and team == "white":
            clues[0] = HTML_CLUE
        enc.transmit(clues)
    for team, members in teams.items():
        enemy = "black" if team == "white" else "white"
        decider = wait_for(members, lambda p: p.can_lock("own"), f"the {team} decider")[0]
        decider.pick("own", team, codes[team])
        if number == 1 and team == "white":
            for p in everyone:
                p.shot(folder, f"r{number}-2-decoding")
                snap[p.name].append(p.page.content())
        decider.lock("own")
        expect(decider.page.locator("section.board-own button.lock")).to_have_count(0)
        if number >= 2:
            intercepter = wait_for(members, lambda p: p.can_lock("enemy"), f"{team} interception")[
                0
            ]
            # Black intercepts White's code (read from White's encryptor's screen); White misses.
            guess = codes[enemy] if team == "black" else codes[enemy][1:] + codes[enemy][:1]
            intercepter.pick("enemy", enemy, guess)
            if number == 2 and team == "white":
                for p in everyone:
                    p.shot(folder, f"r{number}-3-intercepting")
                    snap[p.name].append(p.page.content())
            intercepter.lock("enemy")


@pytest.fixture(scope="module")
def game(browser: Browser, server_url: str) -> Iterator[Played]:
    folder = ARTIFACTS / "full_game"
    folder.mkdir(parents=True, exist_ok=True)
    people = [(NAMES[0], DESKTOP, "en"), (NAMES[1], DESKTOP, "en")]
    people += [(NAMES[2], DESKTOP, "en"), (NAMES[3], PHONE, "en")]
    players: list[Player] = []
    snap: dict[str, list[str]] = {name: [] for name in NAMES}
    try:
        players, teams = start_game(browser, server_url, people, folder)
        keywords = {team: members[0].keywords() for team, members in teams.items()}
        teams["white"][0].say("team", TEAM_CHAT)
        teams["black"][0].say("all", ALL_CHAT)
        rounds = 0
        used: set[str] = set()
        host = players[0]
        while host.page.locator(".outcome").count() == 0:
            rounds += 1
            assert rounds <= 8, "the game should have ended"
            play_round(rounds, teams, folder, snap, used)
            wait_for(
                players[:1],
                lambda p, n=rounds + 1: (
                    p.page.locator(".outcome").count() > 0
                    or p.page.locator(f'.tracker li.now:has-text("{n}")').count() > 0
                ),
                f"round {rounds} to end",
            )
            for p in players:
                p.shot(folder, f"r{rounds}-4-revealed")
                if p.page.locator(".outcome").count() == 0:
                    snap[p.name].append(p.page.content())
        for p in players:
            expect(p.page.locator(".outcome")).to_be_visible()
            p.shot(folder, "9-end")
    except Exception:
        for p in players:
            p.shot(folder, "failure")
        raise
    else:
        yield Played(players, teams, keywords, snap, rounds)
    finally:
        for p in players:
            p.context.close()


def test_the_game_reaches_its_end_through_the_ui(game: Played) -> None:
    # Black intercepted White in rounds 2 and 3: two ⚪, Black wins after round 3.
    assert game.rounds == 3
    for p in game.players:
        outcome = p.page.locator(".outcome")
        expect(outcome.locator("#end-title .team-badge")).to_have_text(re.compile("Black"))
        # Every keyword is revealed to everyone at the end.
        for words in game.keywords.values():
            for word in words:
                expect(outcome).to_contain_text(word)
        assert p.errors == [], p.errors
    black = game.teams["black"][0].page
    expect(black.locator(".token-team").nth(1).locator(".token.interception.got")).to_have_count(2)


def test_no_page_holds_the_enemy_keywords_before_the_end(game: Played) -> None:
    ui = ui_words()
    checked_on_screen = 0
    for team, members in game.teams.items():
        enemy_words = game.keywords["black" if team == "white" else "white"]
        for p in members:
            frames = before_game_over(p.frames)
            assert len(frames) > 10
            values = {s.casefold() for f in frames for s in strings_outside_enums(f)}
            for word in enemy_words:
                assert word.casefold() not in values, f"{word!r} reached {p.name}'s socket"
            for html in game.html_before_end[p.name]:
                text = html.casefold()
                for word in enemy_words:
                    if word.casefold() in ui:
                        continue
                    checked_on_screen += 1
                    assert not re.search(rf"(?<!\w){re.escape(word.casefold())}(?!\w)", text), (
                        f"{word!r} is on {p.name}'s page"
                    )
    assert checked_on_screen > 0


def test_typed_text_is_shown_literally(game: Played) -> None:
    for p in game.players:
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
    for p in black:
        assert TEAM_CHAT not in p.page.content(), "White's team chat reached Black"
    host = game.players[0].page
    expect(host.locator(".chat-all .who")).to_contain_text(black[0].name)
