/**
 * The Mastermind table (docs/mastermind.md, "View"): the scores and roles on top, the board of
 * rows with the secret code above it (shown to the maker and open spectators only), the
 * viewer's task (make a code, guess, mark a row), the "codes still possible" switch for the
 * breaker, the finished rounds with the solver comparison, and the room's chat.
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n.js";
import { act } from "../../net.js";
import { Chats } from "../chat.js";
import { PlayAgain } from "../rematch.js";
import { ReplayLink } from "../replaylink.js";
import { ConnectionDot, Icon, seatName } from "../common.js";
import { MarkPanel, PegEntry } from "./entry.js";
import { History } from "./history.js";
import { Code, Keys } from "./pegs.js";

/** The task the game waits on this viewer for, or null (the title marker and chime). */
export function myTask(view) {
  const seat = view?.you?.seat;
  return (seat && view.waiting_for.find((w) => w.seat === seat)?.task) || null;
}

const ROLE_ICON = { maker: "lock", breaker: "search" };

function Scores({ view, room, me }) {
  const cur = view.current;
  const byId = Object.fromEntries(room.players.map((p) => [p.id, p]));
  return html`<div class="mm-scores">
    ${["a", "b"].map((team) => {
      const { seat, rounds_won, points } = view.teams[team];
      const role = cur ? (cur.breaker === team ? "breaker" : "maker") : null;
      const p = byId[seat];
      return html`<div class="mm-score ${seat === me ? "mine" : ""}">
        <span class="player-name">${p ? html`<${ConnectionDot} seat=${p} />` : null}
          <strong>${seat === me ? t("mm.you") : seatName(room, seat)}</strong>
          ${p?.kind === "bot" ? html`<span class="tag"><${Icon} name="bot" label=${t("conn.bot")} /></span>` : null}</span>
        ${role ? html`<span class="mm-role"><${Icon} name=${ROLE_ICON[role]} /> ${t(`mm.role_${role}`)}</span>` : null}
        <span class="mm-tally">${t("mm.score", { rounds: rounds_won, points })}</span>
      </div>`;
    })}
  </div>`;
}

function Waiting({ view, room }) {
  const seat = view.you?.seat;
  const mine = myTask(view);
  if (!view.waiting_for.length) return null;
  return html`<div class="waiting-for ${mine ? "your-move" : ""}" role="status">
    ${mine
      ? html`<strong class="your-turn"><${Icon} name="play" /> ${t(`mm.task_yours_${mine}`)}</strong>`
      : view.waiting_for.map((w) => html`<span class="muted">${t(`mm.task_${w.task}`, { name: w.seat === seat ? t("mm.you") : seatName(room, w.seat) })}</span>`)}
  </div>`;
}

function Board({ view, entryRow }) {
  const cur = view.current;
  const { pegs, rows } = view.options;
  const shown = cur.rows.length + (entryRow ? 1 : 0);
  return html`<section class="card mm-board" aria-labelledby="mm-board-title">
    <h2 id="mm-board-title" class="spread">
      <span>${t("mm.board")}</span>
      <span class="muted small">${tn("mm.rows_left_n", cur.rows_left)}</span>
    </h2>
    <div class="mm-secret row">
      <span class="label">${t("mm.secret")}</span>
      ${cur.code ? html`<${Code} code=${cur.code} small />` : html`<span class="mm-hidden" aria-label=${t("mm.secret_hidden")}>${"？".repeat(pegs)}</span>`}
    </div>
    <ol class="mm-rows">
      ${cur.rows.map((r, i) => html`<li class="mm-row">
        <span class="mm-rownum">${i + 1}</span><${Code} code=${r.guess} />
        <${Keys} black=${r.black} white=${r.white} pegs=${pegs} />
      </li>`)}
      ${entryRow ? html`<li class="mm-row mm-row-next"><span class="mm-rownum">${cur.rows.length + 1}</span><span class="muted small">${t("mm.your_row")}</span></li>` : null}
      ${Array.from({ length: Math.max(0, rows - shown) }, (_, i) => html`<li class="mm-row mm-row-empty" aria-hidden="true">
        <span class="mm-rownum">${shown + i + 1}</span><${Code} pegs=${pegs} />
      </li>`)}
    </ol>
  </section>`;
}

