// Reading aloud with the browser's speech synthesis, when it has a Japanese voice. When it
// has none, the switch says so (instead of a ticked box that does nothing) and is turned
// off. Speech is a bonus: nothing here may stop the game.

export class Speech {
  constructor(box, note) {
    this.box = box; // the checkbox
    this.note = note; // the "no Japanese voice" note beside it
    this.voice = null;
    if ("speechSynthesis" in window) {
      this.pick();
      speechSynthesis.addEventListener?.("voiceschanged", () => this.pick());
    }
    this.show();
  }

  pick() {
    this.voice = speechSynthesis.getVoices().find((v) => v.lang && v.lang.toLowerCase().startsWith("ja")) ?? null;
    this.show();
  }

  show() {
    // Voices may arrive late (voiceschanged): until then, and for good without them, say so.
    const none = !this.voice;
    if (this.note) this.note.hidden = !none;
    this.box.disabled = none;
    if (none) this.box.checked = false;
  }

  get on() { return this.box.checked && Boolean(this.voice); }

  set(wanted) { this.box.checked = Boolean(wanted) && Boolean(this.voice); }

  cancel() {
    if ("speechSynthesis" in window) speechSynthesis.cancel();
  }

  say(text, unit) {
    if (!this.on || !text) return;
    try {
      const u = new SpeechSynthesisUtterance(text.replace(/ /g, "、"));
      u.lang = "ja-JP";
      u.voice = this.voice;
      u.rate = Math.min(2, Math.max(0.6, (1000 / unit) / 6));
      speechSynthesis.speak(u);
    } catch {
      /* speech is a bonus: never let it stop the game */
    }
  }

  /** Say each part of the reading once, when the reader's clock reaches it. */
  follow(cur, t) {
    if (!cur) return;
    for (const seg of cur.r.preamble) {
      if (seg.said && t >= seg.start && !cur.spoken.has(seg.part)) { cur.spoken.add(seg.part); if (t < seg.end) this.say(seg.said, cur.r.unit); }
    }
    if (t >= 0 && !cur.spoken.has("kami")) { cur.spoken.add("kami"); this.say(cur.r.kami.said.join(""), cur.r.unit); }
    if (cur.r.shimo && t >= cur.r.shimo.t[0] && !cur.spoken.has("shimo")) { cur.spoken.add("shimo"); this.say(cur.r.shimo.said, cur.r.unit); }
    // The lower verse read a second time (chirashi and solo by default).
    if (cur.r.shimo?.again && t >= cur.r.shimo.again.start && !cur.spoken.has("shimo2")) { cur.spoken.add("shimo2"); this.say(cur.r.shimo.said, cur.r.unit); }
  }
}
