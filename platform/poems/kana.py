"""Historical kana -> how the poems are pronounced. Pure Python, no Django.

The data holds the poems in historical spelling, as printed on the cards
(あふことの). Readers pronounce them by the usual rules (おおことの):

* inside a word は/ひ/ふ/へ/ほ are said わ/い/う/え/お;
* ゐ/ゑ/を are said い/え/お; ぢ/づ are said じ/ず;
* a vowel followed by an う that came from ふ makes a long vowel:
  あう -> おう, いう -> ゆう, えう -> よう (so てふ -> ちょう, けふ -> きょう).

"Inside a word" needs word boundaries, which kana alone do not give. The
kanji-kana text does: a kanji's reading starts a word (原 in あまのはら keeps は).
Aligning the two texts finds those starts. The few words the alignment cannot see
(words written in kana, compounds such as 篠原) are listed in WORD_STARTS.

Every function works per historical character: `sounds()` returns, for each
kana of the printed text, what is said for it, so a beginning of N printed kana
is always N sounds (kimariji are counted that way).
"""

from __future__ import annotations

import re
import unicodedata

H_TO_W = {"は": "わ", "ひ": "い", "ふ": "う", "へ": "え", "ほ": "お"}
ALWAYS = {"ゐ": "い", "ゑ": "え", "を": "お", "ぢ": "じ", "づ": "ず"}

# Vowel row of each kana, for the long-vowel rules.
_ROWS = {
    "a": "あかさたなはまやらわがざだばぱ",
    "i": "いきしちにひみりぎじぢびぴ",
    "e": "えけせてねへめれげぜでべぺ",
    "o": "おこそとのほもよろをごぞどぼぽ",
}
_VOWEL = {kana: vowel for vowel, row in _ROWS.items() for kana in row}
# a-row + う -> o-row + う (あう -> おう, かう -> こう, まがふ -> まごう)
_A_TO_O = dict(zip("あかさたなはまやらわがざだばぱ", "おこそとのほもよろおごぞどぼぽ", strict=True))
# i-row + う -> i-row + ゅう (いう -> ゆう, きう -> きゅう); e-row + う -> i-row + ょう
_I_YU = {
    "い": "ゆ", "き": "きゅ", "し": "しゅ", "ち": "ちゅ", "に": "にゅ", "ひ": "ひゅ",
    "み": "みゅ", "り": "りゅ", "ぎ": "ぎゅ", "じ": "じゅ", "び": "びゅ",
}  # fmt: skip
_E_YO = {
    "え": "よ", "け": "きょ", "せ": "しょ", "て": "ちょ", "ね": "にょ", "へ": "ひょ",
    "め": "みょ", "れ": "りょ", "げ": "ぎょ", "ぜ": "じょ", "で": "じょ", "べ": "びょ",
}  # fmt: skip

# Word starts the kanji alignment cannot find: (poem number, text, offset of the
# word-initial kana in text). Each keeps its h sound.
WORD_STARTS: tuple[tuple[int, str, int], ...] = (
    (2, "ほすてふ", 0),  # 衣ほすてふ: ほす (干す) written in kana
    (9, "にふる", 1),  # わが身世にふる: ふる (経る)
    (17, "ちはや", 1),  # ちはやぶる keeps its は by tradition
    (20, "はた", 0),  # 今はた: はた (adverb)
    (39, "しのはら", 2),  # 篠原 = しの + はら
    (56, "のほか", 1),  # このよのほか: ほか (外)
    (58, "ささはら", 2),  # 笹原 = ささ + はら
    (85, "のひま", 1),  # 閨のひま: ひま (隙)
    (87, "だひぬ", 1),  # まだひぬ: ひぬ (干ぬ)
    (92, "しほひ", 2),  # 潮干 = しほ + ひ
    (97, "まつほ", 2),  # 松帆 (まつほ), a place name
    # Words written in kana after a particle.
    (23, "みひとつ", 1),  # わが身ひとつ
    (26, "まひと", 1),  # 今ひとたび
    (56, "まひと", 1),
    (60, "だふみ", 1),  # まだふみも
    (66, "りほか", 1),  # 花よりほか
    # Runs of kanji that hold two words: the second kanji starts one.
    (5, "ぢふみ", 1),  # 紅葉踏み
    (58, "ぜふけ", 1),  # 風吹けば
    (59, "よふけ", 1),  # さ夜更けて
    (69, "しふく", 1),  # 嵐吹く
    (94, "よふけ", 1),  # さ夜更けて
)
# Kanji readings that do not start a word: (poem, text, offset).
NOT_WORD_STARTS: tuple[tuple[int, str, int], ...] = (
    (73, "をのへ", 2),  # 尾の上 = をのへ, said おのえ
)
# An う from ふ that does not lengthen the sound before it: (poem, text, offset of ふ).
SEPARATE_U: tuple[tuple[int, str, int], ...] = (
    (39, "ぢふ", 1),  # 浅茅生 = あさぢ + ふ, said あさじう
)

