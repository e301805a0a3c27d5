// Render one seat's view of the table. Nothing here decides legality: buttons and playable
// cards are exactly the view's legal_actions.
import { t } from "./i18n.js";
import { cardBack, cardFace, cardName, cardShort, sortHand, suitSymbol } from "./cards.js";
import { SEATS, actionLabel, contractText, isAuctionStep, stepText } from "./labels.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

export function around(me) {
  const i = SEATS.indexOf(me || "S");
  return { bottom: SEATS[i], left: SEATS[(i + 1) % 4], top: SEATS[(i + 2) % 4], right: SEATS[(i + 3) % 4] };
}

function cardNode(card, extra = {}) {
  return h("span", { class: "card", "data-card": card, role: "img", "aria-label": cardName(card), ...extra }, cardFace(card));
}

export function plays(history) {
  return history.filter((s) => s.split(" ")[1] === "play").map((s) => ({ seat: s[0], card: s.split(" ")[2] }));
}

function lastTrick(view) {
  const done = plays(view.history);
  const full = Math.floor(done.length / 4);
  return full ? done.slice((full - 1) * 4, full * 4) : [];
}

function seatBox(seat, where, view, ctx) {
  const c = view.contract;
  const marks = [];
  if (view.dealer === seat) marks.push(h("span", { class: "mark" }, t("mark.dealer")));
  if (SEATS[(SEATS.indexOf(view.dealer) + 1) % 4] === seat) marks.push(h("span", { class: "mark" }, t("mark.forehand")));
  if (c && c.declarer === seat) marks.push(h("span", { class: "mark strong" }, t("mark.declarer")));
  if (c && c.partner === seat) marks.push(h("span", { class: "mark strong" }, t("mark.partner")));
  const player = (ctx.players || []).find((p) => p && p.name === ctx.names[seat]);
  if (player && !player.bot && !player.online) marks.push(h("span", { class: "mark away" }, t("mark.offline")));
  if (player && player.autopilot) marks.push(h("span", { class: "mark" }, t("mark.autopilot")));
  const acting = view.to_act === seat;
  const open = view.open_hands[seat];
  const box = h(
    "div",
    { class: `seat ${where}${acting ? " acting" : ""}`, "data-seat": seat, "aria-label": t("seat.label", { name: ctx.names[seat] || seat }) },
    h("div", { class: "who" }, h("strong", {}, ctx.names[seat] || t(`seat.${seat}`)), ` (${t(`seat.${seat}`)})`, acting ? h("span", { class: "turn" }, ` ◀ ${t("mark.to_act")}`) : null),
    h("div", { class: "marks" }, marks),
    h(
      "div",
      { class: "counts" },
      t("seat.cards", { n: view.hand_sizes[seat] ?? 0 }),
      " · ",
      t("seat.tricks", { n: view.won[seat] ?? 0 }),
      " · ",
      t("seat.points", { n: (ctx.totals || {})[ctx.names[seat]] ?? 0 }),
    ),
  );
  if (open && where !== "bottom") box.append(h("div", { class: "open" }, sortHand(open.split(" ")).map((c) => cardNode(c, { class: "card small" }))));
  else if (where !== "bottom") box.append(h("div", { class: "backs", "aria-hidden": "true" }, cardBack()));
  return box;
}

function statusBar(view, ctx) {
  const c = view.contract;
  const items = [];
  if (c) {
    items.push(h("span", {}, `${t("status.contract")}: `, h("strong", { "data-testid": "contract" }, contractText(c.bid))));
    items.push(h("span", {}, `${t("status.declarer")}: `, h("strong", {}, ctx.names[c.declarer] || c.declarer)));
    const trump = c.trump === "??" ? "?" : c.trump ? `${suitSymbol(c.trump)} ${t(`suit.${c.trump}`)}` : c.bid && c.bid.match(/^\d/) ? t("status.no_trump") : "–";
    items.push(h("span", {}, `${t("status.trump")}: `, h("strong", {}, trump)));
    if (c.called) items.push(h("span", {}, `${t("status.called")}: `, h("strong", {}, cardShort(c.called))));
    const partner = c.partner === "??" ? t("status.unknown") : c.partner ? ctx.names[c.partner] || c.partner : "–";
    items.push(h("span", {}, `${t("status.partner")}: `, h("strong", {}, partner)));
    if (c.vip_turned.length) items.push(h("span", {}, `vip: `, c.vip_turned.map((k) => cardNode(k, { class: "card tiny" }))));
  } else {
    items.push(h("span", {}, t(`phase.${view.phase}`)));
  }
  items.push(h("span", {}, t("status.deal", { n: ctx.deal })));
  if (ctx.preset) items.push(h("span", { class: "preset" }, `${t("home.preset")}: ${ctx.preset}`));
  return h("div", { class: "status", "aria-label": t("status.label") }, items);
}

