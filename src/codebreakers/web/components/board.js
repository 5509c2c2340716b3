/**
 * A decoding or interception board for one transmission: its clues, every teammate's proposal
 * (visible to the team only; the server sends them to no one else), the viewer's own picker, and
 * the decider's lock button. Proposals are sent as soon as the picked code is complete; a
 * half-picked one is kept in this tab (sessionStorage) so a reload doesn't lose it.
 */
import { html, useEffect, useState } from "../html.js";
import { t } from "../i18n.js";
import { focusNext } from "../focus.js";
import { getState } from "../store.js";
import { Code, Icon, TeamBadge, seatName } from "./common.js";
import { CodePicker, isComplete } from "./codepicker.js";

const same = (a, b) => !!a && !!b && a.join() === b.join();
const EMPTY = [null, null, null];

/** Where this tab keeps a half-picked code (not a proposal yet), so a reload doesn't lose it;
 * per game, round and board, so it never carries over. */
function pickKey(board) {
  const { gameId, view } = getState();
  return `cb.pick.${gameId}.${view?.round}.${board}`;
}

function keptPick(board) {
  try {
    const code = JSON.parse(sessionStorage.getItem(pickKey(board)));
    return Array.isArray(code) && code.length === 3 ? code : null;
  } catch {
    return null;
  }
}

function Proposals({ room, proposals, me, onUse }) {
  const entries = Object.entries(proposals || {});
  if (!entries.length) return html`<p class="muted small">${t("board.no_proposals")}</p>`;
  return html`<ul class="proposals" aria-label=${t("board.proposals")}>
    ${entries.map(
      ([seat, code]) => html`<li>
        <span class="who">${seat === me ? t("board.you") : seatName(room, seat)}</span>
        <${Code} code=${code} />
        ${onUse && seat !== me
          ? html`<button class="small ghost" onClick=${() => onUse(code)}>${t("board.use")}</button>`
          : null}
      </li>`,
    )}
  </ul>`;
}

export function AnswerBoard({ room, team, target, answer, tr, me, canPropose, canLock, deciderName, act }) {
  const mine = answer.proposals?.[me];
  const key = `${team}-${target}`;
  const [code, setCode] = useState(() => keptPick(key) || mine || EMPTY);
  const [busy, setBusy] = useState(false);
  // The server's copy of this seat's proposal (from another tab, or after a reconnect) fills an
  // empty picker only: arrowing through a group proposes each complete code on the way, and
  // the echo of one must not undo the digits picked since (a repeat, say, on the way to 4).
  useEffect(() => {
    if (mine && code.every((d) => !d)) setCode(mine);
  }, [mine?.join()]);

  function pick(next) {
    setCode(next);
    sessionStorage.setItem(pickKey(key), JSON.stringify(next));
    if (isComplete(next) && !same(next, mine)) act({ type: "propose", target, code: next });
  }

  async function lock() {
    setBusy(true);
    const ok = await act({ type: "lock", target, code });
    setBusy(false);
    if (ok) {
      sessionStorage.removeItem(pickKey(key));
      // The interception when it is due now, else the table head's "waiting for" line.
      focusNext(target === "own" ? "section.board-enemy h2" : null, ".table-head .waiting-for", ".table-head h1");
    }
  }

  const title = target === "own" ? t("board.decode_title") : t("board.intercept_title");
  return html`<section class="card board board-${target}" aria-labelledby=${`${key}-title`}>
    <h2 id=${`${key}-title`} class="row">${title} <${TeamBadge} team=${team} /></h2>
    <p class="muted small">${t("board.encryptor", { name: seatName(room, tr.encryptor) })}</p>
    ${answer.locked
      ? html`<p class="locked"><${Icon} name="lock" /> ${t("board.locked")} <${Code} code=${answer.code} /></p>`
      : html`
          ${canPropose
            ? html`<${CodePicker} id=${key} clues=${tr.clues} code=${code} onChange=${pick} />`
            : html`<ol class="clue-list">
                ${tr.clues.map((c) => html`<li class="clue">${c || t("clue.blank")}</li>`)}
              </ol>`}
          <${Proposals} room=${room} proposals=${answer.proposals} me=${me}
            onUse=${canLock ? (c) => setCode(c) : null} />
          ${canLock
            ? html`<button class="primary lock" onClick=${lock} disabled=${busy || !isComplete(code)}>
                <${Icon} name="target" /> ${isComplete(code) ? t("board.lock_code", { code: code.join("-") }) : t("board.lock")}
              </button>`
            : html`<p class="waiting">${t("board.waiting_decider", { name: deciderName })}</p>`}
        `}
  </section>`;
}
