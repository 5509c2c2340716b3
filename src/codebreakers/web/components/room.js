/**
 * A room: the lobby before the first game, the game's table once one runs (picked by
 * `room.game`). Visitors who haven't joined can still watch a running game and join to chat.
 */
import { html } from "../html.js";
import { t, errorText } from "../i18n.js";
import { navigate } from "../router.js";
import { gameUi } from "../games.js";
import { JoinForm, Lobby } from "./lobby.js";

export function Room({ state }) {
  const { room, view, you, roomError } = state;
  if (roomError) {
    return html`<div class="card center-card" role="alert">
      <h1>${errorText(roomError)}</h1>
      <button class="primary" onClick=${() => navigate("/")}>${t("room.back_home")}</button>
    </div>`;
  }
  if (!room) return html`<p class="muted center-card" role="status">${t("room.connecting")}</p>`;
  if (!gameUi(room.game)) {
    return html`<p class="card center-card" role="alert">${t("room.unsupported", { game: t(`game.${room.game}`) })}</p>`;
  }
  const joined = !!you && room.players.some((p) => p.id === you);
  if (room.status === "waiting") return html`<${Lobby} room=${room} me=${joined ? you : null} />`;
  if (!view) return html`<p class="muted center-card" role="status">${t("room.connecting")}</p>`;
  const { Table } = gameUi(room.game);
  return html`${joined ? null : html`<${JoinForm} label=${t("room.join_watch")} code=${room.code} />`}
    <${Table} state=${state} />`;
}
