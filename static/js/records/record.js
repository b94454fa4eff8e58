// The record page: fetch the replay, then step through it (buttons, move list, ← → Home End,
// #N, autoplay) and draw the game's extras beside it.

import { fmt } from "../text.js";
import { bakudanMarks, draws, handSeries, practiceRecords, readings, slowest, takeSeries } from "./analysis.js";
import { drawStep, el, sideLabel } from "./board.js";
import { lineChartSvg } from "./chart.js";
import { wireShare } from "./share.js";
import { Stepper, stepFromHash } from "./stepper.js";

const $ = (sel) => document.querySelector(sel);
const json = (id) => { const node = document.getElementById(id); return node ? JSON.parse(node.textContent) : null; };
const config = json("record-config");
const S = json("record-strings");
const lang = document.documentElement.lang || "ja";
const seconds = (ms) => fmt(S.seconds, { s: (ms / 1000).toFixed(2) });

function gameExtras(game) {
  if (game === "bakudan") return { kinds: json("bakudan-strings")?.kinds || {} };
  if (game === "karuta") {
    const cards = json("karuta-cards") || {};
    return {
      cardLabel: (n) => (n === null || n === undefined ? "—" : `${n} ${(cards[n]?.kami || "").split(" ")[0]}`),
      teamNames: json("karuta-teams") || [], // genpei: 源氏, 平家 in the page's language
    };
  }
  return {};
}

function context(doc) {
  const seats = config.seats;
  return {
    game: doc.game,
    S,
    extra: gameExtras(doc.game),
    colour: (i) => seats[i]?.colour ?? "none",
    label: (i) => seats[i]?.label ?? String(i + 1),
    lines(step) {
      if (step.kind === "start") return [S.start];
      if (step.kind !== "game") return [fmt(S[step.kind] || "%(who)s", { who: this.label(step.seat) })];
      const text = step.text?.[lang] ?? step.text?.ja ?? [];
      return text.length ? text : [`${this.label(step.seat)}: ${step.action.type}`];
    },
  };
}

function moveList(doc, ctx, go) {
  const items = doc.steps.map((step, n) => {
    const marks = doc.game === "bakudan" ? bakudanMarks(step) : {};
    const mark = `${marks.placed ? " ★" : ""}${marks.peeked ? " ◎" : ""}`;
    const button = el("button", { type: "button", "data-move": n, text: `${n}. ${ctx.lines(step)[0] ?? ""}${mark}` });
    button.addEventListener("click", () => go(n));
    return el("li", {}, button);
  });
  $("[data-moves]").replaceChildren(...items);
  return items;
}

