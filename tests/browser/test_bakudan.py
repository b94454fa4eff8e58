"""Bakudan Mekuri in a real browser on the real ASGI server: a vs-CPU game to the end by
keyboard alone, and a pass-and-play game whose blind screen hides every hand."""

from __future__ import annotations

import contextlib
import json
import re

import pytest

from games.bakudan import engine
from games.bakudan import number as game_number
from tests.support.rooms import join_by_invitation
from tests.support.viewport import in_viewport

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# Which of the page's states the loop is in (read in one go, so nothing changes in between).
PHASE = """() => {
  const visible = (sel) => { const el = document.querySelector(sel); return el && !el.hidden; };
  const result = document.querySelector("[data-result]");
  if (visible("[data-result]") && result.dataset.stage === "final") return "result";
  if (visible("[data-blind]")) return "blind";
  if (visible("[data-place]")) return "place";
  const draw = document.querySelector("[data-draw]");
  if (draw && draw.getAttribute("aria-disabled") === "false") return "act";
  if (visible("[data-result]")) return "out";
  return "wait";
}"""


def phase(page) -> str:
    return page.evaluate(PHASE)


def wait_phase(page, *wanted: str, timeout: float = 20_000) -> str:
    page.wait_for_function(
        f"(wanted) => wanted.includes(({PHASE})())", arg=list(wanted), timeout=timeout
    )
    return phase(page)


# The seq of the last state frame the page has handled: the test's own script, run before
# the page's (add_init_script), notes it once every listener of the message has run (the
# page draws a frame synchronously in its listener). The page itself carries no test hook.
DRAWN_SEQ = """
(() => {
  const Native = window.WebSocket;
  window.__drawnSeq = 0;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        let frame;
        try { frame = JSON.parse(event.data); } catch { return; }
        if (frame && frame.type === "state") setTimeout(() => { window.__drawnSeq = frame.seq; });
      });
    }
  };
})();
"""


def track_drawn_frames(context) -> None:
    context.add_init_script(DRAWN_SEQ)


def seq(page) -> int:
    return int(page.evaluate("() => window.__drawnSeq || 0"))


def wait_seq_after(page, before: int) -> None:
    page.wait_for_function("(b) => (window.__drawnSeq || 0) > b", arg=before)


def focus_in(page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => {
            const el = document.querySelector(sel);
            return !!el && el.contains(document.activeElement) && document.activeElement !== el;
        }""",
        selector,
    )


class Frames:
    """Every frame the page's WebSocket received, parsed."""

    def __init__(self, page):
        self.frames: list[dict] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._add))

    def _add(self, payload) -> None:
        with contextlib.suppress(TypeError, ValueError):
            self.frames.append(json.loads(payload))

    def states(self) -> list[dict]:
        return [f for f in self.frames if f.get("type") == "state"]

    def hand_ids(self) -> set[str]:
        return {
            card["id"]
            for frame in self.states()
            if frame.get("view") and frame["view"].get("hand")
            for card in frame["view"]["hand"]
        }


