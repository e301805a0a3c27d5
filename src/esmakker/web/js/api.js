// The server's HTTP API and one WebSocket per seat that resumes after a drop (docs/protocol.md).

async function call(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw Object.assign(new Error(data.message || data.detail || `${answer.status}`), { code: data.code });
  return data;
}

export const api = {
  presets: () => call("GET", "/api/presets"),
  tables: () => call("GET", "/api/tables"),
  table: (ref) => call("GET", `/api/tables/${ref}`),
  create: (body) => call("POST", "/api/tables", body),
  join: (ref, name) => call("POST", `/api/tables/${ref}/join`, { name }),
  bots: (ref, host) => call("POST", `/api/tables/${ref}/bots`, {}, host),
  start: (ref, host) => call("POST", `/api/tables/${ref}/start`, undefined, host),
  replay: (ref, n) => call("GET", `/api/tables/${ref}/deals/${n}/replay`),
  analysis: (ref, n) => call("GET", `/api/tables/${ref}/deals/${n}/analysis`),
  record: (ref, n) => call("GET", `/api/tables/${ref}/deals/${n}`),
  hint: (ref, token) => call("POST", `/api/tables/${ref}/hint`, undefined, token),
  review: (ref, n, seat) => call("GET", `/api/tables/${ref}/deals/${n}/review?seat=${seat}`),
};

// Seats are remembered per table, so a reload (or the same link) returns the same seat.
export function savedSeat(code) {
  try {
    return JSON.parse(localStorage.getItem(`esmakker:seat:${code}`) || "null");
  } catch {
    return null;
  }
}

export function saveSeat(code, seat) {
  localStorage.setItem(`esmakker:seat:${code}`, JSON.stringify(seat));
}

const PING_EVERY = 2500;
const DEAD_AFTER = 5000;

export class Connection {
  constructor(tableId, token, handlers) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${tableId}`;
    this.token = token;
    this.handlers = handlers; // {frame(f), status(s)}
    this.seq = 0;
    this.pending = new Map();
    this.count = 0;
    this.retry = 0;
    this.closedForGood = false;
    addEventListener("online", () => this.reconnectNow());
    addEventListener("offline", () => this.drop());
    this.open();
  }

  open() {
    const query = new URLSearchParams();
    if (this.token) query.set("token", this.token);
    if (this.seq) query.set("last_seq", String(this.seq));
    const socket = new WebSocket(`${this.url}?${query}`);
    this.socket = socket;
    this.heard = Date.now();
    socket.onopen = () => {
      this.retry = 0;
      this.handlers.status("online");
      for (const command of this.pending.values()) socket.send(JSON.stringify(command));
    };
    socket.onmessage = (message) => this.receive(JSON.parse(message.data));
    socket.onclose = (event) => this.closed(socket, event.code);
    clearInterval(this.timer);
    this.timer = setInterval(() => this.beat(), PING_EVERY);
  }

  receive(frame) {
    this.heard = Date.now();
    if (frame.type === "update" || frame.type === "snapshot") {
      if (frame.type === "update" && this.seq && frame.seq > this.seq + 1) this.send("sync");
      this.seq = Math.max(this.seq, frame.seq);
    }
    if ((frame.type === "ack" || frame.type === "error") && frame.id) this.pending.delete(frame.id);
    if (frame.type === "error" && frame.code === "duplicate_id") return;
    if (frame.type === "error" && frame.code === "replaced") this.closedForGood = true;
    this.handlers.frame(frame);
  }

  beat() {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.heard > DEAD_AFTER) return this.drop();
    this.socket.send(JSON.stringify({ v: 1, type: "ping", id: `p${Date.now()}` }));
  }

  drop() {
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) this.socket.close();
    this.closed(this.socket, 1006);
  }

  closed(socket, code) {
    if (socket !== this.socket || this.waiting) return;
    if (code === 4000 || code === 1008 || this.closedForGood) {
      this.handlers.status("replaced");
      return;
    }
    this.handlers.status("reconnecting");
    const delay = Math.min(500 * 2 ** this.retry, 3000);
    this.retry += 1;
    this.waiting = setTimeout(() => {
      this.waiting = null;
      this.open();
    }, delay);
  }

  reconnectNow() {
    if (this.waiting) {
      clearTimeout(this.waiting);
      this.waiting = null;
      this.open();
    }
  }

  send(type, fields = {}) {
    this.count += 1;
    const command = { v: 1, type, id: `c${Date.now().toString(36)}${this.count}`, ...fields };
    if (type !== "sync" && type !== "ping") this.pending.set(command.id, command);
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(command));
    return command.id;
  }
}
