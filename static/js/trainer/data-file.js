// The export file: everything the trainer keeps, as JSON, and its checks on import.
// Pure (Node-tested). A file that is not ours, or is damaged, is refused whole: import
// changes nothing unless every record is sound.

export const FORMAT = "hyakunin-trainer";
export const VERSION = 1;

export class ImportError extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason; // "not-json" | "foreign" | "version" | "damaged"
  }
}

export function exportFile(records, log, now) {
  return JSON.stringify({ format: FORMAT, version: VERSION, exported: new Date(now).toISOString(), poems: [...records.values()], log });
}

const isCount = (v) => Number.isInteger(v) && v >= 0;
const isTime = (v) => Number.isFinite(v) && v >= 0;
const isPoem = (v) => Number.isInteger(v) && v >= 1 && v <= 100;
const CARD_NUMBERS = ["stability", "difficulty", "elapsed_days", "scheduled_days", "reps", "lapses", "learning_steps", "state"];

function cardOk(card) {
  if (card === null) return true;
  if (typeof card !== "object" || !isTime(card.due)) return false;
  if (!(card.last_review === null || card.last_review === undefined || isTime(card.last_review))) return false;
  return CARD_NUMBERS.every((k) => Number.isFinite(card[k]) && card[k] >= 0) && card.state <= 3;
}

function recordOk(r) {
  if (!r || typeof r !== "object" || !isPoem(r.n)) return false;
  if (!isCount(r.seen) || !isCount(r.misses) || r.misses > r.seen) return false;
  if (!(r.ms === null || isTime(r.ms)) || !(r.first === null || isTime(r.first))) return false;
  if (!(r.asked == null || isTime(r.asked))) return false;
  if (!r.confused || typeof r.confused !== "object" || Array.isArray(r.confused)) return false;
  if (!Object.entries(r.confused).every(([k, v]) => isPoem(Number(k)) && isCount(v))) return false;
  return cardOk(r.card);
}

// A log entry: [time, poem, rating 1–4, answer ms, drill code].
const entryOk = (e) => Array.isArray(e) && e.length === 5 && isTime(e[0]) && isPoem(e[1])
  && Number.isInteger(e[2]) && e[2] >= 1 && e[2] <= 4 && isTime(e[3]) && isCount(e[4]);

/** { records: Map n → record, log } from a file's text, or ImportError. */
export function parseFile(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ImportError("not-json");
  }
  if (!data || typeof data !== "object" || data.format !== FORMAT) throw new ImportError("foreign");
  if (data.version !== VERSION) throw new ImportError("version");
  if (!Array.isArray(data.poems) || !Array.isArray(data.log)) throw new ImportError("damaged");
  if (!data.poems.every(recordOk) || !data.log.every(entryOk)) throw new ImportError("damaged");
  const numbers = data.poems.map((r) => r.n);
  if (new Set(numbers).size !== numbers.length) throw new ImportError("damaged");
  return { records: new Map(data.poems.map((r) => [r.n, r])), log: data.log };
}
