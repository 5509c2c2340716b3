"""The association lexicons: strict parsing, and a validator of every entry of every language.

The validator checks what is mechanically decidable of the lexicon's rules (docs/bots.md):
coverage of the pool, 20-40 associations per keyword, no duplicates, no form of the keyword,
the language's own script, dictionary words (wordfreq; pymorphy3 for Russian, also for names
and inflected forms; Kiwi's morphology for Korean, also for proper nouns and bare verb stems),
no capitals (names, abbreviations) and, for Korean, no word with the sound pattern of an
English transliteration unless reviewed. Each test lists every offender at once.

A language whose lexicon does not exist yet is skipped, except on CI (CI=true): there all
four must be present.
"""

from __future__ import annotations

import math
import os
from functools import cache

import numpy as np
import pytest
import regex
import wordfreq

from codebreakers.bots.associations import (
    LANGUAGES,
    Association,
    Associations,
    Entry,
    LexiconError,
    build,
    lexicon_path,
    load_associations,
    parse_lexicon,
    read_all,
    read_entries,
    tokens,
    vectors_path,
)
from codebreakers.bots.dictionary import (
    KO_FOREIGN_TAGS,
    KO_STEM_TAGS,
    ko_common_noun,
    ko_readings,
    morph_ru,
    ru_clue_form,
    ru_name,
    sounds_transliterated,
)
from codebreakers.bots.wordforms import same_root
from codebreakers.games.decrypto.words import load_pool
from codebreakers.games.decrypto.words.folding import fold

_SCRIPT = {
    "en": regex.compile(r"^\p{Latin}+(?:[ '\-]\p{Latin}+)*$"),
    "fr": regex.compile(r"^\p{Latin}+(?:[ '’\-]\p{Latin}+)*$"),
    "ru": regex.compile(r"^\p{Cyrillic}+(?:[ \-]\p{Cyrillic}+)*$"),
    "ko": regex.compile(r"^\p{Hangul}+(?: \p{Hangul}+)*$"),
}
# A word of en/fr/ru counts as a dictionary word from this Zipf frequency (wordfreq) on;
# Russian splits a word's frequency over its many forms, and pymorphy3 also vouches there.
_ZIPF_FLOOR = {"en": 1.5, "fr": 1.5, "ru": 1.0}
# Reviewed by hand: everyday Korean loanwords with no native word in use, native words that
# merely contain such a syllable, and common words wordfreq's MeCab-token list lacks (짠맛).
_KO_REVIEWED_WORDS = (
    "버스 택시 컴퓨터 피아노 기타 로켓 케이크 피자 텔레비전 카메라 초콜릿 토스트 아이스크림"
    " 크기 노트 테니스 스포츠 뉴스 주스 치즈 샐러드 가스 호텔 엘리베이터 인터넷 사이트 게임"
    " 마스크 테스트 포크 나이프 트럭 텐트 스키 스케이트 버터 소스 코트 부츠 파티 티켓 드럼"
    " 트럼펫 바이올린 기차표 커피 우유 스튜 짠맛 촛농 요구르트 세배 세뱃돈 녹용 폐백"
)
# Reviewed by hand (issue 17's lexicon broadening): everyday native and Sino-Korean nouns that
# wordfreq's table lacks or Kiwi reads as proper nouns (올챙이, 미끄럼틀, 호루라기, 동면).
_KO_REVIEWED_NATIVE = (
    "가랑잎 가지치기 갓길 개밥 개집 개찰구 게살 견공 경운기 경칩 계란말이"
    " 고드름 고목 곡괭이 곡예 곱슬머리 광맥 교각 군것질 군밤 군화 귀마개"
    " 귀지 귓불 귓속말 깃대 꽃게 나룻배 낚싯줄 납골당 노른자 노점 놋쇠"
    " 뇌진탕 누렁이 느림보 대게 대숲 대합실 도롱뇽 동면 두개골 뒷짐 들것"
    " 들꽃 들녘 등잔 맛탕 매연 맹금류 면발 목발 목청 몽유병 무두질 문패"
    " 미끄럼틀 반짇고리 방아깨비 백숙 뱃길 범선 베짱이 보청기 복날 빈말"
    " 빗장 새참 새털 석순 설경 성묘 성에 소면 쇠창살 수렁 순풍 술래잡기"
    " 시월 식목일 아궁이 암탉 압정 애창곡 어망 여치 역무원 연등 연잎 연통"
    " 엽록소 영장류 예물 옥살이 올무 올챙이 익룡 인절미 잎맥 잔돈 쟁기"
    " 저금통 전어 절편 제설 종유석 죽부인 죽순 진돗개 진딧물 집오리 철모"
    " 철문 철봉 철창 첨탑 청설모 축의금 축포 충견 층계 칠석 칼집 탈춤"
    " 털실 토굴 톱질 투망 평상 포신 해몽 호롱불 호루라기 화포 회초리"
    " 효자손 흡혈 흰자 태몽 길몽 길조 황궁 이장 오작교 천고마비 경첩"
    " 고깔모자 골무 골판지 구렁이 꽃샘추위 꽹과리 꿀밤 누에 단물 단오"
    " 단팥빵 묘약 무릉도원 무좀 문방사우 물범 배즙 벼루 비옷 빨판 뼈다귀"
    " 손톱깎이 숙회 슬개골 쓰레받기 약병 엽총 잉꼬 족욕 투우 표고 피뢰침"
    " 합죽선 해삼 황도 형설지공 홍옥 비듬 불쏘시개 외발자전거 구레나룻 깔창"
    " 꽃씨 다육식물 목탁 물갈퀴 밥집 배영 백년초 분침 비탈 석영 손풍금"
    " 솔잎 송진 시곗줄 시침 십장생 오솔길 옹알이 운율 움막 일란성 잡동사니"
    " 장날 재봉틀 접영 젖병 조간 찬장 책꽂이 천일염 초가집 초침 촛대"
    " 코뚜레 평영 필통 한치 해돋이 향초 화채 겹눈 곳간 곶감 과녁 구근"
    " 금관악기 난파선 낭떠러지 냉채 단소 등받이 메롱 모직 물뿌리개 반신욕"
    " 버선 법복 별똥별 봄꽃 삼지창 십자말풀이 앵두 양탄자 용광로 우체통"
    " 융단 윷놀이 이삿짐 이쑤시개 장독 장독대 잿더미 전깃줄 짹짹 찻잎 창틀"
    " 축척 칼질 폐가 흙탕물 호각 화실 화투 혀끝 통금 입욕제 공중그네"
    " 꼭짓점 남극 북극 북극성 놀이공원 대걸레 등고선 무한궤도 묵주 미뢰"
    " 바다사자 방충망 배숙 버찌 버클 봉화 삼각대 상록수 세모 썰매개 야행성"
    " 양치식물 어뢰 유대류 유리구두 위도 전서구 조식 좀약 쥐덫 현미 코브라"
    " 티백 모닝콜 립밤 금성"
)
_KO_REVIEWED = frozenset((_KO_REVIEWED_WORDS + " " + _KO_REVIEWED_NATIVE).split())


