// One drill session: its questions, how answers are judged and graded. Pure (Node-tested);
// the page times answers and stores the records (schedule.review) itself.
//
// Drills: "choose" (a kimariji → pick its card among look-alikes), "tori-type" (a kimariji →
// type the start of its card, kana or romaji), "kimariji-type" (a card → type its kimariji as
// pronounced: あふ is typed おお), "nagashi" (札流し: cards flash by against a clock, pick the
// kimariji among look-alikes).
import { grade } from "./grade.js";
import { nearest, staticLengths } from "./lookalikes.js";
import { matchPoems, plain, romajiToKana } from "../karuta/typeahead.js";

export const DRILLS = ["choose", "tori-type", "kimariji-type", "nagashi"];
export const CLOCKS_MS = [60000, 180000, 300000]; // 札流し: 1, 3 or 5 minutes
const GRADED_AS = { choose: "choose", "tori-type": "type", "kimariji-type": "type", nagashi: "nagashi" };
export const DRILL_CODES = Object.fromEntries(DRILLS.map((d, i) => [d, i])); // in the review log

/** What the trainer needs about the poems: by number, their kimariji as said and printed. */
export function indexPoems(data, lengths = staticLengths(data.poems)) {
  const byN = new Map();
  for (const p of data.poems) {
    const len = lengths.get(p.n);
    byN.set(p.n, { ...p, length: len, kimariji: p.said.slice(0, len).join(""), cards: { tori: p.tori } });
  }
  return byN;
}

function shuffle(items, rand) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// Each poem's look-alikes are the same all session: sorted once per poem, not per question.
const lookalikeCache = new WeakMap(); // byN → Map "n count" → poems
function lookalikesOf(byN, n, count) {
  if (!lookalikeCache.has(byN)) lookalikeCache.set(byN, new Map());
  const cache = lookalikeCache.get(byN);
  const key = `${n} ${count}`;
  if (!cache.has(key)) cache.set(key, nearest(byN.get(n), [...byN.values()], count));
  return cache.get(key);
}

/** The question for poem `n`: for the choice drills, `options` = it and its look-alikes. */
export function question(n, drill, byN, { rand, choices = 6 }) {
  if (!DRILLS.includes(drill)) throw new Error(`unknown drill: ${drill}`);
  const q = { n, drill };
  if (drill === "choose" || drill === "nagashi") {
    const size = drill === "nagashi" ? 4 : choices;
    const others = lookalikesOf(byN, n, size - 1);
    q.options = shuffle([n, ...others], rand);
  }
  return q;
}

const typedKana = (text) => romajiToKana(text.trim()); // kana, romaji or both

// A long o is written either way when said: おう and おお (あふ, said おう, typed おお).
const O_ROW = "おこそとのほもよろごぞどぼぽ";
const sayable = (kana) => plain(kana).replace(/(.)う/g, (m, c) => (O_ROW.includes(c) ? `${c}お` : m));

const TORI = (byN) => ({ poems: [...byN.keys()], cards: Object.fromEntries([...byN].map(([n, p]) => [n, p.cards])) });

/**
 * Judge an answer ({ chosen } for the choice drills, { typed } otherwise), answered in `ms`:
 * { correct, rating, chosen } where `chosen` is the poem the answer pointed at, if any.
 */
export function judge(q, answer, ms, byN) {
  const target = byN.get(q.n);
  let correct;
  let chosen = null;
  let kana = 0;
  if (q.options) {
    chosen = answer.chosen;
    correct = chosen === q.n;
  } else if (q.drill === "tori-type") {
    const { poems, cards } = TORI(byN);
    const matches = matchPoems(typedKana(answer.typed ?? "").kana, poems, cards);
    correct = matches.length === 1 && matches[0] === q.n;
    chosen = matches.length === 1 ? matches[0] : null;
    kana = plain(typedKana(answer.typed ?? "").kana).length;
  } else {
    const { kana: typed, rest } = typedKana(answer.typed ?? "");
    correct = !rest && sayable(typed) === sayable(target.kimariji);
    kana = target.length;
    if (!correct) chosen = [...byN.values()].find((p) => !rest && sayable(p.kimariji) === sayable(typed))?.n ?? null;
  }
  return { correct, chosen, rating: grade({ correct, ms, drill: GRADED_AS[q.drill], kana }) };
}

/**
 * The cards of a session in play order. 札流し goes round the set again (reshuffled) until
 * its clock ends; the others ask each card once.
 */
export function playOrder(cards, drill, rand, rounds = 20) {
  if (drill !== "nagashi") return [...cards];
  const out = [...cards];
  for (let i = 1; i < rounds; i += 1) out.push(...shuffle(cards, rand));
  return out;
}
