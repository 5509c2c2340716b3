/**
 * ⚪/⚫ counters for both teams. Each token kind has its own shape (a hollow ring with a star for
 * an interception, a filled disc with a cross for a miscommunication) and the counts are written
 * out, so nothing relies on colour.
 */
import { html } from "../html.js";
import { t } from "../i18n.js";
import { TeamBadge } from "./common.js";

function Slots({ kind, n }) {
  return html`<span class="slots" aria-hidden="true">
    ${[0, 1].map((i) => html`<span class="token ${kind} ${i < n ? "got" : "empty"}"></span>`)}
    ${n > 2 ? html`<span class="more">+${n - 2}</span>` : null}
  </span>`;
}

export function TokenCounters({ teams }) {
  return html`<div class="tokens" role="group" aria-label=${t("tokens.title")}>
    ${["white", "black"].map((team) => {
      const tok = teams[team].tokens;
      return html`<div class="token-team">
        <${TeamBadge} team=${team} />
        <span class="token-count" title=${t("tokens.interception")}>
          <${Slots} kind="interception" n=${tok.interception} />
          <span class="visually-hidden">${t("tokens.interception")}:</span> ${tok.interception}
        </span>
        <span class="token-count" title=${t("tokens.miscommunication")}>
          <${Slots} kind="miscommunication" n=${tok.miscommunication} />
          <span class="visually-hidden">${t("tokens.miscommunication")}:</span>
          ${tok.miscommunication}
        </span>
      </div>`;
    })}
  </div>`;
}