function auctionStrip(view, ctx) {
  const steps = view.history.filter(isAuctionStep);
  return h(
    "ol",
    { class: "auction", "aria-label": t("auction.label") },
    steps.length ? steps.map((s) => h("li", {}, stepText(s, ctx.names))) : h("li", {}, t("auction.empty")),
  );
}

let onTable = [];

function trickArea(view, ctx) {
  const seats = around(ctx.me);
  const where = Object.fromEntries(Object.entries(seats).map(([k, v]) => [v, k]));
  let shown = [];
  if (view.trick.length) {
    const start = SEATS.indexOf(view.leader);
    shown = view.trick.map((card, i) => ({ seat: SEATS[(start + i) % 4], card }));
  } else if (ctx.showLastTrick || Date.now() - ctx.trickDoneAt < 1200) {
    shown = lastTrick(view);
  }
  const label = ctx.showLastTrick && !view.trick.length ? t("trick.last") : t("trick.current");
  // the page is rebuilt on every frame: only a card new to the trick slides in
  const fresh = (card) => (onTable.includes(card) ? "" : " arriving");
  const node = h(
    "div",
    { class: "trick", role: "group", "aria-label": label },
    shown.map(({ seat, card }) => cardNode(card, { class: `card in-trick from-${where[seat]}${fresh(card)}`, title: ctx.names[seat] || seat })),
  );
  onTable = shown.map(({ card }) => card);
  return node;
}

function lastTrickPanel(view, ctx) {
  const last = lastTrick(view);
  if (!ctx.showLastTrick) return null;
  return h(
    "div",
    { class: "last-trick", role: "group", "aria-label": t("trick.last") },
    h("strong", {}, t("trick.last")),
    last.length ? last.map(({ seat, card }) => h("span", { class: "played" }, `${ctx.names[seat] || seat}: `, cardShort(card))) : t("trick.none"),
  );
}

const DIALOG_PHASES = { trump: "dialog.trump", call: "dialog.call", vip: "dialog.vip", exchange: "dialog.exchange" };

function actionPanel(view, ctx) {
  const mine = view.to_act === ctx.me && !ctx.busy;
  const buttons = view.legal_actions.filter((a) => !/^(play|discard) /.test(a));
  if (!mine || (!buttons.length && view.phase !== "exchange")) {
    if (view.phase === "play" || view.phase === "done") return null;
    const who = view.to_act ? ctx.names[view.to_act] || view.to_act : "";
    return h("div", { class: "panel waiting", role: "status" }, who ? t("wait.for", { name: who }) : "");
  }
  const title = view.phase === "auction" ? t("dialog.auction") : t(DIALOG_PHASES[view.phase] || `phase.${view.phase}`);
  const discards = view.legal_actions.some((a) => a.startsWith("discard "));
  const body = [];
  if (view.phase === "auction") body.push(biddingBox(buttons, ctx));
  else body.push(h("div", { class: "choices" }, buttons.map((a) => actionButton(a, ctx))));
  if (view.kitty_seen) body.push(h("div", { class: "kitty" }, h("span", {}, t("dialog.kitty")), view.kitty_seen.split(" ").map((c) => cardNode(c, { class: "card small" }))));
  if (discards) body.push(h("p", { class: "hint" }, t("dialog.discard")));
  return h("section", { class: "panel dialog", role: "dialog", "aria-labelledby": "panel-title" }, h("h2", { id: "panel-title" }, title), body);
}

function actionButton(action, ctx, extra = "") {
  const suggested = action === ctx.suggested ? " suggested" : "";
  return h("button", { type: "button", class: `act ${extra}${suggested}`, "data-action": action, onclick: () => ctx.act(action) }, actionLabel(action));
}

function biddingBox(actions, ctx) {
  const levels = new Map();
  const other = [];
  for (const a of actions) {
    const m = a.match(/^bid (\d+)/);
    if (m) {
      if (!levels.has(m[1])) levels.set(m[1], []);
      levels.get(m[1]).push(a);
    } else other.push(a);
  }
  const nolo = other.filter((a) => a.startsWith("bid "));
  const plain = other.filter((a) => !a.startsWith("bid "));
  return h(
    "div",
    { class: "bidbox" },
    h("div", { class: "row" }, plain.map((a) => actionButton(a, ctx, "wide"))),
    [...levels.entries()].map(([level, list]) => h("div", { class: "row", role: "group", "aria-label": level }, list.map((a) => actionButton(a, ctx)))),
    nolo.length ? h("div", { class: "row", role: "group", "aria-label": t("dialog.nolo") }, nolo.map((a) => actionButton(a, ctx))) : null,
  );
}

