// The double-dummy analysis of a finished deal (docs/analysis.md): the server's JSON, rendered.
import { t } from "./i18n.js";
import { cardShort } from "./cards.js";
import { h } from "./table.js";

// The button that asks for the analysis; busy while the server computes it.
export function analysisButton(analysis, onClick) {
  const loading = Boolean(analysis && analysis.status === "loading");
  return h("button", { type: "button", id: "analysis-button", onclick: onClick, "aria-disabled": String(loading), "aria-busy": String(loading) }, t("analysis.open"));
}

function show(value) {
  return value === null || value === undefined ? "?" : String(value);
}

function strainText(strain) {
  return strain === "N" ? t("analysis.no_trump") : t(`suit.${strain}`);
}

function madeLine(parMade) {
  if (parMade === null) return t("analysis.made_unknown");
  return t(parMade ? "analysis.makeable" : "analysis.not_makeable");
}

function bestLine(data) {
  if (data.objective !== "max") return null;
  const best = data.best_contract;
  if (!best) return t("analysis.best_unknown");
  const strains = Object.entries(best.tricks).map(([s, n]) => `${strainText(s)} ${n}`).join(", ");
  const verdict = best.level === null ? t("analysis.best_none") : t("analysis.best", { level: best.level, strain: strainText(best.strain) });
  return `${verdict} (${strains})`;
}

function hasUnknown(data) {
  return data.par === null || data.par_made === null || (data.objective === "max" && data.best_contract === null) || data.cards.some((c) => c.cost === null);
}

// One card's cost: best, lost tricks (with the best cards), or unknown.
export function costText(entry) {
  const card = cardShort(entry.card);
  if (entry.cost === null) return t("analysis.card_unknown", { card });
  if (entry.cost === 0) return t("analysis.card_best", { card });
  return t("analysis.card_cost", { card, n: entry.cost, best: entry.best_cards.map(cardShort).join(" ") });
}

function costlyList(data, names) {
  const costly = data.cards.filter((c) => c.cost > 0);
  if (!costly.length) return data.cards.some((c) => c.cost === null) ? null : h("p", {}, t("analysis.no_costly"));
  return [
    h("h3", {}, t("analysis.costly")),
    h("ul", { class: "costly-cards" }, costly.map((c) => h("li", {}, `${t("analysis.trick_n", { n: c.trick })} · ${names[c.seat] || c.seat}: ${costText(c)}`))),
  ];
}

// The summary: par against the tricks taken, makeable or not, the best contract.
export function analysisSummary(analysis, names) {
  if (!analysis) return null;
  if (analysis.status === "loading") return h("p", { class: "analysis", id: "analysis-status" }, t("analysis.loading"));
  if (analysis.status === "error") return h("p", { class: "analysis error", id: "analysis-status" }, analysis.error);
  const data = analysis.data;
  if (!data.played) return h("p", { class: "analysis", id: "analysis-par" }, t("analysis.not_played"));
  const best = bestLine(data);
  return h(
    "section",
    { class: "analysis", "aria-labelledby": "analysis-title" },
    h("h3", { id: "analysis-title" }, t("analysis.title")),
    h("p", { id: "analysis-par" }, t("analysis.par", { par: show(data.par), actual: show(data.actual) })),
    h("p", {}, madeLine(data.par_made)),
    best ? h("p", { id: "analysis-best" }, best) : null,
    hasUnknown(data) ? h("p", { class: "note" }, t("analysis.unknown")) : null,
    costlyList(data, names),
  );
}

// The cost of the card played at this replay step (step n is the record's action n - 1).
export function stepCost(analysis, step) {
  if (!analysis || analysis.status !== "ready" || step < 1) return null;
  const entry = analysis.data.cards.find((c) => c.action === step - 1);
  if (!entry) return null;
  return h("p", { id: "replay-cost", class: entry.cost > 0 ? "costly" : "" }, costText(entry));
}
