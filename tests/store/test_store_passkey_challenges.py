"""Passkey challenges (migration 0008): held by (secret hash, ceremony), taken once, refused and
swept once expired, on both adapters; two stores on one database (two nodes) share them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa

from codebreakers.store import dialects, open_store
from codebreakers.store.base import Store

pytestmark = pytest.mark.anyio

A, B = b"a" * 32, b"b" * 32


async def held_keys(url: str) -> set[tuple[str, str]]:
    """The (secret hash, ceremony) of every row, read through SQLAlchemy, not the adapter."""
    runner = dialects.runner(url)
    await runner.open()
    try:

        def rows(conn: sa.Connection) -> set[tuple[str, str]]:
            found = conn.execute(sa.text("SELECT secret_hash, ceremony FROM passkey_challenges"))
            return {(r[0], r[1]) for r in found}

        result: set[tuple[str, str]] = await runner.read(rows)
        return result
    finally:
        await runner.close()


async def test_a_challenge_is_taken_once_by_its_own_browser_and_ceremony(store: Store) -> None:
    await store.put_challenge("hash-a", "register", A, 400.0, 100.0)
    await store.put_challenge("hash-b", "register", B, 400.0, 100.0)
    assert await store.take_challenge("hash-a", "sign_in", 101.0) is None  # another ceremony
    assert await store.take_challenge("hash-c", "register", 101.0) is None  # another browser
    assert await store.take_challenge("hash-a", "register", 101.0) == A
    assert await store.take_challenge("hash-a", "register", 101.0) is None  # used once
    assert await store.take_challenge("hash-b", "register", 400.0) == B  # good until expires_at


async def test_a_new_challenge_replaces_the_one_asked_before(store: Store) -> None:
    await store.put_challenge("hash-a", "sign_in", A, 400.0, 100.0)
    await store.put_challenge("hash-a", "sign_in", B, 500.0, 200.0)
    assert await store.take_challenge("hash-a", "sign_in", 450.0) == B
    assert await store.take_challenge("hash-a", "sign_in", 450.0) is None


async def test_an_expired_challenge_is_refused_and_gone(store: Store) -> None:
    await store.put_challenge("hash-a", "register", A, 400.0, 100.0)
    assert await store.take_challenge("hash-a", "register", 400.5) is None  # expired
    await store.put_challenge("hash-a", "register", B, 900.0, 600.0)
    assert await store.take_challenge("hash-a", "register", 601.0) == B


async def test_putting_a_challenge_sweeps_the_expired_ones(store: Store, store_url: str) -> None:
    await store.put_challenge("hash-old", "register", A, 400.0, 100.0)
    await store.put_challenge("hash-old", "sign_in", A, 450.0, 100.0)
    await store.put_challenge("hash-live", "register", A, 800.0, 100.0)
    await store.put_challenge("hash-x", "sign_in", A, 700.0, 100.0)
    assert await held_keys(store_url) == {
        ("hash-old", "register"),
        ("hash-old", "sign_in"),
        ("hash-live", "register"),
        ("hash-x", "sign_in"),
    }
    await store.put_challenge("hash-new", "sign_in", B, 1000.0, 700.0)  # 400, 450 expired
    assert await held_keys(store_url) == {
        ("hash-live", "register"),
        ("hash-x", "sign_in"),  # expires at 700 exactly: still good at 700
        ("hash-new", "sign_in"),
    }


async def test_two_stores_on_one_database_share_challenges_and_hand_one_out_once(
    store: Store, store_url: str
) -> None:
    other = open_store(store_url)  # a second node's store
    await other.open()
    try:
        await store.put_challenge("hash-a", "register", A, 400.0, 100.0)
        assert await other.take_challenge("hash-a", "register", 101.0) == A
        assert await store.take_challenge("hash-a", "register", 101.0) is None
        for round_ in range(5):
            secret = f"hash-race-{round_}"
            await other.put_challenge(secret, "sign_in", B, 400.0, 100.0)
            takes: list[Any] = [
                s.take_challenge(secret, "sign_in", 101.0) for s in (store, other) * 4
            ]
            got = await asyncio.gather(*takes)
            assert sorted(got, key=lambda g: g is None) == [B] + [None] * 7
    finally:
        await other.close()
