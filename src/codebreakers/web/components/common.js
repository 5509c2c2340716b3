/** Small presentational pieces shared by the lobby and the table. */
import { html } from "../html.js";
import { t } from "../i18n.js";

/** A team's name with a shape (hollow or filled square) so colour is never the only cue. */
export function TeamBadge({ team }) {
  return html`<span class="team-badge team-${team}"
    ><span class="team-shape" aria-hidden="true"></span>${t(`team.${team}`)}</span
  >`;
}

/** A three-digit code shown as boxed digits, read as "3, 1, 4" by screen readers. */
export function Code({ code }) {
  if (!code) return html`<span class="code code-unknown">${t("code.unknown")}</span>`;
  return html`<span class="code" aria-label=${t("code.aria", { code: code.join(", ") })}
    >${code.map((d) => html`<span class="digit" aria-hidden="true">${d}</span>`)}</span
  >`;
}

/** The player's display name for a seat id, from the room's seat list. */
export function seatName(room, seat) {
  const s = room?.players?.find((x) => x.id === seat);
  return s?.name || t("seat.empty");
}

/** Online, offline or bot: a dot whose shape differs by state, with the state as text for AT. */
export function ConnectionDot({ seat }) {
  const kind = seat.bot ? "bot" : seat.connected ? "on" : "off";
  return html`<span class="dot ${kind}" title=${t(`conn.${kind}`)}></span
    ><span class="visually-hidden">${t(`conn.${kind}`)}</span>`;
}
