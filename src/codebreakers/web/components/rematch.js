/**
 * After a game, playing again is agreed, not imposed: any seated player proposes it ("Play
 * again"), each seated player then says ready or leaves the seats (to watch, or for the home
 * page), and the next game starts by itself once every seated human is ready; bots always are
 * (`play_again`, docs/protocol.md). While someone is awaited or a seat is empty the seats are
 * shown, so someone can sit, or the host can seat a bot or move a player who went away to the
 * spectators. Shared by every game's end screen.
 */
import { html } from "../html.js";
import { t } from "../i18n.js";
import { send } from "../net.js";
import { navigate } from "../router.js";
import { Seats } from "./seats.js";

const names = (ids, byId) => ids.map((p) => byId[p]?.name).filter(Boolean).join(", ");

export function PlayAgain({ room, me }) {
  const byId = Object.fromEntries(room.players.map((p) => [p.id, p]));
  const seated = Object.values(room.teams).flat().filter((p) => p && byId[p]);
  const ready = (room.rematch || []).filter((p) => seated.includes(p));
  const waiting = seated.filter((p) => byId[p].kind === "human" && !ready.includes(p));
  const short = Object.entries(room.team_sizes).some(
    ([team, [lo]]) => room.teams[team].filter(Boolean).length < lo,
  );
  const mine = !!me && seated.includes(me);
  async function leave(home) {
    if (mine) await send("leave_seat");
    if (home) navigate("/");
  }
  return html`<section class="card play-again" aria-labelledby="again-title">
    <h2 id="again-title">${t("again.title")}</h2>
    <div role="status">
      ${ready.length
        ? html`<p class="again-ready">${t("again.ready", { names: names(ready, byId) })}</p>`
        : html`<p class="muted small">${t("again.explain")}</p>`}
      ${ready.length && waiting.length
        ? html`<p class="muted small again-waiting">${t("again.waiting", { names: names(waiting, byId) })}</p>`
        : null}
      ${ready.length && short ? html`<p class="muted small">${t("again.seat_empty")}</p>` : null}
    </div>
    ${ready.length && (short || waiting.length) ? html`<${Seats} room=${room} me=${me} />` : null}
    <div class="row">
      ${mine && !ready.includes(me)
        ? html`<button class="primary again-yes" onClick=${() => send("play_again")}>
            ${t(ready.length ? "again.join" : "again.propose")}
          </button>`
        : null}
      ${mine && ready.includes(me) ? html`<p class="waiting">✓ ${t("again.you_ready")}</p>` : null}
      ${mine ? html`<button class="again-watch" onClick=${() => leave(false)}>${t("again.watch")}</button>` : null}
      <button class="ghost again-home" onClick=${() => leave(true)}>${t("again.home")}</button>
    </div>
  </section>`;
}
