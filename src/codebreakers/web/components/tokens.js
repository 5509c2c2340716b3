/**
 * A team's ⚪/⚫ counters. Each token kind has its own shape (a hollow ring with a star for an
 * interception, a filled disc with a cross for a miscommunication) and the counts are written
 * out, so nothing relies on colour.
 */
import { html } from "../html.js";
import { t } from "../i18n.js";

function Slots({ kind, n }) {
  return html`<span class="slots" aria-hidden="true">
    ${[0, 1].map((i) => html`<span class="token ${kind} ${i < n ? "got" : "empty"}"></span>`)}
    ${n > 2 ? html`<span class="more">+${n - 2}</span>` : null}
  </span>`;
}

export function TeamTokens({ tokens }) {
  return html`<span class="team-tokens">
    ${["interception", "miscommunication"].map(
      (kind) => html`<span class="token-count" title=${t(`tokens.${kind}`)}>
        <${Slots} kind=${kind} n=${tokens[kind]} />
        <span class="visually-hidden">${t(`tokens.${kind}`)}:</span> ${tokens[kind]}
      </span>`,
    )}
  </span>`;
}
