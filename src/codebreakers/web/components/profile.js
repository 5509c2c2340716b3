/**
 * `/u/{profile_id}`: a player's name, member since, games per game and variant with W/D/L, the
 * figures of each game, ratings with their history, and the last games linked to their replays
 * (`/g/{game_id}`), from `GET /api/profiles/{profile_id}` (docs/ratings.md).
 */
import { html, useEffect, useState } from "../html.js";
import { errorText, formatDate as day, formatNumber as number, t, tn } from "../i18n.js";
import { navigate } from "../router.js";
import { RatingChart } from "./ratingchart.js";


function Played({ played }) {
  return html`<table class="profile-table">
    <caption>${t("profile.played")}</caption>
    <thead><tr>
      <th scope="col">${t("home.game")}</th><th scope="col">${t("profile.games")}</th>
      <th scope="col">${t("profile.wins")}</th><th scope="col">${t("profile.draws")}</th><th scope="col">${t("profile.losses")}</th>
    </tr></thead>
    <tbody>${played.map((p) => html`<tr>
      <th scope="row">${t(`game.${p.game}`)} · ${t(`variant.${p.game}.${p.variant}`)}</th>
      <td>${number(p.games)}</td><td>${number(p.wins)}</td><td>${number(p.draws)}</td><td>${number(p.losses)}</td>
    </tr>`)}</tbody>
  </table>`;
}

/** "n of m" figures: the share a player cares about, as a count and a percentage. */
function share(done, of) {
  return of ? t("profile.share", { n: number(done), of: number(of), pct: Math.round((100 * done) / of) }) : "–";
}

function Figures({ figures }) {
  const d = figures.decrypto;
  const m = figures.mastermind;
  const items = [];
  if (d) {
    items.push(
      [t("profile.f_encrypted_decoded"), share(d.encrypted_decoded, d.encrypted)],
      [t("profile.f_encrypted_intercepted"), share(d.encrypted_intercepted, d.encrypted)],
      [t("profile.f_decoded"), share(d.decoded, d.decoding)],
      [t("profile.f_intercepted"), share(d.intercepted, d.intercepting)],
    );
  }
  if (m) {
    items.push(
      [t("profile.f_broken"), share(m.broken, m.codes)],
      [t("profile.f_average_rows"), m.average_rows === null ? "–" : number(m.average_rows)],
    );
  }
  if (!items.length) return null;
  return html`<section aria-labelledby="figures-title"><h2 id="figures-title">${t("profile.figures")}</h2>
    <dl class="options-summary">${items.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>
  </section>`;
}

function Ratings({ ratings }) {
  if (!ratings.length) return null;
  return html`<section aria-labelledby="ratings-title"><h2 id="ratings-title">${t("profile.ratings")}</h2>
    <ul class="plain-list">${ratings.map((r) => html`<li>
      <strong>${t(`game.${r.game}`)}</strong> ${tn("profile.rating_line", r.games, { rating: number(r.rating) })}
      <${RatingChart} history=${r.history} game=${r.game} />
    </li>`)}</ul>
  </section>`;
}

function LastGames({ games }) {
  if (!games.length) return null;
  return html`<section aria-labelledby="last-title"><h2 id="last-title">${t("profile.last_games")}</h2>
    <ul class="room-list">${games.map((g) => html`<li>
      <a href=${g.replay} onClick=${(e) => { e.preventDefault(); navigate(g.replay); }}>
        <strong>${t(`game.${g.game}`)}</strong>
        <span>${t(`profile.result_${g.result}`)}</span>
        <span class="muted small">${day(g.finished_at)}${g.rating === null ? "" : ` · ${number(g.rating)}`}</span>
        <span class="small">${t("profile.replay")}</span>
      </a>
    </li>`)}</ul>
  </section>`;
}

export function Profile({ route }) {
  const [profile, setProfile] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let alive = true;
    setProfile(null);
    setError(null);
    fetch(`/api/profiles/${encodeURIComponent(route.id)}`)
      .then(async (res) => {
        const body = await res.json();
        if (!alive) return;
        if (res.ok) setProfile(body);
        else setError(errorText(body.error.code, body.error.detail));
      })
      .catch(() => alive && setError(errorText("internal_error")));
    return () => { alive = false; };
  }, [route.id]);
  if (error) return html`<section class="card"><h1>${t("profile.title")}</h1><p class="error" role="alert">${error}</p></section>`;
  if (!profile) return html`<section class="card"><p class="muted">${t("home.loading")}</p></section>`;
  return html`<article class="card profile stack" aria-labelledby="profile-name">
    <h1 id="profile-name">${profile.name}</h1>
    <p class="muted">${t("profile.member_since", { date: day(profile.member_since) })}</p>
    ${profile.hidden ? html`<p class="muted small">${t("profile.hidden_note")}</p>` : null}
    <${Ratings} ratings=${profile.ratings} />
    ${profile.played.length ? html`<${Played} played=${profile.played} />` : html`<p class="muted">${t("profile.no_games")}</p>`}
    <${Figures} figures=${profile.figures} />
    <${LastGames} games=${profile.last_games} />
  </article>`;
}
