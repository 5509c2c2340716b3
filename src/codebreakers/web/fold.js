/**
 * The engine's key for "the same clue" and "the same guess" (games/decrypto/words/folding.py,
 * `match_key`): compatibility forms (NFKC) as plain letters, invisible characters dropped, then
 * case, accents, spaces and hyphens folded away; Russian й kept. The tie-break review uses it to
 * offer "accept" only for near misses, and the options form to count a custom list's distinct
 * words. The server stays the judge of clues (tests/web/test_fold_js.py keeps the two in step).
 */
const KEPT = new Set(["й", "Й"]);
// Drawn as nothing: format characters (soft hyphen, zero-width and bidi controls...), the
// combining grapheme joiner, Hangul fillers, variation selectors.
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;

export function fold(text) {
  let out = "";
  for (const ch of text.normalize("NFKC").replace(INVISIBLE, "").normalize("NFC")) {
    out += KEPT.has(ch) ? ch : ch.normalize("NFD").replace(/\p{M}/gu, "");
  }
  // toLowerCase plus the case folds of Python's casefold that our languages meet (ß, final ς).
  const lower = out.toLowerCase().replace(/ß/gu, "ss").replace(/ς/gu, "σ");
  return lower.replace(/[\s\p{Pd}]+/gu, "").normalize("NFC");
}
