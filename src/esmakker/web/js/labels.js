// How actions, bids and contracts read on screen; notation itself never changes.
import { t } from "./i18n.js";
import { cardShort, suitSymbol } from "./cards.js";

export const SEATS = ["N", "E", "S", "W"];

export function term(word) {
  return t(`term.${word}`);
}

export function contractText(bid) {
  if (!bid) return "";
  return bid.split(" ").map((part) => (/^\d+$/.test(part) ? part : term(part))).join(" ");
}

export function actionLabel(action) {
  const [verb, ...rest] = action.split(" ");
  if (verb === "bid") return contractText(rest.join(" "));
  if (verb === "trump") return `${suitSymbol(rest[0])} ${t(`suit.${rest[0]}`)}`;
  if (verb === "call" || verb === "play" || verb === "discard") return cardShort(rest[0]);
  if (verb === "take" && rest.length) return `${t("act.take")} ${rest.map(cardShort).join(" ")}`;
  return t(`act.${verb}`);
}

// "E bid 8 vip" → "Øst: 8 vip"; hidden cards ("??") read as a card laid away.
export function stepText(step, names) {
  const [seat, ...action] = step.split(" ");
  const who = names[seat] || t(`seat.${seat}`);
  const rest = action.join(" ");
  if (rest.includes("??")) return `${who}: ${t("act.hidden")}`;
  return `${who}: ${actionLabel(rest)}`;
}

export function isAuctionStep(step) {
  const verb = step.split(" ")[1];
  return ["bid", "pass", "hold", "join", "iron"].includes(verb);
}