function extras(doc, ctx) {
  const seats = config.seats;
  if (doc.game === "bozu") {
    const series = handSeries(doc.steps).map((values, i) => ({ label: ctx.label(i), colour: ctx.colour(i), values }));
    $("[data-chart=hands]").innerHTML = lineChartSvg(series, { title: S.handsChart });
    $("[data-draws]").replaceChildren(...draws(doc.steps).map((d) => el("li", { text: `${ctx.label(d.seat)}: ${d.poet}` })));
  } else if (doc.game === "karuta") {
    const list = readings(doc.steps);
    const series = takeSeries(list, seats.length).map((values, i) => ({
      label: ctx.label(i), colour: ctx.colour(i), values: values.map((v) => (v === null ? null : v / 1000)) }));
    $("[data-chart=takes]").innerHTML = lineChartSvg(series, { title: S.takesChart, unit: " s" });
    const card = ctx.extra.cardLabel;
    // Genpei sends go between teams: each named by its seats.
    const teams = doc.steps.find((s) => s.view?.teams)?.view.teams;
    const side = (i) => (teams ? sideLabel(teams, i, (seat) => ctx.label(seat)) : ctx.label(i));
    $("[data-readings] tbody").replaceChildren(...list.map((r) => el("tr", { "data-reading": r.number },
      el("td", { text: String(r.number) }),
      el("td", { lang: "ja", text: card(r.poem) }),
      el("td", { text: r.taker === null ? S.nobody
        : teams && ctx.extra.teamNames[teams[r.taker]] ? `${ctx.label(r.taker)} (${ctx.extra.teamNames[teams[r.taker]]})`
          : ctx.label(r.taker) }),
      el("td", { text: r.reaches.map((x) => `${ctx.label(x.seat)} ${x.after === null ? "—" : seconds(x.after)}`).join(" · ") || "—" }),
      el("td", { text: [...(r.otetsuki || []).flatMap((n, i) => (n ? [`${ctx.label(i)} ${n}`] : [])),
        ...(r.wrong ? [String(r.wrong)] : []), ...r.refused.map((i) => `${ctx.label(i)} ✕`)].join(" · ") || "—" }),
      el("td", { text: r.send ? `${side(r.send.from)} → ${side(r.send.to)} ${r.send.count}` : "—" }))));
    const mine = config.you.length ? config.you[0] : seats.findIndex((s) => s.kind === "human");
    const slow = mine >= 0 ? slowest(list, mine, 20) : [];
    if (slow.length) {
      $("[data-slowest-box]").hidden = false;
      $("[data-slowest]").replaceChildren(...slow.slice(0, 5).map((x) => el("li", { text: `${card(x.poem)} ${x.after === null ? S.missed : seconds(x.after)}` })));
      $("[data-practise-poems]").value = slow.map((x) => x.poem).join(",");
      // The trainer's store and scheduler load only on a record that has cards to offer.
      import("../trainer/from-play.js").then(({ offerReview }) => offerReview(practiceRecords(list, mine)));
    }
  } else if (doc.game === "bakudan") {
    const number = doc.steps.at(-1)?.view?.number;
    if (number) {
      $("[data-deal]").hidden = false;
      $("[data-number]").textContent = number;
      const link = $("[data-play-deal]");
      if (config.game_url) link.href = `${config.game_url}?number=${encodeURIComponent(number)}#menu`;
      else link.hidden = true;
    }
  }
}

function start(doc) {
  const ctx = context(doc);
  const board = $("[data-board]");
  const count = doc.steps.length;
  let items = [];
  const stepper = new Stepper(count, {
    onChange(n) {
      drawStep(board, doc.steps[n], ctx);
      $("[data-position]").textContent = fmt(S.position, { n, total: count - 1 });
      items.forEach((li, i) => li.firstChild.toggleAttribute("aria-current", i === n));
      items[n]?.firstChild.scrollIntoView?.({ block: "nearest" });
      history.replaceState(null, "", `#${n}`);
      for (const [name, off] of [["first", n === 0], ["prev", n === 0], ["next", n === count - 1], ["last", n === count - 1]]) {
        $(`[data-step=${name}]`).disabled = off;
      }
      const play = $("[data-step=play]");
      play.setAttribute("aria-pressed", String(stepper?.playing ?? false));
      play.textContent = stepper?.playing ? S.pause : S.autoplay;
    },
  });
  items = moveList(doc, ctx, (n) => { stepper.stop(); stepper.go(n); });
  const moves = { first: () => stepper.key("Home"), prev: () => stepper.key("ArrowLeft"),
    next: () => stepper.key("ArrowRight"), last: () => stepper.key("End") };
  for (const [name, fn] of Object.entries(moves)) $(`[data-step=${name}]`).addEventListener("click", fn);
  $("[data-step=play]").addEventListener("click", () => {
    if (stepper.playing) stepper.stop(); else stepper.play(doc.pace_ms || 700);
    stepper.onChange(stepper.n);
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest?.("input, textarea, select")) return;
    if (stepper.key(event.key)) event.preventDefault();
  });
  window.addEventListener("hashchange", () => {
    const n = stepFromHash(location.hash, count);
    if (n !== null && n !== stepper.n) stepper.go(n);
  });
  stepper.go(stepFromHash(location.hash, count) ?? 0);
  extras(doc, ctx);
  document.body.dataset.recordReady = "true";
}

wireShare($("[data-record]"), { S, title: document.title });
fetch(config.replay, { headers: { Accept: "application/json" } })
  .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
  .then((doc) => {
    if (!doc.replayable) { $("[data-replay-error]").hidden = false; return; }
    start(doc);
  })
  .catch(() => { $("[data-replay-error]").hidden = false; });
