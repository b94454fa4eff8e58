// The trainer's page data for the Node tests: what games/karuta/trainer_data.py embeds,
// computed from the kimariji code (tests/games/karuta/test_trainer_data.py keeps it current).
import { readFileSync } from "node:fs";

export const data = JSON.parse(readFileSync(new URL("./fixtures/trainer-data.json", import.meta.url), "utf8"));
export const poem = (n) => data.poems.find((p) => p.n === n);
