// Views shaped like the contract's seat view (notes/bakudan-contract: "View for a seat").

export function seatView(overrides = {}) {
  return {
    players: 3,
    number: "A3N-1K",
    seats: [
      { index: 0, alive: true, hand_count: 5, shield: false, place: null },
      { index: 1, alive: true, hand_count: 4, shield: true, place: null },
      { index: 2, alive: true, hand_count: 2, shield: false, place: null },
    ],
    to_act: 0,
    owed: 1,
    pending: null,
    deck_count: 20,
    bombs_in_deck: 2,
    danger: 0.1,
    discard_count: 3,
    discard_top: { id: "c00000001", kind: "peek" },
    hand: [
      { id: "c1", kind: "nipper" },
      { id: "c2", kind: "push" },
      { id: "c3", kind: "peek" },
      { id: "c4", kind: "snatch" },
      { id: "c5", kind: "peek" },
      { id: "c6", kind: "blank" },
    ],
    notes: [],
    last_draw: null,
    legal: [
      { type: "play", card: "c2" },
      { type: "play", card: "c3" },
      { type: "play", card: "c5" },
      { type: "play", card: "c4", target: 1 },
      { type: "play", card: "c4", target: 2 },
      { type: "draw" },
    ],
    over: false,
    winner: null,
    places: null,
    ...overrides,
  };
}

export const match = (mode = "cpu", seats = 3, yours = [0]) => ({
  mode,
  status: "playing",
  seats: Array.from({ length: seats }, (_, index) => ({
    index,
    colour: ["red", "blue", "green", "yellow", "purple"][index],
    kind: mode === "cpu" && index > 0 ? "cpu" : "human",
    cpu_level: mode === "cpu" && index > 0 ? "calm" : null,
    yours: yours.includes(index),
  })),
});
