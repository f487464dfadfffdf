// The game screen (/game/{id}): the board, whose turn it is, the players,
// the score sheet, the move log and the rules, kept live over a GameSocket.
// A visitor with a seat token (from the invite link's #seat=... or from
// this browser's storage) plays that seat; anyone else watches.

import {h, icon, fill, toast, modal, modalOpen, copyField, plural, capitalize, closeAllModals, tabList, selectTab} from './ui.js';
import {getGame, joinGame, leaveSeat, ApiError, patiently, mySeats, rememberSeat, forgetSeat, seatToken, playerName, setPlayerName, absolute, recordURL} from './api.js';
import {GameSocket} from './live.js';
import {BoardView} from './board.js';
import {PLAYERS, tokenName, tokenPhrase} from './art.js';
import {playerCards, tickClocks} from './players.js';
import {scoreSheet, grandTotals} from './scores.js';
import {legend, summary as rulesSummary} from './rules.js';

// A move the server refused for coming too fast is sent again after this
// pause (the server allows 10 messages a second).
const RESEND_MS = 1000;

// seatFromHash reads the seat token of an invite link, #seat=...
function seatFromHash() {
  const m = /(?:^#|&)seat=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

// explain turns the engine's refusal into a sentence for the player.
function explain(message) {
  let why = message;
  const i = message.indexOf(': ');
  if (message.startsWith('illegal move') && i >= 0) why = message.slice(i + 2);
  why = why.replace(/the player's/g, 'your').replace(/\bby player \d+\b/, '');
  why = capitalize(why.trim());
  return /[.!?]$/.test(why) ? why : why + '.';
}

export function mountGame(root, id) {
  const view = new GameView(root, id);
  view.mount();
  return () => view.unmount();
}

class GameView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.game = null;
    this.you = null;
    this.token = null;
    this.socket = null;
    this.board = null;
    this.piece = 'settler';
    this.tab = 'scores';
    this.pending = null;
    this.moveSeq = 0;
    this.resendTimer = null;
    this.messageTimer = null;
    this.shownWinner = false;
    this.online = false;     // the connection is up
    this.clockBase = Date.now();
    this.onKey = e => this.key(e);
    this.ticker = null;
    this.gone = false;
  }

  async mount() {
    this.token = seatFromHash() || seatToken(this.id);
    const loading = h('div', {class: 'loading'}, h('div', {class: 'spinner'}), 'Opening the game…');
    fill(this.root, loading);
    const get = token => patiently(() => getGame(this.id, {token}),
      () => fill(loading, h('div', {class: 'spinner'}), 'The server is not answering; trying again…'),
      () => this.gone);
    let game;
    try {
      game = await get(this.token);
    } catch (err) {
      if (this.gone) return;
      if (err instanceof ApiError && (err.code === 'bad_token' || err.code === 'no_token') && this.token) {
        this.dropToken('This seat link no longer works (the seat may have been handed to a bot). You are watching.');
        try { game = await get(null); } catch (err2) { return this.gone || this.failed(err2); }
      } else {
        return this.failed(err);
      }
    }
    if (this.gone) return;
    this.you = game.you;
    if (this.token && this.you != null) rememberSeat(this.id, {token: this.token, seat: this.you});
    this.setGame(game);
    this.layout();
    this.render({});
    // Until the person has said who they are, the page listens as a
    // spectator: a seat's connection joins it, and the clocks start when
    // every seat has joined.
    this.socket = new GameSocket(this.id, this.asksName() ? null : this.token, {
      onmessage: msg => this.message(msg),
      onstatus: (st, detail) => this.status(st, detail),
    });
    this.socket.version = game.state.version;
    this.socket.start();
    document.addEventListener('keydown', this.onKey);
    this.ticker = setInterval(() => tickClocks(this.root), 250);
    this.maybeJoin();
    if (game.state.over) this.shownWinner = true;
  }

  unmount() {
    this.gone = true;
    if (this.socket) this.socket.stop();
    document.removeEventListener('keydown', this.onKey);
    clearInterval(this.ticker);
    clearTimeout(this.resendTimer);
    clearTimeout(this.messageTimer);
    closeAllModals();
    document.title = 'Lagoon';
  }

  failed(err) {
    const notFound = err instanceof ApiError && err.status === 404;
    fill(this.root, h('div', {class: 'page empty-page'},
      h('h1', {}, notFound ? 'No such game' : 'The game could not be opened'),
      h('p', {}, notFound ? 'This link does not lead to a game on this server. It may have been mistyped.' : err.message),
      h('a', {class: 'btn btn-primary', href: '/', 'data-link': ''}, 'Back to the lobby')));
  }

  dropToken(why) {
    forgetSeat(this.id, this.token);
    this.token = null;
    this.you = null;
    if (location.hash) history.replaceState(history.state, '', location.pathname);
    toast(why, 'warn', 6000);
  }

  setGame(game) {
    this.game = game;
    this.clockBase = Date.now();
    if (this.socket) this.socket.version = game.state.version;
  }

  get state() { return this.game.state; }
  get seats() { return this.game.seats; }
  get myTurn() { return this.you != null && !this.state.over && this.state.current === this.you; }

  // layout builds the screen's frame once; render fills it.
  layout() {
    const g = this.game;
    this.board = new BoardView(g.board, {interactive: true, label: `Board ${g.board.name || 'custom'}`});
    this.board.onclick = at => this.clickSpace(at);
    this.board.onhover = at => this.hoverSpace(at);
    this.el = {};
    const el = this.el;
    el.banner = h('div', {class: 'turn-banner', role: 'status', 'aria-live': 'polite'});
    el.phase = h('span', {class: 'chip chip-phase'});
    el.moveNo = h('span', {class: 'chip chip-move'});
    el.conn = h('span', {class: 'conn', role: 'status'});
    el.tooltip = h('div', {class: 'tooltip', hidden: true});
    el.boardWrap = h('div', {class: 'board-wrap'}, this.board.svg, el.tooltip);
    el.settlerBtn = h('button', {class: 'piece-btn', type: 'button', 'data-piece': 'settler', 'aria-pressed': 'true',
      title: 'Place settlers (key S)', onclick: () => this.choose('settler')});
    el.villageBtn = h('button', {class: 'piece-btn', type: 'button', 'data-piece': 'village', 'aria-pressed': 'false',
      title: 'Place villages (key V)', onclick: () => this.choose('village')});
    el.message = h('div', {class: 'message', role: 'status', 'aria-live': 'polite'});
    el.players = h('div', {class: 'players-slot'});
    el.invites = h('div', {class: 'invites-slot'});
    el.tabs = tabList(h('div', {class: 'tabs', role: 'tablist'},
      [['scores', 'Score sheet'], ['moves', 'Moves'], ['rules', 'Rules'], ['legend', 'Legend']].map(([k, label]) =>
        h('button', {class: 'tab', type: 'button', role: 'tab', 'data-tab': k, onclick: () => this.showTab(k)}, label))));
    el.panel = h('div', {class: 'tab-panel', role: 'tabpanel'});
    el.actions = h('div', {class: 'side-actions'});
    el.root = h('section', {class: 'game', 'data-game': g.id},
      h('div', {class: 'game-main'},
        h('div', {class: 'statusbar'}, el.banner, h('div', {class: 'status-chips'}, el.phase, el.moveNo, el.conn)),
        el.boardWrap,
        h('div', {class: 'controls'},
          h('div', {class: 'piece-toggle', role: 'group', 'aria-label': 'Piece to place'}, el.settlerBtn, el.villageBtn),
          el.message)),
      h('aside', {class: 'game-side'}, el.players, el.invites, el.tabs, el.panel, el.actions));
    fill(this.root, el.root);
  }

  // render draws everything from this.game. animate: the move just made.
  render({animate = false}) {
    const g = this.game, st = g.state, el = this.el;
    if (st.over) this.quiet();
    const root = el.root;
    root.dataset.version = st.version;
    root.dataset.phase = st.phase;
    root.dataset.current = st.current;
    root.dataset.over = st.over;
    root.dataset.you = this.you == null ? '' : this.you;
    root.dataset.turn = st.over ? 'over' : this.you == null ? 'watch' : this.myTurn ? 'you' : 'wait';
    root.dataset.pending = this.pending ? 'true' : 'false';
    root.style.setProperty('--you', this.you == null ? '#0b3954' : PLAYERS[this.you].accent);

    // Pieces the viewer can place now.
    const mine = this.you != null ? st.players[this.you] : null;
    if (st.phase === 'settlement' || (mine && mine.villages_left === 0)) this.piece = 'settler';
    if (mine && mine.settlers_left === 0 && mine.villages_left > 0 && st.phase === 'exploration') this.piece = 'village';

    this.board.setState(st, {animate});
    this.updateLegal();
    // The tip under a pointer that has not moved says what is there now.
    if (!this.el.tooltip.hidden && this.board.hovered) this.hoverSpace(this.board.hovered);

    fill(el.phase, st.over ? 'Game over' : st.phase === 'exploration' ? 'Exploration phase' : 'Settlement phase');
    el.phase.dataset.phase = st.over ? 'over' : st.phase;
    fill(el.moveNo, `Move ${st.version}`);
    this.renderBanner();
    this.renderToggle();
    fill(el.players, playerCards(this.seats, st, {you: this.you, connected: this.online, clockBase: this.clockBase}));
    this.renderInvites();
    this.renderTab();
    this.renderActions();
    document.title = (this.myTurn ? 'Your turn · ' : '') + 'Lagoon';
  }

  renderBanner() {
    const st = this.state, seat = this.seats[st.current];
    const you = this.you;
    let text, sub = '', mood = 'wait';
    if (st.over) {
      const w = st.result ? st.result.winners : [];
      mood = 'over';
      if (w.length > 1) text = 'Shared victory';
      else if (w[0] === you) text = 'You won!';
      else text = `${this.seats[w[0]].name} won`;
      sub = st.result ? `${st.result.totals.join(' – ')} points` : '';
    } else if (this.myTurn) {
      mood = 'you';
      text = 'Your turn';
      sub = st.phase === 'exploration' ? 'Place a settler or a village' : 'Place a settler next to your pieces';
    } else if (seat.kind === 'bot' || seat.stand_in) {
      text = `${seat.name} is thinking`;
      sub = you != null && (st.current + 1) % this.seats.length === you ? 'Your turn comes next' : '';
      mood = 'bot';
    } else if (seat.kind === 'open') {
      text = `Waiting for a player to take seat ${st.current + 1}`;
      sub = 'Anyone can join it from the lobby';
    } else if (!seat.joined) {
      text = `Waiting for ${seat.name} to join`;
      sub = 'Send them their invite link';
    } else {
      text = `${seat.name}'s turn`;
      sub = seat.connected > 0 ? '' : `${seat.name} is not connected right now`;
    }
    const el = this.el.banner;
    // A live region: written again only when what it says changes.
    const sig = [mood, text, sub, st.over ? 'over' : st.current].join('|');
    if (el.dataset.sig === sig) return;
    el.dataset.sig = sig;
    el.dataset.mood = mood;
    fill(el, st.over ? icon('crown', 'icon banner-mark') : icon('mark-' + st.current, 'icon banner-mark'),
      h('div', {class: 'banner-text'},
        h('span', {class: 'banner-title'}, text, mood === 'bot' ? h('span', {class: 'dots'}, h('i'), h('i'), h('i')) : null),
        sub ? h('span', {class: 'banner-sub'}, sub) : null));
  }

  renderToggle() {
    const st = this.state, el = this.el;
    const me = this.you != null ? st.players[this.you] : null;
    const seat = this.you != null ? this.you : st.current;
    const show = this.you != null && !st.over;
    el.settlerBtn.parentElement.hidden = !show;
    if (!show) return;
    const villagesOK = st.phase === 'exploration' && me.villages_left > 0;
    fill(el.settlerBtn, icon('settler-' + seat, 'icon piece-icon'),
      h('span', {class: 'piece-label'}, 'Settler', h('kbd', {}, 'S')), h('span', {class: 'piece-left'}, `${me.settlers_left} left`));
    fill(el.villageBtn, icon('village-' + seat, 'icon piece-icon'),
      h('span', {class: 'piece-label'}, 'Village', h('kbd', {}, 'V')),
      h('span', {class: 'piece-left'}, st.phase === 'settlement' ? 'not now' : `${me.villages_left} left`));
    el.villageBtn.disabled = !villagesOK;
    el.settlerBtn.disabled = me.settlers_left === 0;
    el.settlerBtn.setAttribute('aria-pressed', String(this.piece === 'settler'));
    el.villageBtn.setAttribute('aria-pressed', String(this.piece === 'village'));
  }

  updateLegal() {
    const st = this.state;
    if (!this.myTurn || this.pending) {
      this.board.setLegal([]);
      this.board.setGhost(null);
      return;
    }
    const letter = this.piece === 'village' ? 'T ' : 'S ';
    this.board.setLegal(st.legal.filter(m => m.startsWith(letter)).map(m => m.slice(2)));
    this.board.setGhost({seat: this.you, piece: this.piece});
  }

  renderInvites() {
    const slot = this.el.invites;
    const mine = mySeats()[this.id] || {};
    const waiting = (mine.invites || []).filter(inv => this.seats[inv.seat] && this.seats[inv.seat].kind === 'human' && !this.seats[inv.seat].joined);
    const open = this.seats.filter(s => s.kind === 'open');
    if (this.state.over || (!waiting.length && !open.length)) { slot.replaceChildren(); return; }
    // Keep the fields (and a half-made selection) while nothing changes.
    const sig = waiting.map(w => w.seat).join() + '|' + open.map(s => s.seat).join();
    if (slot.dataset.sig === sig) return;
    slot.dataset.sig = sig;
    fill(slot, h('div', {class: 'card invite-card'},
      h('h3', {}, waiting.length ? 'Invite your friends' : 'Waiting for players'),
      waiting.map(inv => h('div', {class: 'invite', 'data-seat': inv.seat},
        h('div', {class: 'invite-who'}, icon('mark-' + inv.seat, 'icon mark'), `Link for seat ${inv.seat + 1}, ${this.seats[inv.seat].name}`),
        copyField(absolute(inv.link), `Invite link for seat ${inv.seat + 1}`))),
      open.length ? h('p', {class: 'muted'}, `${open.length === 1 ? 'Seat' : 'Seats'} ${open.map(s => s.seat + 1).join(', ')} ${open.length === 1 ? 'is' : 'are'} open: anyone in the lobby can take ${open.length === 1 ? 'it' : 'them'}.`) : null,
      waiting.length ? h('p', {class: 'muted small'}, 'Each link seats whoever opens it. Keep your own link to yourself.') : null));
  }

  showTab(k) {
    this.tab = k;
    this.renderTab();
  }

  renderTab() {
    selectTab(this.el.tabs, this.tab);
    const panel = this.el.panel;
    panel.dataset.tab = this.tab;
    switch (this.tab) {
      case 'scores': fill(panel, scoreSheet(this.seats, this.state)); break;
      case 'moves': fill(panel, this.moveLog()); panel.scrollTop = panel.scrollHeight; break;
      case 'rules': if (panel.dataset.filled !== 'rules') fill(panel, rulesSummary()); break;
      default: fill(panel, legend(this.seats));
    }
    panel.dataset.filled = this.tab;
  }

  moveLog() {
    const moves = this.game.moves;
    if (!moves.length) return h('p', {class: 'muted log-empty'}, 'No moves yet. Every move will be listed here.');
    const items = [];
    let phase = null;
    for (const m of moves) {
      if (m.phase !== phase) {
        phase = m.phase;
        items.push(h('li', {class: 'log-phase'}, phase === 'exploration' ? 'Exploration phase' : 'Settlement phase'));
      }
      items.push(logItem(m, this.seats));
    }
    if (this.state.over) items.push(h('li', {class: 'log-phase'}, 'Game over'));
    return h('ol', {class: 'log'}, items);
  }

  renderActions() {
    const st = this.state;
    // Keep the buttons (and an open link field) while nothing they depend
    // on changes.
    const sig = [st.over, st.phase, !!this.game.exploration_end, this.you].join();
    if (this.el.actions.dataset.sig === sig) return;
    this.el.actions.dataset.sig = sig;
    const items = [];
    items.push(h('a', {class: 'btn btn-ghost', href: `/replay/${this.id}`, 'data-link': ''}, st.over ? 'Replay the game' : 'Step through the moves'));
    if (st.over || st.phase === 'settlement') {
      items.push(h('a', {class: 'btn btn-ghost', href: recordURL(this.id), download: `lagoon-${this.id}.json`}, 'Download record'));
    }
    if (this.game.exploration_end) {
      items.push(h('button', {class: 'btn btn-ghost', type: 'button', onclick: () => this.phaseSummary(this.game.exploration_end)}, 'Exploration summary'));
    }
    items.push(h('details', {class: 'share'},
      h('summary', {class: 'btn btn-ghost'}, 'Link for spectators'),
      copyField(absolute(`/game/${this.id}`), 'Link for spectators')));
    if (this.you != null && !st.over) {
      items.push(h('button', {class: 'btn btn-ghost btn-danger', type: 'button', onclick: () => this.leave()}, 'Hand my seat to a bot'));
    }
    fill(this.el.actions, items);
  }

  status(st, detail) {
    if (!this.el) return;
    const was = this.online;
    this.online = st === 'open';
    if (was !== this.online) fill(this.el.players, playerCards(this.seats, this.state, {you: this.you, connected: this.online, clockBase: this.clockBase}));
    const labels = {connecting: 'Connecting…', open: 'Live', reconnecting: 'Reconnecting…', stopped: 'Offline'};
    this.el.root.dataset.conn = st;
    const el = this.el.conn;
    el.dataset.state = st;
    el.title = st === 'reconnecting' && detail && detail.code === 1001 ? 'The server is restarting; the game carries on when it is back.' :
      st === 'reconnecting' ? 'The connection dropped; trying again.' : st === 'open' ? 'Connected: moves appear as they are made.' : '';
    fill(el, h('span', {class: 'conn-dot'}), labels[st] || st);
    if (st === 'open' && this.pending) this.sendPending();
  }

  message(msg) {
    switch (msg.type) {
      case 'welcome':
        if (msg.you != null) this.you = msg.you;
        this.game.seats = msg.seats;
        this.render({});
        break;
      case 'snapshot': {
        // A snapshot replaces the events missed, the phase's end among
        // them: its summary is shown as the event would have shown it.
        const you = this.you, phase = this.state.phase;
        this.setGame(msg.game);
        this.you = msg.game.you != null ? msg.game.you : you;
        this.render({});
        if (this.pending && this.state.version > this.pending.version) this.pending = null;
        if (this.state.over && !this.shownWinner) this.winner();
        else if (phase === 'exploration' && this.state.phase === 'settlement' && !this.state.over) this.phaseSummary(this.game.exploration_end);
        break;
      }
      case 'move': this.onMove(msg); break;
      case 'phase_end':
        if (!this.state.over) this.socket.version = msg.version;
        if (msg.phase === 'exploration') {
          this.game.exploration_end = msg.summary;
          this.renderActions();
          this.phaseSummary(msg.summary);
        }
        break;
      case 'game_over':
        this.socket.version = msg.version;
        this.state.result = msg.result;
        this.render({});
        if (!this.shownWinner) this.winner();
        break;
      case 'seats':
        this.game.seats = msg.seats;
        if (msg.clocks) { this.state.clocks = msg.clocks; this.clockBase = Date.now(); }
        if (this.you != null && this.token && msg.seats[this.you].kind === 'bot') {
          // Handed to a bot from another tab or device: the token is dead.
          this.lostSeat('Your seat was handed to a bot. You are watching the game.');
          break;
        }
        this.render({});
        break;
      case 'ack':
        if (this.pending && msg.id === this.pending.id) {
          this.pending = null;
          this.render({});
        }
        break;
      case 'error': this.onError(msg); break;
    }
  }

  onMove(msg) {
    if (msg.version <= this.state.version) return;
    const phase = this.state.phase;
    this.game.moves.push({version: msg.version, seat: msg.seat, move: msg.move, phase, took: msg.took});
    this.game.state = msg.state;
    this.clockBase = Date.now();
    // A move that ends a phase is followed by its phase_end (and game_over)
    // at the same version: until they are here, a reconnection asks again
    // from the version before, so that they are sent again if lost.
    this.socket.version = msg.state.phase !== phase || msg.state.over ? msg.version - 1 : msg.version;
    if (this.pending && (msg.version > this.pending.version)) this.pending = null;
    const mine = msg.seat === this.you;
    this.render({animate: true});
    if (!mine && this.myTurn) {
      const banner = this.el.banner;
      banner.classList.remove('nudge');
      void banner.getBoundingClientRect();
      banner.classList.add('nudge');
    }
    if (mine && msg.took) this.say(`You took ${tokenPhrase(msg.took)}.`, 'good', 2500);
    else if (!mine && msg.took) this.say(`${this.seats[msg.seat].name} took ${tokenPhrase(msg.took)}.`, 'info', 2500);
    else if (mine) this.quiet();
  }

  // lostSeat turns the page into a spectator's: the seat's token no
  // longer works.
  lostSeat(why) {
    if (!this.token) return;
    this.pending = null;
    this.dropToken(why);
    this.socket.setToken(null);
    this.render({});
  }

  onError(msg) {
    if (msg.code === 'bad_token') {
      // Refused at the hello, or a move refused because the seat has been
      // handed to a bot since.
      this.lostSeat('This seat link no longer works (the seat may have been handed to a bot). You are watching the game.');
      return;
    }
    const ours = this.pending && msg.id === this.pending.id;
    if (msg.code === 'rate_limited' && msg.id) {
      // The server dropped the move unread: it stays pending and goes
      // again. A refusal of a move no longer pending needs nothing.
      if (ours) {
        this.resendLater();
        this.say('Too many moves at once: yours goes again in a moment.', 'info', RESEND_MS + 1500);
      }
      return;
    }
    const at = ours ? this.pending.move.slice(2) : null;
    const piece = ours ? (this.pending.move[0] === 'T' ? 'village' : 'settler') : null;
    if (ours) this.pending = null;
    if (msg.state && msg.state.version === this.state.version) {
      this.game.state = msg.state;
      this.clockBase = Date.now();
    }
    this.render({});
    let text;
    switch (msg.code) {
      case 'illegal_move': text = `You can't place a ${piece || 'piece'} ${at ? 'on ' + at : 'there'}: ${lower(explain(msg.message))}`; break;
      case 'not_your_turn': text = `It is not your turn: ${this.seats[this.state.current].name} is to move.`; break;
      case 'stale_version': text = 'The game moved on before your move arrived; look again and replay it.'; break;
      case 'game_over': text = 'The game is over.'; break;
      case 'no_token': text = 'You are watching: only the players can place pieces.'; break;
      case 'rate_limited': text = 'Slow down a little: too many moves at once.'; break;
      case 'shutting_down': text = 'The server is restarting; try again in a moment.'; break;
      default: text = msg.message;
    }
    this.say(text, 'error', 7000);
    if (at) this.board.flash(at);
  }

  // say shows a message under the board for a while.
  say(text, kind = 'info', ms = 5000) {
    const el = this.el.message;
    el.dataset.kind = kind;
    el.className = 'message message-' + kind + ' show';
    el.textContent = text;
    clearTimeout(this.messageTimer);
    this.messageTimer = setTimeout(() => { el.classList.remove('show'); }, ms);
  }

  // quiet hides the message under the board.
  quiet() {
    clearTimeout(this.messageTimer);
    this.el.message.classList.remove('show');
  }

  choose(piece) {
    if (this.you == null || this.state.over) return;
    const me = this.state.players[this.you];
    if (piece === 'village' && (this.state.phase === 'settlement' || me.villages_left === 0)) {
      this.say(this.state.phase === 'settlement' ? 'No villages in the settlement phase: settlers only.' : 'You have no villages left.', 'info');
      return;
    }
    if (piece === 'settler' && me.settlers_left === 0) {
      this.say('You have no settlers left: villages only.', 'info');
      return;
    }
    this.piece = piece;
    this.renderToggle();
    this.updateLegal();
    if (this.board.hovered) this.hoverSpace(this.board.hovered);
  }

  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
    if (modalOpen()) return;
    const k = e.key.toLowerCase();
    if (k === 's') { this.choose('settler'); e.preventDefault(); }
    else if (k === 'v' || k === 't') { this.choose('village'); e.preventDefault(); }
  }

  clickSpace(at) {
    if (modalOpen()) return;
    const st = this.state;
    if (this.you == null) return this.say('You are watching this game: only the players can place pieces.', 'info');
    if (st.over) return this.say('The game is over.', 'info');
    if (!this.myTurn) {
      const seat = this.seats[st.current];
      this.board.flash(at, 'refused');
      return this.say(`Not your turn yet: ${seat.name} is to move.`, 'error');
    }
    if (this.pending) return this.say('Your move is on its way…', 'info');
    const move = (this.piece === 'village' ? 'T ' : 'S ') + at;
    this.pending = {id: 'm' + (++this.moveSeq), version: st.version, move};
    if (!this.sendPending()) {
      this.say('Not connected: your move will be sent as soon as the connection is back.', 'error');
    }
    this.render({});
  }

  sendPending() {
    clearTimeout(this.resendTimer);
    const p = this.pending;
    return this.socket.send({type: 'move', id: p.id, version: p.version, move: p.move});
  }

  // resendLater sends the pending move again after a pause, if it is still
  // pending then; while the connection is down, reconnecting sends it.
  resendLater() {
    const p = this.pending;
    clearTimeout(this.resendTimer);
    this.resendTimer = setTimeout(() => { if (this.pending === p) this.sendPending(); }, RESEND_MS);
  }

  hoverSpace(at) {
    const tip = this.el.tooltip;
    if (!at) { tip.hidden = true; return; }
    const sp = this.board.geo.get(at);
    const st = this.state;
    const piece = st.pieces.find(p => p.at === at);
    const token = st.tokens.find(t => t.at === at);
    const isl = sp.island >= 0 ? this.game.board.islands[sp.island] : null;
    const lines = [];
    lines.push(h('div', {class: 'tip-title'}, isl ? `Island · bonus ${isl.bonus}` : 'Sea', h('span', {class: 'tip-at'}, at)));
    if (piece) {
      lines.push(h('div', {}, icon(`${piece.piece}-${piece.seat}`, 'icon piece-icon'), `${this.seats[piece.seat].name}'s ${piece.piece}`));
    } else if (token) {
      lines.push(h('div', {}, icon('tok-' + token.token, 'icon tok'), `Stone circle with ${tokenPhrase(token.token)}`));
    } else if (sp.stone) {
      lines.push(h('div', {class: 'muted'}, 'Stone circle, its token taken'));
    }
    if (this.board.legal.has(at)) {
      lines.push(h('p', {class: 'tip-action'}, this.board.armed === at ? `Tap again to place a ${this.piece}` : `Click to place a ${this.piece}`,
        token ? [' and take ', icon('tok-' + token.token, 'icon tok'), h('b', {}, tokenPhrase(token.token))] : null));
    }
    fill(tip, lines);
    tip.hidden = false;
    const wrap = this.el.boardWrap.getBoundingClientRect();
    const r = this.board.hitFor(at).getBoundingClientRect();
    const x = r.left + r.width / 2 - wrap.left;
    const above = r.top - wrap.top > 90;
    const half = tip.offsetWidth / 2 + 4;
    tip.style.left = `${Math.max(half, Math.min(wrap.width - half, x))}px`;
    tip.style.top = above ? `${r.top - wrap.top - 6}px` : `${r.bottom - wrap.top + 6}px`;
    tip.classList.toggle('below', !above);
  }

  // asksName reports whether the page must ask for a name before it
  // joins its seat: an invited person's first visit.
  asksName() {
    if (this.you == null) return false;
    const seat = this.seats[this.you];
    return seat.kind === 'human' && !seat.joined && !(mySeats()[this.id] || {}).creator;
  }

  async maybeJoin() {
    if (this.you == null) return;
    const seat = this.seats[this.you];
    if (seat.kind !== 'human' || seat.joined) return;
    if (!this.asksName()) {
      try { await joinGame(this.id, {token: this.token}); } catch (err) { toast(err.message, 'error'); }
      return;
    }
    const host = this.seats.find((s, i) => i !== this.you && s.kind === 'human' && s.joined);
    const given = /^Player \d+$/.test(seat.name) ? '' : seat.name;
    const name = h('input', {class: 'input', type: 'text', maxlength: 32, value: playerName() || given, placeholder: 'Your name', 'aria-label': 'Your name', name: 'name'});
    const join = async close => {
      const n = name.value.trim();
      if (n) setPlayerName(n);
      try {
        const res = await joinGame(this.id, {token: this.token, name: n || null});
        this.game.seats = res.game.seats;
        this.socket.setToken(this.token);
        this.render({});
        close();
      } catch (err) {
        toast(err.message, 'error');
      }
    };
    modal({
      title: 'Join the game',
      className: 'join-modal',
      body: h('div', {},
        h('p', {}, host ? `${host.name} invited you to a game of Blue Lagoon.` : 'You have been invited to a game of Blue Lagoon.',
          ` You play seat ${this.you + 1}, `, icon('mark-' + this.you, 'icon mark'), ` ${PLAYERS[this.you].colourName} ${PLAYERS[this.you].shapeName}.`),
        h('label', {class: 'field'}, h('span', {}, 'Your name'), name)),
      actions: [{label: 'Take my seat', primary: true, onclick: join}],
      dismissable: false,
    });
    name.addEventListener('keydown', e => { if (e.key === 'Enter') document.querySelector('.join-modal .btn-primary').click(); });
  }

  async leave() {
    modal({
      title: 'Hand your seat to a bot?',
      body: h('p', {}, 'A medium bot will play on from here for you, and your link stops working. This cannot be undone.'),
      actions: [
        {label: 'Keep playing'},
        {label: 'Hand it over', primary: true, onclick: async close => {
          close();
          try {
            await leaveSeat(this.id, this.token, 'medium');
            this.lostSeat('A bot plays your seat now. You are watching.');
          } catch (err) {
            toast(err.message, 'error');
          }
        }},
      ],
    });
  }

  phaseSummary(sum) {
    if (!sum) return;
    const seats = this.seats;
    const count = lists => lists.map((l, p) => `${seats[p].name} ${l.length}`).join(', ');
    modal({
      title: 'The exploration phase is over',
      className: 'phase-modal',
      body: h('div', {},
        h('table', {class: 'mini-scores'},
          h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'This phase'), h('th', {}, 'Total'))),
          h('tbody', {}, seats.map((seat, p) => h('tr', {},
            h('th', {}, h('span', {class: 'who'}, icon('mark-' + p, 'icon mark'), seat.name)),
            h('td', {}, String(sum.scores[p].total)), h('td', {}, h('b', {}, String(sum.totals[p]))))))),
        h('ul', {class: 'changes'},
          h('li', {}, icon('settler-0', 'icon piece-icon'), h('span', {}, h('b', {}, 'Settlers returned'), ' to their owners: ', count(sum.settlers_removed), '.')),
          h('li', {}, icon('village-0', 'icon piece-icon'), h('span', {}, h('b', {}, 'Villages on stone circles removed'), ': ', count(sum.villages_removed), '.')),
          h('li', {}, icon('village-1', 'icon piece-icon'), h('span', {}, h('b', {}, 'Villages kept'), ', they count again: ', count(sum.villages_kept), '.')),
          h('li', {}, icon('tok-statuette', 'icon tok'), h('span', {}, h('b', {}, 'All 32 tokens'), ' were shuffled and dealt again onto the stone circles; nobody holds any now.'))),
        h('p', {class: 'next'}, h('b', {}, 'Settlement phase: '), 'place settlers next to your pieces, on land or sea. No more villages.')),
      actions: [
        {label: 'Score sheet', onclick: close => { close(); this.showTab('scores'); }},
        {label: 'Play the settlement phase', primary: true},
      ],
    });
  }

  winner() {
    this.shownWinner = true;
    const st = this.state, res = st.result;
    if (!res) return;
    this.showTab('scores');
    const {totals} = grandTotals(st);
    const order = this.seats.map((seat, p) => p).sort((a, b) => totals[b] - totals[a] || res.tokens_held[b] - res.tokens_held[a]);
    const w = res.winners;
    const title = w.length > 1 ? 'A shared victory' : w[0] === this.you ? 'You win!' : `${this.seats[w[0]].name} wins`;
    modal({
      title,
      className: 'winner-modal',
      body: h('div', {},
        h('ol', {class: 'podium'}, order.map(p => h('li', {class: w.includes(p) ? 'win' : '', 'data-seat': p},
          w.includes(p) ? icon('crown', 'icon crown') : icon('mark-' + p, 'icon mark'),
          h('span', {class: 'podium-name'}, this.seats[p].name),
          h('span', {class: 'podium-tokens', title: 'Tokens held at the end'}, plural(res.tokens_held[p], 'token')),
          h('b', {class: 'podium-total', 'data-total': p}, String(res.totals[p]))))),
        h('p', {class: 'explanation' + (res.tie_break !== 'none' ? ' tie' : '')},
          res.tie_break === 'none' ? null : h('b', {}, res.tie_break === 'tokens' ? 'Tie-break. ' : 'Still tied. '),
          res.explanation)),
      actions: [
        {label: 'Score sheet', onclick: close => { close(); this.showTab('scores'); }},
        {label: 'Replay', href: `/replay/${this.id}`},
        {label: 'New game', href: '/', primary: true},
      ],
    });
  }
}

export function logItem(m, seats) {
  const piece = m.move[0] === 'T' ? 'village' : 'settler';
  return h('li', {class: 'log-move', 'data-version': m.version},
    h('span', {class: 'log-no'}, m.version),
    icon(`${piece}-${m.seat}`, 'icon piece-icon'),
    h('span', {class: 'log-text'}, h('b', {}, seats[m.seat].name), ` ${piece} ${m.move.slice(2)}`),
    m.took ? h('span', {class: 'log-took', title: 'took ' + tokenName(m.took)}, icon('tok-' + m.took, 'icon tok')) : null);
}

function lower(text) {
  return text ? text[0].toLowerCase() + text.slice(1) : text;
}
