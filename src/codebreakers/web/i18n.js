/**
 * Interface language: JSON catalogs in i18n/ beside this module, picked from the browser the first time and
 * switchable (remembered in localStorage). Server error codes are translated here, as
 * `error.<code>`. The interface language is unrelated to a room's word-pool language.
 */
export const LANGUAGES = { en: "English", fr: "Français", ru: "Русский", ko: "한국어" };
const KEY = "cb.lang";

let catalog = {};
let english = null; // the fallback for a key a translation lacks, loaded once

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
  // Beside this module, so under the page's build path (server/http/static.py) like every file.
  const res = await fetch(new URL(`./i18n/${lang}.json`, import.meta.url));
  if (!res.ok) throw new Error(`catalog ${lang}: ${res.status}`);
  return res.json();
}

/** Loads `lang` (and English, the fallback for a missing key) and remembers the choice. */
export async function loadLanguage(lang, remember = false) {
  if (!(lang in LANGUAGES)) lang = "en";
  const [cat, en] = await Promise.all([
    lang === "en" ? null : fetchCatalog(lang),
    english || fetchCatalog("en"),
  ]);
  english = en;
  catalog = cat || en;
  if (remember) localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang;
  return lang;
}

/** The text for `key` with `{name}` placeholders filled from `params`. */
export function t(key, params) {
  let text = catalog[key] ?? english[key];
  if (text === undefined) return key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? params[name] : m));
  return text;
}

/**
 * A count in words: the text of `key.one`, `key.few`, `key.many` or `key.other`, whichever plural
 * form the interface language gives `n` (Intl.PluralRules: Russian has three, Korean one), with
 * `{n}` filled (formatted for the language). Every catalog carries all four forms so their keys stay the same.
 */
export function tn(key, n, params) {
  const form = new Intl.PluralRules(document.documentElement.lang).select(n);
  return t(has(`${key}.${form}`) ? `${key}.${form}` : `${key}.other`, { ...params, n: formatNumber(n) });
}

/** A number written the interface language's way (digit grouping, decimal sign). */
export function formatNumber(n) {
  return new Intl.NumberFormat(document.documentElement.lang).format(n);
}

/** A Unix time in seconds as a date (and the time of day with `withTime`) in the interface language. */
export function formatDate(seconds, withTime = false) {
  const style = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(document.documentElement.lang, style).format(new Date(seconds * 1000));
}

/** Whether a catalog has a text for `key`. */
function has(key) {
  return key in catalog || key in english;
}

/** A server or engine error code as a sentence in the interface language. */
export function errorText(code, detail) {
  if (has(`error.${code}`)) return t(`error.${code}`);
  return t("error.unknown", { code: detail ? `${code}: ${detail}` : code });
}
