// The page: home, lobby and table; one state object, rendered again on every change.
import { api, Connection, saveSeat, savedSeat } from "./api.js";
import { LANGS, loadLanguage, pickLanguage, t } from "./i18n.js";
import { SEATS, stepText } from "./labels.js";
import { h, renderTable } from "./table.js";
import { replayDialog, resultDialog, sheetDialog } from "./panels.js";
import { costlyStepFrom, hintButton, hintLine, hintText } from "./coach.js";

const app = document.getElementById("app");
const state = { view: null, table: null, you: null, sheet: null, names: {}, over: null, modal: null, busy: false, showLastTrick: false, trickDoneAt: 0 };

function announce(text) {
  const live = document.getElementById("live");
  live.textContent = text;
}

function fail(text) {
  const line = document.getElementById("error");
  line.textContent = text;
  line.hidden = !text;
}

function connStatus(kind) {
  const node = document.getElementById("conn");
  node.hidden = kind === "online";
  node.textContent = kind === "online" ? "" : t(`conn.${kind}`);
  document.body.dataset.conn = kind;
}

// ------------------------------------------------------------------ home

function myName() {
  return localStorage.getItem("esmakker:name") || t("home.default_name");
}

async function playComputer() {
  const created = await api.create({ private: true, host_name: myName(), name: t("home.computer_table") });
  await api.bots(created.id, created.host_token);
  await api.start(created.id, created.host_token);
  saveSeat(created.code, { token: created.seat.token, table: created.id, host: created.host_token });
  openTable(created.code, true);
}

async function createFriends(form) {
  const name = form.elements.name.value.trim() || myName();
  localStorage.setItem("esmakker:name", name);
  const listed = form.elements.listed.checked;
  const created = await api.create({ private: !listed, host_name: name, preset: form.elements.preset.value, name: t("home.friends_table", { name }) });
  saveSeat(created.code, { token: created.seat.token, table: created.id, host: created.host_token });
  openTable(created.code, true);
}

function guarded(fn) {
  return async (event) => {
    if (event) event.preventDefault();
    fail("");
    try {
      await fn(event);
    } catch (error) {
      fail(String(error.message || error));
    }
  };
}

async function showHome() {
  document.title = t("app.title");
  const presets = ["wikipedia", "kortdrengene", "osterbro", "hjerteres", "hilmarshelte", "tanya"];
  const open = h("ul", { class: "open-tables", "aria-live": "polite" }, h("li", {}, t("home.loading")));
  app.replaceChildren(
    h(
      "section",
      { class: "home" },
      h("h1", {}, t("home.title")),
      h("p", {}, t("home.intro")),
      h("button", { type: "button", id: "play-computer", class: "big", onclick: guarded(playComputer) }, t("home.play_computer")),
      h(
        "form",
        { class: "friends", id: "friends", onsubmit: guarded((e) => createFriends(e.target)) },
        h("h2", {}, t("home.play_friends")),
        h("label", {}, t("home.your_name"), " ", h("input", { name: "name", maxlength: 24, value: localStorage.getItem("esmakker:name") || "" })),
        h("label", {}, t("home.preset"), " ", h("select", { name: "preset" }, presets.map((p) => h("option", { value: p }, p)))),
        h("label", {}, h("input", { type: "checkbox", name: "listed" }), " ", t("home.listed")),
        h("button", { type: "submit", id: "create-friends" }, t("home.create")),
      ),
      h("h2", {}, t("home.open_tables")),
      open,
      h("h2", {}, t("home.presets")),
      h("dl", { class: "presets" }, presets.map((p) => [h("dt", {}, p), h("dd", {}, t(`preset.${p}`))])),
    ),
  );
  try {
    const tables = await api.tables();
    open.replaceChildren(...(tables.length ? tables.map((tb) => h("li", {}, h("a", { href: `/t/${tb.code}` }, `${tb.config.name || tb.code} (${tb.players.filter(Boolean).length}/${tb.config.seats})`))) : [h("li", {}, t("home.no_tables"))]));
  } catch {
    open.replaceChildren(h("li", {}, t("home.no_tables")));
  }
}

