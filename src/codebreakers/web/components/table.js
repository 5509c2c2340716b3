/**
 * The Decrypto table: tracker, tokens and timers on top; the viewer's keywords always in view
 * (members only: the view carries them for the viewer's own team alone); the viewer's task for
 * this round (encryptor panel, decoding board, interception board); who waits for whom; the
 * notes sheet, both chats and the round log. Spectators get the same board without secrets.
 */
import { html } from "../html.js";
import { LANGUAGES, t } from "../i18n.js";
import { act } from "../net.js";
import { AnswerBoard } from "./board.js";
import { Chats } from "./chat.js";
import { ConnectionDot, Icon, TeamBadge, seatName } from "./common.js";
import { Countdowns } from "./countdown.js";
import { EncryptorPanel } from "./encryptor.js";
import { EndPanel } from "./end.js";
import { Keywords } from "./keywords.js";
import { NotesSheet } from "./notes.js";
import { RoundLog } from "./reveal.js";
import { TeamTokens } from "./tokens.js";
import { RoundTracker } from "./tracker.js";

const other = (team) => (team === "white" ? "black" : "white");
const ROLE_ICON = { encryptor: "key-round", decider: "target" };

/** A role's icon with its name ("Encryptor this round") for screen readers and as a tooltip. */
const RoleIcon = ({ role }) => html`<${Icon} name=${ROLE_ICON[role]} label=${t(`role.${role}`)} />`;

/** The task the game waits on this viewer for, or null: drives the title marker and chime. */
export function myTask(view) {
  const seat = view?.you?.seat;
  return (seat && view.waiting_for.find((w) => w.seat === seat)?.task) || null;
}

/** One line per team: its tokens, then its players in table order with connection dots and
 * this round's encryptor (key) and decider (target) icons. */
function TeamLines({ view, room }) {
  const current = view.rounds[view.rounds.length - 1];
  const byId = Object.fromEntries(room.players.map((p) => [p.id, p]));
  return html`<ul class="team-lines" aria-label=${t("tokens.title")}>
    ${["white", "black"].map((team) => {
      const tr = current?.transmissions[team];
      return html`<li class="token-team">
        <${TeamBadge} team=${team} />
        <${TeamTokens} tokens=${view.teams[team].tokens} />
        <ul class="inline-list roster">
          ${view.teams[team].seats.map((seat) => {
            const p = byId[seat];
            const role = view.phase !== "round" ? null : tr?.encryptor === seat ? "encryptor" : tr?.decider === seat ? "decider" : null;
            return html`<li class="player-name">
              ${p ? html`<${ConnectionDot} seat=${p} />` : null}<span>${p?.name || seat}</span>
              ${role ? html`<${RoleIcon} role=${role} />` : null}
            </li>`;
          })}
        </ul>
      </li>`;
    })}
  </ul>`;
}

function Waiting({ view, room }) {
  if (!view.waiting_for.length) return null;
  const seat = view.you?.seat;
  const mine = myTask(view);
  return html`<div class="waiting-for ${mine ? "your-move" : ""}" role="status">
    ${mine ? html`<strong class="your-turn"><${Icon} name="play" /> ${t(`task.yours.${mine}`)}</strong>` : null}
    <span class="muted">${t("task.waiting")}</span>
    <ul class="inline-list">
      ${view.waiting_for.map(
        (w) => html`<li>${w.seat === seat ? t("board.you") : seatName(room, w.seat)} · ${t(`task.${w.task}`)}</li>`,
      )}
    </ul>
  </div>`;
}

/** The clues of a transmission others are answering, shown read-only. */
function Watch({ room, team, tr, note }) {
  return html`<section class="card watch" aria-label=${t("watch.aria", { team: t(`team.${team}`) })}>
    <h2 class="row"><${TeamBadge} team=${team} /> ${t("watch.transmission")}</h2>
    <p class="muted small row">
      <span><${RoleIcon} role="encryptor" /> ${seatName(room, tr.encryptor)}</span>
      <span><${RoleIcon} role="decider" /> ${seatName(room, tr.decider)}</span>
    </p>
    ${tr.clues
      ? html`<ol class="clue-list">${tr.clues.map((c) => html`<li class="clue">${c || t("clue.blank")}</li>`)}</ol>`
      : html`<p class="waiting">
          ${tr.status === "writing" ? t("watch.writing", { name: seatName(room, tr.encryptor) }) : t("watch.read_out_wait")}
        </p>`}
    ${note ? html`<p class="muted small">${note}</p>` : null}
  </section>`;
}

