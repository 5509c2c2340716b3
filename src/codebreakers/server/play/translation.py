"""The "looks like a translation" clue warning on the server, without ever stalling the loop.

RULES.md asks to warn (never to block) when a clue looks like a translation of a keyword. The
engine has the hook (`DecryptoRules(translation_check=...)`) and ships no dictionary; the bots'
multilingual check (`bots.rules.looks_like_translation`, a sentence encoder) answers it. That
costs about 2 ms per new text and 1-2 s to load, far too much for the event loop that serves
every room, so answers are computed in a worker thread and the views only read them:

- `known` tells the engine's `slow_view_work` which drafts have no answer yet; the hub runs that
  work in a thread (`RoomHub.views_ready`) before it builds and pushes the views;
- called on a thread that runs an event loop, the check answers from its cache only (False while
  it doesn't know: a missing warning, never a wait); anywhere else it computes and remembers.

The encoder is imported and loaded on the first computation, in that worker thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from codebreakers.games.base import GameRules
from codebreakers.games.decrypto import DecryptoRules
from codebreakers.games.registry import RULES_BY_NAME

Check = Callable[[str, Sequence[str]], bool]
CACHE_SIZE = 4096


def _bots_check(clue: str, keywords: Sequence[str]) -> bool:
    from codebreakers.bots.rules import looks_like_translation  # numpy and the encoder: lazily

    return looks_like_translation(clue, keywords)


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class OffLoopTranslationCheck:
    """A `TranslationCheck` that computes only off the event loop and remembers its answers."""

    def __init__(self, check: Check = _bots_check, size: int = CACHE_SIZE) -> None:
        self._check = check
        self._size = size
        self._answers: OrderedDict[tuple[str, tuple[str, ...]], bool] = OrderedDict()
        self._lock = threading.Lock()

    def known(self, clue: str, keywords: Sequence[str]) -> bool:
        with self._lock:
            return (clue, tuple(keywords)) in self._answers

    def __call__(self, clue: str, keywords: Sequence[str]) -> bool:
        key = (clue, tuple(keywords))
        with self._lock:
            answer = self._answers.get(key)
            if answer is not None:
                self._answers.move_to_end(key)
                return answer
        if _on_event_loop():
            return False  # not known yet: the worker thread's views_ready asks
        answer = self._check(clue, keywords)
        with self._lock:
            self._answers[key] = answer
            while len(self._answers) > self._size:
                self._answers.popitem(last=False)
        return answer


def server_rules(check: Check = _bots_check) -> dict[str, GameRules[Any]]:
    """The games as the server runs them: Decrypto with the translation warning plugged in."""
    decrypto = DecryptoRules(translation_check=OffLoopTranslationCheck(check))
    return {**RULES_BY_NAME, decrypto.name: decrypto}
