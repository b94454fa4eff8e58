// Reading aloud with the browser's speech synthesis, when it has a Japanese voice. When it
// has none, the switch says so (instead of a ticked box that does nothing) and is turned
// off. Speech is a bonus: nothing here may stop the game.

const LATE_MS = 1000;

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

  /**
   * Say each part of the reading once, when the reader's clock reaches it. The preamble is
   * known in full (already read); the poem only as the server releases it, so the upper
   * verse is said kana by kana and the lower verse phrase by phrase as each comes due.
   * Anything due more than LATE_MS ago (a page opened mid-reading) is skipped, not said late.
   */
  follow(cur, t) {
    if (!cur) return;
    const { r } = cur;
    const fresh = (start) => t >= start && t - start < LATE_MS;
    for (const seg of r.preamble) {
      if (seg.said && t >= seg.start && !cur.spoken.has(seg.part)) { cur.spoken.add(seg.part); if (t < seg.end) this.say(seg.said, r.unit); }
    }
    const upper = [];
    (r.kana ?? []).forEach(([, at, said], i) => {
      const key = `kami${i}`;
      if (t < at || cur.spoken.has(key)) return;
      cur.spoken.add(key);
      if (fresh(at)) upper.push(said);
    });
    if (upper.length) this.say(upper.join(""), r.unit);
    (r.shimo?.kana ?? []).forEach(([, at, said], i) => {
      const key = `shimo${i}`;
      if (!said || t < at || cur.spoken.has(key)) return;
      cur.spoken.add(key);
      if (fresh(at)) this.say(said, r.unit);
    });
    // The lower verse read a second time (chirashi and solo by default): known by then.
    const again = r.shimo?.again;
    if (again && t >= again.start && !cur.spoken.has("shimo2")) {
      cur.spoken.add("shimo2");
      if (fresh(again.start)) this.say(r.shimo.kana.map(([, , said]) => said).join(" "), r.unit);
    }
  }
}
