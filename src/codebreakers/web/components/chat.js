/**
 * Team chat and all chat side by side, each titled with who can read it. Text is rendered as text
 * (Preact escapes it), never as HTML. The encryptor's muted state is shown on both panels.
 */
import { html, useEffect, useRef, useState } from "../html.js";
import { t } from "../i18n.js";
import { send } from "../net.js";
import { getState } from "../store.js";
import { Icon, TeamBadge } from "./common.js";

/** `waiting`: this tab's lines not yet acknowledged (sent while offline, say), shown pending. */
function Lines({ lines, me, waiting }) {
  const box = useRef(null);
  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines.length + waiting.length]);
  return html`<ol class="chat-lines" ref=${box} tabindex="0" aria-live="polite">
    ${lines.length
      ? lines.map(
          (l) => html`<li class=${l.player === me ? "mine" : ""}>
            <span class="who">${l.name}</span>${": "}<span class="text">${l.text}</span>
          </li>`,
        )
      : waiting.length ? null : html`<li class="muted small">${t("chat.empty")}</li>`}
    ${waiting.map(
      (l) => html`<li class="mine pending">
        <span class="text">${l.text}</span> <span class="muted small">${t("chat.pending")}</span>
      </li>`,
    )}
  </ol>`;
}

/** `title` may hold a team badge; `name` is the same as plain text, for the input's label. */
function ChatPanel({ channel, lines, me, title, name, audience, mutedReason, canWrite }) {
  const [text, setText] = useState("");
  const inputId = `chat-${channel}-input`;
  async function submit(e) {
    e.preventDefault();
    const line = text.trim();
    if (!line) return;
    setText("");
    if (!(await send("chat", { channel, text: line }))) setText(line);
  }
  return html`<section class="card chat chat-${channel}" aria-labelledby=${`chat-${channel}-title`}>
    <header>
      <h2 id=${`chat-${channel}-title`} class="row">${title}</h2>
      <p class="muted small audience"><${Icon} name="eye" /> ${audience}</p>
    </header>
    <${Lines} lines=${lines} me=${me}
      waiting=${getState().outbox.filter((o) => o.channel === channel)} />
    ${mutedReason ? html`<p class="warning small muted-note">${mutedReason}</p>` : null}
    ${canWrite && !mutedReason
      ? html`<form class="chat-form" onSubmit=${submit}>
          <label for=${inputId} class="visually-hidden">${t("chat.write", { channel: name })}</label>
          <input id=${inputId} value=${text} maxlength="500" autocomplete="off"
            onInput=${(e) => setText(e.currentTarget.value)} />
          <button type="submit">${t("chat.send")}</button>
        </form>`
      : null}
  </section>`;
}

/**
 * `team` is the viewer's team, or null for spectators and for a team of one (the 3-player
 * variant's solo player): all chat only. `muted` is true while the viewer is the encryptor whose
 * team decodes: then it may write in neither panel (its teammates read all chat too). `allAudience` says who reads the room's chat where it isn't two teams.
 */
export function Chats({ lines, me, team, muted, joined, allAudience }) {
  const teamLines = lines.filter((l) => l.channel === "team");
  const allLines = lines.filter((l) => l.channel === "all");
  return html`<div class="chats">
    ${team
      ? html`<${ChatPanel}
          channel="team"
          lines=${teamLines}
          me=${me}
          title=${html`${t("chat.team")} <${TeamBadge} team=${team} />`}
          name=${`${t("chat.team")} (${t(`team.${team}`)})`}
          audience=${t("chat.team_audience")}
          mutedReason=${muted ? t("chat.muted") : null}
          canWrite=${true}
        />`
      : null}
    <${ChatPanel}
      channel="all"
      lines=${allLines}
      me=${me}
      title=${t("chat.all")}
      name=${t("chat.all")}
      audience=${allAudience || t("chat.all_audience")}
      mutedReason=${muted ? t("chat.muted") : null}
      canWrite=${joined}
    />
  </div>`;
}
