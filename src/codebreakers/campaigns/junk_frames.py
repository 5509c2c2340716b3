"""Junk frames for the fuzz campaign: every kind of wrong a client can send, from a seed.

Kinds: random bytes, printable garbage, valid messages mutated byte by byte, valid messages with
fields of the wrong type, huge numbers and strings, deep nesting, bad UTF-8 (binary frames, as
text frames must be valid UTF-8 at the WebSocket layer), and oversized frames (over our 64 KiB
limit, a few over the 1 MiB WebSocket limit, which closes the socket with 1009).
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable
from typing import Any

JSON = dict[str, Any]
KIB = 1024

# Every client message with plausible field values (docs/protocol.md).
TEMPLATES: list[JSON] = [
    {"type": "hello", "room": "ABCDEF"},
    {"type": "join", "id": "j1", "name": "Mallory"},
    {"type": "rename", "id": "r1", "name": "Eve"},
    {"type": "take_seat", "id": "t1", "team": "white", "index": 1},
    {"type": "leave_seat", "id": "l1"},
    {"type": "act", "id": "a1", "action": {"type": "transmit", "clues": ["a", "b", "c"]}},
    {"type": "act", "id": "a2", "action": {"type": "lock", "target": "own", "code": [1, 2, 3]}},
    {"type": "act", "id": "a3", "action": {"type": "note", "number": 2, "text": "x"}},
    {"type": "act", "id": "a4", "action": {"type": "guess_keywords", "words": ["a"] * 4}},
    {"type": "act", "id": "a5", "action": {"type": "timeout"}},
    {"type": "chat", "id": "c1", "channel": "all", "text": "hello"},
    {"type": "chat", "id": "c2", "channel": "team", "text": "psst"},
    {"type": "move", "id": "m1", "player": "p1", "team": "black", "index": 0},
    {"type": "remove", "id": "x1", "player": "p2"},
    {"type": "add_bot", "id": "b1", "team": "white", "index": 3, "level": "easy"},
    {"type": "set_options", "id": "o1", "options": {"words": "fr"}},
    {"type": "set_public", "id": "s1", "public": True},
    {"type": "transfer_host", "id": "h1", "player": "p3"},
    {"type": "start", "id": "g1"},
    {"type": "rematch", "id": "g2"},
]
WEIRD: list[Any] = [
    None, True, False, 0, -1, 2**64, -(2**63) - 1, 10**400, 1e308, -0.0, 1.5, "", " ", "\u0000",
    "x" * 70, "é" * 40, "<script>alert(1)</script>", [], {}, [1, 2, 3], {"a": 1}, ["a"] * 100,
]  # fmt: skip


def _dump(frame: object) -> str:
    return json.dumps(frame, ensure_ascii=False)


def template(rng: random.Random) -> JSON:
    """A valid message with a fresh id (a repeated id would only be a harmless retry)."""
    frame: JSON = json.loads(json.dumps(rng.choice(TEMPLATES)))
    if "id" in frame:
        frame["id"] = f"f{rng.getrandbits(48):x}"
    return frame


def random_bytes(rng: random.Random) -> bytes:
    return rng.randbytes(rng.randrange(1, 200))


def garbage_text(rng: random.Random) -> str:
    return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 200)))


def mutated(rng: random.Random) -> str:
    """A valid message with a few characters flipped, deleted or inserted."""
    text = list(_dump(template(rng)))
    for _ in range(rng.randrange(1, 6)):
        at = rng.randrange(len(text))
        roll = rng.random()
        if roll < 0.4:
            text[at] = rng.choice(string.printable)
        elif roll < 0.7:
            del text[at]
        else:
            text.insert(at, rng.choice('{}[]":,\\0123456789abcdefnulltrue'))
    return "".join(text)


def wrong_types(rng: random.Random) -> str:
    frame = template(rng)
    target = frame["action"] if "action" in frame and rng.random() < 0.5 else frame
    keys = list(target)
    for _ in range(rng.randrange(1, 3)):
        roll = rng.random()
        if roll < 0.6:
            target[rng.choice(keys)] = rng.choice(WEIRD)
        elif roll < 0.8:
            target.pop(rng.choice(keys), None)
        else:
            target[rng.choice(["extra", "id", "type", "__proto__"])] = rng.choice(WEIRD)
    return _dump(frame)


def huge_values(rng: random.Random) -> str:
    frame = template(rng)
    key = rng.choice([k for k in frame if k != "type"] or ["id"])
    size = rng.choice([1_000, 30_000, 60_000])
    frame[key] = rng.choice(
        ["x" * size, "漢" * (size // 3), 10 ** rng.randrange(20, 4000), -(10**300), 1e308]
    )
    return _dump(frame)


def deep(rng: random.Random) -> str:
    depth = rng.choice([100, 1_000, 5_000, 20_000])
    inner = "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth
    where = rng.choice(["top", "action", "text", "options"])
    if where == "top":
        return inner
    if where == "action":
        return f'{{"type":"act","id":"d1","action":{inner}}}'
    if where == "text":
        return f'{{"type":"chat","id":"d2","channel":"all","text":{inner}}}'
    return f'{{"type":"set_options","id":"d3","options":{{"custom_words":{inner}}}}}'


def bad_utf8(rng: random.Random) -> bytes:
    good = _dump(template(rng)).encode()
    bad = rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"])
    at = rng.randrange(len(good))
    return good[:at] + bad + good[at:]


def oversized(rng: random.Random) -> str:
    """Over the 64 KiB limit; rarely over the WebSocket layer's 1 MiB (the socket closes)."""
    size = 1100 * KIB if rng.random() < 0.02 else rng.randrange(64 * KIB + 1, 300 * KIB)
    return _dump({"type": "chat", "id": "big", "channel": "all", "text": "y" * size})


KINDS: dict[str, Callable[[random.Random], str | bytes]] = {
    "random_bytes": random_bytes,
    "garbage_text": garbage_text,
    "mutated": mutated,
    "wrong_types": wrong_types,
    "huge_values": huge_values,
    "deep_nesting": deep,
    "bad_utf8": bad_utf8,
    "oversized": oversized,
}
WEIGHTS = [10, 10, 30, 25, 8, 6, 8, 3]


def frame(rng: random.Random) -> tuple[str, str | bytes]:
    kind = rng.choices(list(KINDS), WEIGHTS)[0]
    return kind, KINDS[kind](rng)
