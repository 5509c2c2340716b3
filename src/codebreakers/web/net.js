/**
 * The WebSocket client (docs/protocol.md): `hello` with the seat token kept per room in
 * localStorage, one id per message with exactly one `ack` or `error` back, automatic reconnection
 * with exponential backoff, and resume by sending the game version and chat sequence already held.
 * Messages that got no answer before the socket dropped are sent again with the same id after
 * the next `welcome`; the server applies an id at most once. Keep-alive: a `ping` every few
 * seconds (the server drops a socket that pinged and fell silent, so the others see this player
 * away), and a server heard from not at all for SILENT_MS counts as lost: the socket is given
 * up and the usual reconnection (and catch-up) begins, as soon as the browser is back online.
 */
import { errorText } from "./i18n.js";
import { reclaimSeat } from "./me.js";
import { getState, toast, update } from "./store.js";

const MIN_DELAY_MS = 500;
const MAX_DELAY_MS = 15000;
const PING_MS = 3000;
const SILENT_MS = 10000;
// Math.random, not crypto.randomUUID: the latter needs a secure context, which a LAN address
// served over plain http is not.
const TAB = Math.random().toString(36).slice(2, 10);

let ws = null;
let roomCode = null;
let attempt = 0;
let retryTimer = null;
let counter = 0;
let welcomed = false;
let heardAt = 0; // when the socket last received a frame
let pinger = null;
const pending = new Map(); // id -> {frame, resolve, quiet}

const tokenKey = (code) => `cb.token.${code}`;
const reclaimTried = new Set(); // rooms this page asked its seat back in (once each)
export const savedToken = (code) => localStorage.getItem(tokenKey(code));
const MAX_HELD = 32; // the server reads at most this many (server/http/quickplay.py)

/** The seats this browser holds, one per room, so quick join can find the one it would pick. */
export function heldSeats() {
  const held = [];
  for (let i = 0; i < localStorage.length && held.length < MAX_HELD; i++) {
    const key = localStorage.key(i);
    if (key.startsWith("cb.token.")) held.push({ code: key.slice(9), token: localStorage.getItem(key) });
  }
  return held;
}

/** Forgets everything about the room this tab was in. */
function forgetRoom() {
  pending.clear();
  update({ room: null, you: null, view: null, gameId: null, version: 0, chat: [], chatSeq: 0, outbox: [] });
}

/** The chat lines sent but not yet acknowledged, shown as pending (or failed) by the chat. */
function syncOutbox() {
  const outbox = [];
  for (const [id, p] of pending) {
    if (p.frame.type === "chat") outbox.push({ id, channel: p.frame.channel, text: p.frame.text });
  }
  update({ outbox });
}

/** Every PING_MS (and at once on `welcome`, which arms the server's side): a ping, and the
 * socket given up when the server has been silent too long. */
function keepAlive() {
  if (!ws || !welcomed) return;
  if (Date.now() - heardAt > SILENT_MS) {
    drop();
    return;
  }
  ws.send(JSON.stringify({ type: "ping", id: `${TAB}-ping` }));
}

/** The socket is dead (or silent): stop listening to it and reconnect. */
function drop() {
  const sock = ws;
  ws = null;
  welcomed = false;
  if (sock) {
    sock.onclose = null;
    sock.onmessage = null;
    sock.close();
  }
  if (roomCode) scheduleRetry(Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** attempt) * (0.75 + Math.random() / 2));
}

window.addEventListener("online", () => {
  if (roomCode && !welcomed) open();
});

/** Opens (or re-opens) the socket for a room; a different room resets the client state. */
export function connect(code) {
  if (roomCode !== code) {
    forgetRoom();
    update({ roomError: null });
  }
  roomCode = code;
  open();
}

/** Closes the socket for good (leaving the room screen, or a room that doesn't exist). */
export function disconnect() {
  roomCode = null;
  clearTimeout(retryTimer);
  clearInterval(pinger);
  if (ws) {
    ws.onclose = null;
    ws.close(1000);
  }
  ws = null;
  forgetRoom();
  update({ connection: "idle", retryAt: null });
}

