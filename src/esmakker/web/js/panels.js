// Dialogs over the table: the deal's result with every hand, the score sheet, the replay.
import { t } from "./i18n.js";
import { cardFace, cardName, cardShort, sortHand } from "./cards.js";
import { SEATS, contractText, stepText } from "./labels.js";
import { h } from "./table.js";
import { analysisButton, analysisSummary, stepCost } from "./analysis.js";
import { replayReview, reviewButton, reviewList } from "./coach.js";

function modal(id, title, body, onClose) {
  const close = h("button", { type: "button", class: "close", onclick: onClose }, t("ui.close"));
  return h("div", { class: "overlay", id }, h("section", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title` }, title), body, close));
}

function handLine(label, cards) {
  return h(
    "div",
    { class: "full-hand" },
    h("strong", {}, label),
    h("span", { class: "cards-line" }, sortHand(cards ? cards.split(" ").filter(Boolean) : []).map((c) => h("span", { class: "card tiny", "data-card": c, role: "img", "aria-label": cardName(c) }, cardFace(c)))),
  );
}

function seatLabel(seat, names) {
  return `${names[seat] || seat} (${t(`seat.${seat}`)})`;
}

export function resultDialog(over, names, actions, analysis, review) {
  const result = over.record.result;
  const deal = over.record.deal;
  const line = result.outcome === "redeal"
    ? t("result.redeal")
    : t(result.made ? "result.made" : "result.failed", { contract: contractText(result.contract), name: names[result.declarer] || result.declarer });
  const scores = h(
    "table",
    { class: "scores" },
    h("tr", {}, h("th", {}, ""), h("th", {}, t("result.tricks")), h("th", {}, t("result.score"))),
    SEATS.filter((s) => s in result.tricks).map((s) => h("tr", {}, h("td", {}, names[s] || s), h("td", {}, result.tricks[s]), h("td", {}, result.scores[s]))),
  );
  const body = [
    h("p", { class: "verdict" }, line),
    scores,
    h("h3", {}, t("result.hands")),
    SEATS.filter((s) => deal[s]).map((s) => handLine(seatLabel(s, names), deal[s])),
    handLine(t("result.kitty"), deal.kitty),
    h(
      "div",
      { class: "choices" },
      h("button", { type: "button", id: "next-deal", class: "act wide", onclick: actions.next }, t("result.next")),
      h("button", { type: "button", id: "replay-button", onclick: actions.replay }, t("replay.open")),
      result.outcome === "redeal" ? null : analysisButton(analysis, actions.analyse),
      result.outcome === "redeal" || !actions.review ? null : reviewButton(review, actions.review),
      h("button", { type: "button", onclick: actions.sheet }, t("sheet.open")),
      h("a", { href: actions.record, download: `esmakker-deal-${over.number}.json`, id: "export" }, t("result.export")),
    ),
    reviewList(review),
    analysisSummary(analysis, names),
  ];
  return modal("result", t("result.title", { n: over.number }), body, actions.next);
}

export function sheetDialog(sheet, csv, onClose) {
  const players = sheet ? sheet.players : [];
  const rows = sheet ? sheet.deals : [];
  const table = h(
    "table",
    { class: "sheet" },
    h("tr", {}, h("th", {}, "#"), h("th", {}, t("sheet.contract")), players.map((p) => h("th", {}, p))),
    rows.map((row) => h("tr", {}, h("td", {}, row.deal), h("td", {}, row.contract ? contractText(row.contract) : t("result.redeal")), players.map((p) => h("td", {}, row.totals[p] ?? "")))),
    h("tr", { class: "totals" }, h("th", {}, ""), h("th", {}, t("sheet.total")), players.map((p) => h("th", {}, sheet.totals[p] ?? 0))),
  );
  const body = rows.length ? [table, h("a", { href: csv, download: "regnskab.csv", id: "sheet-csv" }, t("sheet.csv"))] : h("p", {}, t("sheet.empty"));
  return modal("sheet", t("sheet.title"), body, onClose);
}

// The review (of the viewer's own seat, or null) marks the steps where a choice cost points.
export function replayDialog(replay, step, names, actions, analysis, review) {
  const position = replay.positions[step];
  const costly = Boolean(review && review.status === "ready" && review.data.mistakes.some((m) => m.step + 1 === step));
  const body = [
    h("p", { role: "status", id: "replay-step", class: costly ? "costly" : "" }, t("replay.step", { n: step, of: replay.positions.length - 1 }), position.step ? ` — ${stepText(position.step, names)}` : "", costly ? " ✗" : ""),
    SEATS.filter((s) => position.hands[s] !== undefined).map((s) => handLine(seatLabel(s, names), position.hands[s])),
    h("p", {}, `${t("trick.current")}: `, (position.trick || []).map(cardShort).join(" ")),
    replayReview(review, step, actions),
    stepCost(analysis, step),
    h(
      "div",
      { class: "choices" },
      h("button", { type: "button", id: "replay-prev", onclick: actions.prev, disabled: step === 0 }, t("replay.prev")),
      h("button", { type: "button", id: "replay-next", onclick: actions.next, disabled: step >= replay.positions.length - 1 }, t("replay.next")),
      analysis && analysis.status === "ready" ? null : analysisButton(analysis, actions.analyse),
    ),
    analysisSummary(analysis, names),
  ];
  return modal("replay", t("replay.title", { n: replay.deal }), body, actions.close);
}