// ------------------------------------------------------------------ table

let conn = null;
let code = null;

function namesFromTable(table) {
  const names = {};
  table.players.forEach((p, i) => {
    if (p && i < 4) names[SEATS[i]] = p.name;
  });
  return names;
}

function openTable(ref, push) {
  code = ref;
  if (push) history.pushState({}, "", `/t/${ref}`);
  const seat = savedSeat(ref);
  if (seat) return connect(seat);
  return showJoin(ref);
}

async function showJoin(ref) {
  const table = await api.table(ref);
  state.table = table;
  const free = table.status === "lobby" && table.players.some((p) => p === null);
  app.replaceChildren(
    h(
      "section",
      { class: "home" },
      h("h1", {}, table.config.name || table.code),
      free
        ? h(
            "form",
            { id: "join", onsubmit: guarded(async (e) => {
              const name = e.target.elements.name.value.trim() || myName();
              localStorage.setItem("esmakker:name", name);
              const seated = await api.join(ref, name);
              saveSeat(ref, { token: seated.token, table: seated.table_id });
              connect(savedSeat(ref));
            }) },
            h("label", {}, t("home.your_name"), " ", h("input", { name: "name", maxlength: 24, required: true, value: localStorage.getItem("esmakker:name") || "" })),
            h("button", { type: "submit", id: "join-button" }, t("lobby.join")),
          )
        : h("p", {}, t("lobby.full")),
      h("button", { type: "button", id: "watch", onclick: () => connect({ table: table.id, token: null }) }, t("lobby.watch")),
    ),
  );
}

function connect(seat) {
  state.seat = seat;
  if (conn) conn.closedForGood = true;
  conn = new Connection(seat.table, seat.token, { frame: onFrame, status: connStatus });
  app.replaceChildren(h("p", { class: "loading" }, t("home.loading")));
}

function onFrame(frame) {
  if (frame.type === "welcome") state.you = frame.you;
  if (frame.type === "snapshot") {
    state.table = frame.table;
    state.sheet = frame.sheet;
    state.names = namesFromTable(frame.table);
    if (frame.view) state.view = frame.view;
    state.busy = false;
  }
  if (frame.type === "update") {
    for (const event of frame.events) onEvent(event);
    if (frame.view) state.view = frame.view;
  }
  if (frame.type === "ack" || frame.type === "error") {
    document.body.dataset.answers = String(Number(document.body.dataset.answers || 0) + 1);
  }
  if (frame.type === "ack") state.busy = false;
  if (frame.type === "error") {
    state.busy = false;
    fail(`${frame.code}: ${frame.message}`);
  }
  render();
  const v = state.view;
  if (v && frame.type === "update" && v.to_act === me() && v.legal_actions.length) announce(t("live.your_turn"));
}

const REQUEST_ENDS = ["undone", "undo_refused", "claim_refused", "claim_accepted", "claim_void"];

function onEvent(event) {
  if (event.kind === "deal_started") {
    state.names = { ...event.seats };
    if (state.table) state.table.deal = event.number;
  }
  if (event.kind === "action" && event.seat !== me()) announce(stepText(event.step, state.names));
  if (event.kind === "undo_asked") state.request = { kind: "undo", seat: event.seat };
  if (event.kind === "claim_asked" || event.kind === "concede_asked") {
    state.request = { kind: event.kind.split("_")[0], seat: event.seat, tricks: event.tricks };
  }
  if (event.kind === "action") state.request = null; // any action cancels a request
  if (state.request && REQUEST_ENDS.includes(event.kind)) {
    announce(t(`live.${event.kind}`));
    state.request = null;
  }
  if (event.kind === "trick") {
    state.trickDoneAt = Date.now();
    announce(t("live.trick", { name: state.names[event.winner] || event.winner }));
    setTimeout(render, 1300);
  }
  if (event.kind === "deal_over") {
    state.over = { ...event, seat: me() };
    state.modal = "result";
    state.sheet = state.sheet || { players: [], deals: [], totals: {} };
    state.sheet.deals = [...state.sheet.deals, event.row];
    state.sheet.totals = event.row.totals;
    if (!state.sheet.players.length) state.sheet.players = Object.keys(event.row.totals);
    announce(t("live.deal_over"));
  }
  if (["seated", "started", "presence", "autopilot", "finished", "closed", "aborted"].includes(event.kind)) refreshTable();
}