_HIRAGANA = re.compile(r"[\u3041-\u309f]")
VOICING_MARKS = ("\u3099", "\u309a")


def strip_voicing(text: str) -> str:
    """Drop dakuten and handakuten, as printed on torifuda: わがころもでは -> わかころもては."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if c not in VOICING_MARKS))


def kanji_word_starts(kana: str, kanji: str) -> set[int]:
    """Offsets in `kana` where the reading of a run of kanji begins.

    `kana` and `kanji` are the same phrase; the hiragana of the kanji text are
    anchors, and each run of kanji takes what lies between them.
    """
    pattern = []
    runs = 0
    for token in re.findall(r"[\u3041-\u309f]+|[^\u3041-\u309f]+", kanji):
        if _HIRAGANA.match(token):
            pattern.append(re.escape(token))
        else:
            pattern.append("(.+?)")
            runs += 1
    match = re.fullmatch("".join(pattern), kana)
    if match is None:
        raise ValueError(f"cannot align {kanji!r} with {kana!r}")
    return {match.start(i) for i in range(1, runs + 1)}


def _marked(table: tuple[tuple[int, str, int], ...], kana: str, poem: int | None) -> set[int]:
    """Offsets in `kana` named by a (poem, text, offset) table."""
    return {
        m.start() + at
        for number, text, at in table
        if number == poem
        for m in re.finditer(re.escape(text), kana)
    }


def sounds(kana: str, kanji: str, poem: int | None = None) -> list[str]:
    """For each character of the historical `kana`, what is said for it.

    `kana` and `kanji` are whole verses with phrases separated by spaces; spaces
    map to "" (they are not sounds). Pass the poem number to apply WORD_STARTS.
    """
    kana_phrases = kana.split(" ")
    kanji_phrases = kanji.split(" ")
    if len(kana_phrases) != len(kanji_phrases):
        raise ValueError(f"{kana!r} and {kanji!r} have different phrase counts")

    starts: set[int] = set()
    offset = 0
    for kana_phrase, kanji_phrase in zip(kana_phrases, kanji_phrases, strict=True):
        starts.add(offset)
        starts.update(offset + i for i in kanji_word_starts(kana_phrase, kanji_phrase))
        offset += len(kana_phrase) + 1
    starts |= _marked(WORD_STARTS, kana, poem)
    starts -= _marked(NOT_WORD_STARTS, kana, poem)
    separate_u = _marked(SEPARATE_U, kana, poem)

    out: list[str] = []
    from_fu: list[bool] = []
    for i, ch in enumerate(kana):
        if ch == " ":
            out.append("")
        elif ch in H_TO_W and i not in starts:
            out.append(H_TO_W[ch])
        else:
            out.append(ALWAYS.get(ch, ch))
        from_fu.append(ch == "ふ" and out[-1] == "う" and i not in separate_u)

    # Long vowels: a sound before an う that came from ふ (same word).
    for i in range(1, len(out)):
        if not from_fu[i]:
            continue
        before = out[i - 1]
        vowel = _VOWEL.get(before)
        if vowel == "a":
            out[i - 1] = _A_TO_O[before]
        elif vowel == "i" and before in _I_YU:
            out[i - 1] = _I_YU[before]
        elif vowel == "e" and before in _E_YO:
            out[i - 1] = _E_YO[before]
    return out


def pronounce(kana: str, kanji: str, poem: int | None = None) -> str:
    """The verse as it is said, in modern kana, phrases separated by spaces."""
    return "".join(s or " " for s in sounds(kana, kanji, poem))


def comparison_keys(said: list[str]) -> list[str]:
    """What beginnings are compared on, one key per sound.

    A long o sounds the same whether modern kana write it おう (あふ -> おう) or
    おお (おほ -> おお), so both become "ー" after an o sound: あふこ, おほえ and
    おほけ share their first two sounds and differ at the third.
    """
    keys: list[str] = []
    for sound in said:
        if sound in ("う", "お") and keys and _VOWEL.get(keys[-1][-1]) == "o":
            keys.append("ー")
        else:
            keys.append(sound)
    return keys
