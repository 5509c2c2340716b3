/**
 * The two things a person enters at a Mastermind table: a row of pegs (a guess, or the maker's
 * secret code) and, with manual marking, the keys for the breaker's last row.
 *
 * Peg entry works by keyboard alone: the digit keys 1-9 (0 for a tenth colour) fill the next
 * hole, Backspace empties the last one, Enter sends a full row. The palette buttons do the same
 * by touch or click, and a filled hole is emptied by clicking it.
 */
import { html, useLayoutEffect, useRef, useState } from "../../html.js";
import { t } from "../../i18n.js";
import { Code, Peg, colourKey } from "./pegs.js";

/** True when a key press belongs to a text field (the chat) rather than to the board. */
const inField = (e) =>
  e.target.closest?.("textarea, select, input:not([type=checkbox]):not([type=radio])") != null;

export function PegEntry({ pegs, colours, title, submitLabel, onSubmit, extra }) {
  const [slots, setSlots] = useState(() => Array(pegs).fill(null));
  // The row as of the last key press: keys can arrive faster than renders, and Enter must send
  // what was typed, not what was last drawn.
  const latest = useRef(slots);
  const [busy, setBusy] = useState(false);
  const box = useRef(null);
  const full = slots.every((s) => s !== null);
  const change = (fn) => {
    latest.current = fn(latest.current);
    setSlots(latest.current);
  };
  const put = (c) =>
    change((cur) => {
      const i = cur.indexOf(null);
      return i < 0 ? cur : cur.map((s, j) => (j === i ? c : s));
    });
  const clear = (i) => change((cur) => cur.map((s, j) => (j === i ? null : s)));
  const back = () =>
    change((cur) => {
      const i = cur.findLastIndex((s) => s !== null);
      return i < 0 ? cur : cur.map((s, j) => (j === i ? null : s));
    });
  async function submit() {
    const row = latest.current;
    if (row.includes(null) || busy) return;
    setBusy(true);
    const ok = await onSubmit(row);
    setBusy(false);
    if (ok) change(() => Array(pegs).fill(null));
  }
  // Listening from the render itself, not after the next paint (useEffect): a key pressed the
  // moment the entry appears must land, and a background tab may not paint for a while.
  useLayoutEffect(() => {
    function onKey(e) {
      if (e.ctrlKey || e.metaKey || e.altKey || inField(e)) return;
      if (box.current?.closest("fieldset:disabled")) return; // a replay's table: read-only
      const digit = "1234567890".indexOf(e.key);
      if (digit >= 0 && digit < colours) put(digit);
      else if (e.key === "Backspace") back();
      else if (e.key === "Enter" && !e.target.closest?.("button")) submit();
      else return;
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  return html`<section class="card mm-entry" ref=${box} aria-labelledby="mm-entry-title">
    <h2 id="mm-entry-title">${title}</h2>
    <div class="mm-slots" aria-live="polite">
      ${slots.map((c, i) => html`<${Peg} colour=${c} onClick=${() => clear(i)}
        label=${c === null ? t("mm.slot_empty", { n: i + 1 }) : t("mm.slot_clear", { n: i + 1, colour: c + 1 })} />`)}
    </div>
    <div class="mm-palette" role="group" aria-label=${t("mm.palette")}>
      ${Array.from({ length: colours }, (_, c) => html`<${Peg} colour=${c} onClick=${() => put(c)}
        label=${t("mm.palette_put", { n: c + 1, key: colourKey(c) })} />`)}
    </div>
    <p class="muted small mm-hint">${t("mm.keyboard_hint", { last: colourKey(colours - 1) })}</p>
    <div class="row mm-entry-actions">
      <button type="button" onClick=${back} disabled=${slots.every((s) => s === null)}>⌫ ${t("mm.undo")}</button>
      <button type="button" class="primary mm-submit" onClick=${submit} disabled=${!full || busy}>${submitLabel}</button>
      ${extra}
    </div>
  </section>`;
}

/** The maker's keys for the last row (manual marking): two counters that can't exceed the pegs. */
export function MarkPanel({ pegs, row, guess, code, onSubmit }) {
  const [black, setBlack] = useState(0);
  const [white, setWhite] = useState(0);
  const [busy, setBusy] = useState(false);
  const Counter = ({ id, label, value, set, other }) => html`<div class="mm-counter">
    <span class="label" id=${`${id}-label`}>${label}</span>
    <div class="row">
      <button type="button" aria-label=${t("mm.less", { what: label })} disabled=${value === 0}
        onClick=${() => set(value - 1)}>−</button>
      <output id=${id} aria-labelledby=${`${id}-label`} class="mm-count">${value}</output>
      <button type="button" aria-label=${t("mm.more", { what: label })} disabled=${value + other >= pegs}
        onClick=${() => set(value + 1)}>+</button>
    </div>
  </div>`;
  async function submit() {
    setBusy(true);
    await onSubmit(black, white);
    setBusy(false);
  }
  return html`<section class="card mm-mark" aria-labelledby="mm-mark-title">
    <h2 id="mm-mark-title">${t("mm.mark_title", { n: row })}</h2>
    <dl class="mm-mark-rows">
      <div><dt>${t("mm.secret")}</dt><dd><${Code} code=${code} /></dd></div>
      <div><dt>${t("mm.mark_guess")}</dt><dd><${Code} code=${guess} /></dd></div>
    </dl>
    <p class="muted small">${t("mm.mark_hint")}</p>
    <div class="row mm-counters">
      <${Counter} id="mm-black" label=${t("mm.black_keys")} value=${black} set=${setBlack} other=${white} />
      <${Counter} id="mm-white" label=${t("mm.white_keys")} value=${white} set=${setWhite} other=${black} />
    </div>
    <button type="button" class="primary mm-mark-submit" disabled=${busy} onClick=${submit}>${t("mm.mark_send")}</button>
  </section>`;
}
