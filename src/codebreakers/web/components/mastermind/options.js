/**
 * The Mastermind room options (docs/mastermind.md, "Options"): a size preset or explicit pegs,
 * colours and rows, the number of rounds and manual marking. With the "custom" size the three
 * numbers are sent explicitly and the preset is null. `MastermindOptionsSummary` is the
 * read-only list for players who can't change them.
 */
import { html } from "../../html.js";
import { t } from "../../i18n.js";

export const MM_DEFAULTS = { preset: "super", rounds: 2, manual_marking: false, open_spectators: false, rated: false };
const PRESETS = { super: [5, 8, 12], classic: [4, 6, 10] };
const RANGES = { pegs: [3, 6], colours: [5, 10], rows: [8, 12] };
const ROUNDS = [2, 4, 6, 8, 10];

/** The three sizes the options stand for, whether given by a preset or one by one. */
export function sizes(o) {
  const [pegs, colours, rows] = PRESETS[o.preset] || PRESETS.super;
  return { pegs: o.pegs ?? pegs, colours: o.colours ?? colours, rows: o.rows ?? rows };
}

function Number_({ id, name, value, onChange, disabled }) {
  const [lo, hi] = RANGES[name];
  const values = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  return html`<label for=${id}>
    <span class="label">${t(`mm.opt_${name}`)}</span>
    <select id=${id} disabled=${disabled} onChange=${(e) => onChange(Number(e.currentTarget.value))}>
      ${values.map((v) => html`<option value=${v} selected=${v === value}>${v}</option>`)}
    </select>
  </label>`;
}

export function MastermindOptions({ options, onChange, idPrefix = "opt", disabled }) {
  const o = { ...MM_DEFAULTS, ...options };
  const id = (k) => `${idPrefix}-${k}`;
  const s = sizes(o);
  const preset = PRESETS[o.preset];
  const size = preset && preset.join() === [s.pegs, s.colours, s.rows].join() ? o.preset : "custom";
  const base = { rounds: o.rounds, manual_marking: o.manual_marking, open_spectators: o.open_spectators, rated: o.rated };
  const setSize = (value) =>
    onChange(value === "custom" ? { ...base, preset: null, ...s } : { ...base, preset: value });
  const setNumber = (name) => (v) => onChange({ ...base, preset: null, ...s, [name]: v });
  return html`<div class="options-form stack mm-options">
    <label for=${id("size")}>
      <span class="label">${t("mm.opt_size")}</span>
      <select id=${id("size")} disabled=${disabled} onChange=${(e) => setSize(e.currentTarget.value)}>
        ${["super", "classic", "custom"].map((p) => html`<option value=${p} selected=${p === size}>${t(`mm.size_${p}`)}</option>`)}
      </select>
    </label>
    ${size === "custom"
      ? html`<div class="mm-size-row">
          ${["pegs", "colours", "rows"].map((n) => html`<${Number_} id=${id(n)} name=${n} value=${s[n]} disabled=${disabled} onChange=${setNumber(n)} />`)}
        </div>`
      : null}
    <label for=${id("rounds")}>
      <span class="label">${t("mm.opt_rounds")}</span>
      <select id=${id("rounds")} disabled=${disabled} onChange=${(e) => onChange({ ...o, rounds: Number(e.currentTarget.value) })}>
        ${ROUNDS.map((r) => html`<option value=${r} selected=${r === o.rounds}>${r}</option>`)}
      </select>
    </label>
    <label class="check" for=${id("manual")}>
      <input id=${id("manual")} type="checkbox" checked=${o.manual_marking} disabled=${disabled}
        onChange=${(e) => onChange({ ...o, manual_marking: e.currentTarget.checked })} />
      <span>${t("mm.opt_manual")}</span>
    </label>
    <label class="check" for=${id("open")}>
      <input id=${id("open")} type="checkbox" checked=${o.open_spectators} disabled=${disabled}
        onChange=${(e) => onChange({ ...o, open_spectators: e.currentTarget.checked })} />
      <span>${t("options.open_spectators")}</span>
    </label>
    <label class="check" for=${id("rated")}>
      <input id=${id("rated")} type="checkbox" checked=${o.rated} disabled=${disabled}
        onChange=${(e) => onChange({ ...o, rated: e.currentTarget.checked })} />
      <span>${t("options.rated")}</span>
    </label>
    <p class="muted small">${t("mm.opt_computer_hint")}</p>
  </div>`;
}

export function MastermindOptionsSummary({ options }) {
  const o = { ...MM_DEFAULTS, ...options };
  const s = sizes(o);
  const yes = (v) => (v ? t("options.yes") : t("options.no"));
  const items = [
    [t("mm.opt_size"), t("mm.size_text", s)],
    [t("mm.opt_rounds"), o.rounds],
    [t("mm.opt_manual"), yes(o.manual_marking)],
    [t("options.open_spectators"), yes(o.open_spectators)],
    [t("options.rated"), yes(o.rated)],
  ];
  return html`<dl class="options-summary">
    ${items.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
  </dl>`;
}
