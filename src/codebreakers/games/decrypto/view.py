"""What one viewer may see, built by listing it field by field (never by deleting secrets).

Who sees what (docs/views.md): a team sees its own keywords; a code goes to its encryptor until
the reveal; a team's proposals and locked answers stay with that team until the reveal (proposals
for good); spectators see what the enemy of both teams sees; open spectators, and everyone once
the game is over, see every keyword and code. The seed is never listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from codebreakers.games.base import JSON, Viewer
from codebreakers.games.decrypto.clues import TranslationCheck, clue_warnings
from codebreakers.games.decrypto.ending import matches, outcome_json
from codebreakers.games.decrypto.state import (
    OVER,
    ROUND,
    TEAMS,
    TIEBREAK_GUESS,
    TIEBREAK_REVIEW,
    Answer,
    GameState,
    Round,
    Transmission,
)
from codebreakers.games.decrypto.timers import deadlines, interception_opened

_MISSING = object()
_encode = msgspec.json.Encoder().encode


def _code(code: tuple[int, ...] | None) -> list[int] | None:
    return list(code) if code is not None else None


class _Sight:
    """The viewer's standing in one state: which team, whether every secret is open to it."""

    __slots__ = ("all", "kind", "seat", "team")

    def __init__(self, state: GameState, viewer: Viewer) -> None:
        self.seat = viewer.seat
        self.team = state.table.team_of.get(viewer.seat) if viewer.seat is not None else None
        # "Open spectators" is a room option for spectators: a seated player never gets it.
        self.all = (viewer.open_spectator and self.team is None) or state.phase == OVER
        # (team, all) as a small int, 0-5: memo keys made of it allocate nothing, and a memo
        # dict whose keys and values are all untracked stays out of the collector's sight.
        self.kind = (0 if self.team is None else self.team + 1) * 2 + self.all


# Memo keys: strings and ints, never tuples built per view (see `_Sight.kind`).
_TEAMS_KEYS = tuple(f"teams {kind}" for kind in range(6))
_AS_JSON = {key: f"{key} json" for key in (*_TEAMS_KEYS, "deadlines", "waiting_for", "outcome")}
_FINISHED_JSON_KEYS = {key: f"finished json {key}" for key in ("all", None, 0, 1)}


def _answer(answer: Answer, answering: int, revealed: bool, sight: _Sight) -> JSON:
    ours = sight.all or sight.team == answering
    return {
        "proposals": {seat: list(code) for seat, code in answer.proposals} if ours else None,
        "locked": answer.locked,
        "code": _code(answer.code) if ours or revealed else None,
    }


def _transmission(
    state: GameState,
    t: Transmission,
    sight: _Sight,
    check: TranslationCheck | None,
    encoded: bool,
) -> Any:
    """A transmission's JSON (already encoded when `encoded`: bytes, which the collector
    skips), memoised by kind of viewer unless it shows a draft (whose warnings depend on the
    clues given since)."""
    writer = sight.seat == t.encryptor
    key = sight.kind * 4 + writer * 2 + encoded
    found = t.memo.get(key)
    if found is None:
        listed = _list_transmission(state, t, sight, writer, check)
        found = msgspec.Raw(_encode(listed)) if encoded else listed
        if listed["draft"] is None:
            t.memo[key] = found
    return found


def _list_transmission(
    state: GameState, t: Transmission, sight: _Sight, writer: bool, check: TranslationCheck | None
) -> JSON:
    status = "revealed" if t.revealed else ("decoding" if t.clues is not None else "writing")
    interception: JSON = {"due": t.interception is not None}
    if t.interception is not None:
        interception |= _answer(t.interception, 1 - t.team, t.revealed, sight)
    else:
        interception |= {"proposals": None, "locked": False, "code": None}
    drafting = t.draft is not None and (writer or sight.all)
    keywords = state.table.keywords[t.team]
    return {
        "encryptor": t.encryptor,
        "decider": t.decider,
        "status": status,
        "read_out": t.read_at is not None,
        "clues": list(t.clues)
        if t.clues is not None and (t.read_at is not None or writer or sight.all)
        else None,
        "code": list(t.code) if writer or t.revealed or sight.all else None,
        "draft": list(t.draft) if drafting and t.draft is not None else None,
        "clue_warnings": [clue_warnings(c, keywords, state.used_clues, check) for c in t.draft]
        if drafting and t.draft is not None
        else None,
        "decode": _answer(t.decode, t.team, t.revealed, sight),
        "interception": interception,
        "result": {"decoded": t.decoded, "intercepted": t.intercepted} if t.revealed else None,
    }


