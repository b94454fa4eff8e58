// The kimariji demo: mark poems as read and watch the other poems' kimariji shrink.
//
// The rule is the server's (platform/poems/kimariji.py, dynamic_kimariji): a poem's
// kimariji is 1 + the longest beginning it shares with any poem not yet read,
// capped at its own length. The page embeds each poem's comparison keys (one per
// printed kana, as pronounced), so both sides compare exactly the same sounds.
// tests/pages/test_kimariji_js.py runs this module under Node against Python.

/** Number of leading keys two poems share. */
export function sharedPrefix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

/**
 * Kana needed to decide `number` once the poems in `read` have been read.
 * @param {Object<string, string[]>} keysByPoem comparison keys by poem number
 * @param {string} number
 * @param {Set<string>} read
 */
export function dynamicKimariji(keysByPoem, number, read) {
  const own = keysByPoem[number];
  if (own === undefined) throw new RangeError(`no poem ${number}`);
  let longest = 0;
  for (const [other, keys] of Object.entries(keysByPoem)) {
    if (other === number || read.has(other)) continue;
    longest = Math.max(longest, sharedPrefix(own, keys));
  }
  return Math.min(longest + 1, own.length);
}

/** Split printed kana after `length` kana; spaces do not count (as in kimariji). */
export function splitPrinted(text, length) {
  let seen = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (seen === length) return [text.slice(0, i), text.slice(i)];
    if (text[i] !== " ") seen += 1;
  }
  return [text, ""];
}

function format(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
}

/** Wire up the page: toggle buttons, live status, reset. */
export function init(root, doc = document) {
  const data = JSON.parse(doc.getElementById("kimariji-data").textContent);
  const messages = JSON.parse(doc.getElementById("kimariji-messages").textContent);
  const keysByPoem = Object.fromEntries(Object.entries(data).map(([n, p]) => [n, p.keys]));
  const noneRead = new Set();
  const start = Object.fromEntries(
    Object.keys(keysByPoem).map((n) => [n, dynamicKimariji(keysByPoem, n, noneRead)]),
  );
  const read = new Set();
  const status = root.querySelector("[data-role=status]");

  const poems = [...doc.querySelectorAll("article.poem[data-poem]")].map((article) => ({
    number: article.dataset.poem,
    article,
    button: article.querySelector(".read-toggle"),
    head: article.querySelector("[data-role=head]"),
    tail: article.querySelector("[data-role=tail]"),
    kimariji: article.querySelector("[data-role=kimariji]"),
    count: article.querySelector("[data-role=count]"),
    change: article.querySelector("[data-role=change]"),
  }));

  function render() {
    let shorter = 0;
    for (const poem of poems) {
      const length = dynamicKimariji(keysByPoem, poem.number, read);
      const [head, tail] = splitPrinted(data[poem.number].kana, length);
      poem.head.textContent = head;
      poem.tail.textContent = tail;
      poem.kimariji.textContent = head.replaceAll(" ", "");
      poem.count.textContent = format(messages.count, { n: length });
      const isRead = read.has(poem.number);
      const shrunk = length < start[poem.number];
      if (shrunk && !isRead) shorter += 1;
      poem.change.textContent = shrunk ? format(messages.was, { n: start[poem.number] }) : "";
      poem.article.classList.toggle("is-shorter", shrunk && !isRead);
      poem.article.classList.toggle("is-read", isRead);
      poem.button.setAttribute("aria-pressed", String(isRead));
    }
    status.textContent = format(messages.status, { read: read.size, shorter });
  }

  for (const poem of poems) {
    poem.button.hidden = false;
    poem.button.addEventListener("click", () => {
      if (read.has(poem.number)) read.delete(poem.number);
      else read.add(poem.number);
      render();
    });
  }
  root.querySelector("[data-role=reset]").addEventListener("click", () => {
    read.clear();
    render();
  });
  root.querySelector(".demo-controls").hidden = false;
  render();
}

if (typeof document !== "undefined") {
  const root = document.querySelector("[data-kimariji-demo]");
  if (root) init(root);
}
