"""The server process's collector schedule: young passes on a clock, a full one rarely."""

from __future__ import annotations

import asyncio
import gc

import pytest

from codebreakers.server.ops import process


def test_collections_run_on_a_clock_with_the_automatic_collector_off(monkeypatch) -> None:
    passes: list[int] = []
    seen_enabled: list[bool] = []

    def collect(generation: int = 2) -> int:
        passes.append(generation)
        seen_enabled.append(gc.isenabled())
        return 0

    monkeypatch.setattr(process, "YOUNG_EVERY_S", 0.001)
    monkeypatch.setattr(process, "FULL_EVERY", 5)
    monkeypatch.setattr(process.gc, "collect", collect)
    monkeypatch.setattr(process, "COLLECTOR", process.CollectorStats())

    async def run() -> None:
        task = asyncio.get_running_loop().create_task(process.collect_on_schedule())
        while len(passes) < 10:
            await asyncio.sleep(0.001)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    assert gc.isenabled()
    asyncio.run(run())
    assert gc.isenabled()  # given back when the schedule stops
    assert not any(seen_enabled)
    assert passes[:10] == [0, 0, 0, 0, 2, 0, 0, 0, 0, 2]
    assert process.COLLECTOR.passes[2] >= 2  # timed for /metrics
    assert process.COLLECTOR.passes[0] >= 8