def role(state: GameState, seat: str | None) -> str | None:
    """The seat's role this round: encryptor, decider or member (None for a spectator)."""
    team = state.table.team_of.get(seat) if seat is not None else None
    if team is None:
        return None
    number = state.current.number
    if state.table.transmits[team] and state.table.encryptor(team, number) == seat:
        return "encryptor"
    return "decider" if state.table.decider(team, number) == seat else "member"


def waiting_for(state: GameState) -> list[JSON]:
    """Who the game waits for, and to do what."""
    table = state.table
    number = state.current.number
    tasks: list[JSON] = []
    if state.phase == ROUND:
        rnd = state.current
        for t in rnd.transmissions:
            if t is None:
                continue
            if t.clues is None:
                tasks.append({"seat": t.encryptor, "task": "transmit"})
            elif t.read_at is not None and not t.decode.locked:
                tasks.append({"seat": t.decider, "task": "lock_own"})
            opened = interception_opened(rnd, t, table.options.classic)
            if opened is not None and t.interception is not None and not t.interception.locked:
                tasks.append({"seat": table.decider(1 - t.team, number), "task": "lock_enemy"})
    elif state.phase == TIEBREAK_GUESS and state.tiebreak is not None:
        for team in (0, 1):
            if state.tiebreak.guesses[team] is None:
                tasks.append({"seat": table.decider(team, number), "task": "guess_keywords"})
    elif state.phase == TIEBREAK_REVIEW and state.tiebreak is not None:
        for team in (0, 1):
            if not state.tiebreak.reviewed[team]:
                tasks += [{"seat": seat, "task": "review"} for seat in table.seats[team]]
    return tasks


def _tiebreak(state: GameState, sight: _Sight) -> JSON | None:
    tb = state.tiebreak
    if tb is None:
        return None
    public = sight.all or state.phase != TIEBREAK_GUESS
    return {
        "cause": tb.cause,
        "guesses": {
            TEAMS[team]: list(guesses)
            if guesses is not None and (public or sight.team == team)
            else None
            for team, guesses in enumerate(tb.guesses)
        },
        "matches": {TEAMS[team]: list(matches(state, team)) if public else None for team in (0, 1)},
        "reviewed": {TEAMS[team]: tb.reviewed[team] for team in (0, 1)},
    }


def _options(state: GameState) -> JSON:
    memo: JSON | None = state.table.memo.get("options")
    if memo is not None:
        return memo
    listed = state.table.options.to_json()
    custom = listed["custom_words"]
    # The host's list is a superset of both teams' keywords: only its size is shown.
    listed["custom_words"] = None
    listed["custom_word_count"] = len(custom) if custom is not None else None
    state.table.memo["options"] = listed
    return listed


def _round(state: GameState, rnd: Round, sight: _Sight, check: TranslationCheck | None) -> JSON:
    """A round's JSON."""
    return {
        "number": rnd.number,
        "transmissions": {
            TEAMS[team]: _transmission(state, t, sight, check, False) if t is not None else None
            for team, t in enumerate(rnd.transmissions)
        },
    }


def _played(state: GameState) -> int:
    """How many rounds are finished (all but the last, or all)."""
    last = len(state.rounds) - 1
    return last + 1 if state.rounds[last].finished else last


def _finished_rounds(
    state: GameState, sight: _Sight, check: TranslationCheck | None, played: int
) -> tuple[JSON, ...]:
    """The finished rounds' JSON. They never change and are shared by every later state, so the
    list up to a finished round is kept in that round, once per kind of viewer."""
    key = "all" if sight.all else sight.team
    listed: tuple[JSON, ...] = ()
    for index in range(played - 1, -1, -1):  # the latest finished round already listed
        memo = state.rounds[index].memo.get(key)
        if memo is not None:
            listed = memo
            break
    for rnd in state.rounds[len(listed) : played]:
        listed = (*listed, _round(state, rnd, sight, check))
        rnd.memo[key] = listed
    return listed


def _rounds(state: GameState, sight: _Sight, check: TranslationCheck | None) -> list[JSON]:
    """Every round's JSON."""
    played = _played(state)
    listed = list(_finished_rounds(state, sight, check, played))
    listed += [_round(state, rnd, sight, check) for rnd in state.rounds[played:]]
    return listed


def _round_json(
    state: GameState, rnd: Round, sight: _Sight, check: TranslationCheck | None
) -> bytes:
    """`_round` encoded, spliced from its transmissions' encoded JSON (each kept per kind of
    viewer in the transmission): the bytes `_encode(_round(...))` gives."""
    white, black = rnd.transmissions
    return b"".join(
        (
            b'{"number":%d,"transmissions":{"white":' % rnd.number,
            _transmission(state, white, sight, check, True) if white is not None else b"null",
            b',"black":',
            _transmission(state, black, sight, check, True) if black is not None else b"null",
            b"}}",
        )
    )


