/**
 * Finished rounds, newest first: who broke, the code, the result and the points, and, row by
 * row, how the breaker's guess compared with the solver's from the same position (the codes
 * still possible after each; fewer is better). Rows the maker mismarked are flagged.
 */
import { html } from "../../html.js";
import { t } from "../../i18n.js";
import { seatName } from "../common.js";
import { Code, Keys } from "./pegs.js";

function Comparison({ attempt, pegs }) {
  // Scrolls sideways on a phone: focusable (and named) so the keyboard can scroll it too.
  return html`<div class="mm-compare-wrap" tabindex="0" role="region" aria-label=${t("mm.compare_caption")}
    ><table class="mm-compare">
    <caption class="visually-hidden">${t("mm.compare_caption")}</caption>
    <thead><tr>
      <th scope="col">#</th><th scope="col">${t("mm.compare_guess")}</th>
      <th scope="col">${t("mm.compare_before")}</th><th scope="col">${t("mm.compare_after")}</th>
      <th scope="col">${t("mm.compare_solver")}</th><th scope="col">${t("mm.compare_solver_after")}</th>
    </tr></thead>
    <tbody>
      ${attempt.rows.map((row, i) => {
        const c = attempt.comparison[i];
        const wrong = attempt.wrong_rows.includes(i + 1);
        const better = c.possible_after <= c.solver_possible_after;
        return html`<tr class=${wrong ? "mm-wrong" : ""}>
          <th scope="row">${i + 1}${wrong ? html` <span title=${t("mm.mismarked_row")}>⚠</span>` : null}</th>
          <td><span class="row"><${Code} code=${row.guess} small /> <${Keys} black=${row.true_black ?? row.black} white=${row.true_white ?? row.white} pegs=${pegs} /></span></td>
          <td>${c.possible_before}</td>
          <td class=${better ? "mm-good" : ""}>${c.possible_after}${better ? " ✓" : ""}</td>
          <td><${Code} code=${c.solver_guess} small /></td>
          <td>${c.solver_possible_after}</td>
        </tr>`;
      })}
    </tbody>
  </table></div>`;
}

export function History({ view, room, me }) {
  if (!view.history.length) return null;
  const pegs = view.options.pegs;
  const seatOf = (team) => view.teams[team].seat;
  return html`<section class="card mm-history" aria-labelledby="mm-history-title">
    <h2 id="mm-history-title">${t("mm.history")}</h2>
    ${[...view.history].reverse().map((a, k) => {
      const breaker = seatOf(a.breaker);
      const name = breaker === me ? t("mm.you") : seatName(room, breaker);
      return html`<details class="mm-attempt" open=${k === 0}>
        <summary>
          <strong>${t("mm.round_n", { n: a.round })}${a.replay ? ` · ${t("mm.replay_n", { n: a.replay })}` : ""}</strong>
          ${" "}<span>${t(`mm.result_${a.result}`, { name, rows: a.rows.length, points: a.points })}</span>
          ${" "}<${Code} code=${a.code} small />
        </summary>
        ${a.rows.length ? html`<${Comparison} attempt=${a} pegs=${pegs} />` : null}
      </details>`;
    })}
  </section>`;
}
