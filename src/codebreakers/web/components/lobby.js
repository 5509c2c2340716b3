/**
 * The room before a game: the share link with a copy button and a QR code (served by the server
 * as SVG), both teams' seats, the spectators, the options (editable by the host) and the start.
 */
import { html, useEffect, useRef, useState } from "../html.js";
import { t } from "../i18n.js";
import { send } from "../net.js";
import { adoptName } from "../me.js";
import { navigate } from "../router.js";
import { toast } from "../store.js";
import { gameUi } from "../games.js";
import { Seats, Spectators } from "./seats.js";
import { BotOffer } from "./playnow.js";
import { Icon } from "./common.js";

function Share({ room }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(room.url);
      toast(t("lobby.copied"));
    } catch {
      document.getElementById("share-link").select();
      toast(t("lobby.copy_manually"));
    }
  }
  return html`<section class="card share" aria-labelledby="share-title">
    <h2 id="share-title">${t("lobby.invite")}</h2>
    <div class="share-body">
      <div class="stack">
        <p class="room-code">${t("lobby.code")} <strong>${room.code}</strong></p>
        <label for="share-link"><span class="label">${t("lobby.link")}</span></label>
        <div class="row">
          <input id="share-link" readonly value=${room.url} onFocus=${(e) => e.currentTarget.select()} />
          <button onClick=${copy}><${Icon} name="copy" /> ${t("lobby.copy")}</button>
        </div>
      </div>
      <img class="qr" src=${`/api/rooms/${room.code}/qr.svg`} width="148" height="148"
        alt=${t("lobby.qr_alt", { code: room.code })} />
    </div>
  </section>`;
}

const NAME_KEY = "cb.name";
const arrivalKey = (code) => `cb.arrive.${code}`;

/** Entering `code` from the home page (created, code typed, listed room): the room joins at
 * once with the name typed there or saved before, or asks for one with the field focused. */
export function enterRoom(code) {
  sessionStorage.setItem(arrivalKey(code), "1");
  navigate(`/r/${code}`);
}

/** The name to join under; in the lobby (`canWatch`) also "Watch": a spectator, no seat taken. */
export function JoinForm({ label, code, canWatch }) {
  const [name, setName] = useState(localStorage.getItem(NAME_KEY) || "");
  const [busy, setBusy] = useState(false);
  const input = useRef(null);
  async function join(clean, watch = false) {
    setBusy(true);
    localStorage.setItem(NAME_KEY, clean);
    adoptName(clean);
    await send("join", watch ? { name: clean, watch } : { name: clean });
    setBusy(false);
  }
  useEffect(() => {
    if (!sessionStorage.getItem(arrivalKey(code))) return;
    sessionStorage.removeItem(arrivalKey(code));
    if (name.trim()) join(name.trim());
    else input.current?.focus();
  }, [code]);
  function submit(e) {
    e.preventDefault();
    const clean = name.trim();
    if (clean) join(clean);
  }
  return html`<form class="card join-form row" onSubmit=${submit}>
    <label for="join-name" class="grow">
      <span class="label">${t("lobby.your_name")}</span>
      <input id="join-name" ref=${input} value=${name} maxlength="32" autocomplete="nickname" required
        onInput=${(e) => setName(e.currentTarget.value)} />
    </label>
    <button class="primary" type="submit" disabled=${busy}>${label}</button>
    ${canWatch
      ? html`<button type="button" class="join-watch" disabled=${busy}
          onClick=${() => name.trim() ? join(name.trim(), true) : input.current?.reportValidity()}>
          ${t("lobby.join_watch")}</button>`
      : null}
  </form>`;
}

function HostPanel({ room }) {
  const ui = gameUi(room.game);
  const counts = Object.fromEntries(Object.entries(room.teams).map(([tm, s]) => [tm, s.filter(Boolean).length]));
  const ready = Object.entries(room.team_sizes).every(([tm, [lo, hi]]) => counts[tm] >= lo && counts[tm] <= hi);
  return html`<section class="card host-panel" aria-labelledby="host-title">
    <h2 id="host-title"><${Icon} name="crown" /> ${t("lobby.host_controls")}</h2>
    <${ui.Options} idPrefix="room-opt" options=${room.options}
      onChange=${(options) => send("set_options", { options })} />
    <label class="check" for="room-public">
      <input id="room-public" type="checkbox" checked=${room.public}
        onChange=${(e) => send("set_public", { public: e.currentTarget.checked })} />
      <span>${t("options.public")}</span>
    </label>
    ${ready ? null : html`<p class="muted small">${t("lobby.not_ready")}</p>`}
    <button class="primary start" disabled=${!ready} onClick=${() => send("start")}><${Icon} name="play" /> ${t("lobby.start")}</button>
  </section>`;
}

export function Lobby({ room, me }) {
  const player = room.players.find((p) => p.id === me);
  const ui = gameUi(room.game);
  const isHost = player && room.host === me;
  return html`<div class="lobby">
    <h1 class="lobby-title">${t("lobby.title", { game: t(`game.${room.game}`) })}</h1>
    <div class="lobby-main stack">
      ${player ? null : html`<${JoinForm} label=${t("lobby.join")} code=${room.code} canWatch=${true} />`}
      ${isHost ? html`<${BotOffer} room=${room} />` : null}
      <${Seats} room=${room} me=${me} />
      ${player?.team
        ? html`<p><button class="ghost watch-instead" onClick=${() => send("leave_seat")}><${Icon} name="eye" /> ${t("lobby.watch")}</button></p>`
        : null}
      <${Spectators} room=${room} me=${me} />
    </div>
    <${Share} room=${room} />
    ${isHost
      ? html`<${HostPanel} room=${room} />`
      : html`<section class="card lobby-options" aria-labelledby="opts-title">
          <h2 id="opts-title">${t("lobby.options")}</h2>
          <${ui.Summary} options=${room.options} />
          <p class="muted small">${t("lobby.waiting_host")}</p>
        </section>`}
  </div>`;
}
