/**
 * The visitor's profile (docs/identity.md): `GET /api/me` at start-up makes one on the first
 * visit (the server sets its secret in an HttpOnly cookie this code never sees), then name,
 * language and hidden are changed with `PATCH /api/me`, the browser signed out, and a passkey
 * registered or used to sign in, through the browser's WebAuthn JSON helpers.
 */
import { getState, update } from "./store.js";

const JSON_HEADERS = { "Content-Type": "application/json" };

/** An Error carrying the server's stable code, for errorText. */
async function failure(res) {
  let code = "internal_error";
  try {
    code = (await res.json()).error.code;
  } catch {
    // not a JSON error body: keep internal_error
  }
  const err = new Error(code);
  err.code = code;
  return err;
}

async function call(path, method = "GET", body = undefined) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : JSON_HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  if (!res.ok) throw await failure(res);
  return res.json();
}

/** The profile, made on the first visit; kept in the state as `me`. */
export async function loadMe() {
  const me = await call("/api/me");
  update({ me });
  return me;
}

const NAMED_KEY = "cb.profile.named"; // set once the player named the profile in its card

/** The name typed to play becomes the profile's (its default, "Player 1234", says nothing),
 * until the player names the profile itself in the profile card. */
export function adoptName(name) {
  const me = getState().me;
  if (!me || !name || me.name === name || localStorage.getItem(NAMED_KEY)) return;
  changeMe({ name }).catch(() => {}); // a name the profile refuses keeps the one it has
}

/** The player's own choice of name, in the profile card: kept from then on. */
export async function nameMe(name) {
  const me = await changeMe({ name });
  localStorage.setItem(NAMED_KEY, "1");
  return me;
}

export async function changeMe(change) {
  const me = await call("/api/me", "PATCH", change);
  update({ me });
  return me;
}

/** Forget this browser's identity; a new anonymous profile is made at once. */
/** Back to this profile's own seat in a room this browser holds no token for (another device
 * signed in with a passkey, a token lost): its new seat token, or null where the profile holds
 * no player (the server says why; the tab then opens the room as anyone would). */
export async function reclaimSeat(code) {
  try {
    return (await call(`/api/me/rooms/${encodeURIComponent(code)}/seat`, "POST", {})).token;
  } catch {
    return null;
  }
}

export async function signOut() {
  await call("/api/me/sign-out", "POST", {});
  return loadMe();
}

export const myGames = () => call("/api/me/games");

export function passkeysSupported() {
  return Boolean(
    window.PublicKeyCredential &&
      PublicKeyCredential.parseCreationOptionsFromJSON &&
      PublicKeyCredential.parseRequestOptionsFromJSON &&
      window.isSecureContext,
  );
}

/** Secure the profile with a new passkey. */
export async function addPasskey() {
  const options = await call("/api/passkeys/register/options", "POST", {});
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
  const credential = await navigator.credentials.create({ publicKey });
  const me = await call("/api/passkeys/register", "POST", credential.toJSON());
  update({ me });
  return me;
}

/** Sign this browser in with a passkey: it becomes the passkey's profile. */
export async function signInWithPasskey() {
  const options = await call("/api/passkeys/sign-in/options", "POST", {});
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
  const credential = await navigator.credentials.get({ publicKey });
  const me = await call("/api/passkeys/sign-in", "POST", credential.toJSON());
  update({ me });
  return me;
}