def test_vs_cpu_game_to_the_end_by_keyboard_only(asgi_server, watched):
    page = watched.page
    track_drawn_frames(page.context)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=asgi_server.url)
    page.set_viewport_size(PHONE)
    number = game_number.encode(3, "calm", 2026)
    # The game link: the menu filled in, its start button focused; Enter starts the deal.
    page.goto(f"{asgi_server.url}/bakudan/?number={number}")
    assert page.evaluate("() => document.activeElement.matches('[data-start-number]')")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]+/$"))
    actions = 0
    places = 0
    for turn in range(400):
        now = wait_phase(page, "act", "place", "result", "out")
        if now in ("result", "out"):
            break
        # The focus is on a control of the panel: the keyboard player can just go on.
        assert focus_in(page, "[data-panel]"), turn
        assert not watched.overflows_horizontally()
        if turn == 0:
            watched.screenshot("bakudan-cpu-play-phone")
        before = seq(page)
        if now == "place":
            page.keyboard.press(["t", "b", "r"][places % 3])
            places += 1
        elif turn % 3 == 0 and page.locator("[data-play=peek][aria-disabled=false]").count():
            page.keyboard.press("1")  # peek: the turn goes on, the notes fill in
        elif page.evaluate("() => document.activeElement.matches('[data-draw]')"):
            page.keyboard.press("Enter")
        else:
            page.keyboard.press("d")
        actions += 1
        wait_seq_after(page, before)
    else:
        raise AssertionError("the game did not end")
    # Out, or the last one standing: either way the result screen tells how it ended.
    wait_phase(page, "result")
    assert actions >= 1
    result = page.locator("[data-result]")
    assert result.locator("[data-result-places] li").count() == 3
    again = page.get_attribute("[data-again-number]", "href")
    assert f"number={number}" in again
    assert page.is_visible("[data-copy-link]")
    # The focus moved to the result, not lost in a panel that has nothing left to do.
    assert page.evaluate("() => !!document.activeElement.closest('[data-result]')")
    # "Copy the game link" by keyboard: Tab past "again with this number", then Enter.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.matches('[data-again-number]')")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.matches('[data-copy-link]')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('[data-link-status]').textContent")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{asgi_server.url}/bakudan/?number={number}"
    watched.screenshot("bakudan-cpu-result-phone")
    assert not watched.overflows_horizontally()
    assert watched.axe_violations() == []
    assert watched.errors == []
    # "Again with this number" opens the same deal's menu.
    page.goto(again)
    assert page.input_value("input[name=number]") == number


def test_pass_and_play_blind_screen_hides_every_hand(asgi_server, watched):
    page = watched.page
    track_drawn_frames(page.context)
    frames = Frames(page)
    page.goto(f"{asgi_server.url}/bakudan/")
    page.select_option("#id_players", "3")
    page.click("button[name=play_mode][value=hotseat]")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]+/$"))
    turn_ends = 0
    shown_seats = []
    for step in range(600):
        now = wait_phase(page, "blind", "act", "place", "result")
        if now == "result":
            break
        if now == "blind":
            # Nothing of anyone's hand on the page: no card id any view ever carried, no
            # hand, notes, last draw or log left from the previous player.
            html = page.content()
            leaked = [card for card in frames.hand_ids() if card in html]
            assert leaked == [], step
            assert page.locator("[data-hand] li").count() == 0
            assert page.locator("[data-notes] li").count() == 0
            assert page.locator("[data-log] li").count() == 0
            assert page.inner_text("[data-last-draw]") == ""
            assert not page.is_visible("[data-board]")
            last = frames.states()[-1]
            assert last["view"] is None and last["handoff"] is not None
            watched.screenshot(f"bakudan-hotseat-blind-{turn_ends:03d}")
            seat = last["handoff"]["seat"]
            colour = last["match"]["seats"][seat]["colour"]
            assert f"seat-{colour}" in page.get_attribute("[data-reveal]", "class")
            # "I am <colour> — show me", pressed with the keyboard (it has the focus).
            assert page.evaluate("() => document.activeElement.matches('[data-reveal]')")
            before = seq(page)
            count_before = len(frames.states())
            page.keyboard.press("Enter")
            page.wait_for_function("() => document.querySelector('[data-blind]').hidden")
            assert len(frames.states()) > count_before and seq(page) >= before
            shown = frames.states()[-1]
            assert shown["view_seat"] == seat and shown["view"]["hand"] is not None
            shown_seats.append(seat)
            if turn_ends < 3:
                watched.screenshot(f"bakudan-hotseat-shown-{turn_ends:03d}")
            continue
        assert focus_in(page, "[data-panel]"), step
        before = seq(page)
        page.keyboard.press("r" if now == "place" else "d")
        wait_seq_after(page, before)
        if phase(page) in ("blind", "result"):
            turn_ends += 1
    else:
        raise AssertionError("the game did not end")
    assert turn_ends >= 2 and len(set(shown_seats)) == 3
    assert page.locator("[data-result-places] li").count() == 3
    assert "number=" in page.get_attribute("[data-again-number]", "href")
    watched.screenshot("bakudan-hotseat-result")
    assert watched.errors == []


