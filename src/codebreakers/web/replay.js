/**
 * A replay's data (docs/replays.md): the server folds the game and sends every step as the
 * chosen viewpoint saw it, so the client computes no view and holds no secret but those the
 * viewpoint had. A stored game is fetched by its id; a record file is read here and sent to
 * the server, which keeps nothing (the file stays in this tab, to ask again for another
 * viewpoint). Answers are kept per source and viewpoint, so switching back costs nothing.
 */
import { update } from "./store.js";

const MAX_FILE_BYTES = 2 * 1024 * 1024; // the server's bound (server/http/replays.py)
const cache = new Map();
let file = null; // {id, name, text}: the record chosen on this device
let files = 0;

/** What a replay is known by: its game (or the local file) and the viewpoint (the server's
 * default, a spectator, when the address names none). */
export function replayKey(gameId, as) {
  return `${gameId ? `g:${gameId}` : `f:${file ? file.id : ""}`}|${as || "spectator"}`;
}

async function errorCode(res) {
  try {
    return (await res.json()).error.code || "internal_error";
  } catch {
    return "internal_error";
  }
}

async function ask(gameId, as) {
  const query = as ? `?as=${encodeURIComponent(as)}` : "";
  if (gameId) return fetch(`/api/games/${encodeURIComponent(gameId)}/replay${query}`);
  return fetch(`/api/replay${query}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: file.text });
}

/** Loads the replay of `gameId` (null: the local file) as `as` into `state.replay`; resolves
 * to its data, or null when refused. */
export async function loadReplay(gameId, as) {
  const key = replayKey(gameId, as);
  if (!gameId && !file) {
    update({ replay: { key, status: "choose" } });
    return null;
  }
  if (cache.has(key)) {
    update({ replay: { key, status: "ready", data: cache.get(key) } });
    return cache.get(key);
  }
  update({ replay: { key, status: "loading" } });
  let res;
  try {
    res = await ask(gameId, as);
  } catch {
    update({ replay: { key, status: "error", error: "unreachable" } });
    return null;
  }
  if (!res.ok) {
    update({ replay: { key, status: "error", error: await errorCode(res) } });
    return null;
  }
  const data = await res.json();
  cache.set(key, data);
  update({ replay: { key, status: "ready", data } });
  return data;
}

/** Keeps a chosen record file for `/replay`; false when it is too large to be one. */
export async function chooseFile(chosen) {
  if (!chosen || chosen.size > MAX_FILE_BYTES) return false;
  file = { id: ++files, name: chosen.name, text: await chosen.text() };
  return true;
}

/** The index of the step a viewpoint shows after `actions` actions: its last one by then. */
export function stepAt(steps, actions) {
  let found = 0;
  steps.forEach((s, i) => {
    if (s.actions <= actions) found = i;
  });
  return found;
}
