// My games: every game of the player, on every device they are signed in
// on, kept live by one WebSocket a page (GET /api/me/ws, docs/api.md),
// which sends the player's games whenever they change. The same list
// shows the count of the games waiting on the player in the page's title
// and on its icon, on every page, and, when the player turns them on, a
// browser notification when a game comes to wait on them and they are not
// looking at it.
//
//   /me   the page: their turn first, then the others in progress, then
//         the finished ones with their results and replays, 50 at a time

import {h, fill, ago, plural, toast} from './ui.js';
import {request} from './api.js';

const BACKOFF_MS = [500, 1500, 4000, 10000];
// The server sends a heartbeat every 15 s; a socket silent for longer than
// this is taken for dead.
const SILENCE_MS = 40000;
const NOTIFY_KEY = 'lagoon.notify';

// live is the page's one connection and what it last heard: list is the
// first page of GET /api/me/games, or null before the first.
const live = {list: null, ws: null, attempt: 0, heard: 0, listeners: new Set(), seen: null};

// onMyGames calls fn with the list now, if one came, and at every change;
// it returns the function that stops it.
export function onMyGames(fn) {
  live.listeners.add(fn);
  if (live.list) fn(live.list);
  return () => live.listeners.delete(fn);
}

// startMyGames opens the live list once a page, the player made first
// (GET /api/me), so that the count is right on whichever page they land.
export async function startMyGames() {
  try {
    await request('GET', '/api/me');
  } catch {
    // No player (the store does not answer): the socket tries again.
  }
  const title = document.querySelector('title');
  new MutationObserver(showCount).observe(title, {childList: true, characterData: true, subtree: true});
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible' && !live.ws) connect(); });
  setInterval(() => {
    if (live.ws && live.ws.readyState === WebSocket.OPEN && Date.now() - live.heard > SILENCE_MS) live.ws.close(4000, 'silent');
  }, 5000);
  connect();
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(`${proto}//${location.host}/api/me/ws`);
  live.ws = ws;
  ws.onopen = () => { live.heard = Date.now(); live.attempt = 0; };
  ws.onmessage = ev => {
    live.heard = Date.now();
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === 'games') received(msg);
  };
  ws.onclose = () => {
    if (live.ws !== ws) return;
    live.ws = null;
    const pause = BACKOFF_MS[Math.min(live.attempt++, BACKOFF_MS.length - 1)];
    setTimeout(() => { if (!live.ws) connect(); }, pause);
  };
}

// received takes a new list: the count, the notices, then the pages.
function received(list) {
  const before = live.seen;
  live.list = list;
  live.seen = new Map(list.games.filter(g => g.your_turn).map(g => [g.id, g.version]));
  showCount();
  if (before) notify(list.games.filter(g => g.your_turn && before.get(g.id) !== g.version));
  for (const fn of live.listeners) fn(list);
}

// waiting is how many games wait on the player.
const waiting = () => (live.list ? live.list.waiting : 0);

// showCount puts "(N) " before the page's title and the count on its
// icon, or takes them away when no game waits.
function showCount() {
  const n = waiting();
  const bare = document.title.replace(/^\(\d+\) /, '');
  const want = n > 0 ? `(${n}) ${bare}` : bare;
  if (document.title !== want) document.title = want;
  badge(n);
}

let badgeShown = -1;
let iconImage = null;

// badge draws the site's icon with the count on it (none for 0).
function badge(n) {
  if (n === badgeShown) return;
  badgeShown = n;
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  link.dataset.count = String(n);
  if (n === 0) {
    link.href = '/favicon.svg';
    return;
  }
  const draw = () => {
    if (badgeShown !== n) return;
    const c = document.createElement('canvas');
    c.width = c.height = 64;
    const g = c.getContext('2d');
    g.drawImage(iconImage, 0, 0, 64, 64);
    g.fillStyle = '#d62828';
    g.beginPath();
    g.arc(44, 20, 19, 0, 2 * Math.PI);
    g.fill();
    g.fillStyle = '#fff';
    g.font = 'bold 26px sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(n > 9 ? '9+' : String(n), 44, 21);
    link.href = c.toDataURL('image/png');
  };
  if (iconImage && iconImage.complete) return draw();
  iconImage = new Image();
  iconImage.onload = draw;
  iconImage.src = '/favicon.svg';
}

// notificationsOn says the player turned the notices on, and the browser
// lets us show them.
export const notificationsOn = () => localStorage.getItem(NOTIFY_KEY) === 'on' && 'Notification' in window && Notification.permission === 'granted';

// setNotifications turns the notices on (asking the browser, which asks
// the player, only now) or off; it returns whether they are on.
export async function setNotifications(on) {
  if (!on) {
    localStorage.setItem(NOTIFY_KEY, 'off');
    return false;
  }
  if (!('Notification' in window)) {
    toast('This browser shows no notifications.', 'error');
    return false;
  }
  const answer = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  localStorage.setItem(NOTIFY_KEY, answer === 'granted' ? 'on' : 'off');
  if (answer !== 'granted') toast('The browser does not allow notifications from this site.', 'error', 6000);
  return answer === 'granted';
}