def deal_with_snatch_and_bomb_on_top(players: int = 3) -> int:
    """A seed whose deal gives red (who plays first) a snatch, with a bomb on top of the deck."""
    # The deal comes from the number's seed stretched on purpose (slow): a few dozen tries.
    for seed in range(400):
        state = engine.deal(players, game_number.deal_seed(seed))
        hand = [state.kinds[card] for card in state.hands[0]]
        if "snatch" in hand and state.kinds[state.deck[0]] == "bomb":
            return seed
    raise AssertionError("no such deal")


def test_keyboard_snatch_target_choice_and_bomb_placement(asgi_server, watched):
    page = watched.page
    track_drawn_frames(page.context)
    sent: list[dict] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))),
    )
    number = game_number.encode(3, "calm", deal_with_snatch_and_bomb_on_top())
    page.goto(f"{asgi_server.url}/en/bakudan/?number={number}")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]+/$"))
    assert wait_phase(page, "act") == "act"
    focused = "(sel) => document.activeElement.matches(sel)"

    # Snatch (key 4): whom from? The first target gets the focus; Escape goes back.
    page.keyboard.press("4")
    assert page.is_visible("[data-targets]")
    assert page.evaluate(focused, "[data-target]")
    assert page.locator("[data-target]").count() == 2  # blue and green
    page.keyboard.press("Escape")
    assert not page.is_visible("[data-targets]")
    assert page.evaluate(focused, "[data-play=snatch]")
    page.keyboard.press("4")
    target = int(page.evaluate("() => document.activeElement.dataset.target"))
    before = seq(page)
    page.keyboard.press("Enter")
    wait_seq_after(page, before)
    acts = [m["action"] for m in sent if m.get("type") == "act"]
    assert acts[-1]["type"] == "play" and acts[-1]["target"] == target
    assert focus_in(page, "[data-panel]")  # not lost with the hidden target buttons

    # Draw the bomb on top: the placement choice opens with the focus on its first button.
    before = seq(page)
    page.keyboard.press("d")
    assert wait_phase(page, "place") == "place"
    assert page.evaluate(focused, "[data-place-where=top]")
    assert "1 left" in page.inner_text("[data-draw]")  # the draw that found the bomb is owed
    # Tab to the position field, type 3 (the third card from the top), Enter.
    for _ in range(3):
        page.keyboard.press("Tab")
    assert page.evaluate(focused, "[data-place-n]")
    # A position beyond the deck is refused, and the page says why (issue 26).
    page.keyboard.press("Control+A")
    page.keyboard.type("99")
    page.keyboard.press("Enter")
    assert re.search(r"1\D+\d+", page.inner_text("[data-panel-error]")), "no reason given"
    assert wait_phase(page, "place") == "place" and page.evaluate(focused, "[data-place-n]")
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    before = seq(page)
    page.keyboard.press("Enter")
    wait_seq_after(page, before)
    acts = [m["action"] for m in sent if m.get("type") == "act"]
    assert acts[-1] == {"type": "place_bomb", "where": "position", "position": 2}
    assert page.evaluate(focused, "[data-draw]")  # ready for the next turn
    assert watched.errors == []