def _rounds_json(state: GameState, sight: _Sight, check: TranslationCheck | None) -> bytes:
    """`_rounds` serialised, the finished rounds' part encoded once per kind of viewer and kept
    in the latest finished round (a round before it that kept them gives its copy up)."""
    rounds = state.rounds
    played = _played(state)
    if not played:
        return b"[" + b",".join([_round_json(state, rnd, sight, check) for rnd in rounds]) + b"]"
    key = _FINISHED_JSON_KEYS["all" if sight.all else sight.team]
    encoded: bytes | None = rounds[played - 1].memo.get(key)
    if encoded is None:
        encoded = _finished_json(state, sight, check, played, key)
    if played == len(rounds):
        return b"[" + encoded + b"]"
    current = [_round_json(state, rnd, sight, check) for rnd in rounds[played:]]
    return b"[" + encoded + b"," + b",".join(current) + b"]"


def _finished_json(
    state: GameState, sight: _Sight, check: TranslationCheck | None, played: int, key: str
) -> bytes:
    """The finished rounds encoded and comma-joined: those a round before already kept, then
    the rounds finished since; kept in the latest finished round."""
    parts: list[bytes] = []
    start = 0
    for index in range(played - 2, -1, -1):
        kept = state.rounds[index].memo.pop(key, None)
        if kept is not None:
            parts, start = [kept], index + 1
            break
    parts += [_round_json(state, rnd, sight, check) for rnd in state.rounds[start:played]]
    encoded = state.rounds[played - 1].memo[key] = b",".join(parts)
    return encoded


def _teams(state: GameState, sight: _Sight) -> JSON:
    table = state.table
    return {
        TEAMS[team]: {
            "seats": list(table.seats[team]),
            "keywords": list(table.keywords[team]) if sight.all or sight.team == team else None,
            "tokens": {
                "interception": state.tokens[team][0],
                "miscommunication": state.tokens[team][1],
            },
            "transmits": table.transmits[team],
        }
        for team in (0, 1)
    }


def _outcome(state: GameState) -> JSON | None:
    return outcome_json(state.outcome) if state.outcome is not None else None


def _shared(state: GameState, key: str, build: Callable[..., Any], *args: Any) -> Any:
    """A part of the view that is the same for every viewer of this state, built once."""
    found = state.memo.get(key, _MISSING)
    if found is _MISSING:
        found = state.memo[key] = build(state, *args)
    return found


def _shared_raw(state: GameState, key: str, build: Callable[..., Any], *args: Any) -> Any:
    """`_shared`, kept encoded: the view's bytes copy it, and the collector never walks it."""
    memo_key = _AS_JSON[key]
    found = state.memo.get(memo_key)
    if found is None:
        found = state.memo[memo_key] = msgspec.Raw(_encode(build(state, *args)))
    return found


def _options_raw(state: GameState) -> msgspec.Raw:
    found: msgspec.Raw | None = state.table.memo.get("options json")
    if found is None:
        found = state.table.memo["options json"] = msgspec.Raw(_encode(_options(state)))
    return found


def _deadlines(state: GameState) -> list[JSON]:
    return [deadline.to_json() for deadline in deadlines(state)]


def _common(state: GameState, sight: _Sight, check: TranslationCheck | None) -> JSON:
    """All of a view but `you` and `notes`: the same for every viewer of one kind (the same
    team, the same sight of every secret, and encrypting one of this round's transmissions or
    not, which shows its code and draft)."""
    table = state.table
    return {
        "game": "decrypto",
        "options": _options(state),
        "phase": state.phase,
        "round": state.current.number,
        "max_rounds": table.options.max_rounds,
        "teams": _shared(state, _TEAMS_KEYS[sight.kind], _teams, sight),
        "rounds": _rounds(state, sight, check),
        "deadlines": _shared(state, "deadlines", _deadlines),
        "waiting_for": _shared(state, "waiting_for", waiting_for),
        "tiebreak": _tiebreak(state, sight),
        "outcome": _shared(state, "outcome", _outcome),
    }


def _head_start(state: GameState) -> bytes:
    """The encoded `_common` up to its `teams`, the same for every viewer of the state."""
    found: bytes | None = state.memo.get("head start")
    if found is None:
        found = state.memo["head start"] = b"".join(
            (
                b'{"game":"decrypto","options":',
                _options_raw(state),
                b',"phase":',
                _encode(state.phase),
                b',"round":%d,"max_rounds":' % state.current.number,
                _encode(state.table.options.max_rounds),
                b',"teams":',
            )
        )
    return found


