from poems import catalogue
from poems.catalogue import PoetClass
from poems.kana import pronounce, strip_voicing

VOICED = set("がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽ")


def test_torifuda_have_no_voicing_marks():
    assert strip_voicing("わがころもでは") == "わかころもては"
    assert catalogue.poem(1).torifuda == "わかころもては つゆにぬれつつ"
    for p in catalogue.poems():
        assert not VOICED & set(p.torifuda), p.number
        assert len(p.torifuda) == len(p.shimo_kana)


def test_classes_match_the_rules():
    by_class: dict[PoetClass, list[int]] = {}
    for p in catalogue.poems():
        by_class.setdefault(p.poet_class, []).append(p.number)
    assert by_class[PoetClass.MONK] == [8, 12, 21, 47, 66, 69, 70, 82, 85, 86, 87, 95]
    assert len(by_class[PoetClass.PRINCESS]) == 21 and 2 in by_class[PoetClass.PRINCESS]
    assert by_class[PoetClass.SEMIMARU] == [10]
    assert by_class[PoetClass.EMPEROR] == [1, 13, 15, 68, 77, 99, 100]
    assert by_class[PoetClass.NYUDO] == [76, 96]
    nobles = [p for p in catalogue.poems() if p.poet_class.is_noble]
    assert len(nobles) == 66


def test_monks_are_exactly_the_houshi_and_soujou_names():
    monks = {p.number for p in catalogue.poems() if p.poet_class is PoetClass.MONK}
    named = {p.number for p in catalogue.poems() if "法師" in p.poet or "僧正" in p.poet}
    assert monks == named


# Pronunciations checked by hand against readers' texts (む endings left as printed).
SAID = {
    1: "あきのたの かりおのいおの とまおあらみ",
    7: "あまのはら ふりさけみれば かすがなる",
    17: "ちはやぶる かみよもきかず たつたがわ",
    39: "あさじうの おののしのはら しのぶれど",
    41: "こいすちょう わがなわまだき たちにけり",
    44: "おうことの たえてしなくば なかなかに",
    45: "あわれとも ゆうべきひとわ おもおえで",
    58: "ありまやま いなのささはら かぜふけば",
    61: "いにしえの ならのみやこの やえざくら",
    63: "いまわただ おもいたえなむ とばかりお",
    69: "あらしふく みむろのやまの もみじばわ",
    74: "うかりける ひとおはつせの やまおろしよ",
    78: "あわじしま かようちどりの なくこえに",
    95: "おおけなく うきよのたみに おおうかな",
    97: "こぬひとお まつほのうらの ゆうなぎに",
}


def test_pronounced_upper_verses():
    for number, said in SAID.items():
        assert catalogue.poem(number).kami_said == said, number


def test_pronounced_lower_verses():
    assert catalogue.poem(2).shimo_said == "ころもほすちょう あまのかぐやま"
    assert catalogue.poem(61).shimo_said == "きょうここのえに においぬるかな"
    assert catalogue.poem(92).shimo_said == "ひとこそしらね かわくまもなし"
    assert catalogue.poem(76).shimo_said == "くもいにまごう おきつしらなみ"
    assert pronounce("わがいほは", "わが庵は") == "わがいおわ"
