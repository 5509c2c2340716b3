"""Who may see what, checked on serialized bytes from the outside (docs/views.md, records.md).

Written from the documentation, not from the view code, so a leak in the view is not repeated
here: a view (or partial record) is decoded back from the bytes that would leave the server and
walked field by field, and the raw bytes are searched for secrets that belong nowhere in them:
the seed, other seats' private notes and drafts, other players' seat tokens, the enemy's
keywords, and (to anyone but the host) the words of a custom list that no team holds (quoted,
as JSON writes them). Bodies that hold no game state at all (profiles, leaderboards, pages) are
also searched for any of the game's codes, as a JSON list (`code_leaks`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]
TEAMS = ("white", "black")


@dataclass
class Truth:
    """The secrets of one game (and room), known to the campaign, never to a viewer."""

    seed: int
    keywords: dict[str, list[str]]  # team -> its four keywords
    seat_team: dict[str, str]
    notes: dict[str, set[str]] = field(default_factory=dict)  # seat -> texts it wrote
    drafts: dict[str, set[str]] = field(default_factory=dict)  # seat -> drafted clues
    tokens: dict[str, str] = field(default_factory=dict)  # player id -> seat token
    custom_words: frozenset[str] = frozenset()  # the host's list, when the room has one
    host: str | None = None  # the one player id that may see that list
    codes: set[tuple[int, ...]] = field(default_factory=set)  # every round's code, both teams

    @property
    def undealt(self) -> frozenset[str]:
        """The list's words no team holds: no one but the host may ever be sent one."""
        return self.custom_words.difference(*self.keywords.values())


@dataclass(frozen=True)
class Seen:
    """Whose eyes: a player id (a seat, or a spectator's id, or None for a tab that never
    joined), and whether the room opens secrets to spectators."""

    seat: str | None
    open_spectators: bool = False


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def view_leaks(view: JSON, who: Seen, truth: Truth) -> list[str]:
    """Field-by-field check of a decoded view."""
    team = truth.seat_team.get(who.seat) if who.seat else None
    sees_all = view["phase"] == "over" or (who.open_spectators and team is None)
    found: list[str] = []
    for t in TEAMS:
        if view["teams"][t]["keywords"] is not None and not (sees_all or t == team):
            found.append(f"{t} keywords")
    for rnd in view["rounds"]:
        for t, tr in rnd["transmissions"].items():
            if tr is None:
                continue
            enemy = "black" if t == "white" else "white"
            revealed = tr["status"] == "revealed"
            where = f"round {rnd['number']} {t}"
            if tr["code"] is not None and not (sees_all or revealed or tr["encryptor"] == who.seat):
                found.append(f"{where} code")
            for key in ("draft", "clue_warnings"):
                if tr[key] is not None and not (sees_all or tr["encryptor"] == who.seat):
                    found.append(f"{where} {key}")
            for part, answering in (("decode", t), ("interception", enemy)):
                answer = tr[part]
                ours = sees_all or team == answering
                if answer["proposals"] is not None and not ours:
                    found.append(f"{where} {part} proposals")
                if answer["code"] is not None and not (ours or revealed):
                    found.append(f"{where} {part} code")
    if view["notes"] and team is None:
        found.append("notes shown to a spectator")
    return found


def shown_guesses(view: JSON | None) -> set[str]:
    """Tie-break guesses the view shows (a guess may rightly name an enemy keyword)."""
    tiebreak = (view or {}).get("tiebreak") or {}
    return {w for words in (tiebreak.get("guesses") or {}).values() if words for w in words}


def bytes_leaks(
    text: str,
    who: Seen,
    truth: Truth,
    over: bool,
    allowed: set[str] | frozenset[str] = frozenset(),
    seed_allowed: bool = False,
) -> list[str]:
    """Secrets that must not occur anywhere in `text` for this viewer.

    `allowed`: words the viewer was rightly shown (tie-break guesses). `seed_allowed`: a full
    record (after the end, or an open spectator's, by docs/records.md's choice) carries the seed
    and the rest of the setup, the host's custom list included.
    """
    found = []
    if not seed_allowed and str(truth.seed) in text:
        found.append("seed")
    is_host = who.seat is not None and who.seat == truth.host
    if not (seed_allowed or is_host) and any(_quoted(w) in text for w in truth.undealt):
        found.append("custom word list")
    for seat, notes in truth.notes.items():
        if seat != who.seat and any(_quoted(n) in text for n in notes):
            found.append(f"{seat}'s note")
    team = truth.seat_team.get(who.seat) if who.seat else None
    sees_all = over or (who.open_spectators and team is None)
    if not sees_all:
        for seat, drafts in truth.drafts.items():
            if seat != who.seat and any(_quoted(d) in text for d in drafts if d):
                found.append(f"{seat}'s draft")
    for pid, token in truth.tokens.items():
        if pid != who.seat and token in text:
            found.append(f"{pid}'s token")
    if not sees_all:
        for t, words in truth.keywords.items():
            if t != team and any(_quoted(w) in text for w in words if w not in allowed):
                found.append(f"{t} keyword in bytes")
    return found


def code_leaks(text: str, truth: Truth) -> list[str]:
    """Any of the game's codes written as a JSON list (`[3, 1, 4]` or `[3,1,4]`), for bodies
    that hold no view or record, where no code of any round belongs."""
    found = []
    for code in sorted(truth.codes):
        spaced, compact = json.dumps(list(code)), json.dumps(list(code), separators=(",", ":"))
        if spaced in text or compact in text:
            found.append("code in bytes")
    return found
