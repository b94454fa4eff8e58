// The karuta result screen: places, the scores as a picture, play again / back to the
// menu, a small celebration for a win, and for solo practice the figures, the chart and
// the slowest poems.

import { scoreBarsSvg } from "../score-bars.js";
import { fmt } from "../text.js";
import { secs } from "./clock.js";
import { slowestPoems, soloChartSvg, soloFigures } from "./stats.js";
import { celebrate } from "../celebrate.js";
import { offerReview } from "../trainer/from-play.js";
import { showRecordLink } from "../records/link.js";

const $ = (sel) => document.querySelector(sel);

export class ResultView {
  constructor(game) {
    this.g = game;
  }

  /** Returns true the first time the result is shown. */
  render() {
    const g = this.g;
    const { view, S } = g;
    const result = view?.result;
    const box = $("[data-result]");
    if (view && g.resigned() !== null) return this.renderResigned(box);
    if (!result) { box.hidden = true; return false; }
    const competitive = result.score_kind === "cards_left";
    let summary;
    if (view.mode === "solo") summary = fmt(S.soloDone, { n: result.scores[0], total: view.records.length });
    else if (result.winner_team !== undefined && result.winner_team !== null) summary = fmt(S.teamWins, { team: S.teams[result.winner_team] });
    else if (result.winner === null) summary = S.tie;
    else summary = fmt(competitive ? S.winsEmpty : S.winsMost, { who: g.label(result.winner), n: result.scores[result.winner] });
    $("[data-result-summary]").textContent = summary;
    $("[data-result-count-head]").textContent = competitive ? S.cardsLeftHead : S.cardsTakenHead;
    const order = result.places.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place || a.seat - b.seat);
    $("[data-result-rows]").replaceChildren(...order.map(({ place, seat }) => {
      const tr = document.createElement("tr");
      tr.dataset.seat = seat;
      for (const text of [String(place), g.label(seat), String(result.scores[seat]), String(view.tally[seat].otetsuki)]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    }));
    const chart = $("[data-result-chart]");
    chart.hidden = view.mode === "solo";
    if (view.mode !== "solo") {
      chart.innerHTML = scoreBarsSvg(order.map(({ place, seat }) => ({
        place, label: g.name(seat), value: result.scores[seat], colour: this.g.colour(seat),
      })), { title: competitive ? S.cardsLeftHead : S.cardsTakenHead, caption: competitive ? S.cardsLeftChart : "" });
    }
    if (view.mode === "solo") this.renderSolo();
    const won = view.mode !== "solo" && g.you() !== null && (result.winner === g.you() || (result.winner === null && result.places[g.you()] === 1 && result.winner_team != null));
    return this.open(box, won);
  }

  /** A match stopped by a resignation: who stopped it, and the way to the menu. */
  renderResigned(box) {
    const g = this.g;
    const seat = g.resigned();
    $("[data-result-summary]").textContent = fmt(g.ui.room.S.resigned, { seat: g.label(seat) });
    $("[data-result-chart]").hidden = true;
    $("[data-result-rows]").closest("table").hidden = true;
    const solo = $("[data-solo-summary]");
    if (solo) solo.hidden = true;
    return this.open(box, g.you() !== null && seat !== g.you() && g.view.mode !== "solo");
  }

  /** Show the result screen; true the first time (focus, sound, a celebration for a win). */
  open(box, won) {
    const g = this.g;
    box.classList.toggle("won", won);
    const first = box.hidden;
    box.hidden = false;
    showRecordLink(box);
    if (first) {
      box.focus({ preventScroll: true });
      box.scrollIntoView({ block: "nearest" });
      if (won) celebrate(box);
      g.ui.sound.play(won ? "win" : "end");
    }
    return first;
  }


  renderSolo() {
    const g = this.g;
    const { view, S } = g;
    const records = view.records;
    $("[data-solo-summary]").hidden = false;
    const f = soloFigures(records);
    const figures = [
      [S.figTaken, `${f.taken} / ${f.total}`],
      [S.figMean, f.mean === null ? "—" : `${secs(f.mean)} s`],
      [S.figMedian, f.median === null ? "—" : `${secs(f.median)} s`],
      [S.figMistakes, String(f.mistakes)],
    ];
    $("[data-solo-figures]").replaceChildren(...figures.flatMap(([k, v]) => {
      const dt = document.createElement("dt");
      dt.textContent = k;
      const dd = document.createElement("dd");
      dd.textContent = v;
      return [dt, dd];
    }));
    const label = (r) => `${g.cardLabel(r.poem)} ${r.t === null ? S.missed : `${secs(r.after_kimariji)} s`}${r.wrong.length ? ` · ${fmt(S.wrongN, { n: r.wrong.length })}` : ""}`;
    $("[data-solo-chart]").innerHTML = soloChartSvg(records, { title: S.chartTitle, axis: S.chartAxis, label });
    $("[data-slowest]").replaceChildren(...slowestPoems(records, 5).map((poem) => {
      const rec = records.find((r) => r.poem === poem);
      const li = document.createElement("li");
      li.textContent = `${g.cardLabel(poem)} ${rec.t === null ? S.missed : `${secs(rec.after_kimariji)} s`}`;
      return li;
    }));
    $("[data-practise-poems]").value = slowestPoems(records, 20).join(",");
    offerReview(records); // the trainer's today's review (static/js/trainer/from-play.js)
    $("[data-practise-pace]").value = typeof view.settings.pace === "string" ? view.settings.pace : "standard";
    $("[data-practise-kimariji]").value = view.settings.show_kimariji ? "on" : "";
    const speech = g.ui.speech.voice ? g.ui.speech.box.checked : view.settings.speech; // no voice here: keep the setting
    $("[data-practise-speech]").value = speech ? "on" : "";
  }
}
