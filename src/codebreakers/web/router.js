/**
 * Screens chosen by the path: `/` (home), `/r/{CODE}` (a room), `/g/{GAME_ID}` (a finished
 * game's replay, `?as=` viewpoint and `?step=` in the query), `/replay` (a replay of a record
 * file chosen on this device), `/leaderboard?game=G&page=N` and `/u/{profile_id}` (a player's
 * profile). History API navigation.
 */
import { update } from "./store.js";

export function parse(path, search = "") {
  const room = /^\/r\/([A-Za-z0-9]{4,12})\/?$/.exec(path);
  if (room) return { name: "room", code: room[1].toUpperCase() };
  const game = /^\/g\/([A-Za-z0-9_-]{1,64})\/?$/.exec(path);
  if (game || /^\/replay\/?$/.test(path)) {
    const query = new URLSearchParams(search);
    const step = Number.parseInt(query.get("step") || "", 10);
    return { name: "replay", gameId: game ? game[1] : null, as: query.get("as"), step: step >= 1 ? step : null };
  }
  if (/^\/leaderboard\/?$/.test(path)) {
    const q = new URLSearchParams(search);
    return { name: "leaderboard", game: q.get("game") || "decrypto", page: Number(q.get("page")) || 1 };
  }
  const profile = /^\/u\/([A-Za-z0-9_-]{1,64})\/?$/.exec(path);
  if (profile) return { name: "profile", id: profile[1] };
  return { name: "home" };
}

/** The address of a replay: the game, the viewpoint and the step (1-based), never a secret. */
export function replayPath(gameId, as, step) {
  const query = new URLSearchParams();
  if (as) query.set("as", as);
  if (step) query.set("step", String(step));
  const q = query.toString();
  return `${gameId ? `/g/${encodeURIComponent(gameId)}` : "/replay"}${q ? `?${q}` : ""}`;
}

export function navigate(path) {
  history.pushState(null, "", path);
  const url = new URL(path, location.origin);
  update({ route: parse(url.pathname, url.search) });
}

/** The same screen at another address (a replay's step): no new history entry. */
export function replaceRoute(path) {
  history.replaceState(null, "", path);
  const url = new URL(path, location.origin);
  update({ route: parse(url.pathname, url.search) });
}

window.addEventListener("popstate", () => update({ route: parse(location.pathname, location.search) }));
