/** The round tracker: 1-8 (1-5 in the 3-player variant), past rounds ticked, the current marked. */
import { html } from "../html.js";
import { t } from "../i18n.js";

export function RoundTracker({ round, max, over }) {
  const steps = Array.from({ length: max }, (_, i) => i + 1);
  return html`<ol class="tracker" aria-label=${t("round.tracker")}>
    ${steps.map((n) => {
      const state = n < round || (over && n === round) ? "past" : n === round ? "now" : "next";
      return html`<li class=${state} aria-current=${state === "now" ? "step" : null}>
        <span aria-hidden="true">${state === "past" ? "✓" : n}</span>
        <span class="visually-hidden">${t(`round.${state}`, { n })}</span>
      </li>`;
    })}
  </ol>`;
}
