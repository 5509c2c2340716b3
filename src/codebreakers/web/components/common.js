/** Small presentational pieces shared by the lobby and the table. */
import { html } from "../html.js";
import { t } from "../i18n.js";

/** A team's name with a shape (hollow or filled square) so colour is never the only cue. */
export function TeamBadge({ team }) {
  return html`<span class="team-badge team-${team}"
    ><span class="team-shape" aria-hidden="true"></span>${t(`team.${team}`)}</span
  >`;
}

/** A three-digit code shown as boxed digits, read as "code 3, 1, 4" by screen readers (the
 * reading is visually-hidden text: an aria-label on a plain span is ignored, and forbidden). */
export function Code({ code }) {
  if (!code) return html`<span class="code code-unknown">${t("code.unknown")}</span>`;
  return html`<span class="code"
    ><span class="visually-hidden">${t("code.aria", { code: code.join(", ") })}</span
    >${code.map((d) => html`<span class="digit" aria-hidden="true">${d}</span>`)}</span
  >`;
}

/** Where the vendored Lucide sprite is (scripts/vendor-ui.sh), beside this module's folder. */
const SPRITE = new URL("../vendor/icons.svg", import.meta.url).pathname;

/**
 * An SVG icon from the vendored sprite, drawn in the text colour. With a `label` it is an image
 * with that accessible name; without one it is decoration next to a text that says the same.
 * Icons replace colour emoji, which render as empty boxes where no emoji font is installed.
 */
export function Icon({ name, label }) {
  const a11y = label ? { role: "img", "aria-label": label } : { "aria-hidden": "true" };
  return html`<svg class="icon icon-${name}" focusable="false" ...${a11y}
    >${label ? html`<title>${label}</title>` : null}<use href=${`${SPRITE}#${name}`} /></svg>`;
}

/** The player's display name for a seat id, from the room's seat list. */
export function seatName(room, seat) {
  const s = room?.players?.find((x) => x.id === seat);
  return s?.name || t("seat.empty");
}

/** Online, offline or bot: a dot whose shape differs by state, with the state as text for AT. */
export function ConnectionDot({ seat }) {
  if (seat.connected == null && !seat.bot) return null; // a replay: nobody is online in the past
  const kind = seat.bot ? "bot" : seat.connected ? "on" : "off";
  return html`<span class="dot ${kind}" title=${t(`conn.${kind}`)}></span
    ><span class="visually-hidden">${t(`conn.${kind}`)}</span>`;
}