function OwnTask({ view, room, team, tr, me }) {
  if (tr.status === "revealed") return html`<${Watch} room=${room} team=${team} tr=${tr} note=${t("watch.revealed")} />`;
  if (tr.encryptor === me && tr.status === "writing") {
    return html`<${EncryptorPanel} view=${view} tr=${tr} keywords=${view.teams[team].keywords} act=${act} />`;
  }
  if (tr.status === "writing" || !tr.clues) return html`<${Watch} room=${room} team=${team} tr=${tr} />`;
  return html`<${AnswerBoard} room=${room} team=${team} target="own" answer=${tr.decode} tr=${tr} me=${me}
    canPropose=${tr.encryptor !== me} canLock=${tr.decider === me}
    deciderName=${seatName(room, tr.decider)} act=${act} />`;
}

function EnemyTask({ view, room, team, tr, ownTr, me }) {
  const enemy = other(team);
  const ic = tr.interception;
  const ready = !ownTr || ownTr.decode.locked;
  if (!ic?.due || tr.status !== "decoding" || !tr.clues || ic.locked || !ready) {
    const note = !ic?.due
      ? t("watch.no_interception")
      : ic.locked
        ? t("watch.intercept_locked")
        : !ready && tr.clues
          ? t("watch.decode_first")
          : null;
    return html`<${Watch} room=${room} team=${enemy} tr=${tr} note=${note} />`;
  }
  const decider = ownTr ? ownTr.decider : me;
  return html`<${AnswerBoard} room=${room} team=${enemy} target="enemy" answer=${ic} tr=${tr} me=${me}
    canPropose=${true} canLock=${decider === me}
    deciderName=${seatName(room, decider)} act=${act} />`;
}

export function DecryptoTable({ state }) {
  const { view, room, chat } = state;
  const me = view.you?.seat || null;
  const team = view.you?.team || null;
  const current = view.rounds[view.rounds.length - 1];
  // Keyed by game and round, so typed clues and picked digits never carry over to the next round.
  const turn = `${state.gameId}-${view.round}`;
  const keywords = team ? view.teams[team].keywords : null;
  const inRound = view.phase === "round" && current;
  const myTr = team && current ? current.transmissions[team] : null;
  const enemyTr = team && current ? current.transmissions[other(team)] : null;
  const muted = !!team && view.you.can_team_chat === false;
  const joined = !!state.you && room.players.some((p) => p.id === state.you);
  return html`<div class="table ${team ? `as-${team}` : "as-spectator"}">
    <header class="table-head card">
      <div class="spread">
        <h1 class="row">${t("round.label", { n: view.round })} <span class="muted small">/ ${view.max_rounds}</span></h1>
        ${team
          ? html`<p class="row my-role">
              <${TeamBadge} team=${team} />
              ${view.you.role && view.phase === "round"
                ? html`${ROLE_ICON[view.you.role] ? html`<${Icon} name=${ROLE_ICON[view.you.role]} />` : null} ${t(`role.${view.you.role}`)}`
                : ""}
            </p>`
          : html`<p class="row my-role"><${Icon} name="eye" /> ${t("role.spectator")}</p>`}
      </div>
      <${RoundTracker} round=${view.round} max=${view.max_rounds} over=${view.phase === "over"} />
      <${TeamLines} view=${view} room=${room} />
      <${Countdowns} deadlines=${view.deadlines} now=${state.frozenAt} />
      <${Waiting} view=${view} room=${room} />
    </header>
    ${keywords ? html`<${Keywords} team=${team} keywords=${keywords} lang=${LANGUAGES[room.options?.words] ? room.options.words : undefined} />` : null}
    <div class="table-grid">
      <div class="play stack">
        ${inRound && team
          ? html`${myTr ? html`<${OwnTask} key=${`own-${turn}`} view=${view} room=${room} team=${team} tr=${myTr} me=${me} />` : null}
              ${enemyTr ? html`<${EnemyTask} key=${`enemy-${turn}`} view=${view} room=${room} team=${team} tr=${enemyTr} ownTr=${myTr} me=${me} />` : null}`
          : null}
        ${inRound && !team
          ? ["white", "black"].map((tm) => (current.transmissions[tm] ? html`<${Watch} room=${room} team=${tm} tr=${current.transmissions[tm]} />` : null))
          : null}
        ${view.phase !== "round" ? html`<${EndPanel} view=${view} room=${room} me=${state.you} act=${act} />` : null}
        <${NotesSheet} view=${view} act=${act} />
      </div>
      <div class="side stack">
        <${Chats} lines=${chat} me=${state.you} team=${team && view.teams[team].seats.length > 1 ? team : null}
          muted=${muted} joined=${joined} />
        <${RoundLog} room=${room} view=${view} />
      </div>
    </div>
  </div>`;
}
