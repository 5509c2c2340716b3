/**
 * A finished game's replay (docs/replays.md): the game's own table, fed the view the chosen
 * viewpoint had at each step, under controls to step through it (first, previous, play/pause,
 * next, last; arrow keys, Home and End), a viewpoint picker and a link to share. The step and
 * the viewpoint live in the address (`?as=&step=`), so a shared link opens the same moment.
 * The table is read-only: it sits in a disabled fieldset, and with no room open `net.js` sends
 * nothing. A record file dropped on the page (or chosen) is replayed the same way.
 */
import { html, useEffect, useRef, useState } from "../html.js";
import { errorText, t } from "../i18n.js";
import { navigate, replaceRoute, replayPath } from "../router.js";
import { toast } from "../store.js";
import { gameUi } from "../games.js";
import { chooseFile, loadReplay, replayKey, stepAt } from "../replay.js";
import { Icon } from "./common.js";

const AUTOPLAY_MS = 1500;
const inField = (e) => e.target.closest?.("input, textarea, select, [contenteditable]");

function elapsed(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s % 60).padStart(2, "0")}`;
}

/** Reads a dropped or chosen record file and opens its replay at `/replay`. */
async function openFile(chosen) {
  if (!chosen) return;
  if (!(await chooseFile(chosen))) {
    toast(t("replay.file_too_big"));
    return;
  }
  navigate("/replay"); // the screen loads what the new file's key names
}

/** Dropping a record file anywhere on the replay screen opens it. */
function dropProps() {
  return {
    onDragOver: (e) => e.preventDefault(),
    onDrop: (e) => {
      e.preventDefault();
      openFile(e.dataTransfer?.files?.[0]);
    },
  };
}

function FilePicker() {
  return html`<section class="card replay-file stack" aria-labelledby="replay-file-title">
    <h1 id="replay-file-title"><${Icon} name="upload" /> ${t("replay.file_title")}</h1>
    <p class="muted">${t("replay.file_help")}</p>
    <label class="file-choice" for="replay-file-input">
      <span class="label">${t("replay.file_choose")}</span>
      <input id="replay-file-input" type="file" accept=".json,application/json"
        onChange=${(e) => openFile(e.currentTarget.files?.[0])} />
    </label>
  </section>`;
}

/** The seat's player name, or "White 2" (a side of one: "Player A") when the replay does not
 * know it. */
function seatLabel(seat, seats) {
  const mine = seats.filter((s) => s.team === seat.team);
  if (seat.name) return seat.name;
  const team = t(`team.${seat.team}`);
  return mine.length > 1 ? t("replay.seat_unknown", { team, n: mine.indexOf(seat) + 1 }) : team;
}

function viewpointLabel(vp, seats) {
  const seat = seats.find((s) => s.seat === vp);
  if (!seat) return t(`replay.as_${vp}`);
  return t("replay.as_seat", { name: seatLabel(seat, seats), team: t(`team.${seat.team}`) });
}

/** A control that keeps its focus at either end: aria-disabled, never disabled. */
function StepButton({ icon, label, off, onClick, id }) {
  return html`<button type="button" id=${id} class="ghost replay-step" aria-label=${label} title=${label}
    aria-disabled=${off ? "true" : "false"} onClick=${() => (off ? null : onClick())}><${Icon} name=${icon} /></button>`;
}

function Controls({ data, index, go, playing, setPlaying }) {
  const last = data.steps.length - 1;
  const step = data.steps[index];
  return html`<div class="replay-controls" role="group" aria-label=${t("replay.controls")}>
    <${StepButton} icon="chevrons-left" label=${t("replay.first")} off=${index === 0} onClick=${() => go(0)} />
    <${StepButton} icon="chevron-left" label=${t("replay.prev")} off=${index === 0} onClick=${() => go(index - 1)} />
    <button type="button" class="ghost replay-play" aria-pressed=${playing ? "true" : "false"}
      aria-label=${playing ? t("replay.pause") : t("replay.play")} title=${playing ? t("replay.pause") : t("replay.play")}
      aria-disabled=${!playing && index === last ? "true" : "false"}
      onClick=${() => setPlaying(!playing && index < last)}><${Icon} name=${playing ? "pause" : "play"} /></button>
    <${StepButton} id="replay-next" icon="chevron-right" label=${t("replay.next")} off=${index === last} onClick=${() => go(index + 1)} />
    <${StepButton} icon="chevrons-right" label=${t("replay.last")} off=${index === last} onClick=${() => go(last)} />
    <p class="replay-position" role="status" aria-live="polite" aria-atomic="true">
      <strong>${t("replay.position", { n: index + 1, total: last + 1 })}</strong>
      <span class="muted small">
        ${t("replay.actions", { n: step.actions, total: data.actions })} · ${t("replay.elapsed", { time: elapsed(step.at - data.steps[0].at) })}
      </span>
    </p>
  </div>`;
}

function Share({ data, as, index }) {
  if (!data.game_id) return html`<p class="muted small">${t("replay.file_local")}</p>`;
  const url = `${location.origin}${replayPath(data.game_id, as, index + 1)}`;
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      toast(t("replay.copied"));
    } catch {
      document.getElementById("replay-link").select();
      toast(t("lobby.copy_manually"));
    }
  }
  return html`<div class="replay-share row">
    <label for="replay-link" class="visually-hidden">${t("replay.link")}</label>
    <input id="replay-link" readonly value=${url} onFocus=${(e) => e.currentTarget.select()} />
    <button type="button" onClick=${copy}><${Icon} name="link" /> ${t("replay.copy")}</button>
  </div>`;
}

/** The room the game's table expects, made of what the replay knows: seats, names, options. */
function tableState(data, index) {
  const step = data.steps[index];
  const view = step.view;
  const players = data.seats.map((s) => ({
    id: s.seat,
    name: seatLabel(s, data.seats),
    kind: s.bot ? "bot" : "human",
    bot: s.bot,
    connected: null, // nobody is online in a replay: no connection dot
    team: s.team,
  }));
  // Lines written up to the step; at the last one, those after the end too ("gg").
  const shown = index === data.steps.length - 1 ? data.chat : data.chat.filter((l) => l.at <= step.at);
  const chat = shown
    .map((l) => ({ ...l, player: l.seat, team: l.channel === "team" ? view.you?.team : null }));
  const room = { code: null, game: data.game, status: "replay", options: view.options, players };
  return { view, room, chat, you: null, gameId: null, frozenAt: step.at };
}

function Player({ data, route }) {
  const last = data.steps.length - 1;
  const index = Math.min(Math.max((route.step || 1) - 1, 0), last);
  const [playing, setPlaying] = useState(false);
  const as = data.viewpoint;
  const go = (i) => replaceRoute(replayPath(data.game_id, as, Math.min(Math.max(i, 0), last) + 1));
  const latest = useRef(null);
  latest.current = { index, go, last };
  useEffect(() => {
    function onKey(e) {
      // Not while typing, nor behind the How-to-play dialog.
      if (e.ctrlKey || e.metaKey || e.altKey || inField(e) || document.querySelector("dialog[open]")) return;
      const { index: i, go: to, last: end } = latest.current;
      const target = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: end }[e.key];
      if (target === undefined) return;
      e.preventDefault();
      setPlaying(false);
      to(target);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    if (!playing) return undefined;
    if (index >= last) {
      setPlaying(false);
      return undefined;
    }
    const id = setTimeout(() => go(index + 1), AUTOPLAY_MS);
    return () => clearTimeout(id);
  }, [playing, index]);
  async function pickViewpoint(vp) {
    // The same moment from another seat: its last step after as many actions.
    const actions = data.steps[index].actions;
    const next = await loadReplay(data.game_id, vp);
    replaceRoute(replayPath(data.game_id, vp, next ? stepAt(next.steps, actions) + 1 : null));
  }
  const { Table } = gameUi(data.game);
  return html`<section class="card replay-head stack" aria-labelledby="replay-title">
      <div class="spread">
        <h1 id="replay-title" class="row"><${Icon} name="history" /> ${t("replay.title", { game: t(`game.${data.game}`) })}</h1>
        <label class="replay-viewpoint" for="replay-as">
          <span class="label">${t("replay.viewpoint")}</span>
          <select id="replay-as" onChange=${(e) => pickViewpoint(e.currentTarget.value)}>
            ${data.viewpoints.map((vp) => html`<option value=${vp} selected=${vp === as}>${viewpointLabel(vp, data.seats)}</option>`)}
          </select>
        </label>
      </div>
      <${Controls} data=${data} index=${index} go=${(i) => { setPlaying(false); go(i); }} playing=${playing} setPlaying=${setPlaying} />
      <p class="muted small">${t("replay.keys")}</p>
      <${Share} data=${data} as=${as} index=${index} />
    </section>
    <fieldset class="replay-table" disabled key=${`${as}-${index}`}>
      <legend class="visually-hidden">${t("replay.table", { n: index + 1 })}</legend>
      <${Table} state=${tableState(data, index)} />
    </fieldset>`;
}

export function Replay({ state }) {
  const { route, replay } = state;
  const key = replayKey(route.gameId, route.as);
  // While another viewpoint loads, the last one stays on screen (and the focus where it was).
  const shown = useRef(null);
  useEffect(() => {
    if (replay?.key !== key) loadReplay(route.gameId, route.as);
  }, [key]);
  const ready = replay?.key === key && replay.status === "ready";
  if (ready) shown.current = replay.data;
  const same = shown.current && shown.current.game_id === (route.gameId || null);
  let body;
  if (ready || (replay?.status === "loading" && same)) {
    const data = ready ? replay.data : shown.current;
    body = gameUi(data.game)
      ? html`<${Player} data=${data} route=${route} />`
      : html`<p class="card center-card" role="alert">${t("room.unsupported", { game: t(`game.${data.game}`) })}</p>`;
  } else if (!replay || replay.key !== key || replay.status === "loading") {
    body = html`<p class="muted center-card" role="status">${t("replay.loading")}</p>`;
  } else if (replay.status === "choose") {
    body = html`<${FilePicker} />`;
  } else {
    body = html`<div class="card center-card stack" role="alert">
        <h1>${replay.error === "unreachable" ? t("replay.unreachable") : errorText(replay.error)}</h1>
        <button class="primary" onClick=${() => navigate("/")}>${t("room.back_home")}</button>
      </div>
      ${route.gameId ? null : html`<${FilePicker} />`}`;
  }
  return html`<div class="replay stack" ...${dropProps()}>${body}</div>`;
}