@pytest.mark.parametrize(
    ("prefix", "lang", "english"), [("/en/", "en", True), ("/zh-hans/", "zh-hans", False)]
)
def test_play_screen_in_other_languages_on_a_phone(asgi_server, watched, prefix, lang, english):
    page = watched.page
    page.set_viewport_size(PHONE)
    page.goto(f"{asgi_server.url}{prefix}bakudan/")
    assert not watched.overflows_horizontally()
    page.select_option("#id_players", "5")
    page.click("button[name=play_mode][value=hotseat]")
    page.wait_for_url(re.compile(r"/play/[0-9a-f-]+/$"))
    assert page.locator("html").get_attribute("lang") == lang
    # Five seats, five colours from the room info, on the blind screen and then the table.
    assert wait_phase(page, "blind") == "blind"
    assert not watched.overflows_horizontally()
    assert watched.axe_violations() == []
    watched.screenshot(f"bakudan-blind-{lang}-phone")
    page.keyboard.press("Enter")
    assert wait_phase(page, "act") == "act"
    colours = page.locator("[data-seats] tr").evaluate_all(
        "rows => rows.map(r => r.dataset.colour)"
    )
    assert colours == ["red", "blue", "green", "yellow", "purple"]
    text = page.inner_text("main")
    for source in ("Game panel", "Your hand", "Info panel", "Danger"):
        assert (source in text) == english, source
    assert not watched.overflows_horizontally()
    watched.screenshot(f"bakudan-play-{lang}-phone")
    assert watched.axe_violations() == []
    assert watched.errors == []


def test_friend_room_each_screen_shows_only_its_own_hand(asgi_server, chromium):
    host_ctx = chromium.new_context(viewport=DESKTOP)
    guest_ctx = chromium.new_context(viewport=PHONE)
    track_drawn_frames(host_ctx)
    track_drawn_frames(guest_ctx)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    frames = {id(host): Frames(host), id(guest): Frames(guest)}
    errors: list[str] = []
    for page in (host, guest):
        page.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(f"{asgi_server.url}/en/bakudan/")
    host.select_option("#id_players", "2")
    host.click("button[name=play_mode][value=friend]")
    host.wait_for_url(re.compile(r"/play/[0-9a-f-]+/$"))
    host.wait_for_selector("[data-room-invite]:not([hidden])")
    guest.goto(host.input_value("[data-invite-url]"))
    guest.click("[data-join]")
    guest.wait_for_url(re.compile(r"/play/[0-9a-f-]+/$"))

    def others_hand_ids(page) -> set[str]:
        other = guest if page is host else host
        return frames[id(other)].hand_ids() - frames[id(page)].hand_ids()

    for _ in range(300):
        for page in (host, guest):
            now = phase(page)
            # Nothing of the other player's hand is ever on this page.
            html = page.content()
            assert [card for card in others_hand_ids(page) if card in html] == []
            if now in ("act", "place"):
                before = seq(page)
                page.keyboard.press("r" if now == "place" else "d")
                wait_seq_after(page, before)
        if phase(host) == "result" and phase(guest) == "result":
            break
        host.wait_for_timeout(50)
    else:
        raise AssertionError("the game did not end")
    assert frames[id(host)].hand_ids() and frames[id(guest)].hand_ids()
    # Both screens agree on who won; exactly one of them says "you win".
    summaries = [page.inner_text("[data-result-summary]") for page in (host, guest)]
    assert sum("you win" in s for s in summaries) == 1, summaries
    for page in (host, guest):
        assert page.is_visible("[data-invite-again]")
        assert "number=" in page.get_attribute("[data-again-number]", "href")
    assert errors == []
    host_ctx.close()
    guest_ctx.close()


def test_a_friend_who_drops_out_is_marked_by_their_seat_on_screen(asgi_server, chromium):
    """Issue 26: the away state is on the board, in the viewport, not in the room panel
    below the fold."""
    host_ctx = chromium.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    guest_ctx = chromium.new_context(viewport=PHONE)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    host.goto(f"{asgi_server.url}/en/bakudan/")
    host.select_option("#id_players", "2")
    host.click("button[name=play_mode][value=friend]")
    join_by_invitation(host, guest)
    host.wait_for_selector("[data-seats] tr[data-seat='1']")
    # Once the guest's page is connected, nobody is away: no mark.
    host.wait_for_function("() => !document.querySelector('[data-away-mark]')")
    guest_ctx.close()
    host.wait_for_selector("[data-seat='1'] [data-away-mark='1']")
    assert host.inner_text("[data-away-mark='1']") == "Connection lost"
    host.evaluate("window.scrollTo(0, 0)")
    assert in_viewport(host, "[data-away-mark='1']")
    host_ctx.close()
