/**
 * The encryptor's panel: the secret code with the keyword each digit points at, three clue
 * fields, warnings (from the server's clue check of the draft, plus the blocking rules checked
 * locally), and a final confirmation before the transmission, which cannot be edited afterwards.
 */
import { html, useEffect, useLayoutEffect, useRef, useState } from "../html.js";
import { t, errorText } from "../i18n.js";
import { clueProblem } from "../fold.js";
import { Code } from "./common.js";

const DRAFT_DELAY_MS = 600;

function usedClues(view) {
  const out = [];
  for (const r of view.rounds) {
    for (const tr of Object.values(r.transmissions)) if (tr?.clues) out.push(...tr.clues);
  }
  return out;
}

export function EncryptorPanel({ view, tr, keywords, act }) {
  const [clues, setClues] = useState(() => tr.draft || ["", "", ""]);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const timer = useRef(null);
  const sendButton = useRef(null);
  const used = usedClues(view);
  const problems = clues.map((c) => clueProblem(c, keywords, used));
  const warnings = tr.clue_warnings || [[], [], []];

  useEffect(() => () => clearTimeout(timer.current), []);
  // Keyboard play: the confirmation takes the focus, so Enter transmits and Tab reaches "edit";
  // at once with the render (not after the next paint), or a quick Enter would be lost.
  useLayoutEffect(() => {
    if (confirming) sendButton.current?.focus();
  }, [confirming]);

  function edit(i, value) {
    const next = [...clues];
    next[i] = value;
    setClues(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => act({ type: "draft", clues: next }, { quiet: true }), DRAFT_DELAY_MS);
  }

  async function transmit() {
    setBusy(true);
    clearTimeout(timer.current);
    const ok = await act({ type: "transmit", clues: clues.map((c) => c.trim()) });
    setBusy(false);
    if (!ok) setConfirming(false);
  }

  const blocked = problems.some(Boolean);
  const empty = clues.some((c) => !c.trim());
  return html`<section class="card encryptor" aria-labelledby="enc-title">
    <h2 id="enc-title">🔑 ${t("encryptor.title")}</h2>
    <p class="secret-code">${t("encryptor.your_code")} <${Code} code=${tr.code} /></p>
    ${confirming
      ? html`<div class="confirm" role="alertdialog" aria-labelledby="confirm-title">
          <h3 id="confirm-title">${t("encryptor.confirm_title")}</h3>
          <ol class="clue-review">
            ${clues.map(
              (c, i) => html`<li>
                <strong class="clue">${c.trim() || t("clue.blank")}</strong>
                <span class="muted"> → ${tr.code[i]}. ${keywords[tr.code[i] - 1]}</span>
              </li>`,
            )}
          </ol>
          ${empty ? html`<p class="warning">${t("encryptor.blank_warning")}</p>` : null}
          <p class="muted small">${t("encryptor.final")}</p>
          <div class="row">
            <button class="primary" ref=${sendButton} onClick=${transmit} disabled=${busy}>
              ${t("encryptor.send")}
            </button>
            <button onClick=${() => setConfirming(false)} disabled=${busy}>${t("encryptor.edit")}</button>
          </div>
        </div>`
      : html`<form
          class="stack"
          onSubmit=${(e) => {
            e.preventDefault();
            if (!blocked) setConfirming(true);
          }}
        >
          ${[0, 1, 2].map(
            (i) => html`<div class="clue-field">
              <label for=${`clue-${i}`}>
                <span class="label"
                  >${t("encryptor.clue_for", { n: i + 1, digit: tr.code[i], word: keywords[tr.code[i] - 1] })}</span
                >
              </label>
              <input
                id=${`clue-${i}`}
                value=${clues[i]}
                maxlength="80"
                autocomplete="off"
                aria-describedby=${`clue-${i}-msg`}
                aria-invalid=${problems[i] ? "true" : null}
                onInput=${(e) => edit(i, e.currentTarget.value)}
              />
              <div id=${`clue-${i}-msg`} aria-live="polite">
                ${problems[i] ? html`<p class="error-text small">${errorText(problems[i])}</p>` : null}
                ${(warnings[i] || []).map(
                  (w) => html`<p class="warning small">${t(`warning.${w}`)}</p>`,
                )}
              </div>
            </div>`,
          )}
          <button class="primary" type="submit" disabled=${blocked}>${t("encryptor.review")}</button>
        </form>`}
  </section>`;
}