async function refreshTable() {
  if (!code) return;
  try {
    state.table = await api.table(code);
    if (!state.view) state.names = namesFromTable(state.table);
    render();
  } catch {
    /* the next frame will tell */
  }
}

function me() {
  if (state.view && state.view.seat) return state.view.seat;
  return state.you ? state.you.seat : null;
}

function act(action) {
  if (state.busy) return;
  fail("");
  state.busy = true;
  conn.send("act", { action });
  render();
}

const ctxActions = {
  act,
  fail,
  command: (type) => {
    fail("");
    conn.send(type);
  },
  reply: (type, accept) => {
    conn.send(type, { accept });
    state.request = null;
    render();
  },
  toggleLastTrick: () => {
    state.showLastTrick = !state.showLastTrick;
    render();
  },
  openSheet: () => {
    state.modal = "sheet";
    render();
  },
};

function lobby() {
  const table = state.table;
  const seat = state.seat || {};
  const link = `${location.origin}/t/${table.code}`;
  const host = Boolean(seat.host);
  return h(
    "section",
    { class: "lobby", "data-status": table.status },
    h("h1", {}, table.config.name || table.code),
    h("p", {}, t("lobby.share"), " ", h("a", { href: link, id: "invite-link" }, link)),
    h("p", {}, t("lobby.code"), " ", h("strong", { id: "table-code" }, table.code)),
    h("ol", { class: "places" }, table.players.map((p) => h("li", {}, p ? `${p.name}${p.bot ? " 🤖" : ""}` : t("lobby.free")))),
    host
      ? h(
          "div",
          { class: "choices" },
          h("button", { type: "button", id: "fill-bots", onclick: guarded(() => api.bots(table.id, seat.host).then(refreshTable)) }, t("lobby.bots")),
          h("button", { type: "button", id: "start", class: "act wide", onclick: guarded(() => api.start(table.id, seat.host).then(() => conn.send("sync"))) }, t("lobby.start")),
        )
      : h("p", {}, t("lobby.wait_host")),
  );
}

function render() {
  if (!state.table) return;
  let main;
  if (!state.view || state.table.status === "lobby") main = lobby();
  else {
    const hint = currentHint();
    main = renderTable(state.view, {
      hintButton: state.seat && state.seat.token && me() ? hintButton(hint, askHint) : null,
      hintLine: hintLine(hint),
      suggested: hint && hint.status === "ready" ? hint.data.action : null,
      ...ctxActions,
      me: me(),
      names: state.names,
      busy: state.busy,
      request: state.request,
      players: state.table.players,
      totals: state.sheet ? state.sheet.totals : state.table.totals,
      preset: state.table.config.preset,
      deal: state.table.deal,
      showLastTrick: state.showLastTrick,
      trickDoneAt: state.trickDoneAt,
    });
  }
  const focused = focusKey(document.activeElement);
  const children = [main];
  if (state.modal === "result" && state.over) {
    const analysis = currentAnalysis();
    children.push(resultDialog(state.over, state.names, {
      record: `/api/tables/${state.table.id}/deals/${state.over.number}`,
      next: () => closeModal(),
      replay: guarded(openReplay),
      analyse: openAnalysis,
      review: state.over.seat ? openReview : null,
      sheet: () => {
        state.modal = "sheet";
        render();
      },
    }, analysis, currentReview()));
  }
  if (state.modal === "sheet") children.push(sheetDialog(state.sheet, `/api/tables/${state.table.id}/sheet.csv`, closeModal));
  if (state.modal === "replay" && state.replay) {
    children.push(replayDialog(state.replay, state.replayStep, state.names, {
      prev: () => stepReplay(-1),
      next: () => stepReplay(1),
      prevCostly: () => jumpCostly(-1),
      nextCostly: () => jumpCostly(1),
      review: openReview,
      analyse: openAnalysis,
      close: closeModal,
    }, currentAnalysis(), state.over && state.over.seat ? currentReview() : null));
  }
  app.replaceChildren(...children);
  const again = focused && app.querySelector(focused);
  if (again) again.focus();
  const modal = app.querySelector(".modal button.act, .modal button");
  if (state.modal && modal && !app.querySelector(".modal").contains(document.activeElement)) modal.focus();
}

