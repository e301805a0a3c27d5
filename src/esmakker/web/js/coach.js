// The strong bot as a coach: a hint for the seat's own decision and, after a deal, the
// review of the choices that cost expected points (docs/protocol.md, Hints and Reviews).
import { t } from "./i18n.js";
import { actionLabel } from "./labels.js";
import { h } from "./table.js";

function points(n) {
  const rounded = Math.round(n);
  return `${rounded > 0 ? "+" : ""}${rounded}`;
}

// "♥D: +52 expected points (then ♥4 +31, ♠A -12)", in the page's language.
export function hintText(data) {
  if (!data.choices.length) return t("hint.only", { action: actionLabel(data.action) });
  const [best, ...rest] = data.choices;
  const line = t("hint.best", { action: actionLabel(best.action), points: points(best.mean) });
  if (!rest.length) return line;
  const others = rest.slice(0, 2).map((c) => `${actionLabel(c.action)} ${points(c.mean)}`).join(", ");
  return `${line} ${t("hint.then", { others })}`;
}

export function hintButton(hint, onClick) {
  const loading = Boolean(hint && hint.status === "loading");
  return h("button", { type: "button", id: "hint-button", onclick: onClick, "aria-busy": String(loading), title: t("hint.key") }, t("hint.open"));
}

// The line under the table: thinking, the suggestion with its reason, or why there is none.
export function hintLine(hint) {
  if (!hint) return null;
  if (hint.status === "loading") return h("p", { id: "hint-text", class: "advice", role: "status" }, t("hint.thinking"));
  if (hint.status === "error") return h("p", { id: "hint-text", class: "advice error", role: "status" }, hint.error);
  return h("p", { id: "hint-text", class: "advice", role: "status", "data-suggested": hint.data.action }, `${t("hint.label")}: ${hintText(hint.data)}`);
}

function where(mistake) {
  if (mistake.trick) return t("analysis.trick_n", { n: mistake.trick });
  return t(`phase.${mistake.phase}`);
}

export function reviewButton(review, onClick) {
  const loading = Boolean(review && review.status === "loading");
  return h("button", { type: "button", id: "review-button", onclick: onClick, "aria-busy": String(loading) }, t("review.open"));
}

// "Trick 5: you played ♥4; ♥D was better by 23 points", one line per costly choice.
export function reviewList(review) {
  if (!review) return null;
  if (review.status === "loading") return h("p", { class: "review", id: "review-status" }, t("review.loading"));
  if (review.status === "error") return h("p", { class: "review error", id: "review-status" }, review.error);
  const mistakes = review.data.mistakes;
  return h(
    "section",
    { class: "review", "aria-labelledby": "review-title" },
    h("h3", { id: "review-title" }, t("review.title")),
    mistakes.length
      ? h("ul", { class: "costly-choices", id: "review-list" }, mistakes.map((m) => h("li", {}, t("review.item", { where: where(m), action: actionLabel(m.action), best: actionLabel(m.best), cost: Math.round(m.cost) }))))
      : h("p", { id: "review-status" }, t("review.none", { n: review.data.decisions })),
  );
}

// Replay step n shows the position after the record's action n - 1: a costly choice made
// at action s is shown at step s + 1 (docs/protocol.md, Reviews).
export function costlySteps(review) {
  if (!review || review.status !== "ready") return [];
  return review.data.mistakes.map((m) => m.step + 1);
}

// The nearest costly step after (by 1) or before (by -1) this one, or null.
export function costlyStepFrom(review, step, by) {
  const ahead = costlySteps(review).filter((s) => (s - step) * by > 0);
  if (!ahead.length) return null;
  return by > 0 ? ahead[0] : ahead[ahead.length - 1];
}

function costlyButtons(review, step, actions) {
  const prev = costlyStepFrom(review, step, -1);
  const next = costlyStepFrom(review, step, 1);
  return h(
    "div",
    { class: "choices review-nav" },
    h("button", { type: "button", id: "replay-prev-costly", onclick: actions.prevCostly, disabled: prev === null, "aria-keyshortcuts": "p", title: t("review.key_prev") }, t("review.prev")),
    h("button", { type: "button", id: "replay-next-costly", onclick: actions.nextCostly, disabled: next === null, "aria-keyshortcuts": "n", title: t("review.key_next") }, t("review.next")),
  );
}

// The review in the replay: loading, failed (with a retry), none, or the count, the jump
// buttons and, at a costly step, what was chosen and what was better.
export function replayReview(review, step, actions) {
  if (!review) return null;
  if (review.status === "loading") return h("p", { class: "review", id: "replay-review-status", role: "status" }, t("review.loading"));
  if (review.status === "error") return [h("p", { class: "review error", id: "replay-review-status", role: "status" }, review.error), reviewButton(review, actions.review)];
  const mistakes = review.data.mistakes;
  if (!mistakes.length) return h("p", { class: "review", id: "replay-review-status" }, t("review.none", { n: review.data.decisions }));
  const index = mistakes.findIndex((m) => m.step + 1 === step);
  const mistake = mistakes[index];
  return [
    h("p", { class: "review", id: "replay-review-status" }, t("review.count", { n: mistakes.length })),
    mistake
      ? h("p", { class: "review costly", id: "replay-review", "data-step": String(mistake.step), role: "status" }, `✗ ${t("review.mark", { n: index + 1, of: mistakes.length })}: `, t("review.step", { action: actionLabel(mistake.action), best: actionLabel(mistake.best), cost: Math.round(mistake.cost) }))
      : null,
    costlyButtons(review, step, actions),
  ];
}
