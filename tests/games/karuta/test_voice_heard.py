"""The voice's measures (games/karuta/voice/heard.py) on made-up audio, and the clip layout
that puts each kana's consonants before its time (plan.lead_in_ms). Pure and cheap: the
measures over the committed clips are in test_voice_build.py (marked voice)."""

from __future__ import annotations

import numpy as np
import pytest
from django.conf import settings

from games.karuta import reading, voice
from games.karuta.voice import build, heard, plan

RATE = heard.RATE
PER_MS = heard.PER_MS


def tone(ms: float, hz: float = 220.0, db: float = -10.0) -> np.ndarray:
    t = np.arange(int(ms * PER_MS)) / RATE
    return 10 ** (db / 20) * np.sqrt(2) * np.sin(2 * np.pi * hz * t)


def silence(ms: float) -> np.ndarray:
    return np.zeros(int(ms * PER_MS))


def test_a_sound_is_heard_from_its_first_frame_near_its_loudest():
    quiet_then_loud = np.concatenate([silence(40), tone(20, db=-40), tone(100)])
    assert heard.heard_at(quiet_then_loud, 0, 160) == 60  # the -40 dB onset is not heard yet
    burst = np.concatenate([silence(30), tone(10, db=-5), tone(100, db=-12)])
    assert heard.heard_at(burst, 0, 140) == 30  # a burst within 10 dB counts from itself
    assert heard.lateness(burst, [25, 35], [(0, 140), (0, 140)]) == [5, -5]


def test_the_previous_sound_dying_away_is_not_this_kana():
    """A vowel fading into this kana's closure (an opening fall of 6 dB or more) is the
    previous kana's; a level opening (a nasal) is this one's."""
    fade = tone(30, db=-12) * np.linspace(1.0, 0.01, 30 * PER_MS)
    closure_then_vowel = np.concatenate([fade, silence(30), tone(100)])
    assert heard.heard_at(closure_then_vowel, 0, 160) == 60
    nasal = np.concatenate([tone(40, db=-16) * np.linspace(1.0, 0.85, 40 * PER_MS), tone(100)])
    assert heard.heard_at(nasal, 0, 140) == 0


def test_pitch_jumps_across_a_boundary():
    semitone = 2 ** (1 / 12)
    level = tone(300)
    step = np.concatenate([tone(150), tone(150, hz=220 * semitone)])
    assert heard.jumps(level, [150], level, [150]) == [pytest.approx(0, abs=0.2)]
    assert heard.jumps(step, [150], step, [150]) == [pytest.approx(1, abs=0.2)]
    # Two clips: the boundary on each one's clock; a silent side is left out.
    assert heard.jumps(tone(150), [150], tone(150, hz=230), [0]) == [
        pytest.approx(12 * np.log2(230 / 220), abs=0.2)
    ]
    assert heard.jumps(silence(150), [150], tone(150), [0]) == []


@pytest.mark.parametrize("pace", sorted(voice.PACES))
def test_clips_begin_a_lead_in_before_their_first_kana(pace):
    """A kana's consonants sound before its time, so each clip begins `lead_in` before its
    first kana (a fade-in, then at most the consonant budget); a shared clip that the next
    joins mid-phrase ends where that one begins, plus the crossfade. The lead-in is shorter
    than the release lead, so a clip released with its first kana is there before it plays."""
    unit = reading.unit_ms(pace)
    lead_in = plan.lead_in_ms(unit)
    assert lead_in == plan.consonant_budget_ms(unit) + plan.CROSSFADE_MS
    assert lead_in < settings.MATCHES_RELEASE_LEAD_MS
    for poem in (1, 17, 31, 64, 79):
        times = reading.schedule("chirashi", poem, None, pace, 1)["kami"]["t"]
        clips = [c for c in voice.reading_clips("chirashi", poem, None, pace) if c.part == "kami"]
        segments = plan.upper_segments(pace)[poem]
        for clip, segment in zip(clips, segments, strict=True):
            assert clip.start == times[clip.first_kana] - lead_in
            assert clip.onsets[0] == lead_in
            if not segment.ends_in_silence:
                assert clip.start + segment.length == times[segment.stop] - lead_in + 8


def test_a_vowel_after_a_pause_opens_firmly():
    label = "xx^pau-a+s=a/A:-2+1+5/B:xx-xx_xx"
    assert build.firm_onset(label) == "xx^cl-a+s=a/A:-2+1+5/B:xx-xx_xx"
    assert build.firm_onset("xx^sil-o+s=i/A:x") == "xx^cl-o+s=i/A:x"
    for other in ("a^k-a+s=a/A:x", "xx^pau-k+a=s/A:x", "xx^sil-N+a=s/A:x"):
        assert build.firm_onset(other) == other
