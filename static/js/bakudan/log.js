// What happened, in words: the last lines of the match log (the server's texts, already
// filtered for this viewer), and the same words for screen readers.

const KEEP = 8;

export class EventLog {
  constructor(list, announcer) {
    this.list = list;
    this.announcer = announcer;
  }

  add(entries, reset = false) {
    if (reset) this.clear();
    const lines = entries.flatMap((entry) => entry.texts ?? []);
    if (!lines.length) return;
    for (const text of lines) {
      const li = document.createElement("li");
      li.textContent = text;
      this.list.append(li);
    }
    while (this.list.children.length > KEEP) this.list.firstElementChild.remove();
    this.announcer.textContent = lines.join(" ");
  }

  /** The blind screen: nothing from the previous player's view may stay on the page. */
  clear() {
    this.list.replaceChildren();
    this.announcer.textContent = "";
  }
}
