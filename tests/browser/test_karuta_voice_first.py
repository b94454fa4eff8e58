"""The first reading after memorisation is skipped starts its first clip on time (issue 43):
solo and chirashi with no memorisation time used to start the first kana 159–990 ms after the
page's POST returned, and on a busy machine the opening clip started into its audio or never.
Now the page says "ready" once its audio runs and the clips the first reading may open with
are decoded (ready-gate.js), and the reading starts a second after that at the earliest
(engine.FIRST_LEAD_MS).

Every AudioBufferSourceNode.start the page makes is recorded from inside the page (when,
offset, and the context's time at the call); the first reading's opening clip must start
at its beginning (offset 0) at a time still ahead when it was asked for, and the
scheduler's own account (voice.js `report().log`) must agree: not late, within 10 ms of
its due time on the page's clock. Nothing here sleeps: it waits for the reading's clock."""

from __future__ import annotations

import pytest

from tests.browser.test_karuta_play import start
from tests.browser.test_karuta_voice import audio_page  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

STARTS_SCRIPT = """
(() => {
  const real = AudioBufferSourceNode.prototype.start;
  window.__starts = [];
  AudioBufferSourceNode.prototype.start = function (when = 0, offset = 0, ...rest) {
    const now = this.context.currentTime;
    window.__starts.push({ when, offset, now, duration: this.buffer?.duration ?? null });
    return real.call(this, when, offset, ...rest);
  };
})();
"""

# The reading's clock, once the first reading's first clip must have been placed: its first
# kana is at t = 0, and the clip is scheduled as soon as it is decoded (long before).
PAST_FIRST_KANA = """
(() => {
  const v = window.karutaPlay.view();
  if (!v || !v.reading) return false;
  return v.reading.number > 1 || window.karutaPlay.clock() > 1500;
})()
"""


@pytest.mark.parametrize(
    ("mode", "pace"), [("solo", "standard"), ("solo", "very_fast"), ("chirashi", "standard")]
)
def test_the_first_reading_after_skip_starts_its_first_clip_on_time(
    asgi_server,
    audio_page,  # noqa: F811
    mode,
    pace,
):
    from games.karuta import voice

    assert voice.available(), "the voice is built and committed (manage.py build_voice)"
    page = audio_page.page
    page.add_init_script(STARTS_SCRIPT)
    start(page, asgi_server.url, mode=mode, memorise="0", pace=pace)
    page.wait_for_function("window.karutaPlay.voice().state === 'running'", timeout=10000)
    page.wait_for_function(PAST_FIRST_KANA, timeout=60000)
    report = page.evaluate("window.karutaPlay.voice()")
    starts = page.evaluate("window.__starts")
    first = [e for e in report["log"] if e["number"] == 1 and e["part"] == "kami"]
    assert first, ("the first reading's opening clip was never placed", report["log"])
    opening = min(first, key=lambda e: e["start"])
    # The clip of the first kana (t = 0): on a cold page it used to be lost altogether.
    assert opening["start"] <= 0, ("the opening clip was never placed", first)
    placed = [s for s in starts if s["when"] == opening["when"]]
    assert len(placed) == 1, (opening, starts)
    call = placed[0]
    ahead_ms = (call["when"] - call["now"]) * 1000
    print(
        f"\nfirst clip ({mode}, {pace}): asked {ahead_ms:.0f} ms ahead of its start, offset "
        f"{call['offset']:.3f} s, scheduler error {opening['error']:.2f} ms, late "
        f"{opening['late']:.1f} ms"
    )
    assert call["offset"] == 0, call  # from its beginning: nothing of its audio lost
    assert call["when"] > call["now"], call  # still ahead when it was asked for
    assert opening["late"] == 0 and opening["slid"] == 0, opening
    assert abs(opening["error"]) <= 10, opening
    assert not report["failed"]
    assert not audio_page.errors, audio_page.errors
