// Card faces drawn as SVG by our own code; notation as in hand records (SA, HT, X1).
import { t } from "./i18n.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = "AKQJT98765432";
const ORDER = "SHDC";
const NS = "http://www.w3.org/2000/svg";

export function suitSymbol(suit) {
  return SUITS[suit] || "";
}

export function rankText(rank) {
  return rank === "T" ? "10" : rank;
}

export function cardName(card) {
  if (card.startsWith("X")) return t("card.joker");
  return t("card.name", { rank: t(`rank.${card[1]}`), suit: t(`suit.${card[0]}`) });
}

export function cardShort(card) {
  if (card.startsWith("X")) return "🃏";
  return `${suitSymbol(card[0])}${rankText(card[1])}`;
}

export function sortHand(cards) {
  const key = (c) => (c.startsWith("X") ? 100 + Number(c[1]) : ORDER.indexOf(c[0]) * 13 + RANKS.indexOf(c[1]));
  return [...cards].sort((a, b) => key(a) - key(b));
}

function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// A face: rank and suit in the corners, a large suit in the middle; jokers get a star.
export function cardFace(card) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "face", "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "paper" }));
  if (card.startsWith("X")) {
    svg.classList.add("joker");
    svg.append(el("text", { x: 30, y: 52, "text-anchor": "middle", class: "pip big" }, "★"));
    svg.append(el("text", { x: 5, y: 20, class: "pip" }, "★"));
    return svg;
  }
  const suit = card[0];
  svg.classList.add(`suit-${suit}`);
  svg.append(el("text", { x: 5, y: 20, class: "rank" }, rankText(card[1])));
  svg.append(el("text", { x: 6, y: 36, class: "pip" }, SUITS[suit]));
  svg.append(el("text", { x: 34, y: 72, "text-anchor": "middle", class: "pip big" }, SUITS[suit]));
  return svg;
}

export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "face back", "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "backing" }));
  return svg;
}
