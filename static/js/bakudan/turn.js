// The line that says whose turn it is and what to do, from the panel's phase. Pure (the
// strings and names are passed in), tested with node --test.

import { fmt } from "../text.js";

/**
 * S: the page's strings; match: the frame's match; view: the latest view (or null);
 * phase: panelModel(...).phase; blindSeat: the seat a blind device waits for (or null);
 * seatName(seat) and isCpu(seat) from the room info.
 */
export function turnText({ S, match, view, phase, blindSeat = null, seatName, isCpu }) {
  if (!match) return "";
  if (match.status === "waiting") return S.waiting;
  if (blindSeat !== null) return fmt(S.passTo, { seat: seatName(blindSeat) });
  if (!view || view.over || match.status === "finished") return S.over;
  if (phase === "out") return S.youAreOut;
  if (phase === "place") return S.placeTurn;
  if (phase === "act") {
    return match.mode === "hotseat" ? fmt(S.hotseatTurn, { seat: seatName(view.to_act) }) : S.yourTurn;
  }
  if (view.to_act === null || view.to_act === undefined) return "";
  return fmt(isCpu(view.to_act) ? S.cpuTurn : S.seatTurn, { seat: seatName(view.to_act) });
}
