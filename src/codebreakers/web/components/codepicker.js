/**
 * Picking a code: for each of the three clues, a radio group of the digits 1-4. Radio groups give
 * keyboard play (arrow keys move and choose) and screen-reader labels for free. A choice never
 * changes another clue's digit (arrowing through a group would otherwise scramble the others):
 * a repeated digit is flagged instead, and the code counts only once its digits differ.
 */
import { html } from "../html.js";
import { t } from "../i18n.js";

function pickDigit(code, slot, digit) {
  const next = [...code];
  next[slot] = digit;
  return next;
}

export function isComplete(code) {
  return code.every((d) => d) && new Set(code).size === 3;
}

function hasRepeat(code) {
  const picked = code.filter((d) => d);
  return new Set(picked).size !== picked.length;
}

export function CodePicker({ id, clues, code, onChange, disabled }) {
  return html`<div class="code-picker">
    ${[0, 1, 2].map(
      (slot) => html`<fieldset class="pick-row" disabled=${disabled}>
        <legend>
          <span class="clue-num">${slot + 1}</span>
          <span class="clue-text">${clues?.[slot] || t("clue.blank")}</span>
        </legend>
        <div class="digits">
          ${[1, 2, 3, 4].map(
            (d) => html`<label class="digit-choice">
              <input
                type="radio"
                name=${`${id}-${slot}`}
                value=${d}
                checked=${code[slot] === d}
                aria-label=${t("pick.aria", { clue: slot + 1, n: d })}
                onChange=${() => onChange(pickDigit(code, slot, d))}
              />
              <span aria-hidden="true">${d}</span>
            </label>`,
          )}
        </div>
      </fieldset>`,
    )}
    ${hasRepeat(code) ? html`<p class="warning small" role="status">${t("pick.repeat")}</p>` : null}
  </div>`;
}
