/**
 * One-click ways in (docs/quickplay.md): "Play now" (a Decrypto table with bots, started at
 * once), "Play Mastermind" (a solo match against the computer) and "Quick join" (the public
 * room closest to starting). The server seats the visitor and answers with its seat token,
 * which is kept like the one a `joined` frame gives, so the room page opens already seated.
 * Quick join sends the seats this browser already holds, so pressed twice it finds the visitor
 * in the room it picked instead of seating a second copy there.
 * Also the lobby's offer to fill the empty seats with bots, shown to the host after a wait.
 */
import { html, useEffect, useState } from "../html.js";
import { t, errorText } from "../i18n.js";
import { navigate } from "../router.js";
import { heldSeats, send } from "../net.js";
import { adoptName } from "../me.js";
import { toast } from "../store.js";
import { Icon } from "./common.js";

const NAME_KEY = "cb.name";
const offerKey = (code) => `cb.offer.${code}`;
const DEFAULT_OFFER_S = 20;
const BOT_LEVEL = "normal";

async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await res.json().catch(() => ({ error: { code: "internal_error" } }));
  if (!res.ok) throw new Error(errorText(answer.error.code, answer.error.detail));
  return answer;
}

/** Enter the room the server seated this visitor in. */
function enter(answer) {
  localStorage.setItem(`cb.token.${answer.code}`, answer.token);
  if (answer.offer_bots_after_s !== undefined) {
    sessionStorage.setItem(offerKey(answer.code), String(answer.offer_bots_after_s));
  }
  navigate(`/r/${answer.code}`);
}

export function QuickStart() {
  const [name, setName] = useState(localStorage.getItem(NAME_KEY) || "");
  const [busy, setBusy] = useState(false);
  // Kept as typed: creating a room or joining one by its code from this page uses it too.
  function rememberName(value) {
    setName(value);
    if (value.trim()) localStorage.setItem(NAME_KEY, value.trim());
    else localStorage.removeItem(NAME_KEY);
  }
  async function go(path, body) {
    const clean = name.trim() || t("playnow.guest");
    if (name.trim()) {
      localStorage.setItem(NAME_KEY, clean);
      adoptName(clean);
    }
    setBusy(true);
    try {
      enter(await post(path, { name: clean, lang: document.documentElement.lang, ...body }));
    } catch (err) {
      toast(err.message);
    } finally {
      setBusy(false);
    }
  }
  return html`<section class="card quick-start" aria-labelledby="quick-title">
    <h2 id="quick-title">${t("playnow.title")}</h2>
    <p class="muted small">${t("playnow.intro")}</p>
    <label for="quick-name"><span class="label">${t("lobby.your_name")}</span>
      <input id="quick-name" value=${name} maxlength="32" autocomplete="nickname"
        placeholder=${t("playnow.guest")} onInput=${(e) => rememberName(e.currentTarget.value)} />
    </label>
    <div class="row quick-buttons">
      <button class="primary play-now" disabled=${busy}
        onClick=${() => go("/api/play-now", { game: "decrypto" })}><${Icon} name="play" /> ${t("playnow.play")}</button>
      <button class="play-mastermind" disabled=${busy}
        onClick=${() => go("/api/play-now", { game: "mastermind" })}>● ${t("playnow.mastermind")}</button>
      <button class="quick-join" disabled=${busy}
        onClick=${() => go("/api/quick-join", { held: heldSeats() })}>⇢ ${t("playnow.quick_join")}</button>
    </div>
  </section>`;
}

/** Per team, the empty slots a bot should take so both teams can start and are even. */
function seatsToFill(room) {
  const counts = Object.fromEntries(
    Object.entries(room.teams).map(([team, slots]) => [team, slots.filter(Boolean).length]),
  );
  const most = Math.max(...Object.values(counts));
  const wanted = [];
  for (const [team, slots] of Object.entries(room.teams)) {
    const [lo, hi] = room.team_sizes[team];
    let missing = Math.min(hi, Math.max(lo, most)) - counts[team];
    slots.forEach((who, index) => {
      if (!who && missing > 0) {
        wanted.push({ team, index });
        missing -= 1;
      }
    });
  }
  return wanted;
}

/** The host's offer, after a short wait with empty seats, to seat bots there (add_bot). */
export function BotOffer({ room }) {
  const waitS = Number(sessionStorage.getItem(offerKey(room.code)) ?? DEFAULT_OFFER_S);
  const [due, setDue] = useState(waitS <= 0);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (due) return undefined;
    const id = setTimeout(() => setDue(true), waitS * 1000);
    return () => clearTimeout(id);
  }, [room.code]);
  const wanted = seatsToFill(room);
  if (!due || wanted.length === 0) return null;
  async function fill() {
    setBusy(true);
    for (const seat of wanted) {
      if (!(await send("add_bot", { ...seat, level: BOT_LEVEL }))) break;
    }
    setBusy(false);
  }
  return html`<section class="card bot-offer" aria-live="polite">
    <p>${t("playnow.offer", { n: wanted.length })}</p>
    <button class="primary fill-bots" disabled=${busy} onClick=${fill}><${Icon} name="bot" /> ${t("playnow.fill")}</button>
  </section>`;
}