// notify tells the player of the games that came to wait on them, but
// for the one they are looking at.
function notify(games) {
  if (!notificationsOn()) return;
  for (const g of games) {
    if (document.visibilityState === 'visible' && location.pathname === `/game/${g.id}`) continue;
    // A tag a game: a newer notice of the game replaces the older.
    const n = new Notification('Your turn', {body: `${g.game_name} · move ${g.version}`, tag: `lagoon-${g.id}`, icon: '/favicon.svg'});
    n.onclick = () => { window.focus(); location.assign(`/game/${g.id}`); n.close(); };
  }
}

// waitingPanel is the home page's list of the games waiting on the
// player, kept live; stop ends it.
export function waitingPanel() {
  const el = h('section', {class: 'my-waiting', hidden: ''});
  const stop = onMyGames(list => {
    const games = list.games.filter(g => g.your_turn);
    el.hidden = games.length === 0;
    fill(el, h('h2', {}, 'Waiting on you', h('span', {class: 'count-badge'}, String(games.length))),
      h('ul', {class: 'lobby-list'}, games.map(g => gameItem(g, 'Your turn'))),
      h('a', {href: '/me', 'data-link': ''}, 'All my games'));
  });
  return {el, stop};
}

// mountMyGames shows the My games page in root.
export function mountMyGames(root) {
  document.title = 'My games · Lagoon';
  const older = [];   // the pages of ended games after the first
  let more = null;    // the cursor of the next page, null for none
  let latest = null;
  const lists = h('div', {class: 'my-lists'}, h('div', {class: 'loading small'}, h('div', {class: 'spinner'}), 'Loading your games…'));
  const toggle = h('input', {type: 'checkbox', 'data-notify': '', checked: notificationsOn() ? '' : null,
    onchange: async () => { toggle.checked = await setNotifications(toggle.checked); }});
  fill(root, h('div', {class: 'page my-games'},
    h('h1', {}, 'My games'),
    h('label', {class: 'field-check my-notify'}, toggle, ' Tell me when it is my turn (a notification of this browser)'),
    lists));
  const draw = () => {
    const list = latest;
    const games = list.games.concat(older);
    const turn = games.filter(g => g.your_turn), others = games.filter(g => !g.ended && !g.your_turn), ended = games.filter(g => g.ended);
    const col = (title, cls, items, empty, label) => h('section', {class: 'my-col ' + cls},
      h('h2', {}, title, h('span', {class: 'count-badge'}, String(items.length))),
      items.length ? h('ul', {class: 'lobby-list'}, items.map(g => gameItem(g, label))) : h('p', {class: 'muted empty'}, empty));
    fill(lists,
      col('Your turn', 'my-turn', turn, 'No game waits on you.', 'Your turn'),
      col('In progress', 'my-playing', others, 'No other game in progress.', 'Open'),
      col('Finished', 'my-finished', ended, 'No finished game yet.', 'Replay'),
      more ? h('button', {class: 'btn', type: 'button', 'data-more': '', onclick: loadMore}, 'Older games') : null);
  };
  const loadMore = async () => {
    try {
      const page = await request('GET', '/api/me/games?before=' + encodeURIComponent(more));
      older.push(...page.games);
      more = page.more || null;
      draw();
    } catch (err) {
      toast(err.message, 'error');
    }
  };
  const stop = onMyGames(list => {
    // A new first page starts the older pages again.
    if (!latest || older.length === 0) more = list.more || null;
    latest = list;
    draw();
  });
  return stop;
}

// gameItem is a game's line: its seats, the player's marked, its state
// and the way in (play, or replay when it ended).
function gameItem(g, label) {
  const mine = new Set(g.your_seats);
  const winners = new Set(g.winners || []);
  let status;
  if (g.ended) {
    const names = (g.winners || []).map(p => (mine.has(p) ? 'you' : g.seats[p].name));
    status = !g.over ? 'given up' : names.length ? `${names.join(' and ')} won` : 'over';
  } else {
    status = `${g.phase ? g.phase + ' · ' : ''}move ${g.version}`;
  }
  const href = g.ended ? `/replay/${g.id}` : `/game/${g.id}`;
  return h('li', {class: 'lobby-game', 'data-game': g.id, 'data-version': g.version, 'data-your-turn': g.your_turn ? '' : null},
    h('div', {class: 'lg-seats'}, g.seats.map(st => h('span', {class: 'lg-seat' + (mine.has(st.seat) ? ' you' : '') + (winners.has(st.seat) ? ' won' : '')},
      st.kind === 'open' ? 'open seat' : st.name, g.ended && g.scores ? h('b', {}, String(g.scores[st.seat])) : null))),
    h('div', {class: 'lg-meta'}, `${g.game_name} · ${status} · `, h('span', {'data-updated': g.updated}, ago(g.updated)),
      mine.size > 1 ? ` · ${plural(mine.size, 'seat')} yours` : ''),
    h('div', {class: 'lg-action'}, h('a', {class: 'btn btn-small' + (g.your_turn ? ' btn-primary' : ''), href, 'data-link': ''}, label)));
}
