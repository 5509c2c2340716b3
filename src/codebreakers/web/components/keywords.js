/** A team's four numbered keywords: shown only to its members (the view carries them only then).
 * `lang` is the word pool's language when it has one, so a screen reader pronounces the words in
 * it even when the interface is in another. */
import { html } from "../html.js";
import { t } from "../i18n.js";
import { TeamBadge } from "./common.js";

export function Keywords({ team, keywords, highlight, lang }) {
  return html`<section class="keywords card" aria-labelledby="kw-title">
    <h2 id="kw-title" class="row">${t("keywords.title")} <${TeamBadge} team=${team} /></h2>
    <ol class="keyword-list">
      ${keywords.map(
        (w, i) => html`<li class=${highlight?.includes(i + 1) ? "lit" : ""}>
          <span class="num" aria-hidden="true">${i + 1}</span>
          <span class="visually-hidden">${t("keywords.number", { n: i + 1 })}</span>
          <span class="word" lang=${lang}>${w}</span>
        </li>`,
      )}
    </ol>
  </section>`;
}
