// GameSocket keeps one WebSocket to a game open (docs/protocol.md): it says
// hello with the last version the page has seen, so that after a dropped
// connection, a server restart or a reload the page gets exactly what it
// missed, and it reconnects on its own, with a growing pause, until stopped.

const BACKOFF_MS = [250, 600, 1200, 2500, 4000];
// The server sends a heartbeat every 15 s; a connection silent for longer
// than this is taken for dead.
const SILENCE_MS = 35000;

export class GameSocket {
  // handlers: onmessage(msg), onstatus(status, detail) with status one of
  // "connecting", "open", "reconnecting", "stopped".
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
    this.handlers = handlers;
    this.version = -1;     // the last version the page has seen
    this.takeBacks = 0;    // the take-backs the page has seen
    this.ws = null;
    this.stopped = true;
    this.attempt = 0;
    this.timer = null;
    this.lastHeard = 0;
    this.watchdog = null;
    this.onOnline = () => this.reconnectNow();
    this.onVisible = () => { if (document.visibilityState === 'visible') this.reconnectNow(); };
  }

  start() {
    this.stopped = false;
    window.addEventListener('online', this.onOnline);
    document.addEventListener('visibilitychange', this.onVisible);
    this.watchdog = setInterval(() => {
      if (this.ws && this.ws.readyState === WebSocket.OPEN && Date.now() - this.lastHeard > SILENCE_MS) {
        this.ws.close(4000, 'silent');
      }
    }, 5000);
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.watchdog);
    window.removeEventListener('online', this.onOnline);
    document.removeEventListener('visibilitychange', this.onVisible);
    if (this.ws) this.ws.close(1000, 'bye');
    this.ws = null;
    this.status('stopped');
  }

  // setToken changes the seat the socket speaks for and reconnects at once
  // (the old connection's end is not a drop to wait out).
  setToken(token) {
    this.token = token;
    if (this.stopped || !this.ws) return;
    const old = this.ws;
    this.ws = null;
    old.close(1000, 'new seat');
    this.attempt = 0;
    this.connect();
  }

  get open() {
    return this.ws != null && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  // send sends a message; it returns false when the socket is not open.
  send(msg) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  status(st, detail) {
    if (this.handlers.onstatus) this.handlers.onstatus(st, detail);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws`);
    this.ws = ws;
    this.welcomed = false;
    this.status(this.attempt === 0 ? 'connecting' : 'reconnecting');
    ws.onopen = () => {
      this.lastHeard = Date.now();
      const hello = {type: 'hello'};
      if (this.token) hello.token = this.token;
      if (this.version >= 0) hello.version = this.version;
      // The take-backs seen: a version after one names another position.
      if (this.takeBacks > 0) hello.take_backs = this.takeBacks;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = ev => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === 'welcome') {
        this.welcomed = true;
        this.attempt = 0;
        this.status('open');
      }
      if (msg.type === 'heartbeat') return;
      this.handlers.onmessage(msg);
    };
    ws.onclose = ev => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.welcomed = false;
      if (this.stopped) return;
      const pause = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt++;
      this.status('reconnecting', {code: ev.code, reason: ev.reason, retryIn: pause});
      this.timer = setTimeout(() => this.connect(), pause);
    };
  }

  // reconnectNow skips the pause before the next attempt (the network came
  // back, or the page became visible again).
  reconnectNow() {
    if (this.stopped || this.ws) return;
    this.connect();
  }
}
