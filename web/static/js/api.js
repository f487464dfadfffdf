// The server's HTTP API (docs/api.md) and what the browser remembers between
// visits: the player's name and the seat tokens of their games.

// ApiError is a refusal from the server, with its status, code and, when the
// error is about a game, the game's current state.
export class ApiError extends Error {
  constructor(status, code, message, state = null, retryAfter = 0) {
    super(message);
    this.status = status;
    this.code = code;
    this.state = state;
    this.retryAfter = retryAfter;
  }
}

// request makes one API call and returns the decoded JSON answer.
export async function request(method, path, {body, token} = {}) {
  const headers = {Accept: 'application/json'};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = 'Bearer ' + token;
  let res;
  try {
    res = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (err) {
    throw new ApiError(0, 'offline', 'The server cannot be reached. Is lagoon still running?');
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    const e = data && data.error;
    throw new ApiError(res.status, e ? e.code : 'http_' + res.status,
      e ? e.message : `The server answered ${res.status} ${res.statusText}.`,
      data && data.state, Number(res.headers.get('Retry-After')) || 0);
  }
  return data;
}

// transient reports whether a failed request is worth trying again: the
// server is down, restarting or busy.
export const transient = err => err instanceof ApiError && [0, 429, 502, 503, 504].includes(err.status);

// patiently calls fn until it succeeds or fails for good; while the server
// cannot answer, it calls waiting(err) and tries again every 1.5 s, unless
// stopped() says the page has gone elsewhere.
export async function patiently(fn, waiting, stopped) {
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!transient(err) || stopped()) throw err;
      waiting(err);
      await new Promise(r => setTimeout(r, err.retryAfter ? err.retryAfter * 1000 : 1500));
    }
  }
}

// getRules returns the games the server hosts, the default first: each
// with its id, name, player counts, options, time rules and bot levels.
let rules = null;
export function getRules() {
  if (!rules) {
    rules = request('GET', '/api/rules');
    rules.catch(() => { rules = null; });
  }
  return rules;
}

// preview sets a game up from options without starting it:
// {options (every option, defaults filled), table, state}.
const previews = new Map();
export function preview(game, players, options = {}) {
  const key = JSON.stringify([game, players, options]);
  if (!previews.has(key)) {
    const p = request('POST', `/api/rules/${encodeURIComponent(game)}/preview`, {body: {players, options}});
    previews.set(key, p);
    p.catch(() => previews.delete(key));
  }
  return previews.get(key);
}

export const getLobby = () => request('GET', '/api/lobby');
export const createGame = spec => request('POST', '/api/games', {body: spec});

export function getGame(id, {at = null, token = null} = {}) {
  const q = at == null ? '' : '?at=' + at;
  return request('GET', `/api/games/${encodeURIComponent(id)}${q}`, {token});
}

export function joinGame(id, {seat = null, name = null, token = null}) {
  const body = {};
  if (seat != null) body.seat = seat;
  if (name) body.name = name;
  return request('POST', `/api/games/${encodeURIComponent(id)}/join`, {body, token});
}

export function leaveSeat(id, token, level) {
  return request('POST', `/api/games/${encodeURIComponent(id)}/leave`, {body: {level}, token});
}

// setBotPace has the table's bots play without the pauses that let people
// follow them (fast), or with them again (docs/api.md, "The bots' pace").
export function setBotPace(id, token, fast) {
  return request('POST', `/api/games/${encodeURIComponent(id)}/bots`, {body: {fast}, token});
}

export const recordURL = id => `/api/games/${encodeURIComponent(id)}/record`;

// Storage. Everything is kept in localStorage under "lagoon.*"; a browser
// that refuses storage (private modes) still plays, it only forgets.

function load(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v == null ? fallback : JSON.parse(v);
  } catch {
    return fallback;
  }
}

function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage refused: forget */ }
}

