/**
 * The bar on every screen: home link, room code, How-to-play button, interface language, theme
 * and sound switches. The language here is the interface's only; a room's word language is an
 * option of the room.
 */
import { html } from "../html.js";
import { t, LANGUAGES } from "../i18n.js";
import { navigate } from "../router.js";
import { THEMES } from "../theme.js";
import { Icon } from "./common.js";

export function TopBar({ state, onLang, onTheme, onMute, onRules }) {
  return html`<header class="topbar">
    <a class="brand" href="/" onClick=${(e) => { e.preventDefault(); navigate("/"); }}><${Icon} name="lock-keyhole" /> Codebreakers</a>
    <a href="/leaderboard" onClick=${(e) => { e.preventDefault(); navigate("/leaderboard"); }}>${t("board.link")}</a>
    ${state.room ? html`<span class="code-tag" title=${t("lobby.code")}>${state.room.code}</span>` : null}
    <button class="ghost" onClick=${onRules} aria-label=${t("rules.open")} title=${t("rules.open")}>?</button>
    <label class="visually-hidden" for="lang-select">${t("top.language")}</label>
    <select id="lang-select" onChange=${(e) => onLang(e.currentTarget.value)}>
      ${Object.entries(LANGUAGES).map(([code, name]) => html`<option value=${code} selected=${state.lang === code}>${name}</option>`)}
    </select>
    <label class="visually-hidden" for="theme-select">${t("top.theme")}</label>
    <select id="theme-select" onChange=${(e) => onTheme(e.currentTarget.value)}>
      ${THEMES.map((th) => html`<option value=${th} selected=${state.theme === th}>${t(`theme.${th}`)}</option>`)}
    </select>
    <button class="ghost" aria-pressed=${state.muted ? "true" : "false"} onClick=${onMute}
      aria-label=${state.muted ? t("top.unmute") : t("top.mute")} title=${state.muted ? t("top.unmute") : t("top.mute")}>
      <${Icon} name=${state.muted ? "bell-off" : "bell"} />
    </button>
  </header>`;
}