def _head_middle(state: GameState) -> bytes:
    """The encoded `_common` from its `deadlines` to its `tiebreak`, the same for every
    viewer of the state."""
    found: bytes | None = state.memo.get("head middle")
    if found is None:
        found = state.memo["head middle"] = b"".join(
            (
                b',"deadlines":',
                _shared_raw(state, "deadlines", _deadlines),
                b',"waiting_for":',
                _shared_raw(state, "waiting_for", waiting_for),
                b',"tiebreak":',
            )
        )
    return found


def _head_end(state: GameState) -> bytes:
    """The encoded `_common`'s `outcome`, the object left open for the viewer's own part."""
    found: bytes | None = state.memo.get("head end")
    if found is None:
        found = state.memo["head end"] = (
            b',"outcome":' + _shared_raw(state, "outcome", _outcome) + b","
        )
    return found


def _head(state: GameState, sight: _Sight, check: TranslationCheck | None) -> bytes:
    """`_common` encoded, open for the viewer's own part (b'{...,'): the bytes that
    `_encode(_common(...))` gives without its closing brace, spliced from parts encoded once
    for every viewer who shares them (kept as bytes in the state's memo, which the collector
    never walks), with only the teams, rounds and tiebreak by kind of viewer."""
    tiebreak = _tiebreak(state, sight)
    return b"".join(
        (
            _head_start(state),
            _shared_raw(state, _TEAMS_KEYS[sight.kind], _teams, sight),
            b',"rounds":',
            _rounds_json(state, sight, check),
            _head_middle(state),
            _encode(tiebreak) if tiebreak is not None else b"null",
            _head_end(state),
        )
    )


def _own(state: GameState, sight: _Sight, can_team_chat: bool) -> JSON:
    """The viewer's own part of a view: who it is, and its notes."""
    seat = sight.seat
    own_notes = state.notes.get(seat, ()) if seat is not None else ()
    return {
        "you": {
            "seat": seat if sight.team is not None else None,
            "team": TEAMS[sight.team] if sight.team is not None else None,
            "role": role(state, seat),
            "can_team_chat": can_team_chat,
        },
        "notes": {str(i): text for i, text in enumerate(own_notes, start=1) if text},
    }


def _own_json(state: GameState, sight: _Sight, can_team_chat: bool) -> bytes:
    """`_own` encoded without its opening brace (what follows the common part's), kept per seat
    in the table's memo and given again while the seat's role, its right to team chat and its
    notes are what they were (most actions change none of them for most seats)."""
    seat = sight.seat
    notes = state.notes.get(seat, ()) if seat is not None else ()
    now = role(state, seat)
    kept: dict[str | None, tuple[str | None, bool, tuple[str, ...], bytes]] | None
    kept = state.table.memo.get("own json")
    if kept is None:
        kept = state.table.memo["own json"] = {}
    found = kept.get(seat)
    if found is not None and found[0] == now and found[1] is can_team_chat and found[2] == notes:
        return found[3]
    encoded = _encode(_own(state, sight, can_team_chat))[1:]
    kept[seat] = (now, can_team_chat, notes, encoded)
    return encoded


def build_view(
    state: GameState, viewer: Viewer, can_team_chat: bool, check: TranslationCheck | None = None
) -> JSON:
    """The JSON view for `viewer` (see docs/views.md)."""
    sight = _Sight(state, viewer)
    return _common(state, sight, check) | _own(state, sight, can_team_chat)


def views_json(
    state: GameState,
    viewers: Sequence[Viewer],
    can_team_chat: Callable[[Viewer], bool],
    check: TranslationCheck | None = None,
) -> list[bytes]:
    """`build_view` serialised for each of `viewers`, in order: the common part is built once
    per kind of viewer (from parts encoded once for every viewer who shares them), and each
    viewer's own part (kept per seat while it stays the same) is spliced into it."""
    writers = {t.encryptor for t in state.current.transmissions if t is not None}
    common: dict[int, bytes] = {}
    frames: list[bytes] = []
    for viewer in viewers:
        sight = _Sight(state, viewer)
        kind = sight.kind * 2 + (sight.seat in writers)
        head = common.get(kind)
        if head is None:  # the common object, open for the own part: b'{...,'
            head = common[kind] = _head(state, sight, check)
        frames.append(head + _own_json(state, sight, can_team_chat(viewer)))
    return frames
