"""What the bench reports of Redis from two samples of its counters."""

from __future__ import annotations

import pytest

from codebreakers.bench.redisstats import RedisSample, sample, window_report


def test_cost_per_action_per_publish_and_per_delivery() -> None:
    before = RedisSample(cpu_s=10.0, publishes=1_000, output_bytes=50_000, subscribers=4)
    after = RedisSample(cpu_s=10.5, publishes=3_000, output_bytes=250_000, subscribers=4)
    report = window_report(before, after, span_s=10.0, actions_per_s=100.0)
    assert report["cpu"] == pytest.approx(0.05)
    assert report["cpu_ms_per_action"] == pytest.approx(0.5)
    assert report["publishes_per_s"] == 200.0
    assert report["subscribers"] == 4
    assert report["cpu_us_per_publish"] == pytest.approx(250.0)
    assert report["cpu_us_per_delivery"] == pytest.approx(62.5)  # each publish reaches 4 nodes
    assert report["output_bytes_per_s"] == 20_000


def test_nothing_published_gives_no_cost_per_publish() -> None:
    idle = RedisSample(cpu_s=1.0, publishes=7, output_bytes=0, subscribers=0)
    report = window_report(idle, idle, span_s=5.0, actions_per_s=0.0)
    assert report["cpu_us_per_publish"] is None and report["cpu_ms_per_action"] is None


def test_a_redis_that_does_not_answer_gives_no_sample() -> None:
    assert sample("redis://127.0.0.1:1/0") is None
