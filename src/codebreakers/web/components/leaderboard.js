/**
 * `/leaderboard`: the best players of one game by their shown rating (docs/ratings.md), a page
 * of 50 at a time from `GET /api/leaderboard`, with the game and the page in the address so a
 * page can be shared and the browser's back button steps through pages.
 */
import { html, useEffect, useState } from "../html.js";
import { errorText, formatNumber as number, t, tn } from "../i18n.js";
import { navigate } from "../router.js";
import { GAME_NAMES } from "../games.js";


function boardPath(game, page) {
  return `/leaderboard?game=${encodeURIComponent(game)}&page=${page}`;
}

export function ProfileLink({ id, name }) {
  return html`<a href=${`/u/${id}`} onClick=${(e) => { e.preventDefault(); navigate(`/u/${id}`); }}>${name}</a>`;
}

export function Leaderboard({ route }) {
  const { game, page } = route;
  const [board, setBoard] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let alive = true;
    setBoard(null);
    setError(null);
    fetch(`/api/leaderboard?game=${encodeURIComponent(game)}&page=${page}`)
      .then(async (res) => {
        const body = await res.json();
        if (!alive) return;
        if (res.ok) setBoard(body);
        else setError(errorText(body.error.code, body.error.detail));
      })
      .catch(() => alive && setError(errorText("internal_error")));
    return () => { alive = false; };
  }, [game, page]);
  return html`<section class="card board" aria-labelledby="board-title">
    <h1 id="board-title">${t("board.title")}</h1>
    <label for="board-game"><span class="label">${t("home.game")}</span>
      <select id="board-game" onChange=${(e) => navigate(boardPath(e.currentTarget.value, 1))}>
        ${GAME_NAMES.map((g) => html`<option value=${g} selected=${g === game}>${t(`game.${g}`)}</option>`)}
      </select>
    </label>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${board === null && !error ? html`<p class="muted">${t("home.loading")}</p>` : null}
    ${board && board.entries.length === 0 ? html`<p class="muted">${tn("board.empty", board.min_games)}</p>` : null}
    ${board && board.entries.length > 0
      ? html`<table class="board-table">
          <caption class="visually-hidden">${t("board.caption", { game: t(`game.${game}`), page })}</caption>
          <thead><tr>
            <th scope="col">${t("board.rank")}</th><th scope="col">${t("board.player")}</th>
            <th scope="col">${t("board.rating")}</th><th scope="col">${t("board.games")}</th>
          </tr></thead>
          <tbody>
            ${board.entries.map((e) => html`<tr>
              <td>${number(e.rank)}</td>
              <td><${ProfileLink} id=${e.profile_id} name=${e.name} /></td>
              <td>${number(e.rating)}</td>
              <td>${number(e.games)}</td>
            </tr>`)}
          </tbody>
        </table>`
      : null}
    <nav class="row pager" aria-label=${t("board.pages")}>
      <button disabled=${page <= 1} onClick=${() => navigate(boardPath(game, page - 1))}>${t("board.previous")}</button>
      <span>${t("board.page", { n: page })}</span>
      <button disabled=${!board?.more} onClick=${() => navigate(boardPath(game, page + 1))}>${t("board.next")}</button>
    </nav>
  </section>`;
}
