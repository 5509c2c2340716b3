/**
 * The end of a Decrypto game: the tie-break (each team's decider guesses the enemy keywords, the
 * owners accept near misses and confirm), then the winner and why, every keyword, the link to
 * the replay, the game record download and playing again (rematch.js).
 */
import { html, useState } from "../html.js";
import { t } from "../i18n.js";
import { savedToken } from "../net.js";
import { getState, toast } from "../store.js";
import { fold } from "../fold.js";
import { Icon, TeamBadge } from "./common.js";
import { PlayAgain } from "./rematch.js";
import { ReplayLink } from "./replaylink.js";

const other = (team) => (team === "white" ? "black" : "white");
// An exact match (after folding) counts by itself; only near misses are the owners' call.
const exact = (guess, keyword) => fold(guess) === fold(keyword);

function GuessForm({ act }) {
  const [words, setWords] = useState(["", "", "", ""]);
  async function submit(e) {
    e.preventDefault();
    await act({ type: "guess_keywords", words: words.map((w) => w.trim()) });
  }
  return html`<form class="stack guess-form" onSubmit=${submit}>
    <p>${t("tiebreak.guess_help")}</p>
    ${words.map(
      (w, i) => html`<label for=${`guess-${i}`}>
        <span class="label">${t("tiebreak.guess_for", { n: i + 1 })}</span>
        <input id=${`guess-${i}`} value=${w} maxlength="40" autocomplete="off"
          onInput=${(e) => setWords(words.map((x, j) => (j === i ? e.currentTarget.value : x)))} />
      </label>`,
    )}
    <button class="primary" type="submit">${t("tiebreak.send_guesses")}</button>
  </form>`;
}

/** The guesses `guesser` made about `owner`'s keywords, with accept buttons for the owners. */
function Review({ view, guesser, owner, act }) {
  const tb = view.tiebreak;
  const guesses = tb.guesses[guesser];
  const matches = tb.matches?.[guesser] || [];
  const keywords = view.teams[owner].keywords;
  const mine = view.you?.team === owner;
  const canReview = mine && view.phase === "tiebreak_review" && !tb.reviewed[owner];
  if (!guesses) return html`<p class="muted">${t("tiebreak.no_guesses", { team: t(`team.${guesser}`) })}</p>`;
  return html`<div class="review">
    <h3 class="row"><${TeamBadge} team=${guesser} /> ${t("tiebreak.guessed")}</h3>
    <table class="guess-table">
      <thead><tr>
        <th scope="col">#</th><th scope="col">${t("tiebreak.guess")}</th>
        ${keywords ? html`<th scope="col">${t("tiebreak.keyword")}</th>` : null}
        <th scope="col">${t("tiebreak.result")}</th>
      </tr></thead>
      <tbody>
        ${guesses.map(
          (g, i) => html`<tr>
            <td>${i + 1}</td>
            <td>${g || t("clue.blank")}</td>
            ${keywords ? html`<td>${keywords[i]}</td>` : null}
            <td>
              <span class="verdict ${matches[i] ? "ok" : "bad"}">${matches[i] ? `✓ ${t("tiebreak.right")}` : `✗ ${t("tiebreak.wrong")}`}</span>
              ${canReview && g && !exact(g, keywords[i])
                ? html` <button class="small" onClick=${() => act({ type: "accept_guess", number: i + 1, accept: !matches[i] })}>
                    ${matches[i] ? t("tiebreak.unaccept") : t("tiebreak.accept")}
                  </button>`
                : null}
            </td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${canReview
      ? html`<button class="primary" onClick=${() => act({ type: "review_done" })}>${t("tiebreak.review_done")}</button>`
      : mine && tb.reviewed[owner]
        ? html`<p class="muted small">✓ ${t("tiebreak.reviewed")}</p>`
        : null}
  </div>`;
}

function Tiebreak({ view, act }) {
  const me = view.you;
  const tb = view.tiebreak;
  const myTeam = me?.team;
  const guessing = view.phase === "tiebreak_guess";
  const iGuess = guessing && view.waiting_for.some((w) => w.seat === me?.seat && w.task === "guess_keywords");
  return html`<section class="card tiebreak" aria-labelledby="tb-title">
    <h2 id="tb-title"><${Icon} name="scale" /> ${t("tiebreak.title")}</h2>
    ${tb.cause ? html`<p><strong>${t(`tiebreak.cause.${tb.cause}`)}</strong></p>` : null}
    <p>${t("tiebreak.explain")}</p>
    ${iGuess ? html`<${GuessForm} act=${act} />` : null}
    ${guessing && myTeam && !iGuess && !tb.guesses[myTeam]
      ? html`<p class="waiting">${t("tiebreak.waiting_guess")}</p>`
      : null}
    ${["white", "black"].map(
      (guesser) => (tb.guesses[guesser] || !guessing ? html`<${Review} view=${view} guesser=${guesser} owner=${other(guesser)} act=${act} />` : null),
    )}
  </section>`;
}

async function downloadRecord(gameId, code) {
  const token = savedToken(code);
  const res = await fetch(`/api/games/${gameId}/record`, { headers: token ? { "X-Seat-Token": token } : {} });
  if (!res.ok) {
    toast(t("end.record_failed"));
    return;
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = `decrypto-${code}-${gameId}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Outcome({ view, room, me }) {
  const o = view.outcome;
  const gameId = getState().gameId;
  return html`<section class="card outcome" aria-labelledby="end-title">
    <h2 id="end-title" class="row"><${Icon} name="flag" /> ${o.winner ? html`${t("end.winner")} <${TeamBadge} team=${o.winner} />` : t("end.draw")}</h2>
    <p>${t(`outcome.${o.reason}`)}</p>
    ${o.points ? html`<p class="muted small">${t("end.points", { white: o.points.white, black: o.points.black })}</p>` : null}
    ${o.keyword_hits ? html`<p class="muted small">${t("end.hits", { white: o.keyword_hits.white, black: o.keyword_hits.black })}</p>` : null}
    <div class="all-keywords">
      ${["white", "black"].map(
        (team) => html`<div>
          <h3><${TeamBadge} team=${team} /></h3>
          <ol class="keyword-list small">
            ${(view.teams[team].keywords || []).map((w, i) => html`<li><span class="num">${i + 1}</span> <span class="word">${w}</span></li>`)}
          </ol>
        </div>`,
      )}
    </div>
    <div class="row">
      ${gameId ? html`<${ReplayLink} gameId=${gameId} seat=${view.you?.seat} />` : null}
      ${gameId ? html`<button onClick=${() => downloadRecord(gameId, room.code)}><${Icon} name="download" /> ${t("end.download")}</button>` : null}
    </div>
  </section>`;
}

export function EndPanel({ view, room, me, act }) {
  return html`${view.tiebreak ? html`<${Tiebreak} view=${view} act=${act} />` : null}
    ${view.phase === "over" && view.outcome ? html`<${Outcome} view=${view} room=${room} me=${me} />` : null}
    ${view.phase === "over" && room.status === "over" ? html`<${PlayAgain} room=${room} me=${me} />` : null}`;
}
