/**
 * The home page's own corner: "your games" (the open rooms this profile plays in, back in with
 * one click (the seat token in this browser's storage, or asked for again: net.js); the last finished games,
 * each a link to its replay at /g/{id}) and "your profile" (name, hidden, a passkey to keep the
 * profile and to sign in on another device, sign out). Served by /api/me and /api/me/games.
 */
import { html, useEffect, useState } from "../html.js";
import { t, errorText, formatDate } from "../i18n.js";
import { toast } from "../store.js";
import { enterRoom } from "./lobby.js";
import {
  addPasskey, changeMe, myGames, nameMe, passkeysSupported, signInWithPasskey, signOut,
} from "../me.js";

export function YourGames({ me }) {
  const [games, setGames] = useState(null);
  useEffect(() => {
    let alive = true;
    if (!me) return undefined;
    myGames().then((g) => alive && setGames(g)).catch(() => alive && setGames({ rooms: [], games: [] }));
    return () => { alive = false; };
  }, [me && me.profile_id]);
  if (!me || games === null || (games.rooms.length === 0 && games.games.length === 0)) return null;
  return html`<section class="card your-games" aria-labelledby="yours-title">
    <h2 id="yours-title">${t("home.your_games")}</h2>
    ${games.rooms.length
      ? html`<h3 class="small-title">${t("home.your_rooms")}</h3>
        <ul class="room-list">
          ${games.rooms.map((r) => html`<li>
            <a href=${r.url} onClick=${(e) => { e.preventDefault(); enterRoom(r.code); }}>
              <strong>${t(`game.${r.game}`)}</strong>
              <span class="small">${t(`home.status.${r.status}`)}</span>
              <span class="code-tag">${r.code}</span>
              <span class="small">${t("home.back_in")}</span>
            </a>
          </li>`)}
        </ul>`
      : null}
    ${games.games.length
      ? html`<h3 class="small-title">${t("home.finished")}</h3>
        <ul class="room-list">
          ${games.games.map((g) => html`<li>
            <a href=${g.url}>
              <strong>${t(`game.${g.game}`)}</strong>
              <span class="small">${g.result ? t(`home.result.${g.result}`) : ""}</span>
              <span class="muted small">${formatDate(g.created_at, true)}</span>
              <span class="small replay-tag">${t("home.replay")}</span>
            </a>
          </li>`)}
        </ul>`
      : null}
  </section>`;
}

export function ProfileCard({ me }) {
  const [name, setName] = useState(me ? me.name : "");
  const [busy, setBusy] = useState(false);
  useEffect(() => { if (me) setName(me.name); }, [me && me.name]);
  if (!me) return null;
  async function run(work, done) {
    setBusy(true);
    try {
      await work();
      if (done) toast(t(done));
    } catch (err) {
      if (err && err.name === "NotAllowedError") toast(t("me.passkey_cancelled"));
      else toast(errorText(err.code || "internal_error"));
    } finally {
      setBusy(false);
    }
  }
  const save = (e) => { e.preventDefault(); run(() => nameMe(name), "me.saved"); };
  const leave = () => { if (confirm(t(me.passkeys ? "me.sign_out_confirm_secured" : "me.sign_out_confirm"))) run(signOut); };
  const can = passkeysSupported();
  return html`<section class="card profile-card" aria-labelledby="me-title">
    <h2 id="me-title">${t("me.title")}</h2>
    <form class="row" onSubmit=${save}>
      <label for="me-name" class="visually-hidden">${t("me.name")}</label>
      <input id="me-name" value=${name} maxlength="32" autocomplete="nickname"
        onInput=${(e) => setName(e.currentTarget.value)} />
      <button type="submit" disabled=${busy || !name.trim() || name.trim() === me.name}>${t("me.save")}</button>
    </form>
    <label class="check" for="me-hidden">
      <input id="me-hidden" type="checkbox" checked=${me.hidden} disabled=${busy}
        onChange=${(e) => run(() => changeMe({ hidden: e.currentTarget.checked }))} />
      <span>${t("me.hidden")}</span>
    </label>
    <p class="muted small" id="me-secured">${t(me.passkeys ? "me.secured" : "me.unsecured")}</p>
    <div class="row wrap">
      ${can
        ? html`<button type="button" id="me-add-passkey" disabled=${busy} onClick=${() => run(addPasskey, "me.passkey_added")}>${t("me.secure")}</button>
          <button type="button" id="me-sign-in" disabled=${busy} onClick=${() => run(signInWithPasskey, "me.signed_in")}>${t("me.sign_in")}</button>`
        : html`<span class="muted small">${t("me.passkey_unsupported")}</span>`}
      <button type="button" id="me-sign-out" disabled=${busy} onClick=${leave}>${t("me.sign_out")}</button>
    </div>
  </section>`;
}
