/**
 * Pegs and keys. A colour is never the only cue: every peg carries its colour's number (1-based,
 * as typed on the keyboard) and a shape, and keys are ● (black: right colour and place) and
 * ○ (white: right colour only), with their counts readable by screen readers.
 */
import { html } from "../../html.js";
import { t } from "../../i18n.js";

const SHAPES = ["●", "▲", "■", "◆", "✦", "✚", "⬟", "▼", "◗", "✕"];

/** The key that enters colour `c` (0-based): "1".."9", then "0" for the tenth. */
export const colourKey = (c) => String((c + 1) % 10);

export function Peg({ colour, small, onClick, label, pressed }) {
  const empty = colour === null || colour === undefined;
  const text = empty ? t("mm.peg_empty") : t("mm.colour", { n: colour + 1 });
  const body = empty
    ? html`<span class="mm-peg mm-empty ${small ? "small" : ""}" aria-hidden=${onClick ? "true" : null}></span>`
    : html`<span class="mm-peg mm-c${colour} ${small ? "small" : ""}" title=${text}
        ><span class="mm-num" aria-hidden="true">${colour + 1}</span
        ><span class="mm-shape" aria-hidden="true">${SHAPES[colour]}</span></span>`;
  if (!onClick) return html`<span class="mm-peg-wrap" role="img" aria-label=${text}>${body}</span>`;
  return html`<button type="button" class="mm-peg-btn" onClick=${onClick} aria-label=${label || text}
    aria-pressed=${pressed === undefined ? null : String(pressed)}>${body}</button>`;
}

export function Code({ code, pegs, small }) {
  const list = code || Array(pegs).fill(null);
  return html`<span class="mm-code">${list.map((c) => html`<${Peg} colour=${c} small=${small} />`)}</span>`;
}

/** Black and white keys as a small grid of ● and ○; null counts mean "not marked yet". */
export function Keys({ black, white, pegs }) {
  if (black === null || black === undefined) {
    return html`<span class="mm-keys mm-keys-wait" role="img" aria-label=${t("mm.keys_waiting")}>…</span>`;
  }
  const cells = [...Array(black).fill("b"), ...Array(white).fill("w")];
  while (cells.length < pegs) cells.push("n");
  return html`<span class="mm-keys" role="img" aria-label=${t("mm.keys_aria", { black, white })}
    style=${`--cols:${Math.ceil(pegs / 2)}`}>
    ${cells.map((k) => html`<span class="mm-key mm-key-${k}" aria-hidden="true"></span>`)}
    <span class="mm-key-count" aria-hidden="true">${black}●${" "}${white}○</span>
  </span>`;
}
