/**
 * Both teams' slots in table order with names and connection dots, and the spectator list.
 * The host gets per-player controls (move up or down, switch team, to spectators, remove) and can
 * put a bot in a team's first empty slot; any player can sit there or step out to watch. Only the
 * first empty slot of a team carries controls, which keeps the list short on a phone.
 */
import { html, useState } from "../html.js";
import { t, tn } from "../i18n.js";
import { send } from "../net.js";
import { ConnectionDot, Icon, TeamBadge } from "./common.js";

function PlayerName({ player, room, me }) {
  return html`<span class="player-name">
    <${ConnectionDot} seat=${player} />
    <span class="name">${player.name}</span>
    ${player.kind === "bot" ? html`<span class="tag"><${Icon} name="bot" /> ${t(`bot.${player.level}`)}</span>` : null}
    ${player.id === room.host ? html`<span class="tag" title=${t("lobby.host")}><${Icon} name="crown" label=${t("lobby.host")} /></span>` : null}
    ${player.id === me ? html`<span class="tag you">${t("lobby.you")}</span>` : null}
  </span>`;
}

function HostControls({ player, room, team, index }) {
  const slots = team ? room.teams[team] : null;
  const free = (tm) => room.teams[tm].indexOf(null);
  const label = (k) => t(k, { name: player.name });
  return html`<span class="host-controls">
    ${team && index > 0
      ? html`<button class="small ghost" aria-label=${label("lobby.move_up")} title=${label("lobby.move_up")}
          onClick=${() => send("move", { player: player.id, team, index: index - 1 })}><${Icon} name="arrow-up" /></button>`
      : null}
    ${team && index < slots.length - 1 && slots[index + 1]
      ? html`<button class="small ghost" aria-label=${label("lobby.move_down")} title=${label("lobby.move_down")}
          onClick=${() => send("move", { player: player.id, team, index: index + 1 })}><${Icon} name="arrow-down" /></button>`
      : null}
    ${["white", "black"].filter((tm) => tm !== team).map(
      (tm) => html`<button class="small ghost" aria-label=${t("lobby.move_to", { name: player.name, team: t(`team.${tm}`) })}
        title=${t("lobby.move_to", { name: player.name, team: t(`team.${tm}`) })}
        onClick=${() => send("move", { player: player.id, team: tm, index: free(tm) === -1 ? 0 : free(tm) })}
        ><${Icon} name="arrow-right" />${tm === "white" ? "□" : "■"}</button>`,
    )}
    ${team && player.kind !== "bot"
      ? html`<button class="small ghost" aria-label=${label("lobby.to_spectators")} title=${label("lobby.to_spectators")}
          onClick=${() => send("move", { player: player.id, team: null, index: 0 })}><${Icon} name="eye" /></button>`
      : null}
    ${player.id !== room.host
      ? html`<button class="small danger" aria-label=${label("lobby.remove")} title=${label("lobby.remove")}
          onClick=${() => send("remove", { player: player.id })}><${Icon} name="x" /></button>`
      : null}
  </span>`;
}

function EmptySlot({ team, index, isHost, joined }) {
  const [level, setLevel] = useState("normal");
  const id = `bot-${team}-${index}`;
  return html`<span class="empty-slot">
    <span class="muted">${t("seat.empty")}</span>
    ${joined
      ? html`<button class="small" onClick=${() => send("take_seat", { team, index })}>${t("lobby.sit")}</button>`
      : null}
    ${isHost
      ? html`<span class="row bot-add">
          <label class="visually-hidden" for=${id}>${t("lobby.bot_level")}</label>
          <select id=${id} class="small" onChange=${(e) => setLevel(e.currentTarget.value)}>
            ${["easy", "normal", "hard"].map((l) => html`<option value=${l} selected=${l === level}>${t(`bot.${l}`)}</option>`)}
          </select>
          <button class="small" onClick=${() => send("add_bot", { team, index, level })}><${Icon} name="bot" /> ${t("lobby.add_bot")}</button>
        </span>`
      : null}
  </span>`;
}

/** Empty slots after the first one, shown as one line. */
const moreFree = (slots) => Math.max(0, slots.filter((x) => !x).length - 1);

export function Seats({ room, me }) {
  const byId = Object.fromEntries(room.players.map((p) => [p.id, p]));
  const isHost = !!me && room.host === me;
  const joined = !!me && !!byId[me];
  return html`<div class="teams">
    ${Object.keys(room.teams).map(
      (team) => html`<section class="card team team-card-${team}" aria-labelledby=${`team-${team}-title`}>
        <h2 id=${`team-${team}-title`} class="spread">
          <${TeamBadge} team=${team} />
          <span class="muted small">${t("lobby.team_size", {
            n: room.teams[team].filter(Boolean).length,
            min: room.team_sizes[team][0],
            max: room.team_sizes[team][1],
          })}</span>
        </h2>
        <ol class="slots-list">
          ${room.teams[team].map((pid, index) => {
            const p = pid && byId[pid];
            if (p) {
              return html`<li>
                <${PlayerName} player=${p} room=${room} me=${me} />
                ${isHost ? html`<${HostControls} player=${p} room=${room} team=${team} index=${index} />` : null}
              </li>`;
            }
            if (index !== room.teams[team].indexOf(null)) return null;
            return html`<li><${EmptySlot} team=${team} index=${index} isHost=${isHost} joined=${joined} /></li>`;
          })}
          ${moreFree(room.teams[team]) > 0
            ? html`<li class="more-free muted small">${tn("lobby.more_free_n", moreFree(room.teams[team]))}</li>`
            : null}
        </ol>
      </section>`,
    )}
  </div>`;
}

export function Spectators({ room, me }) {
  const watchers = room.players.filter((p) => !p.team);
  const isHost = !!me && room.host === me;
  return html`<section class="card spectators" aria-labelledby="spect-title">
    <h2 id="spect-title"><${Icon} name="eye" /> ${t("lobby.spectators")}</h2>
    ${watchers.length
      ? html`<ul class="spectator-list">
          ${watchers.map(
            (p) => html`<li>
              <${PlayerName} player=${p} room=${room} me=${me} />
              ${isHost ? html`<${HostControls} player=${p} room=${room} team=${null} index=${null} />` : null}
            </li>`,
          )}
        </ul>`
      : html`<p class="muted small">${t("lobby.no_spectators")}</p>`}
  </section>`;
}
