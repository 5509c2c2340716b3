"""`make_bot`: the one door through which the server gets a bot for a seat."""

from __future__ import annotations

from codebreakers.bots.base import Bot
from codebreakers.bots.decrypto_bot import DecryptoBot
from codebreakers.bots.levels import level as level_named
from codebreakers.bots.mastermind import MastermindBot

GAMES = ("decrypto", "mastermind")


def make_bot(game: str, *, level: str, lang: str, seed: int, seat: str) -> Bot:
    """A bot for `seat` in a game of `game` ("decrypto"; "mastermind": the computer player, one
    strength whatever the level), at `level` (easy, normal, hard).

    `lang` is the room's word pool ("en", "fr", "ru", "ko", or "custom": then the bot reads
    the language off its keywords and chats in English). KeyError for an unknown game or level.
    """
    if game == "mastermind":
        level_named(level)  # one strength, but an unknown level is still an error
        return MastermindBot()
    if game != "decrypto":
        raise KeyError(f"no bots for game {game!r}")
    return DecryptoBot(level_named(level), lang, seed, seat)
