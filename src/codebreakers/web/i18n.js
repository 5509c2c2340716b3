/**
 * Interface language: JSON catalogs in /static/i18n/, picked from the browser the first time and
 * switchable (remembered in localStorage). Server error codes are translated here, as
 * `error.<code>`. The interface language is unrelated to a room's word-pool language.
 */
export const LANGUAGES = { en: "English", fr: "Français", ru: "Русский", ko: "한국어" };
const KEY = "cb.lang";

let catalog = {};
let fallback = {};

export function pickLanguage() {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

async function fetchCatalog(lang) {
  const res = await fetch(`/static/i18n/${lang}.json`);
  if (!res.ok) throw new Error(`catalog ${lang}: ${res.status}`);
  return res.json();
}

/** Loads `lang` (and English as the fallback for a missing key) and remembers the choice. */
export async function loadLanguage(lang, remember = false) {
  if (!(lang in LANGUAGES)) lang = "en";
  const [cat, en] = await Promise.all([
    fetchCatalog(lang),
    lang === "en" || fallback.__lang === "en" ? null : fetchCatalog("en"),
  ]);
  catalog = cat;
  if (lang === "en") fallback = cat;
  else if (en) fallback = en;
  fallback.__lang = "en";
  if (remember) localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang;
  return lang;
}

/** The text for `key` with `{name}` placeholders filled from `params`. */
export function t(key, params) {
  let text = catalog[key] ?? fallback[key];
  if (text === undefined) return key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? params[name] : m));
  return text;
}

/** Whether the catalog has a text for `key` (used to fall back for unknown error codes). */
export function has(key) {
  return key in catalog || key in fallback;
}

/** A server or engine error code as a sentence in the interface language. */
export function errorText(code, detail) {
  if (has(`error.${code}`)) return t(`error.${code}`);
  return t("error.unknown", { code: detail ? `${code}: ${detail}` : code });
}
