/**
 * The engine's comparison key for words typed by people (games/decrypto/words/folding.py): case,
 * accents and spaces folded away, Russian й kept. The encryptor's panel uses it to flag a clue
 * that repeats an earlier clue or equals one of the team's keywords before the server refuses it,
 * and the tie-break review to offer "accept" only for near misses. The server stays the judge
 * (it also catches inflections and keywords inside phrases).
 */
const KEPT = new Set(["й", "Й"]);

export function fold(text) {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    out += KEPT.has(ch) ? ch : ch.normalize("NFD").replace(/\p{M}/gu, "");
  }
  return out.toLowerCase().replace(/\s+/gu, "").normalize("NFC");
}

/** The engine's rejection code this clue would surely get, or null. */
export function clueProblem(clue, keywords, usedClues) {
  const f = fold(clue);
  if (!f) return null;
  if (usedClues.some((u) => fold(u) === f)) return "clue_reused";
  if (keywords.some((k) => fold(k) === f)) return "clue_is_keyword";
  return null;
}
