/**
 * "Your move" signals: the tab title gains a marker and a soft two-note chime plays when the
 * player becomes the one the game waits for (transmit, lock, guess). The chime is synthesised
 * with WebAudio so no audio file is shipped; muting is remembered per browser. The audio starts
 * only once the page has had a gesture (the title marker is enough until then).
 */
const KEY = "cb.muted";
let ctx = null;
let lastTask = null;

export function savedMuted() {
  return localStorage.getItem(KEY) === "1";
}

export function saveMuted(muted) {
  localStorage.setItem(KEY, muted ? "1" : "0");
}

// Browsers refuse (with a console warning each time) an AudioContext made or resumed before the
// page got a click or a key: after a reload the chime waits for the first gesture in this page
// (navigator.userActivation may still count one from before the reload).
let gestured = false;
for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(kind, () => (gestured = true), { once: true, capture: true });
}

function audio() {
  if (!gestured) return null;
  ctx = ctx || new AudioContext();
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

function chime() {
  try {
    const ac = audio();
    if (!ac) return;
    const now = ac.currentTime;
    [659.25, 880].forEach((freq, i) => {
      const osc = ac.createOscillator();
      const gain = ac.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = now + i * 0.16;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.12, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.5);
      osc.connect(gain).connect(ac.destination);
      osc.start(start);
      osc.stop(start + 0.55);
    });
  } catch {
    // No audio device or autoplay refused: the title marker still tells the player.
  }
}

/**
 * Called after every render with the task the game waits on this player for (or null) and the
 * page title; plays the chime only when a new task appears.
 */
export function signalTurn(task, title, muted) {
  document.title = task ? `● ${title}` : title;
  if (task && task !== lastTask && !muted) chime();
  lastTask = task;
}

