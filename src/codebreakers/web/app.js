/**
 * The client's entry point: restores the interface language, theme and sound choices, routes
 * between home and room, keeps the room socket matching the route, and renders the whole tree
 * on every state change.
 */
import { html, render } from "./html.js";
import { loadLanguage, pickLanguage, t } from "./i18n.js";
import { connect, disconnect } from "./net.js";
import { parse } from "./router.js";
import { getState, onChange, update } from "./store.js";
import { applyTheme, savedTheme } from "./theme.js";
import { saveMuted, savedMuted, signalTurn } from "./attention.js";
import { gameUi } from "./games.js";
import { changeMe, loadMe } from "./me.js";
import { TopBar } from "./components/topbar.js";
import { ConnectionBanner } from "./components/banner.js";
import { Home } from "./components/home.js";
import { Room } from "./components/room.js";
import { Leaderboard } from "./components/leaderboard.js";
import { Profile } from "./components/profile.js";
import { RulesDialog } from "./components/rules.js";
import { FirstGameGuide } from "./components/guide.js";

const root = document.getElementById("app");

async function setLang(lang) {
  const loaded = await loadLanguage(lang, true);
  update({ lang: loaded });
  // The profile speaks the language chosen here (its pages, its default name's language).
  if (getState().me && getState().me.language !== loaded) changeMe({ language: loaded }).catch(() => {});
}

function setTheme(theme) {
  applyTheme(theme);
  update({ theme });
}

function toggleMute() {
  const muted = !getState().muted;
  saveMuted(muted);
  update({ muted });
}

// The replay screen is loaded when first opened (docs/replays.md): a table never needs it.
let Replay = null;
function replayScreen(state) {
  if (Replay) return html`<${Replay} state=${state} />`;
  import("./components/replay.js").then((m) => {
    Replay = m.Replay;
    update({});
  });
  return html`<p class="muted center-card" role="status">${t("replay.loading")}</p>`;
}

function screen(state) {
  const route = state.route;
  if (route.name === "room") return html`<${Room} state=${state} />`;
  if (route.name === "replay") return replayScreen(state);
  if (route.name === "leaderboard") return html`<${Leaderboard} route=${route} />`;
  if (route.name === "profile") return html`<${Profile} route=${route} />`;
  return html`<${Home} me=${state.me} />`;
}

function App({ state }) {
  return html`
    <${TopBar} state=${state} onLang=${setLang} onTheme=${setTheme} onMute=${toggleMute}
      onRules=${() => update({ rulesOpen: true })} />
    <${ConnectionBanner} connection=${state.connection} retryAt=${state.retryAt} />
    <main id="main">
      ${screen(state)}
    </main>
    ${state.route.name === "room" ? html`<${FirstGameGuide} state=${state} />` : null}
    ${state.rulesOpen ? html`<${RulesDialog} state=${state} onClose=${() => update({ rulesOpen: false })} />` : null}
    <div class="toasts" role="status" aria-live="polite">
      ${state.toasts.map((x) => html`<div class="toast">${x.text}</div>`)}
    </div>`;
}

let connectedTo = null;

function draw(state) {
  const code = state.route.name === "room" ? state.route.code : null;
  if (code !== connectedTo) {
    connectedTo = code;
    if (code) connect(code);
    else disconnect();
  }
  render(html`<${App} state=${state} />`, root);
  const ui = state.room && gameUi(state.room.game);
  const task = ui && state.view ? ui.myTask(state.view) : null;
  const title = state.room
    ? `${state.room.code} · ${t("app.title")}`
    : state.route.name === "replay"
      ? `${t("replay.tab")} · ${t("app.title")}`
      : t("app.title");
  signalTurn(task, title, state.muted);
}

async function start() {
  const theme = savedTheme();
  applyTheme(theme);
  const lang = await loadLanguage(pickLanguage());
  onChange(draw);
  update({ lang, theme, muted: savedMuted(), route: parse(location.pathname, location.search) });
  // The lasting identity (docs/identity.md): made on the first visit, before any join.
  loadMe().catch(() => {});
}

start();