function Possible({ view }) {
  const cur = view.current;
  if (!cur || view.you?.role !== "breaker") return null;
  const on = view.you.show_possible;
  return html`<div class="card mm-possible row">
    <label class="check" for="mm-possible">
      <input id="mm-possible" type="checkbox" checked=${on}
        onChange=${(e) => act({ type: "show_possible", on: e.currentTarget.checked })} />
      <span>${t("mm.show_possible")}</span>
    </label>
    ${on && cur.possible !== null ? html`<strong class="mm-possible-count" aria-live="polite">${t("mm.possible", { n: cur.possible })}</strong>` : null}
  </div>`;
}

function Outcome({ view, room, me }) {
  const o = view.outcome;
  if (!o) return null;
  const winner = o.winner ? view.teams[o.winner].seat : null;
  const text = !winner ? t("mm.draw") : winner === me ? t("mm.you_win") : t("mm.wins", { name: seatName(room, winner) });
  return html`<section class="card mm-outcome" role="status">
    <h2><${Icon} name="flag" /> ${text}</h2>
    <p class="muted">${t(`mm.reason_${o.reason}`)}</p>
  </section>`;
}

function Task({ view, task }) {
  const { pegs, colours, rows } = view.options;
  const cur = view.current;
  const send = (action) => act(action);
  if (task === "guess") {
    return html`<${PegEntry} pegs=${pegs} colours=${colours} title=${t("mm.guess_title", { n: cur.rows.length + 1, rows })}
      submitLabel=${t("mm.guess_send")} onSubmit=${(code) => send({ type: "guess", code })} />`;
  }
  if (task === "set_code") {
    return html`<${PegEntry} pegs=${pegs} colours=${colours} title=${t("mm.code_title")}
      submitLabel=${t("mm.code_send")} onSubmit=${(code) => send({ type: "set_code", code })}
      extra=${html`<button type="button" class="mm-random" onClick=${() => send({ type: "set_code", random: true })}><${Icon} name="dices" /> ${t("mm.code_random")}</button>`} />`;
  }
  if (task === "mark") {
    return html`<${MarkPanel} pegs=${pegs} row=${cur.rows.length} code=${cur.code} guess=${cur.rows[cur.rows.length - 1].guess}
      onSubmit=${(black, white) => send({ type: "mark", black, white })} />`;
  }
  return null;
}

export function MastermindTable({ state }) {
  const { view, room, chat } = state;
  const me = view.you?.seat || null;
  const cur = view.current;
  const task = myTask(view);
  const joined = !!state.you && room.players.some((p) => p.id === state.you);
  // Keyed by game, round, replay and row, so a half-entered row never carries over.
  const turn = cur ? `${state.gameId}-${cur.round}-${cur.replay}-${cur.rows.length}-${task}` : "over";
  return html`<div class="mm-table ${me ? "" : "as-spectator"}">
    <header class="table-head card">
      <div class="spread">
        <h1 class="row">${cur ? t("mm.round_of", { n: cur.round, of: view.options.rounds }) : t("mm.match_over")}
          ${cur?.replay ? html`<span class="tag">${t("mm.replay_n", { n: cur.replay })}</span>` : null}</h1>
        <p class="row my-role">${me ? (view.you.role ? html`<${Icon} name=${ROLE_ICON[view.you.role]} /> ${t(`mm.you_are_${view.you.role}`)}` : "") : html`<${Icon} name="eye" /> ${t("role.spectator")}`}</p>
      </div>
      <${Scores} view=${view} room=${room} me=${me} />
      <${Waiting} view=${view} room=${room} />
    </header>
    <div class="mm-grid">
      <div class="mm-task stack">
        <${Outcome} view=${view} room=${room} me=${me} />
        ${view.outcome && state.gameId ? html`<p><${ReplayLink} gameId=${state.gameId} seat=${me} /></p>` : null}
        ${view.outcome && room.status === "over" ? html`<${PlayAgain} room=${room} me=${state.you} />` : null}
        ${task ? html`<${Task} key=${turn} view=${view} task=${task} />` : null}
        ${cur ? html`<${Possible} view=${view} />` : null}
      </div>
      <div class="mm-main stack">
        ${cur ? html`<${Board} view=${view} entryRow=${task === "guess"} />` : null}
        <${History} view=${view} room=${room} me=${me} />
      </div>
      <div class="mm-side stack">
        <${Chats} lines=${chat} me=${state.you} team=${null} muted=${false} joined=${joined}
          allAudience=${t("mm.chat_audience")} />
      </div>
    </div>
  </div>`;
}
