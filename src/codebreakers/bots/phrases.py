"""What a bot says in chat, in the room's language: the bot's own words, so they live here.

Interface text (buttons, errors) goes through the web client's i18n catalogs; these lines are
what a teammate would type, so they are part of the bot, like its choice of clues.
"""

from __future__ import annotations

from collections.abc import Sequence

_LINES: dict[str, dict[str, str]] = {
    "en": {
        "own": "I read {code}, {sure}.",
        "enemy": "Their code could be {code}, {sure}.",
        "lock": "Locking {code}.",
        "guess": "My guesses: {words}.",
        "sure": "quite sure",
        "fair": "fairly sure",
        "unsure": "just a hunch",
    },
    "fr": {
        "own": "Je lis {code}, {sure}.",
        "enemy": "Leur code pourrait être {code}, {sure}.",
        "lock": "Je valide {code}.",
        "guess": "Mes propositions : {words}.",
        "sure": "j'en suis sûr",
        "fair": "assez sûr",
        "unsure": "au flair",
    },
    "ru": {
        "own": "Я читаю {code}, {sure}.",
        "enemy": "Их код может быть {code}, {sure}.",
        "lock": "Фиксирую {code}.",
        "guess": "Мои догадки: {words}.",
        "sure": "почти уверен",
        "fair": "довольно уверен",
        "unsure": "наугад",
    },
    "ko": {
        "own": "제 생각엔 {code}, {sure}.",
        "enemy": "상대 코드는 {code}일 수도 있어요, {sure}.",
        "lock": "{code}(으)로 확정할게요.",
        "guess": "제 추측: {words}.",
        "sure": "거의 확실해요",
        "fair": "꽤 확신해요",
        "unsure": "감으로요",
    },
}

LANGUAGES = tuple(_LINES)


def _code(code: Sequence[int]) -> str:
    return "-".join(str(d) for d in code)


def _sure(lang: str, confidence: float) -> str:
    lines = _LINES[lang]
    if confidence >= 0.9:
        return lines["sure"]
    return lines["fair"] if confidence >= 0.6 else lines["unsure"]


def say_reading(lang: str, target: str, code: Sequence[int], confidence: float) -> str:
    """A proposal in chat: "I read 3-1-4, fairly sure." (target "own" or "enemy")."""
    return _LINES[lang][target].format(code=_code(code), sure=_sure(lang, confidence))


def say_lock(lang: str, code: Sequence[int]) -> str:
    return _LINES[lang]["lock"].format(code=_code(code))


def say_guess(lang: str, words: Sequence[str]) -> str:
    return _LINES[lang]["guess"].format(words=", ".join(words))