// The page is rebuilt on every frame: keep the keyboard focus on the same control.
function focusKey(node) {
  if (!node || node === document.body) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  if (node.dataset && node.dataset.card && node.closest(".hand")) return `.hand [data-card="${node.dataset.card}"]`;
  if (node.dataset && node.dataset.action) return `[data-action="${CSS.escape(node.dataset.action)}"]`;
  return null;
}

function closeModal() {
  state.modal = null;
  render();
}

async function openReplay() {
  state.replay = await api.replay(state.table.id, state.over.number);
  state.replayStep = 0;
  state.modal = "replay";
  render();
  if (state.over.seat && state.over.record.result.outcome !== "redeal") openReview();
}

// The double-dummy analysis of the deal just over: asked once, announced when it is ready.
function currentAnalysis() {
  const analysis = state.analysis;
  return analysis && state.over && analysis.number === state.over.number && analysis.table === state.table.id ? analysis : null;
}

async function openAnalysis() {
  if (currentAnalysis() && state.analysis.status !== "error") return;
  const number = state.over.number;
  const table = state.table.id;
  state.analysis = { number, table, status: "loading" };
  announce(t("analysis.loading"));
  render();
  try {
    state.analysis = { number, table, status: "ready", data: await api.analysis(table, number) };
    announce(t("analysis.ready"));
  } catch (error) {
    const text = error.code === "solver_not_installed" ? t("analysis.not_installed") : t("analysis.failed", { error: String(error.message || error) });
    state.analysis = { number, table, status: "error", error: text };
    announce(text);
  }
  render();
}

// The review of my own choices in the deal just over: where they cost expected points.
function currentReview() {
  const review = state.review;
  return review && state.over && review.number === state.over.number && review.table === state.table.id ? review : null;
}

async function openReview() {
  if (currentReview() && state.review.status !== "error") return;
  const number = state.over.number;
  const table = state.table.id;
  state.review = { number, table, status: "loading" };
  announce(t("review.loading"));
  render();
  try {
    state.review = { number, table, status: "ready", data: await api.review(table, number, state.over.seat) };
    announce(t("review.ready"));
  } catch (error) {
    state.review = { number, table, status: "error", error: t("review.failed", { error: String(error.message || error) }) };
  }
  render();
}

function stepReplay(by) {
  state.replayStep = Math.max(0, Math.min(state.replay.positions.length - 1, state.replayStep + by));
  render();
}

// To the next (1) or previous (-1) step where my choice cost points, once reviewed.
function jumpCostly(by) {
  const review = currentReview();
  if (!review || review.status !== "ready") return;
  const step = costlyStepFrom(review, state.replayStep, by);
  if (step === null) return announce(t("review.no_more"));
  state.replayStep = Math.min(step, state.replay.positions.length - 1);
  render();
}

// ------------------------------------------------------------------ hints

