/**
 * How to play: a dialog rendering the room's game rules (outside a room, either game's, picked by
 * a button) from web/rules/{lang}.json (sections by id) as text, scrolled to the section that
 * matches what the player is doing now (seating, writing clues, decoding, intercepting,
 * tie-break, end; Mastermind's phases).
 */
import { html, useEffect, useRef, useState } from "../html.js";
import { t } from "../i18n.js";
import { Icon } from "./common.js";

const cache = {};
// The rules name the table's role marks by the emoji they once were; they are drawn as the same
// SVG icons the table shows (colour emoji render as empty boxes without an emoji font).
const TEXT_ICONS = { "🔑": "key-round", "🎯": "target" };

function withIcons(text) {
  return text.split(/(🔑|🎯)/u).map((part) => (TEXT_ICONS[part] ? html`<${Icon} name=${TEXT_ICONS[part]} />` : part));
}

async function loadRules(lang) {
  if (!cache[lang]) {
    cache[lang] = fetch(new URL(`../rules/${lang}.json`, import.meta.url)).then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.status))));
  }
  return cache[lang];
}

/** The id of the rules section for the viewer's current situation (the overview outside a room). */
function currentSection(state) {
  const { view, room } = state;
  if (room?.game === "mastermind") {
    return { guess: "marking", mark: "manual_marking", over: "match" }[view?.phase] || "overview";
  }
  if (!room || room.game !== "decrypto") return "overview";
  if (!view || room.status === "waiting") return "teams";
  if (view.phase === "tiebreak_guess" || view.phase === "tiebreak_review") return "tiebreak";
  if (view.phase === "over") return "end";
  const task = view.waiting_for.find((w) => w.seat === view.you?.seat)?.task;
  return { transmit: "transmit", lock_own: "decode", lock_enemy: "intercept" }[task] || "round";
}

export function RulesDialog({ state, onClose }) {
  const ref = useRef(null);
  const [rules, setRules] = useState(null);
  const [failed, setFailed] = useState(false);
  const wanted = currentSection(state);
  const [picked, setPicked] = useState("decrypto"); // outside a room, either game's rules
  useEffect(() => {
    ref.current.showModal();
    loadRules(state.lang).then(setRules, () => setFailed(true));
  }, [state.lang]);
  useEffect(() => {
    document.getElementById(`rules-${wanted}`)?.scrollIntoView({ block: "start" });
  }, [rules]);
  const game = rules?.[state.room?.game || picked];
  const sections = game ? game.sections : [];
  return html`<dialog ref=${ref} class="rules" aria-labelledby="rules-title" onClose=${onClose}>
    <div class="spread">
      <h1 id="rules-title">${game?.title || t("rules.title")}</h1>
      <button class="ghost" onClick=${() => ref.current.close()} aria-label=${t("rules.close")} title=${t("rules.close")}><${Icon} name="x" /></button>
    </div>
    ${state.room || !rules
      ? null
      : html`<div class="row rules-games">
          ${Object.keys(rules).map((g) => html`<button class="ghost" aria-pressed=${g === picked ? "true" : "false"}
            onClick=${() => setPicked(g)}>${t(`game.${g}`)}</button>`)}
        </div>`}
    ${failed ? html`<p class="error-text">${t("rules.unavailable")}</p>` : null}
    <div class="rules-text">
      ${sections.map(
        (s) => html`<section id=${`rules-${s.id}`} class=${s.id === wanted ? "current" : ""}>
          <h2>${s.title}</h2>
          ${s.paragraphs.map((p) => html`<p>${withIcons(p)}</p>`)}
        </section>`,
      )}
    </div>
  </dialog>`;
}
