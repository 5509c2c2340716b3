/** Live countdowns for the sand timer and the clue/decide limits (view.deadlines); a replay
 * passes `now`, the step's time, and the clocks stand still at what was left then. */
import { html, useEffect, useState } from "../html.js";
import { t } from "../i18n.js";
import { serverNow } from "../store.js";
import { Icon, TeamBadge } from "./common.js";

function useTick(ms) {
  const [, setN] = useState(0);
  useEffect(() => {
    if (!ms) return undefined;
    const id = setInterval(() => setN((n) => n + 1), ms);
    return () => clearInterval(id);
  }, [ms]);
}

function format(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function Countdowns({ deadlines, now: frozen }) {
  useTick(frozen ? null : 500);
  if (!deadlines?.length) return null;
  const now = frozen ?? serverNow();
  return html`<ul class="countdowns" aria-label=${t("timer.title")}>
    ${deadlines.map((d) => {
      // Never more than the limit itself: the clock estimate runs late when a message was slow.
      const left = Math.min(d.at - now, d.seconds);
      const label = t(`timer.${d.kind}${d.target ? `.${d.target}` : ""}`);
      return html`<li class="countdown ${left < 10 ? "urgent" : ""}" role="timer">
        <${Icon} name="hourglass" />
        ${d.team ? html`<${TeamBadge} team=${d.team} />` : null}
        <span>${label}</span>
        <strong class="time">${format(left)}</strong>
      </li>`;
    })}
  </ul>`;
}