// A hint belongs to one decision: the deal and the number of steps when it was asked.
function currentHint() {
  const hint = state.hint;
  const view = state.view;
  return hint && view && state.table && hint.deal === state.table.deal && hint.step === view.history.length ? hint : null;
}

async function askHint() {
  const view = state.view;
  if (!view || !state.seat || !state.seat.token) return;
  const asked = { deal: state.table.deal, step: view.history.length };
  if (view.to_act !== me() || !view.legal_actions.length) {
    state.hint = { ...asked, status: "error", error: t("hint.not_your_turn") };
    return render();
  }
  const shown = currentHint();
  if (shown && shown.status !== "error") return;
  state.hint = { ...asked, status: "loading" };
  announce(t("hint.thinking"));
  render();
  try {
    const data = await api.hint(state.table.id, state.seat.token);
    if (data.step !== asked.step || data.deal !== asked.deal) return;
    state.hint = { ...asked, status: "ready", data };
    announce(hintText(data));
  } catch (error) {
    state.hint = { ...asked, status: "error", error: t("hint.failed", { error: String(error.message || error) }) };
  }
  render();
}

// ------------------------------------------------------------------ keyboard

function onKey(event) {
  const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
  if (event.key === "Escape" && state.modal) return closeModal();
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  if (state.modal === "replay" && (event.key === "ArrowRight" || event.key === "ArrowLeft")) return stepReplay(event.key === "ArrowRight" ? 1 : -1);
  if (state.modal === "replay" && (event.key === "n" || event.key === "p")) return jumpCostly(event.key === "n" ? 1 : -1);
  const focusFirst = (selector) => {
    const node = app.querySelector(selector);
    if (node) {
      event.preventDefault();
      node.focus();
    }
  };
  if (event.key === "/") return focusFirst("#command");
  if (event.key === "c") return focusFirst(".hand .card.legal");
  if (event.key === "b") return focusFirst(".panel button.act");
  if (event.key === "l") return ctxActions.toggleLastTrick();
  if (event.key === "r") return ctxActions.openSheet();
  if (event.key === "h" && !state.modal) return askHint();
  if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    const group = event.target.closest && event.target.closest(".hand, .choices, .bidbox");
    if (!group) return;
    const items = [...group.querySelectorAll("button")];
    const i = items.indexOf(event.target);
    const next = items[(i + (event.key === "ArrowRight" ? 1 : -1) + items.length) % items.length];
    event.preventDefault();
    next.focus();
  }
}

// ------------------------------------------------------------------ start

function applyPrefs() {
  for (const [id, key] of [["contrast", "contrast"], ["fourcolour", "four"], ["large", "large"]]) {
    const on = localStorage.getItem(`esmakker:${key}`) === "1";
    document.body.classList.toggle(key, on);
    document.getElementById(id).setAttribute("aria-pressed", on ? "true" : "false");
  }
}

function togglePref(key) {
  localStorage.setItem(`esmakker:${key}`, localStorage.getItem(`esmakker:${key}`) === "1" ? "0" : "1");
  applyPrefs();
}

function route() {
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)/);
  if (match) return openTable(match[1], false);
  code = null;
  return showHome();
}

async function start() {
  const select = document.getElementById("lang");
  const lang = pickLanguage();
  select.value = lang;
  // Listen before the first language has loaded: a choice made meanwhile must count.
  select.addEventListener("change", async () => {
    if (LANGS.includes(select.value)) await loadLanguage(select.value);
    if (state.table && code) render();
    else showHome();
  });
  await loadLanguage(lang);
  document.getElementById("contrast").addEventListener("click", () => togglePref("contrast"));
  document.getElementById("fourcolour").addEventListener("click", () => togglePref("four"));
  document.getElementById("large").addEventListener("click", () => togglePref("large"));
  applyPrefs();
  addEventListener("keydown", onKey);
  addEventListener("popstate", route);
  guarded(route)();
}

start();
