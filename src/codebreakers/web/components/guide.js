/**
 * The first-game guide: one short hint for what the player faces right now (the keywords, the
 * code, the decider, interception, the notes sheet; Mastermind's two roles), each dismissible.
 * Dismissed hints, and the end of a first game, are remembered in this browser (localStorage),
 * so a player sees each hint at most once and none after its first game. The hint is a
 * complementary landmark placed in the page flow above the table (css/quickplay.css), so it
 * never covers a field or a button.
 */
import { html, useState } from "../html.js";
import { t } from "../i18n.js";
import { Icon } from "./common.js";

const SEEN_KEY = "cb.guide.seen";
const DONE_KEY = "cb.guide.done";

function seenHints() {
  try {
    return new Set(JSON.parse(localStorage.getItem(SEEN_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

/** The hint for this moment of a Decrypto game, by phase, round and the viewer's task. */
function decryptoHint(view) {
  const you = view.you;
  if (!you?.seat || view.phase !== "round") return null;
  const mine = view.rounds.find((r) => r.number === view.round)?.transmissions?.[you.team];
  const task = view.waiting_for.find((w) => w.seat === you.seat)?.task;
  if (task === "lock_enemy") return "intercept";
  // An encryptor whose clues are out has nothing to do: it may not decode them.
  if (view.round === 1 && you.role === "encryptor") return mine?.status === "writing" ? "code" : null;
  if (view.round === 1 && mine?.status === "writing") return "keywords";
  if (view.round === 1 && you.role === "decider") return "decider";
  if (view.round === 1) return "propose";
  if (view.round === 2) return "notes";
  return null;
}

function mastermindHint(view) {
  const role = view.you?.role;
  if (!role || view.phase === "over") return null;
  return role === "breaker" ? "mm_breaker" : "mm_maker";
}

const HINTS = { decrypto: decryptoHint, mastermind: mastermindHint };

export function FirstGameGuide({ state }) {
  const [seen, setSeen] = useState(seenHints);
  const { view, room } = state;
  if (!view || !room || localStorage.getItem(DONE_KEY)) return null;
  if (view.phase === "over" && view.you?.seat) {
    localStorage.setItem(DONE_KEY, "1"); // a first game played to its end: no more hints
    return null;
  }
  const hint = HINTS[room.game]?.(view);
  if (!hint || seen.has(hint)) return null;
  function dismiss() {
    const next = new Set(seen).add(hint);
    localStorage.setItem(SEEN_KEY, JSON.stringify([...next]));
    setSeen(next);
  }
  function stop() {
    localStorage.setItem(DONE_KEY, "1");
    setSeen(new Set(seen).add(hint));
  }
  return html`<aside class="guide card" aria-labelledby="guide-title" data-hint=${hint}>
    <h2 id="guide-title"><${Icon} name="lightbulb" /> ${t(`guide.${hint}.title`)}</h2>
    <p>${t(`guide.${hint}.text`)}</p>
    <div class="row">
      <button class="primary guide-ok" onClick=${dismiss}>${t("guide.ok")}</button>
      <button class="ghost guide-off" onClick=${stop}>${t("guide.off")}</button>
    </div>
  </aside>`;
}
