/**
 * The encryptor's panel: the secret code with the keyword each digit points at, three clue
 * fields, and a final confirmation before the transmission, which cannot be edited afterwards.
 * What is typed goes to the server 0.6 s after the last key twice over: as a `draft` (kept, and
 * warned about in the view: spelling hints, keywords inside...) and as a `check` of the
 * transmission, which the engine judges with its own rules without applying it. A clue the
 * engine would refuse is shown at its field and the review stays closed until the clues as
 * typed have passed that check, so the rules live once, on the server.
 */
import { html, useEffect, useLayoutEffect, useRef, useState } from "../html.js";
import { t, errorText } from "../i18n.js";
import { check } from "../net.js";
import { focusNext } from "../focus.js";
import { Code, Icon } from "./common.js";

const DRAFT_DELAY_MS = 600;
const CLUE_DETAIL = /^clue (\d)$/; // the engine's detail naming the clue it refuses

/** The clues as they would be transmitted; the key a check's answer is filed under. */
const asSent = (clues) => clues.map((c) => c.trim());
const keyOf = (clues) => JSON.stringify(asSent(clues));

export function EncryptorPanel({ tr, keywords, act }) {
  const [clues, setClues] = useState(() => tr.draft || ["", "", ""]);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // The engine's verdict on a set of clues: {key, ok, code, clue (0-2 or null)}.
  const [verdict, setVerdict] = useState(null);
  const timer = useRef(null);
  const sendButton = useRef(null);
  const current = keyOf(clues);
  const latest = useRef(current); // the clues as typed now, for an answer arriving later
  latest.current = current;

  async function judge(next) {
    const key = keyOf(next);
    let refusal = null;
    const ok = await check(
      { type: "transmit", clues: asSent(next) },
      { quiet: true, onError: (code, detail) => (refusal = { code, detail }) },
    );
    const index = CLUE_DETAIL.exec(refusal?.detail || "");
    const answer = { key, ok, code: refusal?.code, clue: index ? Number(index[1]) - 1 : null };
    setVerdict(answer);
    return answer;
  }

  /** Review: at once when the clues as typed passed the check, else once they pass it (a
   * quick Enter after the last key doesn't wait for the 0.6 s pause). */
  async function review() {
    if (judged) {
      if (judged.ok) setConfirming(true);
      return;
    }
    clearTimeout(timer.current);
    act({ type: "draft", clues }, { quiet: true });
    const answer = await judge(clues);
    if (answer.ok && answer.key === latest.current) setConfirming(true);
  }

  useEffect(() => {
    judge(clues);
    return () => clearTimeout(timer.current);
  }, []);
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
    timer.current = setTimeout(() => {
      act({ type: "draft", clues: next }, { quiet: true });
      judge(next);
    }, DRAFT_DELAY_MS);
  }

  async function transmit() {
    setBusy(true);
    clearTimeout(timer.current);
    const ok = await act({ type: "transmit", clues: clues.map((c) => c.trim()) });
    setBusy(false);
    if (ok) focusNext(".table-head .waiting-for", ".table-head h1");
    else setConfirming(false);
  }

  const judged = verdict?.key === current ? verdict : null;
  const refused = judged && !judged.ok ? judged : null;
  // The view's warnings are about the draft the server last got: shown only while it is typed.
  const warnings = (i) =>
    tr.draft?.[i] === clues[i] ? (tr.clue_warnings?.[i] || []).filter((w) => refused?.clue !== i || w !== refused.code) : [];
  const general = refused && refused.clue === null;
  const blank = refused?.code === "blank_clue";
  return html`<section class="card encryptor" aria-labelledby="enc-title">
    <h2 id="enc-title"><${Icon} name="key-round" /> ${t("encryptor.title")}</h2>
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
            review();
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
                aria-invalid=${refused?.clue === i && !blank ? "true" : null}
                onInput=${(e) => edit(i, e.currentTarget.value)}
              />
              <div id=${`clue-${i}-msg`} aria-live="polite">
                ${refused?.clue === i && !blank
                  ? html`<p class="error-text small clue-refused">${errorText(refused.code)}</p>`
                  : null}
                ${warnings(i).map(
                  (w) => html`<p class="warning small">${t(`warning.${w}`)}</p>`,
                )}
              </div>
            </div>`,
          )}
          ${general || blank ? html`<p class="muted small" role="status">${errorText(refused.code)}</p>` : null}
          <button class="primary" type="submit" disabled=${!!refused}>${t("encryptor.review")}</button>
        </form>`}
  </section>`;
}
