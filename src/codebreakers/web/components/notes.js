/**
 * The notes sheet (the physical game's deduction sheet): for each team, a grid with one column per
 * keyword number, every revealed clue placed in the column its code digit pointed at, by round.
 * Under the enemy's columns the player keeps private notes (sent as `note` actions, kept per seat).
 * A team that doesn't transmit (the solo player of the 3-player variant) has no sheet.
 */
import { html, useEffect, useRef, useState } from "../html.js";
import { t } from "../i18n.js";
import { TeamBadge } from "./common.js";

const NOTE_DELAY_MS = 800;

function columns(view, team) {
  const cols = [[], [], [], []];
  for (const r of view.rounds) {
    const tr = r.transmissions[team];
    if (!tr?.clues || !tr.code) continue;
    tr.clues.forEach((clue, i) => cols[tr.code[i] - 1].push({ round: r.number, clue }));
  }
  return cols;
}

function NoteField({ number, text, act }) {
  const [value, setValue] = useState(text || "");
  const timer = useRef(null);
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current) setValue(text || "");
  }, [text]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const save = (v) => act({ type: "note", number, text: v }, { quiet: true });
  return html`<label class="note">
    <span class="visually-hidden">${t("notes.note_for", { n: number })}</span>
    <textarea
      rows="2"
      maxlength="200"
      placeholder=${t("notes.placeholder")}
      value=${value}
      onFocus=${() => (focused.current = true)}
      onBlur=${() => {
        focused.current = false;
        clearTimeout(timer.current);
        if (value !== (text || "")) save(value);
      }}
      onInput=${(e) => {
        const v = e.currentTarget.value;
        setValue(v);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => save(v), NOTE_DELAY_MS);
      }}
    ></textarea>
  </label>`;
}

function Sheet({ view, team, keywords, notes, act }) {
  const cols = columns(view, team);
  return html`<div class="sheet">
    <h3 class="row">
      <${TeamBadge} team=${team} />
      ${view.you?.team ? (team === view.you.team ? t("notes.ours") : t("notes.theirs")) : null}
    </h3>
    <table>
      <thead>
        <tr>
          ${[1, 2, 3, 4].map(
            (n) => html`<th scope="col">
              <span class="num">${n}</span>
              ${keywords ? html`<span class="word">${keywords[n - 1]}</span>` : null}
            </th>`,
          )}
        </tr>
      </thead>
      <tbody>
        <tr>
          ${cols.map(
            (cells) => html`<td>
              <ul class="cells">
                ${cells.map(
                  (c) => html`<li><span class="rnd" aria-label=${t("round.label", { n: c.round })}>${c.round}</span> ${c.clue}</li>`,
                )}
              </ul>
            </td>`,
          )}
        </tr>
        ${notes
          ? html`<tr class="notes-row">
              ${[1, 2, 3, 4].map(
                (n) => html`<td><${NoteField} number=${n} text=${notes[String(n)]} act=${act} /></td>`,
              )}
            </tr>`
          : null}
      </tbody>
    </table>
  </div>`;
}

export function NotesSheet({ view, act }) {
  const mine = view.you?.team;
  const order = mine === "black" ? ["black", "white"] : ["white", "black"];
  return html`<section class="card notes-sheet" aria-labelledby="notes-title">
    <h2 id="notes-title">${t("notes.title")}</h2>
    ${order.filter((team) => view.teams[team].transmits).map(
      (team) => html`<${Sheet}
        view=${view}
        team=${team}
        keywords=${view.teams[team].keywords}
        notes=${mine && team !== mine ? view.notes || {} : null}
        act=${act}
      />`,
    )}
  </section>`;
}
