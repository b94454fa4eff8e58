// What happened, in words, on every play screen: the last lines of the match log (the
// server's texts, already filtered for this viewer) in a short list, and the same words
// in the live region for screen readers.

/** The texts of a frame's log entries, in order. */
export const logLines = (entries) => (entries ?? []).flatMap((entry) => entry.texts ?? []);

export class EventLog {
  /** list: the <ul>/<ol> to fill; announcer: the live region; keep: how many lines stay. */
  constructor(list, announcer, { keep = 8 } = {}) {
    this.list = list;
    this.announcer = announcer;
    this.keep = keep;
  }

  add(entries, reset = false) {
    if (reset) this.clear();
    const lines = logLines(entries);
    if (!lines.length) return;
    for (const text of lines) {
      const li = this.list.ownerDocument.createElement("li");
      li.textContent = text;
      this.list.append(li);
    }
    while (this.list.children.length > this.keep) this.list.firstElementChild.remove();
    this.announcer.textContent = lines.join(" ");
  }

  /** The blind screen: nothing from the previous player's view may stay on the page. */
  clear() {
    this.list.replaceChildren();
    this.announcer.textContent = "";
  }

  /** A message of the page's own (a refusal), for the reader only. */
  say(text) {
    this.announcer.textContent = text;
  }
}
