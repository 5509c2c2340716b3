"""A Decrypto bot for one seat: reads its view, decides the next ordinary action.

It takes part the way a teammate would: as encryptor it transmits; as a decoder it proposes
its reading in team chat ("I read 3-1-4, fairly sure"), and as decider it locks, weighing its
teammates' proposals against its own reading; from round 2 it does the same for the enemy's
transmission; in a tie-break it names the enemy's keywords and reviews their guesses.
Every decision is a pure function of (seed, view): the same view gets the same move.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import numpy as np

from codebreakers.bots.base import JSON, BotMove
from codebreakers.bots.code_scores import as_code, code_position
from codebreakers.bots.decoder import Reading, decode
from codebreakers.bots.encryptor import choose_clues
from codebreakers.bots.interceptor import intercept
from codebreakers.bots.levels import Level
from codebreakers.bots.lexicon import Lexicon, lexicon
from codebreakers.bots.phrases import say_guess, say_lock, say_reading
from codebreakers.bots.table import Table
from codebreakers.bots.tiebreak import guess_keywords, near_miss
from codebreakers.bots.vocab import LANGUAGES
from codebreakers.games.decrypto.words.folding import fold

# A teammate's proposal counts like this much log-probability for the code it names: enough
# to follow a teammate when the bot hesitates, not enough to overrule a clear reading.
PROPOSAL_WEIGHT = math.log(4.0)


def guess_language(words: list[str]) -> str:
    """The language of a custom word list: the one whose vocabulary or association lexicon
    knows most of its words."""
    from codebreakers.bots.associations import load_associations
    from codebreakers.bots.vocab import load_vocab

    def known(lang: str, word: str) -> bool:
        return load_vocab(lang).row_of(word) is not None or bool(load_associations(lang).of(word))

    counts = {lang: sum(known(lang, w) for w in words) for lang in LANGUAGES}
    return max(LANGUAGES, key=lambda lang: counts[lang])


@dataclass
class DecryptoBot:
    level: Level
    lang: str  # the room's word-pool option: a language, or "custom"
    seed: int
    seat: str

    def _rng(self, table: Table, what: str) -> np.random.Generator:
        tag = zlib.crc32(f"{self.seat}/{table.view['phase']}/{what}".encode())
        return np.random.default_rng([self.seed, table.round, tag])

    def _lexicon(self, table: Table) -> Lexicon:
        if self.lang in LANGUAGES:
            return lexicon(self.lang)
        return lexicon(guess_language(table.keywords), pool_known=False)

    @property
    def chat_lang(self) -> str:
        return self.lang if self.lang in LANGUAGES else "en"

    def _use_pool(self, lex: Lexicon) -> bool:
        return self.level.use_pool and bool(lex.pool.words)

    def decide(self, view: JSON) -> BotMove | None:
        table = Table.of(view)
        if table is None or view["phase"] == "over":
            return None
        if view["phase"] == "tiebreak_guess":
            return self._guess(table) if "guess_keywords" in table.tasks() else None
        if view["phase"] == "tiebreak_review":
            return self._review(table) if "review" in table.tasks() else None
        if "transmit" in table.tasks():
            return self._transmit(table)
        return self._answer(table, "own") or self._answer(table, "enemy")

    def _transmit(self, table: Table) -> BotMove:
        lex = self._lexicon(table)
        own = table.current(table.team)
        assert own is not None and own["code"] is not None
        clues = choose_clues(
            lex,
            table.keywords,
            own["code"],
            table.history(table.team),
            table.used_clues(),
            self.level,
            self._rng(table, "transmit"),
            intercepted=bool(own["interception"]["due"]),
        )
        return BotMove({"type": "transmit", "clues": clues})

    def _reading(self, table: Table, target: str, clues: list[str]) -> Reading:
        lex = self._lexicon(table)
        rng = self._rng(table, target)
        if target == "own":
            return decode(lex, table.keywords, clues, self.level.read_noise, rng)
        history = table.history(table.enemy)
        use_pool = self._use_pool(lex)
        return intercept(lex, history, clues, use_pool, table.keywords, self.level.read_noise, rng)

    def _answer(self, table: Table, target: str) -> BotMove | None:
        """Propose, then (as decider) lock, our answer to our own or the enemy's transmission."""
        team = table.team if target == "own" else table.enemy
        t = table.current(team)
        if t is None or t["clues"] is None or t["status"] == "revealed":
            return None
        answer = t["decode"] if target == "own" else t["interception"]
        if answer["locked"] or not table.team_waited_for(f"lock_{target}"):
            return None
        if target == "own" and t["encryptor"] == table.seat:
            return None
        proposals: dict[str, list[int]] = answer["proposals"] or {}
        reading = self._reading(table, target, list(t["clues"]))
        lang = self.chat_lang
        if table.seat not in proposals:
            action = {"type": "propose", "target": target, "code": reading.code}
            chat = say_reading(lang, target, reading.code, reading.confidence)
            return BotMove(action, chat if table.view["you"]["can_team_chat"] else None)
        if f"lock_{target}" not in table.tasks():
            return None
        code = self._weigh(reading, proposals, table.seat)
        lock_chat = say_lock(lang, code) if table.view["you"]["can_team_chat"] else None
        return BotMove({"type": "lock", "target": target, "code": code}, lock_chat)

    @staticmethod
    def _weigh(reading: Reading, proposals: dict[str, list[int]], seat: str) -> list[int]:
        """Our reading's log-probabilities plus a bonus per teammate proposing a code."""
        score = np.log(np.maximum(reading.probabilities, 1e-12))
        for who, code in proposals.items():
            if who != seat:
                score[code_position(code)] += PROPOSAL_WEIGHT
        best = int(np.argmax(score))
        return reading.code if best == reading.best else as_code(best)

    def _guess(self, table: Table) -> BotMove:
        lex = self._lexicon(table)
        words = guess_keywords(lex, table.history(table.enemy), table.keywords, self._use_pool(lex))
        chat = say_guess(self.chat_lang, words) if table.view["you"]["can_team_chat"] else None
        return BotMove({"type": "guess_keywords", "words": words}, chat)

    def _review(self, table: Table) -> BotMove:
        """Accept the enemy's near misses on our keywords one at a time, then say we are done."""
        tb = table.view["tiebreak"] or {}
        guesses = (tb.get("guesses") or {}).get(table.enemy) or []
        matched = (tb.get("matches") or {}).get(table.enemy) or [False] * 4
        lex = self._lexicon(table)
        for number, (guess, keyword) in enumerate(zip(guesses, table.keywords, strict=False), 1):
            if matched[number - 1] or fold(guess) == fold(keyword):
                continue
            if near_miss(lex, guess, keyword):
                return BotMove({"type": "accept_guess", "number": number, "accept": True})
        return BotMove({"type": "review_done"})
