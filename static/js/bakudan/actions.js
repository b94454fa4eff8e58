// From a seat's view to the button panel: which cards can be played now, who can be
// snatched from, how many draws are owed, and the bomb-placement choice. Pure: it reads
// the view's `legal` list (the server's word on what is allowed) and invents nothing.

// Panel order, and the digit key of each playable kind (fixed, so a key always means
// the same card whatever the hand holds). Free actions first, then the turn enders.
export const PLAYABLE = ["peek", "shuffle", "shield", "snatch", "dodge", "bottom", "push"];
export const KEYS = Object.fromEntries(PLAYABLE.map((kind, i) => [kind, String(i + 1)]));
export const ENDS_TURN = new Set(["dodge", "bottom", "push"]);
const UNPLAYABLE = ["nipper", "blank"];
export const PLACES = ["top", "bottom", "random"];

/**
 * view: the seat's view; seat: the seat the panel plays for (view_seat).
 * Returns {phase, groups, draw, place, owed}:
 *  phase: "none" (no view / spectator), "wait" (not this seat's turn), "act", "place", "out", "over"
 *  groups: one per kind in hand: {kind, count, ids, playable, key, endsTurn, targets: [seat]|null,
 *          actions: [action]}
 *  draw: {enabled, owed}
 *  place: null or {where: ["top","bottom","random"] allowed, position: {min, max}|null}
 */
export function panelModel(view, seat) {
  const empty = { phase: "none", groups: [], draw: { enabled: false, owed: 0 }, place: null, owed: 0 };
  if (!view || seat === null || seat === undefined || !Array.isArray(view.hand)) return empty;
  const legal = Array.isArray(view.legal) ? view.legal : [];
  const me = view.seats?.[seat];
  const myTurn = view.to_act === seat && !view.over;
  const owed = myTurn ? Math.max(0, view.owed ?? 0) : 0;

  const plays = new Map(); // card id -> [actions]
  for (const action of legal) {
    if (action.type === "play") {
      if (!plays.has(action.card)) plays.set(action.card, []);
      plays.get(action.card).push(action);
    }
  }

  const byKind = new Map();
  for (const card of view.hand) {
    if (!byKind.has(card.kind)) byKind.set(card.kind, []);
    byKind.get(card.kind).push(card.id);
  }
  const order = [...PLAYABLE, ...UNPLAYABLE];
  const kinds = [...byKind.keys()].sort((a, b) => rank(order, a) - rank(order, b));
  const groups = kinds.map((kind) => {
    const ids = byKind.get(kind);
    const id = ids.find((cardId) => plays.has(cardId)); // the first playable card of the kind
    const actions = id ? plays.get(id) : [];
    const targets = kind === "snatch" && actions.length
      ? [...new Set(actions.filter((a) => Number.isInteger(a.target)).map((a) => a.target))].sort((a, b) => a - b)
      : null;
    return {
      kind,
      count: ids.length,
      ids,
      playable: actions.length > 0,
      key: KEYS[kind] ?? null,
      endsTurn: ENDS_TURN.has(kind),
      targets,
      actions,
    };
  });

  const placing = legal.filter((a) => a.type === "place_bomb");
  let place = null;
  if (placing.length) {
    const where = PLACES.filter((w) => placing.some((a) => a.where === w));
    const positioned = placing.filter((a) => a.where === "position");
    let position = null;
    if (positioned.length) {
      const given = positioned.map((a) => a.position).filter(Number.isInteger);
      // One entry without a number means "any position in the deck" (0 = top .. deck size).
      position = given.length
        ? { min: Math.min(...given), max: Math.max(...given) }
        : { min: 0, max: Math.max(0, view.deck_count ?? 0) };
    }
    place = { where, position };
  }

  let phase = "wait";
  if (view.over) phase = "over";
  else if (me && me.alive === false) phase = "out";
  else if (place) phase = "place";
  else if (myTurn) phase = "act";

  return {
    phase,
    groups,
    draw: { enabled: legal.some((a) => a.type === "draw"), owed },
    place,
    owed,
  };
}

function rank(order, kind) {
  const i = order.indexOf(kind);
  return i === -1 ? order.length : i;
}

/** The action a group's button sends (null if it needs a target first). */
export function playAction(group, target = null) {
  if (!group.playable) return null;
  if (group.targets) {
    return group.actions.find((a) => a.target === target) ?? null;
  }
  return group.actions[0];
}

/** The place_bomb action for a choice ("top" | "bottom" | "random" | a position number). */
export function placeAction(place, choice) {
  if (!place) return null;
  if (typeof choice === "number") {
    if (!place.position || !Number.isInteger(choice)) return null;
    if (choice < place.position.min || choice > place.position.max) return null;
    return { type: "place_bomb", where: "position", position: choice };
  }
  return place.where.includes(choice) ? { type: "place_bomb", where: choice } : null;
}

/** Why a typed position is refused (null when it is not): the positions the deck allows,
 * counted from 1 as the page shows them, for the message. */
export function placeRefusal(place, choice) {
  if (!place?.position || typeof choice !== "number" || placeAction(place, choice)) return null;
  return { min: place.position.min + 1, max: place.position.max + 1 };
}

/** Which key does what, for the shortcut list and the keydown handler. */
export function keyAction(model, key) {
  const k = key.toLowerCase();
  if (model.phase === "place") {
    const where = { t: "top", b: "bottom", r: "random" }[k];
    return where && model.place.where.includes(where) ? { kind: "place", where } : null;
  }
  if (model.phase !== "act") return null;
  if (k === "d") return model.draw.enabled ? { kind: "draw" } : null;
  const group = model.groups.find((g) => g.key === k);
  return group && group.playable ? { kind: "card", group } : null;
}