# Reviewed by hand: Russian common nouns in the nominative that pymorphy3 reads only as a name
# (чили as Chile) or as a form of another word (латте, турка, плацкарт).
_RU_REVIEWED = frozenset(
    {"чили", "черри", "байк", "латте", "турка", "кэдди", "валлаби", "суккулент", "плацкарт"}
)


def _require(lang: str) -> list[Entry]:
    if not lexicon_path(lang).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"no association lexicon for {lang} ({lexicon_path(lang)})")
        pytest.skip(f"the {lang} association lexicon is not written yet ({lexicon_path(lang)})")
    return read_entries(lang)


def _pairs(lang: str) -> list[tuple[Entry, Association]]:
    """Every (entry, association) of a language, for checks that look at one association."""
    return [(e, a) for e in _require(lang) for a in e.associations]


def _by_keyword(entries: list[Entry]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for entry in entries:
        out.setdefault(entry.keyword, []).extend(a.text for a in entry.associations)
    return out


def _report(problems: list[str]) -> None:
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems[:200])


# --- parsing -------------------------------------------------------------------------------


def test_parses_senses_grades_and_comments() -> None:
    text = (
        "# a comment\n\n"
        "배 (pear) | 3: 과일, 달다 | 1: 나무\n"
        "배 (boat) | 2: 바다, 선장\n"
        "piano | 3: keys, keys and pedals\n"
    )
    entries = parse_lexicon(text, "x.txt")
    assert [(e.keyword, e.sense, e.line) for e in entries] == [
        ("배", "pear", 3),
        ("배", "boat", 4),
        ("piano", None, 5),
    ]
    assert [(a.text, a.grade) for a in entries[0].associations] == [
        ("과일", 3),
        ("달다", 3),
        ("나무", 1),
    ]
    assoc = build("ko", entries, {})
    assert [a.sense for a in assoc.of("배")] == ["pear", "pear", "boat", "boat", "pear"]
    assert assoc.of("PIANO")[1].text == "keys and pedals"  # looked up by fold
    assert assoc.of("violin") == ()


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("piano 3: keys", "bad keyword part"),
        ("piano", "no associations"),
        ("piano | keys, pedals", "bad grade group"),
        ("piano | 1: keys | 3: pedals", "out of order"),
        ("piano | 3: keys, , pedals", "empty"),
        ("piano | 3: keys\npiano | 2: pedals", "already has a line"),
        ("piano (instrument) | 3: keys\npiano | 2: pedals", "already has a line"),
        ("pia\u0301no | 3: keys", "not NFC"),
    ],
)
def test_a_malformed_line_names_file_and_line(text: str, why: str) -> None:
    with pytest.raises(LexiconError, match=why) as error:
        parse_lexicon("# header\n" + text, "lex/en.txt")
    assert str(error.value).startswith("lex/en.txt:")
    assert str(error.value).split(":")[1] in {"2", "3"}


