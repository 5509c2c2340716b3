"""Check the store against what clients were promised: nothing lost, nothing twice.

After a campaign the database is read directly (no server): every acknowledged action must be
stored exactly once at the version its `ack` named, nothing may be stored that no client sent,
and every game's log must fold (through the same parse-and-apply path as a record replay) to
the outcome stored for it and the outcome its players saw.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from codebreakers.campaigns.players import Ledger
from codebreakers.games.records import RecordError, fold, rules_for
from codebreakers.store import open_store

JSON = dict[str, Any]


async def check_store(db: str, ledger: Ledger, bot_prefix: str = "bot-") -> JSON:
    store = open_store(db)
    await store.open()
    try:
        return await _check(store, ledger, bot_prefix)
    finally:
        await store.close()


async def _check(store: Any, ledger: Ledger, bot_prefix: str) -> JSON:
    """Acknowledged ids are matched across all games of their room: `act` names no game, so a
    tab whose view was a step behind a rematch may have played into the new game (counted as
    `applied_to_next_game`, not as a loss)."""
    replay_mismatch: list[str] = []
    unfinished: list[str] = []
    stored: dict[tuple[str, str], list[tuple[str, int]]] = {}  # (seat, id) -> [(game, version)]
    stored_actions = 0
    games = sorted({g for ids in ledger.rooms.values() for g in ids} | {k[0] for k in ledger.acked})
    for game_id in games:
        row = await store.load_game(game_id)
        if row is None:
            replay_mismatch.append(f"{game_id}: missing")
            continue
        stored_actions += len(row.actions)
        for a in row.actions:
            if a.client_action_id:
                stored.setdefault((a.seat, a.client_action_id), []).append((game_id, a.version))
        problem = _replay_problem(row, ledger.outcomes.get(game_id))
        if problem == "unfinished":
            unfinished.append(game_id)
        elif problem:
            replay_mismatch.append(f"{game_id}: {problem}")
    lost = wrong_version = next_game = 0
    for (game_id, seat, msg_id), version in ledger.acked.items():
        found = stored.get((seat, msg_id), [])
        if not found:
            lost += 1
        elif found[0][1] != version:
            wrong_version += 1
        elif found[0][0] != game_id:
            next_game += 1
    promised = {(seat, msg_id) for (_, seat, msg_id) in ledger.acked}
    chat = await _check_chat(store, ledger)
    return {
        "games": len(games),
        "games_unfinished": len(unfinished),
        "stored_actions": stored_actions,
        "acked_actions": len(ledger.acked),
        "lost": lost,
        "duplicates": sum(len(v) - 1 for v in stored.values()),
        "wrong_version": wrong_version,
        "applied_to_next_game": next_game,
        "unexpected": sum(
            1 for key in stored if key not in promised and not key[1].startswith(bot_prefix)
        ),
        "replay_mismatch": replay_mismatch,
        **chat,
    }


def _replay_problem(row: Any, seen: JSON | None) -> str | None:
    rules = rules_for(row.game)
    entries = [{"seat": a.seat, "action": a.action, "at": a.at} for a in row.actions]
    try:
        state = fold(rules, row.setup, entries).state
    except RecordError as exc:
        return f"the log does not replay: {exc}"
    if not row.over:
        return "unfinished"
    replayed = rules.outcome(state)
    if replayed != row.outcome:
        return f"stored outcome {row.outcome} but the log replays to {replayed}"
    if seen is not None and seen != replayed:
        return f"players saw {seen} but the log replays to {replayed}"
    return None


async def _check_chat(store: Any, ledger: Ledger) -> JSON:
    """Acknowledged chat lines are stored; a retried line stored twice is counted."""
    texts: Counter[tuple[str, str]] = Counter()
    for room in ledger.rooms:
        after = 0
        while lines := await store.chat_since(room, after, 500):
            texts.update((room, line.text) for line in lines)
            after = lines[-1].seq
    promised = Counter((room, text) for (room, _), text in ledger.chat_acked.items())
    return {
        "chat_acked": len(ledger.chat_acked),
        "chat_lost": sum(max(0, n - texts[key]) for key, n in promised.items()),
        "chat_duplicates": sum(max(0, texts[key] - n) for key, n in promised.items()),
    }
