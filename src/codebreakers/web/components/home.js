/**
 * The home screen: create a room (game, word language and other options, public or private),
 * join one by its code, or pick a public room waiting for players (refreshed every few seconds);
 * above them the visitor's own games, beside them the visitor's profile (yourgames.js).
 */
import { html, useEffect, useState } from "../html.js";
import { t, tn, errorText, formatNumber, LANGUAGES } from "../i18n.js";
import { toast } from "../store.js";
import { GAME_NAMES, gameUi } from "../games.js";
import { QuickStart } from "./playnow.js";
import { enterRoom } from "./lobby.js";
import { ProfileCard, YourGames } from "./yourgames.js";
import { navigate } from "../router.js";
import { Icon } from "./common.js";

const CODE_RE = /^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{6}$/;
const REFRESH_MS = 5000;

async function httpError(res) {
  try {
    const body = await res.json();
    return errorText(body.error.code, body.error.detail);
  } catch {
    return errorText("internal_error");
  }
}

function CreateRoom() {
  const [game, setGame] = useState(GAME_NAMES[0]);
  const lang = document.documentElement.lang;
  const [options, setOptions] = useState(() => gameUi(game).defaults(lang));
  const [chosen, setChosen] = useState(false); // options set by hand: a language switch keeps them
  const [isPublic, setPublic] = useState(false);
  const [busy, setBusy] = useState(false);
  const ui = gameUi(game);
  // Until the creator changes an option, a new room's defaults follow the interface language
  // (the keywords of a room made on a French page are French), even when it is switched here.
  useEffect(() => {
    if (!chosen) setOptions(gameUi(game).defaults(lang));
  }, [lang]);
  function choose(next) {
    setChosen(true);
    setOptions(next);
  }
  async function create(e) {
    e.preventDefault();
    setBusy(true);
    const res = await fetch("/api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game, options, public: isPublic }),
    });
    setBusy(false);
    if (!res.ok) return toast(await httpError(res));
    enterRoom((await res.json()).code);
  }
  return html`<form class="card create" onSubmit=${create} aria-labelledby="create-title">
    <h2 id="create-title">${t("home.create")}</h2>
    <div class="stack">
      ${GAME_NAMES.length > 1
        ? html`<label for="new-game"><span class="label">${t("home.game")}</span>
            <select id="new-game" onChange=${(e) => { setGame(e.currentTarget.value); setOptions(gameUi(e.currentTarget.value).defaults(lang)); }}>
              ${GAME_NAMES.map((g) => html`<option value=${g} selected=${g === game}>${t(`game.${g}`)}</option>`)}
            </select></label>`
        : null}
      <${ui.Options} idPrefix="new" options=${options} onChange=${choose} />
      <label class="check" for="new-public">
        <input id="new-public" type="checkbox" checked=${isPublic} onChange=${(e) => setPublic(e.currentTarget.checked)} />
        <span>${t("options.public")}</span>
      </label>
      <button class="primary" type="submit" disabled=${busy}>${t("home.create_button")}</button>
    </div>
  </form>`;
}

function JoinByCode() {
  const [code, setCode] = useState("");
  const clean = code.trim().toUpperCase();
  const valid = CODE_RE.test(clean);
  return html`<form class="card join-code" aria-labelledby="joincode-title"
    onSubmit=${(e) => { e.preventDefault(); if (valid) enterRoom(clean); }}>
    <h2 id="joincode-title">${t("home.join")}</h2>
    <div class="row">
      <label for="join-code" class="visually-hidden">${t("home.code")}</label>
      <input id="join-code" class="code-input" value=${code} maxlength="6" autocomplete="off" autocapitalize="characters"
        placeholder=${t("home.code")} onInput=${(e) => setCode(e.currentTarget.value)} />
      <button type="submit" disabled=${!valid}>${t("home.join_button")}</button>
    </div>
  </form>`;
}

function PublicRooms() {
  const [rooms, setRooms] = useState(null);
  useEffect(() => {
    let alive = true;
    async function load() {
      try {
        const res = await fetch("/api/rooms?open=true");
        if (res.ok && alive) setRooms((await res.json()).rooms);
      } catch {
        // Offline for a moment: keep the last list; the next refresh tries again.
      }
    }
    load();
    const id = setInterval(load, REFRESH_MS);
    return () => { alive = false; clearInterval(id); };
  }, []);
  return html`<section class="card public-rooms" aria-labelledby="public-title">
    <h2 id="public-title">${t("home.public")}</h2>
    ${rooms === null
      ? html`<p class="muted">${t("home.loading")}</p>`
      : rooms.length === 0
        ? html`<p class="muted">${t("home.no_public")}</p>`
        : html`<ul class="room-list">
            ${rooms.map(
              (r) => html`<li>
                <a href=${`/r/${r.code}`} onClick=${(e) => { e.preventDefault(); enterRoom(r.code); }}>
                  <strong>${t(`game.${r.game}`)}</strong>
                  <span class="muted small">${r.options?.words && LANGUAGES[r.options.words] ? LANGUAGES[r.options.words] : ""}</span>
                  <span class="small">${tn("home.players", r.players)} · ${tn("home.free_seats", r.free_seats)}</span>
                  ${r.rating === null || r.rating === undefined ? null : html`<span class="small">${t("home.around", { rating: formatNumber(r.rating) })}</span>`}
                  <span class="code-tag">${r.code}</span>
                </a>
              </li>`,
            )}
          </ul>`}
  </section>`;
}

export function Home({ me }) {
  return html`<div class="home">
    <section class="intro">
      <h1>${t("home.title")}</h1>
      <p class="muted">${t("home.tagline")}</p>
    </section>
    <${QuickStart} />
    <${YourGames} me=${me} />
    <div class="home-grid">
      <${CreateRoom} />
      <div class="stack">
        <${JoinByCode} />
        <${PublicRooms} />
        <${ProfileCard} me=${me} />
        <p class="muted small replay-from-file">
          <a href="/replay" onClick=${(e) => { e.preventDefault(); navigate("/replay"); }}
            ><${Icon} name="history" /> ${t("replay.open_file")}</a>
        </p>
      </div>
    </div>
  </div>`;
}
