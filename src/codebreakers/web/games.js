/**
 * Each game's interface parts, picked by `room.game`: the table, the options form, its read-only
 * summary, a new room's options for an interface language, and the task the game waits on the
 * viewer for. A new game registers its own entry here.
 */
import { DecryptoTable, myTask as decryptoTask } from "./components/table.js";
import { DecryptoOptions, DecryptoOptionsSummary, DEFAULT_OPTIONS } from "./components/options.js";
import { LANGUAGES } from "./i18n.js";
import { MastermindTable, myTask as mastermindTask } from "./components/mastermind/table.js";
import { MastermindOptions, MastermindOptionsSummary, MM_DEFAULTS } from "./components/mastermind/options.js";

const GAMES = {
  decrypto: {
    Table: DecryptoTable,
    Options: DecryptoOptions,
    Summary: DecryptoOptionsSummary,
    // A new room's keywords are in the creator's interface language unless changed.
    defaults: (lang) => ({ ...DEFAULT_OPTIONS, words: lang in LANGUAGES ? lang : "en" }),
    myTask: decryptoTask,
  },
  mastermind: {
    Table: MastermindTable,
    Options: MastermindOptions,
    Summary: MastermindOptionsSummary,
    defaults: () => ({ ...MM_DEFAULTS }),
    myTask: mastermindTask,
  },
};

export const GAME_NAMES = Object.keys(GAMES);

/** The game's interface parts, or null for a game this client has no table for. */
export function gameUi(game) {
  return GAMES[game] || null;
}
