/**
 * Light and dark themes are two sets of CSS custom properties (css/base.css) selected by
 * `data-theme` on <html>; "auto" follows the system setting, live. The choice is stored per browser.
 */
const KEY = "cb.theme";
export const THEMES = ["auto", "light", "dark"];
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");
let chosen = "auto";

export function savedTheme() {
  const t = localStorage.getItem(KEY);
  return THEMES.includes(t) ? t : "auto";
}

function paint() {
  const dark = chosen === "dark" || (chosen === "auto" && systemDark.matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}

export function applyTheme(theme) {
  chosen = theme;
  localStorage.setItem(KEY, theme);
  paint();
}

systemDark.addEventListener("change", paint);
