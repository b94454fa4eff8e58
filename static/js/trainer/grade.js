// Grading by correctness and time: a wrong answer is Again; a right one is Easy, Good or
// Hard by how long it took against the drill's budget (a slow right answer is not easy).
// Pure (Node-tested). The ratings are FSRS's (ts-fsrs Rating: 1 Again … 4 Easy).

export const AGAIN = 1;
export const HARD = 2;
export const GOOD = 3;
export const EASY = 4;

// Milliseconds within which a right answer is Easy, then Good; typed answers add a budget
// per kana typed. Karuta is a game of fractions of a second: an answer that needs
// thinking is not yet known.
export const BUDGETS = {
  choose: { easy: 1500, good: 3500, perKana: 0 },
  type: { easy: 1500, good: 3500, perKana: 450 },
  nagashi: { easy: 1000, good: 2500, perKana: 0 },
};

export function grade({ correct, ms, drill, kana = 0 }) {
  if (!correct) return AGAIN;
  const budget = BUDGETS[drill];
  if (!budget) throw new Error(`unknown drill: ${drill}`);
  if (!(ms >= 0)) throw new Error(`bad answer time: ${ms}`);
  const extra = budget.perKana * kana;
  if (ms <= budget.easy + extra) return EASY;
  if (ms <= budget.good + extra * 2) return GOOD;
  return HARD;
}
