/**
 * The Decrypto room options form (docs/views.md), used when creating a room and by the host in
 * the lobby. The word-pool language is a game option, independent of the interface language.
 * The summary is for the other players, who get only the size of a host's custom list (its
 * words are the keywords' superset; the server sends them to the host alone).
 */
import { html, useState } from "../html.js";
import { t, LANGUAGES } from "../i18n.js";
import { fold } from "../fold.js";

const LIMITS = [null, 60, 120, 180, 300];
// The engine's CUSTOM_MIN_WORDS (games/decrypto/words): fewer, and knowing the list gives the
// enemy's keywords away (docs/rules-choices.md).
const CUSTOM_MIN_WORDS = 24;

/** The host's typed list as sent: one word per line. */
function typedWords(text) {
  return text.split("\n").map((w) => w.trim()).filter(Boolean);
}

/** How many of them the engine counts as different words (it folds case and accents). */
function distinctWords(text) {
  return new Set(typedWords(text).map(fold).filter(Boolean)).size;
}

export const DEFAULT_OPTIONS = {
  words: "en",
  custom_words: null,
  order: "simultaneous",
  three_player: false,
  sand_timer: false,
  clue_limit_s: null,
  decide_limit_s: null,
  open_spectators: false,
  rated: false,
};

function limitText(s) {
  return s ? t("options.minutes", { n: s / 60 }) : t("options.no_limit");
}

function Check({ id, label, checked, onChange, disabled }) {
  return html`<label class="check" for=${id}>
    <input id=${id} type="checkbox" checked=${checked} disabled=${disabled}
      onChange=${(e) => onChange(e.currentTarget.checked)} />
    <span>${label}</span>
  </label>`;
}

function Limit({ id, label, value, onChange, disabled }) {
  return html`<label for=${id}>
    <span class="label">${label}</span>
    <select id=${id} disabled=${disabled} onChange=${(e) => onChange(e.currentTarget.value ? Number(e.currentTarget.value) : null)}>
      ${(LIMITS.includes(value) ? LIMITS : [...LIMITS, value]).map((s) => html`<option value=${s ?? ""} selected=${value === s}>${limitText(s)}</option>`)}
    </select>
  </label>`;
}

export function DecryptoOptions({ options, onChange, idPrefix = "opt", disabled }) {
  const o = { ...DEFAULT_OPTIONS, ...options };
  const [customText, setCustomText] = useState((o.custom_words || []).join("\n"));
  const set = (patch) => onChange({ ...o, ...patch });
  const id = (k) => `${idPrefix}-${k}`;
  return html`<div class="options-form stack">
    <label for=${id("words")}>
      <span class="label">${t("options.words")}</span>
      <select id=${id("words")} disabled=${disabled}
        onChange=${(e) => {
          const words = e.currentTarget.value;
          set({ words, custom_words: words === "custom" ? typedWords(customText) : null });
        }}>
        ${Object.entries(LANGUAGES).map(([code, name]) => html`<option value=${code} selected=${o.words === code}>${name}</option>`)}
        <option value="custom" selected=${o.words === "custom"}>${t("options.words_custom")}</option>
      </select>
    </label>
    ${o.words === "custom"
      ? html`<label for=${id("custom")}>
          <span class="label">${t("options.custom_words")}</span>
          <textarea id=${id("custom")} rows="5" disabled=${disabled} value=${customText}
            aria-describedby=${id("custom-hint")}
            onInput=${(e) => setCustomText(e.currentTarget.value)}
            onBlur=${() => set({ custom_words: typedWords(customText) })}
          ></textarea>
          <span class="muted small" id=${id("custom-hint")}>
            ${t("options.custom_words_hint", { n: CUSTOM_MIN_WORDS })}
            ${" "}${t("options.custom_words_typed", { n: distinctWords(customText) })}
          </span>
        </label>`
      : null}
    <label for=${id("order")}>
      <span class="label">${t("options.order")}</span>
      <select id=${id("order")} disabled=${disabled} onChange=${(e) => set({ order: e.currentTarget.value })}>
        <option value="simultaneous" selected=${o.order === "simultaneous"}>${t("options.order_simultaneous")}</option>
        <option value="classic" selected=${o.order === "classic"}>${t("options.order_classic")}</option>
      </select>
    </label>
    <${Check} id=${id("three")} label=${t("options.three_player")} checked=${o.three_player} disabled=${disabled}
      onChange=${(v) => set({ three_player: v })} />
    <${Check} id=${id("sand")} label=${t("options.sand_timer")} checked=${o.sand_timer} disabled=${disabled}
      onChange=${(v) => set({ sand_timer: v })} />
    <${Limit} id=${id("clue")} label=${t("options.clue_limit")} value=${o.clue_limit_s} disabled=${disabled}
      onChange=${(v) => set({ clue_limit_s: v })} />
    <${Limit} id=${id("decide")} label=${t("options.decide_limit")} value=${o.decide_limit_s} disabled=${disabled}
      onChange=${(v) => set({ decide_limit_s: v })} />
    <${Check} id=${id("open")} label=${t("options.open_spectators")} checked=${o.open_spectators} disabled=${disabled}
      onChange=${(v) => set({ open_spectators: v })} />
    <${Check} id=${id("rated")} label=${t("options.rated")} checked=${o.rated} disabled=${disabled}
      onChange=${(v) => set({ rated: v })} />
  </div>`;
}

/** One line per option, for players who can't change them. */
export function DecryptoOptionsSummary({ options }) {
  const o = { ...DEFAULT_OPTIONS, ...options };
  const items = [
    [t("options.words"), o.words === "custom" ? t("options.words_custom_count", { n: o.custom_word_count ?? 0 }) : LANGUAGES[o.words]],
    [t("options.order"), t(`options.order_${o.order}`)],
    [t("options.three_player"), o.three_player ? t("options.yes") : t("options.no")],
    [t("options.sand_timer"), o.sand_timer ? t("options.yes") : t("options.no")],
    [t("options.clue_limit"), limitText(o.clue_limit_s)],
    [t("options.decide_limit"), limitText(o.decide_limit_s)],
    [t("options.open_spectators"), o.open_spectators ? t("options.yes") : t("options.no")],
    [t("options.rated"), o.rated ? t("options.yes") : t("options.no")],
  ];
  return html`<dl class="options-summary">
    ${items.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
  </dl>`;
}