function handRow(view, ctx) {
  const legal = new Map();
  if (view.to_act === ctx.me && !ctx.busy) {
    for (const a of view.legal_actions) {
      const [verb, card] = a.split(" ");
      if ((verb === "play" || verb === "discard") && card) legal.set(card, a);
    }
  }
  const cards = view.hand ? sortHand(view.hand.split(" ")) : [];
  return h(
    "div",
    { class: "hand", role: "group", style: `--n: ${Math.max(cards.length, 2)}`, "aria-label": t("hand.label", { n: cards.length }) },
    cards.map((card) => {
      const action = legal.get(card);
      return h(
        "button",
        {
          type: "button",
          class: `card${action ? " legal" : ""}${action && action === ctx.suggested ? " suggested" : ""}`,
          "data-card": card,
          "data-action": action,
          "aria-label": action ? `${cardName(card)}, ${t(action.startsWith("discard") ? "hand.discard" : "hand.play")}` : cardName(card),
          "aria-disabled": action ? null : "true",
          onclick: () => action && ctx.act(action),
        },
        cardFace(card),
      );
    }),
  );
}

function commandLine(view, ctx) {
  const options = view.to_act === ctx.me ? view.legal_actions : [];
  const input = h("input", { id: "command", name: "command", autocomplete: "off", "aria-label": t("command.label"), placeholder: t("command.placeholder") });
  return h(
    "form",
    {
      class: "command",
      onsubmit: (event) => {
        event.preventDefault();
        const text = input.value.trim();
        const chosen = options.find((a) => a === text) || options.find((a) => a.split(" ")[1] === text.toUpperCase() && /^(play|discard) /.test(a));
        input.value = "";
        if (!chosen) return ctx.fail(t("command.unknown", { text }));
        input.blur(); // keys are shortcuts again; "/" comes back here
        ctx.act(chosen);
      },
    },
    input,
  );
}

// Take-backs and claims: offered where the protocol says they may be asked; the server decides.
function requestButtons(view, ctx) {
  const last = view.history[view.history.length - 1] || "";
  const buttons = [];
  if (view.phase !== "done" && last.startsWith(`${ctx.me} `) && !/ (turn|take|iron)/.test(last)) {
    buttons.push(h("button", { type: "button", id: "undo-button", onclick: () => ctx.command("undo") }, t("act.undo")));
  }
  const c = view.contract;
  if (view.phase === "play" && c && c.declarer === ctx.me && /^\d/.test(c.bid)) {
    buttons.push(h("button", { type: "button", id: "claim-button", onclick: () => ctx.command("claim") }, t("act.claim")));
    buttons.push(h("button", { type: "button", id: "concede-button", onclick: () => ctx.command("concede") }, t("act.concede")));
  }
  return buttons;
}

function requestPanel(ctx) {
  const request = ctx.request;
  if (!request || request.seat === ctx.me) return null;
  const reply = request.kind === "undo" ? "undo_reply" : "claim_reply";
  const text = t(`req.${request.kind}`, { name: ctx.names[request.seat] || request.seat, n: request.tricks ?? "" });
  return h(
    "section",
    { class: "panel dialog request", role: "alertdialog", "aria-labelledby": "request-title" },
    h("h2", { id: "request-title" }, text),
    h(
      "div",
      { class: "choices" },
      h("button", { type: "button", class: "act wide", id: "request-accept", onclick: () => ctx.reply(reply, true) }, t("req.accept")),
      h("button", { type: "button", class: "act", id: "request-refuse", onclick: () => ctx.reply(reply, false) }, t("req.refuse")),
    ),
  );
}

export function renderTable(view, ctx) {
  const seats = around(ctx.me);
  const mine = view.to_act === ctx.me && view.legal_actions.length > 0 && !ctx.busy;
  return h(
    "section",
    { class: "table", "data-phase": view.phase, "data-my-turn": mine ? "true" : "false", "data-steps": view.history.length, "aria-label": t("table.label") },
    statusBar(view, ctx),
    h(
      "div",
      { class: "tools-row" },
      h("button", { type: "button", id: "last-trick", "aria-pressed": ctx.showLastTrick ? "true" : "false", onclick: ctx.toggleLastTrick }, t("trick.show_last")),
      h("button", { type: "button", id: "sheet-button", onclick: ctx.openSheet }, t("sheet.open")),
      requestButtons(view, ctx),
      ctx.hintButton,
    ),
    auctionStrip(view, ctx),
    seatBox(seats.top, "top", view, ctx),
    seatBox(seats.left, "left", view, ctx),
    h("div", { class: "centre" }, trickArea(view, ctx), lastTrickPanel(view, ctx)),
    seatBox(seats.right, "right", view, ctx),
    h("div", { class: "actions" }, requestPanel(ctx), actionPanel(view, ctx), ctx.hintLine),
    seatBox(seats.bottom, "bottom", view, ctx),
    handRow(view, ctx),
    commandLine(view, ctx),
  );
}
