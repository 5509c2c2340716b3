/**
 * The client's single state object. Anything that changes it goes through `update`, which
 * schedules one re-render of the whole tree per animation frame: the app is small enough that a
 * top-down render is cheaper to reason about than per-component subscriptions.
 */
const state = {
  route: { name: "home" },
  lang: "en",
  theme: "auto",
  muted: false,
  connection: "idle", // idle | connecting | open | lost
  retryAt: null, // epoch ms of the next reconnect attempt while lost
  room: null, // the room description the server sends (docs/protocol.md)
  you: null, // this tab's player id in the room, or null before joining
  view: null, // the game view for this viewer (docs/views.md), null before a game starts
  gameId: null,
  version: 0,
  chat: [], // chat lines this player may read, in seq order
  chatSeq: 0,
  outbox: [], // [{id, channel, text}] chat lines sent and not yet acknowledged
  toasts: [], // [{id, text}] transient messages (errors, copied...)
  rulesOpen: false, // whether the How-to-play dialog is open
  roomError: null, // an error code that ends the room screen (room_not_found)
  publicRooms: [],
  replay: null, // {key, status: choose | loading | ready | error, data, error}: replay.js
  clockSkew: 0, // server time minus local time, in ms
  me: null, // the visitor's profile from GET /api/me (docs/identity.md), null until loaded
};

let listener = null;
let scheduled = false;

export function getState() {
  return state;
}

/** Shallow-merges `patch` (an object or a function of the state) and schedules a render. */
export function update(patch) {
  Object.assign(state, typeof patch === "function" ? patch(state) : patch);
  if (listener && !scheduled) {
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      listener(state);
    });
  }
}

export function onChange(fn) {
  listener = fn;
}

let toastId = 0;
/** A short message shown for a few seconds; announced to screen readers by the toast region. */
export function toast(text, ms = 4000) {
  const id = ++toastId;
  update((s) => ({ toasts: [...s.toasts, { id, text }] }));
  setTimeout(() => update((s) => ({ toasts: s.toasts.filter((x) => x.id !== id) })), ms);
}

/** Server time now, in epoch seconds, corrected by the skew measured on the last message. */
export function serverNow() {
  return (Date.now() + state.clockSkew) / 1000;
}
