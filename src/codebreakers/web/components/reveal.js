/**
 * Every transmission so far, newest round first: its clues, and once revealed its code, whether
 * the team decoded it, whether the enemy intercepted it, and the tokens that gave.
 */
import { html } from "../html.js";
import { t } from "../i18n.js";
import { Code, Icon, TeamBadge, seatName } from "./common.js";

const other = (team) => (team === "white" ? "black" : "white");

/** The tokens a revealed transmission gave, as [{team, kind}] (3-player rule included). */
function tokensGained(team, result, threePlayer) {
  const out = [];
  if (!result) return out;
  if (!result.decoded) {
    out.push(threePlayer ? { team: other(team), kind: "interception" } : { team, kind: "miscommunication" });
  }
  if (result.intercepted) out.push({ team: other(team), kind: "interception" });
  return out;
}

function Verdict({ ok, yes, no }) {
  return html`<span class="verdict ${ok ? "ok" : "bad"}">${ok ? "✓" : "✗"} ${ok ? yes : no}</span>`;
}

function Transmission({ room, team, tr, threePlayer }) {
  const res = tr.result;
  return html`<div class="transmission">
    <div class="spread">
      <${TeamBadge} team=${team} />
      <span class="muted small"><${Icon} name="key-round" label=${t("reveal.encryptor")} /> ${seatName(room, tr.encryptor)}</span>
    </div>
    ${tr.clues
      ? html`<ol class="clue-list">
          ${tr.clues.map(
            (c, i) => html`<li>
              <span class="clue">${c || t("clue.blank")}</span>
              ${tr.status === "revealed" && tr.code ? html`<span class="arrow">→ ${tr.code[i]}</span>` : null}
            </li>`,
          )}
        </ol>`
      : html`<p class="muted small">${t("reveal.writing")}</p>`}
    ${tr.status === "revealed"
      ? html`<div class="result">
          <p>${t("reveal.code")} <${Code} code=${tr.code} /></p>
          <p><${Verdict} ok=${res?.decoded} yes=${t("reveal.decoded")} no=${t("reveal.not_decoded")} />
            ${tr.decode?.code ? html` <${Code} code=${tr.decode.code} />` : null}</p>
          ${res?.intercepted !== null && res?.intercepted !== undefined
            ? html`<p><${Verdict} ok=${!res.intercepted} yes=${t("reveal.not_intercepted")}
                no=${t("reveal.intercepted")} />
                ${tr.interception?.code ? html` <${Code} code=${tr.interception.code} />` : null}</p>`
            : null}
          <ul class="gains">
            ${tokensGained(team, res, threePlayer).map(
              (g) => html`<li>
                <span class="token ${g.kind} got" aria-hidden="true"></span>
                ${t(`reveal.gain.${g.kind}`, { team: t(`team.${g.team}`) })}
              </li>`,
            )}
          </ul>
        </div>`
      : null}
  </div>`;
}

export function RoundLog({ room, view }) {
  const three = !!view.options.three_player;
  // The current round's unrevealed transmissions are on the board above; the log keeps the rest.
  const shown = (r, team) =>
    r.transmissions[team] && (r.number !== view.round || view.phase !== "round" || r.transmissions[team].status === "revealed");
  const rounds = [...view.rounds].reverse().filter((r) => shown(r, "white") || shown(r, "black"));
  if (!rounds.length) return null;
  return html`<section class="card log" aria-labelledby="log-title">
    <h2 id="log-title">${t("log.title")}</h2>
    ${rounds.map(
      (r) => html`<article class="log-round">
        <h3>${t("round.label", { n: r.number })}</h3>
        <div class="log-pair">
          ${["white", "black"].map((team) =>
            shown(r, team)
              ? html`<${Transmission} room=${room} team=${team} tr=${r.transmissions[team]} threePlayer=${three} />`
              : null,
          )}
        </div>
      </article>`,
    )}
  </section>`;
}
