// Type-ahead: find cards by the beginning of their torifuda, typed in kana or romaji.
// Pure (Node-tested).

const ROMAJI = (() => {
  const table = { a: "あ", i: "い", u: "う", e: "え", o: "お", n: "ん", nn: "ん" };
  const rows = { k: "かきくけこ", g: "かきくけこ", s: "さしすせそ", z: "さしすせそ", t: "たちつてと", d: "たちつてと",
    n: "なにぬねの", h: "はひふへほ", b: "はひふへほ", p: "はひふへほ", f: "はひふへほ", m: "まみむめも",
    y: "やいゆえよ", r: "らりるれろ", l: "らりるれろ", w: "わゐうゑを", j: "さしすせそ", v: "はひふへほ" };
  for (const [c, kana] of Object.entries(rows)) [..."aiueo"].forEach((v, i) => { table[c + v] = kana[i]; });
  Object.assign(table, { shi: "し", chi: "ち", tsu: "つ", ji: "し", fu: "ふ", wo: "を", wi: "ゐ", we: "ゑ" });
  return table;
})();

/** Romaji (and kana passed through) to kana; `rest` is what could not be read yet. */
export function romajiToKana(text) {
  let out = "";
  let i = 0;
  const s = text.toLowerCase();
  while (i < s.length) {
    let matched = false;
    for (const len of [3, 2, 1]) {
      const part = s.slice(i, i + len);
      if (part.length === len && ROMAJI[part] && !(part === "n" && i + 1 < s.length && "aiueoy".includes(s[i + 1]))) {
        out += ROMAJI[part];
        i += len;
        matched = true;
        break;
      }
    }
    if (!matched) {
      // A doubled romaji consonant is っ (printed つ); doubled kana (おお) are themselves.
      if (i + 1 < s.length && s[i] === s[i + 1] && /[a-z]/.test(s[i]) && !"aiueon".includes(s[i])) { out += "つ"; i += 1; continue; }
      if (/[ぁ-ゟ]/.test(s[i])) { out += s[i]; i += 1; continue; }
      return { kana: out, rest: s.slice(i) };
    }
  }
  return { kana: out, rest: "" };
}

/** Torifuda have no voicing marks and no small kana: compare on the plain letters. */
export function plain(text) {
  return text.normalize("NFD").replace(/[\u3099\u309a]/g, "").normalize("NFC")
    .replace(/[ぁぃぅぇぉっゃゅょゎ]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 1)).replace(/\s/g, "");
}

/** The poems (in the order given) whose torifuda begins with what was typed. */
export function matchPoems(typed, poems, cards) {
  const { kana, rest } = romajiToKana(typed);
  const key = plain(kana);
  if (!key && !rest) return [];
  return poems.filter((poem) => plain(cards[poem].tori).startsWith(key) && (key || !rest));
}
