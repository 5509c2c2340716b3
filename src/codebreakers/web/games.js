/**
 * Each game's interface parts, picked by `room.game`: the table, the options form and its
 * read-only summary. A new game registers its own entry here.
 */
import { DecryptoTable, myTask as decryptoTask } from "./components/table.js";
import { DecryptoOptions, DecryptoOptionsSummary, DEFAULT_OPTIONS } from "./components/options.js";

const GAMES = {
  decrypto: {
    Table: DecryptoTable,
    Options: DecryptoOptions,
    Summary: DecryptoOptionsSummary,
    defaults: DEFAULT_OPTIONS,
    myTask: decryptoTask,
  },
};

export const GAME_NAMES = Object.keys(GAMES);

export function gameUi(game) {
  return GAMES[game] || GAMES.decrypto;
}