def test_matches_a_form_or_a_word_of_a_phrase() -> None:
    assoc = build("en", parse_lexicon("piano | 3: keys, pedal | 1: concert hall", "x"), {})
    assert assoc.match_grade("keys", "piano") == 3
    assert assoc.match_grade("pedals", "piano") == 3  # a form
    assert assoc.match_grade("keys and pedals", "piano") == 3  # a word of a phrase
    assert assoc.match_grade("Concert Hall", "piano") == 1
    assert assoc.match_grade("lobby", "piano") == 0
    assert assoc.match_grade("key", "violin") == 0


def test_vectors_come_from_the_file_or_are_embedded() -> None:
    entries = parse_lexicon("piano | 3: keys, pedal", "x")
    stored = {
        "texts": np.array(["keys"]),
        "vectors": np.full((1, 512), 1, dtype=np.int8),
        "scale": np.ones(1, dtype=np.float32),
    }
    vectors = build("en", entries, stored).vectors("piano")
    assert vectors.shape == (2, 512)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(vectors[0], 1 / math.sqrt(512))  # the stored row, not the model's


# --- the validator, per language --------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_pool_word_has_20_to_40_distinct_associations(lang: str) -> None:
    by_keyword = _by_keyword(_require(lang))
    pool = load_pool(lang)
    problems = [f"{w}: no entry" for w in pool if w not in by_keyword]
    problems += [f"{k}: not a word of the {lang} pool" for k in by_keyword if k not in pool]
    for keyword, texts in by_keyword.items():
        if not 20 <= len(texts) <= 40:
            problems.append(f"{keyword}: {len(texts)} associations (want 20-40)")
        folded = [fold(t) for t in texts]
        twice = sorted({t for t, f in zip(texts, folded, strict=True) if folded.count(f) > 1})
        if twice:
            problems.append(f"{keyword}: duplicates {twice}")
    _report(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_association_is_a_form_of_its_keyword(lang: str) -> None:
    problems = [
        f"line {e.line}: {e.keyword}: {a.text!r}"
        for e, a in _pairs(lang)
        if same_root(a.text, e.keyword) or any(same_root(t, e.keyword) for t in tokens(a.text))
    ]
    _report(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_associations_are_short_lowercase_and_in_the_languages_script(lang: str) -> None:
    problems = []
    for e, a in _pairs(lang):
        if not _SCRIPT[lang].match(a.text):
            problems.append(f"line {e.line}: {e.keyword}: {a.text!r} not in {lang} script")
        elif a.text != a.text.lower():
            problems.append(f"line {e.line}: {e.keyword}: {a.text!r} capitals (name?)")
        elif len(a.text.split()) > 3:
            problems.append(f"line {e.line}: {e.keyword}: {a.text!r} over 3 words")
    _report(problems)


@cache
def _zipf(lang: str) -> dict[str, float]:
    return {w: math.log10(f) + 9.0 for w, f in wordfreq.get_frequency_dict(lang).items()}


def _ru_problems(text: str) -> list[str]:
    morph = morph_ru()
    problems = []
    for token in tokens(text):
        if token in _RU_REVIEWED:
            continue
        known = morph.word_is_known(token) or _zipf("ru").get(token, 0.0) >= _ZIPF_FLOOR["ru"]
        if not known:
            problems.append(f"{token!r} is not a dictionary word")
        elif ru_name(token):
            problems.append(f"{token!r} is a name or an abbreviation")
    parses = morph.parse(text)
    single = " " not in text and "-" not in text and text not in _RU_REVIEWED
    if single and not any(ru_clue_form(p) for p in parses):
        problems.append(f"{text!r} is an inflected form (of {parses[0].normal_form!r})")
    return problems


def _ko_noun_known(form: str) -> bool:
    """A Korean noun in wordfreq's table, or a compound of two nouns that are."""
    table = _zipf("ko")
    if form in table:
        return True
    return len(form) >= 3 and any(
        form[:i] in table and form[i:] in table for i in range(1, len(form))
    )


def _ko_problems(text: str) -> list[str]:
    problems = []
    for token in tokens(text):
        readings = ko_readings(token)
        best = readings[0]
        tags = [tag for _, tag in best]
        if ko_common_noun(token, readings):
            if not _ko_noun_known(token) and token not in _KO_REVIEWED:
                problems.append(f"{token!r} is not in the Korean word table")
        else:
            if best == [(token, "NNP")] and token not in _KO_REVIEWED:
                problems.append(f"{token!r} reads as a proper noun")
            if KO_FOREIGN_TAGS & set(tags):
                problems.append(f"{token!r} is not Korean words")
            if tags and tags[-1] in KO_STEM_TAGS:
                problems.append(f"{token!r} is a bare verb stem (want the -다 form)")
            nouns = [form for form, tag in best if tag == "NNG"]
            known = token in _KO_REVIEWED or all(map(_ko_noun_known, nouns))
            if not any(tag[0] in "VX" for tag in tags) and not known:
                problems.append(f"{token!r} is not in the Korean word table")
        if sounds_transliterated(token) and token not in _KO_REVIEWED:
            problems.append(f"{token!r} sounds like a transliteration (review, or a native word)")
    return problems


def _word_problems(lang: str, text: str) -> list[str]:
    if lang == "ru":
        return _ru_problems(text)
    if lang == "ko":
        return _ko_problems(text)
    table = _zipf(lang)
    return [
        f"{t!r} is not a dictionary word (Zipf under {_ZIPF_FLOOR[lang]})"
        for t in tokens(text)
        if table.get(t.lower(), 0.0) < _ZIPF_FLOOR[lang]
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_is_a_dictionary_word_not_a_name(lang: str) -> None:
    problems = [
        f"line {e.line}: {e.keyword}: {why}"
        for e, a in _pairs(lang)
        for why in _word_problems(lang, a.text)
    ]
    _report(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_vector_file_holds_exactly_the_associations(lang: str) -> None:
    """scripts/build_bot_associations.py was run after the last edit of the lexicon or of the
    references."""
    _require(lang)
    entries = read_all(lang)
    texts = {a.text for e in entries for a in e.associations} | set(load_pool(lang))
    assert vectors_path(lang).exists(), "run scripts/build_bot_associations.py"
    with np.load(vectors_path(lang), allow_pickle=False) as data:
        stored = {str(t) for t in data["texts"]}
        assert data["vectors"].shape == (len(data["texts"]), 512)
        assert data["doubts"].shape == data["scale"].shape == (len(data["texts"]),)
    assert stored == texts, (
        f"{len(texts - stored)} new, {len(stored - texts)} gone: "
        "run .venv/bin/python scripts/build_bot_associations.py"
    )


def test_loaded_once_per_language() -> None:
    first = load_associations("en")
    assert load_associations("en") is first
    assert isinstance(first, Associations)
    with pytest.raises(KeyError):
        load_associations("de")


def test_hangul_forms_are_matched_by_syllables() -> None:
    assoc = build("ko", parse_lexicon("바다 | 3: 파도, 무릎, 십이지", "x"), {})
    assert assoc.match_grade("파도가", "바다") == 3  # a particle after the association
    assert assoc.match_grade("무리", "바다") == 0  # shares jamo with 무릎, not a form
    assert assoc.match_grade("십이월", "바다") == 0