function open() {
  clearTimeout(retryTimer);
  if (ws) {
    ws.onclose = null;
    ws.close();
  }
  welcomed = false;
  clearInterval(pinger);
  pinger = setInterval(keepAlive, PING_MS);
  update({ connection: getState().connection === "lost" ? "lost" : "connecting" });
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const sock = new WebSocket(`${proto}//${location.host}/ws`);
  ws = sock;
  sock.onopen = async () => {
    if (!(await tokenReady(roomCode, sock)) || ws !== sock) return;
    const s = getState();
    const hello = { type: "hello", room: roomCode };
    const token = savedToken(roomCode);
    if (token) hello.token = token;
    if (s.view) hello.game_version = s.version;
    if (s.chatSeq) hello.chat_seq = s.chatSeq;
    sock.send(JSON.stringify(hello));
  };
  sock.onmessage = (e) => {
    heardAt = Date.now();
    receive(JSON.parse(e.data));
  };
  sock.onclose = () => {
    if (ws === sock && roomCode) drop();
  };
}

/** Before the hello: a browser with a profile but no seat token for the room asks once for
 * its own seat back (me.js reclaimSeat); false when the socket closed meanwhile. */
async function tokenReady(code, sock) {
  if (savedToken(code) || !getState().me || reclaimTried.has(code)) return true;
  reclaimTried.add(code);
  const token = await reclaimSeat(code);
  if (token && code === roomCode) localStorage.setItem(tokenKey(code), token);
  return sock.readyState === WebSocket.OPEN;
}

function scheduleRetry(delay) {
  attempt += 1;
  update({ connection: "lost", retryAt: Date.now() + delay });
  clearTimeout(retryTimer);
  retryTimer = setTimeout(open, delay);
}

/** Reconnects now (the banner's "retry" button). */
export function retryNow() {
  if (roomCode) open();
}

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      welcomed = true;
      attempt = 0;
      update({
        you: msg.you,
        connection: "open",
        retryAt: null,
        clockSkew: msg.server_time * 1000 - Date.now(),
      });
      keepAlive();
      for (const p of pending.values()) ws.send(JSON.stringify(p.frame));
      break;
    case "joined":
      localStorage.setItem(tokenKey(roomCode), msg.token);
      update({ you: msg.you });
      break;
    case "ack":
      settle(msg.id, true);
      break;
    case "error":
      if (msg.code === "room_not_found") {
        update({ roomError: msg.code });
        disconnect();
        break;
      }
      if (msg.code === "bad_token") {
        localStorage.removeItem(tokenKey(roomCode));
        if (getState().me && !reclaimTried.has(roomCode)) open(); // the seat may be ours still
      }
      if (!settle(msg.id, false, msg) && msg.code !== "bad_token") toast(errorText(msg.code));
      break;
    case "room":
      update({ room: msg.room, you: msg.you });
      break;
    case "view":
      receiveView(msg);
      break;
    case "chat":
      receiveChat(msg.lines);
      break;
    case "bye":
      if (ws) {
        ws.onclose = null;
        ws.close();
        ws = null;
      }
      attempt = 0;
      scheduleRetry(msg.retry_ms);
      break;
  }
}

function receiveView(msg) {
  const s = getState();
  // A stale frame (an older version of the same game) must not roll the table back.
  if (msg.game_id === s.gameId && msg.version < s.version) return;
  update({ view: msg.view, gameId: msg.game_id, version: msg.version });
}

function receiveChat(lines) {
  const s = getState();
  const fresh = lines.filter((l) => l.seq > s.chatSeq);
  if (!fresh.length) return;
  update({ chat: [...s.chat, ...fresh], chatSeq: fresh[fresh.length - 1].seq });
}

function settle(id, ok, err) {
  const p = id && pending.get(id);
  if (!p) return false;
  pending.delete(id);
  if (!ok && !p.quiet) toast(errorText(err.code, err.detail));
  if (p.frame.type === "chat") syncOutbox();
  p.resolve(ok ? true : false);
  if (!ok) p.onError?.(err.code, err.detail);
  return true;
}

/**
 * Sends one client message; resolves to true on `ack`, false on `error` (which is shown as a
 * translated toast unless `quiet`). Sent after the next `welcome` when the socket is down.
 */
export function send(type, fields = {}, opts = {}) {
  // With no room open (a replay's table is read-only) nothing is sent, and nothing is queued
  // for a socket opened later.
  if (!roomCode) return Promise.resolve(false);
  const id = `${TAB}-${++counter}`;
  const frame = { type, id, ...fields };
  return new Promise((resolve) => {
    pending.set(id, { frame, resolve, quiet: !!opts.quiet, onError: opts.onError });
    if (type === "chat") syncOutbox();
    if (ws && welcomed && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
  });
}

/** A game action (docs/views.md). */
export const act = (action, opts) => send("act", { action }, opts);
/** A game action judged by the engine and not applied: true when it would be accepted. */
export const check = (action, opts) => send("check", { action }, opts);
