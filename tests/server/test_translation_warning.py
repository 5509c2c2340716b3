"""The translation warning on the server: the bots' check, asked off the event loop only, shown
as a warning on the encryptor's draft and never blocking a transmission."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence

from server_harness import start_game

from codebreakers.server.play.translation import OffLoopTranslationCheck, server_rules


class SlowCheck:
    """Stands in for the encoder: slow, and it records whether it ran on an event loop."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, bool]] = []

    def __call__(self, clue: str, keywords: Sequence[str]) -> bool:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        self.calls.append((clue, on_loop))
        time.sleep(0.05)  # an encoder's cost for a new text, give or take
        return clue == "lune"


def test_the_check_computes_only_off_the_loop_and_remembers() -> None:
    slow = SlowCheck()
    check = OffLoopTranslationCheck(slow)

    async def on_loop() -> bool:
        return check("lune", ("moon",))

    assert asyncio.run(on_loop()) is False  # unknown on the loop: no warning, no wait
    assert slow.calls == [] and not check.known("lune", ("moon",))
    worker = threading.Thread(target=check, args=("lune", ("moon",)))
    worker.start()
    worker.join()
    assert check.known("lune", ("moon",)) and asyncio.run(on_loop()) is True
    assert slow.calls == [("lune", False)]


def test_a_draft_that_looks_translated_is_warned_and_still_sent(server_with) -> None:
    slow = SlowCheck()
    server = server_with(ports={"rules": server_rules(slow)})
    _, _, table = start_game(server)
    view = table.any_view()
    encryptor = table.by_seat[view["waiting_for"][0]["seat"]]
    encryptor.ok({"type": "act", "action": {"type": "draft", "clues": ["lune", "sea", ""]}})
    table.sync(1)
    assert encryptor.view is not None
    team = encryptor.view["you"]["team"]
    mine = encryptor.view["rounds"][-1]["transmissions"][team]
    assert "translation" in mine["clue_warnings"][0]
    assert "translation" not in mine["clue_warnings"][1]
    assert slow.calls and not any(on_loop for _, on_loop in slow.calls)
    asked = len(slow.calls)
    encryptor.ok({"type": "act", "action": {"type": "transmit", "clues": ["lune", "sea", "sky"]}})
    table.sync(2)
    assert table.any_view()["rounds"][-1]["transmissions"][team]["status"] == "decoding"
    assert len(slow.calls) == asked  # answers are remembered (a transmit has no draft to ask)