// The player's preferences (docs/web.md, "Preferences"), each with its
// default: confirm, hold each move for a second click or Confirm before it
// is sent; sound, a short chime when it becomes the player's turn; recent,
// mark on the table every move made since the player's own last move;
// fastbots, the bots at the player's table play without pauses.
export const PREFERENCES = [
  {key: 'confirm', label: 'Confirm each move', help: 'A move waits for Confirm (or a second click, or Enter) before it is sent; Cancel or Escape drops it.', default: false},
  {key: 'sound', label: 'Sound when it is my turn', help: 'A short chime when the others have moved and it is your turn.', default: false},
  {key: 'recent', label: 'Mark the moves since mine', help: 'Number the moves made since your own last one on the table, newest brightest.', default: true},
  {key: 'fastbots', label: 'Bots play without pauses', help: 'Bots move as soon as they have decided, without the pauses that let you follow their turns.', default: false},
];

export function preference(key) {
  const all = load('lagoon.prefs', {});
  if (key in all) return !!all[key];
  const p = PREFERENCES.find(p => p.key === key);
  return p ? p.default : false;
}

export function setPreference(key, value) {
  save('lagoon.prefs', {...load('lagoon.prefs', {}), [key]: !!value});
}

// newGameForm is what the new game form last had for a game: its seats
// (you, bot:level, friend, open), players, time rule and options.
export const newGameForm = game => load('lagoon.form', {})[game] || null;
export function rememberNewGameForm(game, form) {
  save('lagoon.form', {...load('lagoon.form', {}), [game]: form});
}

// playerName is the name the player last used, or "".
export const playerName = () => load('lagoon.name', '');
export const setPlayerName = name => save('lagoon.name', name);

// mySeats maps game ids to what this browser holds for them:
// {token, seat, tokens: {seat: token}, invites: [{seat, link}], creator}.
// token and seat are the seat used last; tokens holds every seat the
// browser has in the game (one person may play two seats in two tabs).
export const mySeats = () => load('lagoon.seats', {});

// rememberSeat merges what is known about this browser's seats in a game;
// info.token and info.seat add a seat, which this tab then keeps using.
export function rememberSeat(id, info) {
  const all = mySeats();
  const was = all[id] || {};
  const tokens = {...(was.tokens || {})};
  if (was.token && was.seat != null && !(was.seat in tokens)) tokens[was.seat] = was.token;
  if (info.token && info.seat != null) {
    tokens[info.seat] = info.token;
    tabSeats.set(id, info.seat);
  }
  all[id] = {...was, ...info, tokens, touched: Date.now()};
  // Keep the 100 most recent games.
  const ids = Object.keys(all).sort((a, b) => (all[b].touched || 0) - (all[a].touched || 0));
  for (const old of ids.slice(100)) delete all[old];
  save('lagoon.seats', all);
}

// seatToken is the token this tab plays game id with: the seat it used
// last (none if that seat's token was dropped: the tab then watches), or
// for a tab new to the game the seat the browser used last.
export function seatToken(id) {
  const mine = mySeats()[id];
  if (!mine) return null;
  const seat = tabSeats.get(id);
  if (seat != null) return (mine.tokens && mine.tokens[seat]) || null;
  return mine.token || null;
}

// forgetSeat forgets a token that no longer works, and only that one.
export function forgetSeat(id, token) {
  const all = mySeats();
  const mine = all[id];
  if (!mine) return;
  const tokens = mine.tokens || {};
  for (const seat of Object.keys(tokens)) if (tokens[seat] === token) delete tokens[seat];
  if (mine.token === token) {
    const left = Object.keys(tokens);
    if (left.length) {
      mine.seat = Number(left[0]);
      mine.token = tokens[left[0]];
    } else {
      delete mine.token;
      delete mine.seat;
    }
  }
  save('lagoon.seats', all);
}

// tabSeats remembers, for this tab only (sessionStorage survives a reload
// but is not shared with other tabs), which seat it plays in each game.
const tabSeats = {
  get(id) {
    const v = sessionGet('lagoon.tab-seats')[id];
    return v == null ? null : v;
  },
  set(id, seat) {
    const all = sessionGet('lagoon.tab-seats');
    all[id] = seat;
    try { sessionStorage.setItem('lagoon.tab-seats', JSON.stringify(all)); } catch { /* storage refused: forget */ }
  },
};

function sessionGet(key) {
  try {
    return JSON.parse(sessionStorage.getItem(key)) || {};
  } catch {
    return {};
  }
}

// seatLink is the absolute link of a seat or spectator path.
export const absolute = path => new URL(path, location.origin).href;
