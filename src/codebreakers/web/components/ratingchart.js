/**
 * A rating's history as a small inline SVG line: one point per rated game, oldest on the left.
 * For assistive technology the picture has a name saying the first, last, lowest and highest
 * rating; the numbers are also in the profile's text beside it.
 */
import { html } from "../html.js";
import { t } from "../i18n.js";

const W = 240;
const H = 60;
const PAD = 4;

export function RatingChart({ history, game }) {
  if (history.length < 2) return null;
  const values = history.map((h) => h.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const x = (i) => PAD + (i * (W - 2 * PAD)) / (values.length - 1);
  const y = (v) => H - PAD - ((v - low) * (H - 2 * PAD)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const label = t("profile.chart", {
    game: t(`game.${game}`),
    n: values.length,
    first: Math.round(values[0]),
    last: Math.round(values[values.length - 1]),
    low: Math.round(low),
    high: Math.round(high),
  });
  return html`<svg class="rating-chart" viewBox=${`0 0 ${W} ${H}`} width=${W} height=${H} role="img" aria-label=${label}>
    <title>${label}</title>
    <polyline points=${points} fill="none" stroke="currentColor" stroke-width="2" />
  </svg>`;
}
