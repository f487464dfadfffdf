// The game screen (/game/{id}): the game's table, whose turn it is, the
// players, the score sheet, the move log and the rules, kept live over a
// GameSocket. A visitor with a seat token (from the invite link's #seat=...
// or from this browser's storage) plays that seat; anyone else watches.
//
// The screen is the shell's; what is drawn of the game (the table, the
// seats' cards, the score sheet, the log's words, the rules) is the game
// module's (games.js).

import {h, icon, fill, toast, modal, modalOpen, copyField, closeAllModals, tabList, selectTab, seedMark, seedWarning} from './ui.js';
import {getGame, joinGame, leaveSeat, ApiError, patiently, mySeats, rememberSeat, forgetSeat, seatToken, playerName, setPlayerName, absolute, recordURL, PREFERENCES, preference, setPreference, setBotPace} from './api.js';
import {GameSocket} from './live.js';
import {PLAYERS, namedSeats} from './art.js';
import {playerCards, tickClocks} from './players.js';
import {moveLog} from './log.js';
import {gameModule} from './games.js';

// A move the server refused for coming too fast is sent again after this
// pause (the server allows 10 messages a second).
const RESEND_MS = 1000;

// seatFromHash reads the seat token of an invite link, #seat=...
function seatFromHash() {
  const m = /(?:^#|&)seat=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
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
    this.mod = null;         // the game's module
    this.you = null;
    this.token = null;
    this.socket = null;
    this.table = null;
    this.tab = 'scores';
    this.pending = null;
    this.proposal = null;    // a move waiting for the player's confirmation: {text, version}
    this.moveSeq = 0;
    this.resendTimer = null;
    this.messageTimer = null;
    this.shownWinner = false;
    this.phaseModal = null;  // the last phase summary shown, which the result closes
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
        // A token this browser held was a seat once, since handed to a
        // bot; one it never held came with a link that was mistyped.
        const mine = mySeats()[this.id];
        const held = !!mine && (mine.token === this.token || Object.values(mine.tokens || {}).includes(this.token));
        this.dropToken(held ? 'This seat link no longer works (the seat may have been handed to a bot). You are watching.'
          : 'This link gives no seat of this game: it may have been mistyped or cut short. You are watching.');
        try { game = await get(null); } catch (err2) { return this.gone || this.failed(err2); }
      } else {
        return this.failed(err);
      }
    }
    this.mod = await gameModule(game.game);
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
    this.socket.takeBacks = game.take_backs ? game.take_backs.count : 0;
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
    this.request = (game.take_backs && game.take_backs.request) || null;
    if (this.socket) {
      this.socket.version = game.state.version;
      this.socket.takeBacks = game.take_backs ? game.take_backs.count : 0;
    }
  }

  get state() { return this.game.state; }
  // seats are the game's seats under names no two share (namedSeats).
  get seats() {
    if (this.namedFrom !== this.game.seats) {
      this.namedFrom = this.game.seats;
      this.named = namedSeats(this.game.seats);
    }
    return this.named;
  }

  // idleOf says why a seat's turns are skipped now ("nowhere to place"),
  // as the module sees it, or null.
  idleOf(p) {
    if (this.state.over || p == null || p === this.state.to_move) return null;
    return this.mod.idle(this.state.view, p, this.game.table) || null;
  }

  idleSeats() {
    return this.seats.map((_, p) => ({seat: p, why: this.idleOf(p)})).filter(x => x.why);
  }

  // recentMoves are the moves to mark on the table: every move since the
  // viewer's own last one (a spectator's: since the last of the seat to
  // move), at least the last move; only the last with the preference off.
  recentMoves() {
    const moves = this.game.moves;
    if (!moves.length) return [];
    const last = [moves[moves.length - 1]];
    if (this.state.over || !preference('recent')) return last;
    const who = this.you != null ? this.you : this.state.to_move;
    let i = moves.length;
    while (i > 0 && moves[i - 1].seat !== who) i--;
    const recent = moves.slice(Math.max(i, moves.length - 12));
    return recent.length ? recent : last;
  }
  get myTurn() { return this.you != null && !this.state.over && this.state.to_move === this.you; }

  // layout builds the screen's frame once; render fills it.
  layout() {
    const g = this.game, mod = this.mod;
    this.table = mod.table({
      table: g.table,
      options: g.options,
      seats: () => this.seats,
      you: () => this.you,
      canMove: () => this.myTurn && !this.pending,
      move: text => this.propose(text),
      say: (text, kind, ms) => this.say(text, kind, ms),
      modalOpen,
      // The game's time rule (null: none), for a table that shows the
      // turn's time its own way.
      time: () => this.game.time,
      // The moves so far ({version, seat, move, note}), for a table that
      // lists the turn's own.
      moves: () => this.game.moves,
    }, {interactive: true});
    this.el = {};
    const el = this.el;
    el.banner = h('div', {class: 'turn-banner', role: 'status', 'aria-live': 'polite'});
    el.phase = h('span', {class: 'chip chip-phase'});
    el.moveNo = h('span', {class: 'chip chip-move'});
    el.conn = h('span', {class: 'conn', role: 'status'});
    el.message = h('div', {class: 'message', role: 'status', 'aria-live': 'polite'});
    el.players = h('div', {class: 'players-slot'});
    el.invites = h('div', {class: 'invites-slot'});
    const tabs = [['scores', 'Score sheet', mod.scoreSheet], ['moves', 'Moves', true], ['rules', 'Rules', mod.rulesSummary], ['legend', 'Legend', mod.legend]]
      .filter(t => t[2]);
    if (!tabs.some(t => t[0] === this.tab)) this.tab = tabs[0][0];
    el.tabs = tabList(h('div', {class: 'tabs', role: 'tablist'},
      tabs.map(([k, label]) => h('button', {class: 'tab', type: 'button', role: 'tab', 'data-tab': k, onclick: () => this.showTab(k)}, label))));
    el.panel = h('div', {class: 'tab-panel', role: 'tabpanel'});
    el.actions = h('div', {class: 'side-actions'});
    el.confirm = h('div', {class: 'confirm-bar', hidden: true, role: 'group', 'aria-label': 'Confirm your move'});
    el.takeback = h('div', {class: 'takeback-slot'});
    el.root = h('section', {class: 'game', 'data-game': g.id, 'data-kind': g.game},
      h('div', {class: 'game-main'},
        h('div', {class: 'statusbar'}, el.banner, h('div', {class: 'status-chips'}, seedMark(g), el.phase, el.moveNo, el.conn)),
        this.table.el,
        h('div', {class: 'controls'}, this.table.controls, el.confirm, el.takeback, el.message)),
      h('aside', {class: 'game-side'}, el.players, el.invites, el.tabs, el.panel, el.actions));
    fill(this.root, el.root);
  }

  // render draws everything from this.game. animate: the move just made.
  render({animate = false}) {
    const st = this.state, el = this.el;
    if (st.over) this.quiet();
    const root = el.root;
    root.dataset.version = st.version;
    root.dataset.phase = st.standing.phase || '';
    root.dataset.current = st.to_move == null ? '' : st.to_move;
    root.dataset.over = st.over;
    root.dataset.you = this.you == null ? '' : this.you;
    root.dataset.turn = st.over ? 'over' : this.you == null ? 'watch' : this.myTurn ? 'you' : 'wait';
    root.dataset.pending = this.pending ? 'true' : 'false';
    root.style.setProperty('--you', this.you == null ? '#0b3954' : PLAYERS[this.you].accent);

    if (this.proposal && (this.proposal.version !== st.version || !this.myTurn)) this.proposal = null;
    this.table.update(st, {animate, recent: this.recentMoves()});
    if (this.table.propose) this.table.propose(this.proposal ? this.proposal.text : null);
    this.renderConfirm();
    this.renderTakeBack();
    el.conn.hidden = st.over;
    fill(el.phase, st.over ? 'Game over' : this.mod.phaseName(st.standing.phase || ''));
    el.phase.dataset.phase = st.over ? 'over' : st.standing.phase || '';
    el.phase.hidden = !el.phase.textContent;
    fill(el.moveNo, this.mod.progress(st));
    this.renderBanner();
    this.renderPlayers();
    this.renderInvites();
    this.renderTab();
    this.renderActions();
    document.title = (this.myTurn ? 'Your turn · ' : '') + 'Lagoon';
  }

  renderPlayers() {
    fill(this.el.players, playerCards(this.seats, this.state, this.mod, {you: this.you, connected: this.online, clockBase: this.clockBase, time: this.game.time,
      idle: p => this.idleOf(p)}));
  }

  renderBanner() {
    const st = this.state, seat = this.seats[st.to_move];
    const you = this.you;
    let text, sub = '', mood = 'wait';
    const idle = this.myTurn ? null : this.idleOf(you);
    if (st.over) {
      mood = 'over';
      text = verdict(st.standing, this.seats, you, false);
      const scores = st.standing.scores;
      sub = scores ? this.seats.map((s, p) => p).sort((a, b) => scores[b] - scores[a])
        .map(p => `${p === you ? 'You' : this.seats[p].name} ${scores[p]}`).join(' · ') + ' ' + this.mod.scoreUnit(st.view, false) : '';
    } else if (this.myTurn) {
      mood = 'you';
      text = 'Your turn';
      sub = this.mod.prompt(st.view, you);
    } else if (idle) {
      mood = 'skip';
      text = `You have ${idle}: your turns are skipped`;
      sub = seat.kind === 'bot' || seat.stand_in ? `${seat.name} is thinking; the others play on without you` : `${seat.name} is to move; the others play on without you`;
    } else if (seat.kind === 'bot' || seat.stand_in) {
      text = `${seat.name} is thinking`;
      sub = you != null && (st.to_move + 1) % this.seats.length === you ? 'Your turn comes next' : '';
      mood = 'bot';
    } else if (seat.kind === 'open') {
      text = `Waiting for a player to take seat ${st.to_move + 1}`;
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
    const sig = [mood, text, sub, st.over ? 'over' : st.to_move].join('|');
    if (el.dataset.sig === sig) return;
    el.dataset.sig = sig;
    el.dataset.mood = mood;
    fill(el, st.over ? icon('crown', 'icon banner-mark') : icon('mark-' + (mood === 'skip' ? you : st.to_move), 'icon banner-mark'),
      h('div', {class: 'banner-text'},
        h('span', {class: 'banner-title'}, text, mood === 'bot' ? h('span', {class: 'dots'}, h('i'), h('i'), h('i')) : null),
        sub ? h('span', {class: 'banner-sub'}, sub) : null));
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
      case 'scores': fill(panel, this.mod.scoreSheet(this.state.view, this.seats)); break;
      case 'moves': fill(panel, moveLog(this.game.moves, this.seats, this.mod, this.state.over, {table: this.game.table, idle: this.idleSeats(), you: this.you})); panel.scrollTop = panel.scrollHeight; break;
      case 'rules': if (panel.dataset.filled !== 'rules') fill(panel, this.mod.rulesSummary()); break;
      default: fill(panel, this.mod.legend(this.seats));
    }
    panel.dataset.filled = this.tab;
  }

  // summaryOf is the module's summary of what move ended, for this viewer:
  // playing says the viewer has a seat that plays on (a spectator or a
  // seat whose turns are skipped is not asked to play the next phase).
  summaryOf(move) {
    return this.mod.phaseSummary(move, this.seats, {playing: this.you != null && !this.state.over && !this.idleOf(this.you)});
  }

  // summaries are the moves whose phase summary the module can show.
  summaries() {
    return this.game.moves.filter(m => m.note && m.note.phase_ends && m.note.phase_ends.length)
      .map(m => ({move: m, summary: this.summaryOf(m)})).filter(s => s.summary);
  }

  renderActions() {
    const st = this.state;
    const summaries = this.summaries();
    const record = this.mod.recordOpen(st);
    // Keep the buttons (and an open link field) while nothing they depend
    // on changes.
    const sig = [st.over, record, summaries.map(s => s.move.version).join(' '), this.you].join();
    if (this.el.actions.dataset.sig === sig) return;
    this.el.actions.dataset.sig = sig;
    const items = [];
    items.push(h('a', {class: 'btn btn-ghost', href: `/replay/${this.id}`, 'data-link': ''}, st.over ? 'Replay the game' : 'Step through the moves'));
    if (record) {
      items.push(h('a', {class: 'btn btn-ghost', href: recordURL(this.id), download: `lagoon-${this.id}.json`}, 'Download record'));
    }
    for (const s of summaries) {
      items.push(h('button', {class: 'btn btn-ghost', type: 'button', onclick: () => this.phaseSummary(s.move)}, s.summary.button || s.summary.title));
    }
    items.push(h('details', {class: 'share'},
      h('summary', {class: 'btn btn-ghost'}, 'Link for spectators'),
      copyField(absolute(`/game/${this.id}`), 'Link for spectators')));
    if (this.you != null && !st.over) {
      items.push(h('button', {class: 'btn btn-ghost btn-danger', type: 'button', onclick: () => this.leave()}, 'Hand my seat to a bot'));
    }
    items.push(this.preferences());
    fill(this.el.actions, items);
  }

  // preferences are the player's choices kept in this browser
  // (PREFERENCES in api.js), under a fold.
  preferences() {
    return h('details', {class: 'share prefs', open: this.prefsOpen ? true : null, ontoggle: e => { this.prefsOpen = e.target.open; }},
      h('summary', {class: 'btn btn-ghost', 'data-action': 'preferences'}, 'Preferences'),
      h('div', {class: 'prefs-list'}, PREFERENCES.map(p => h('label', {class: 'pref', title: p.help},
        h('input', {type: 'checkbox', name: 'pref-' + p.key, checked: preference(p.key) ? true : null, onchange: e => {
          setPreference(p.key, e.target.checked);
          if (p.key === 'confirm' && !e.target.checked) this.proposal = null;
          if (p.key === 'sound' && e.target.checked) chime();
          if (p.key === 'fastbots') this.paceBots(e.target.checked);
          this.render({});
        }}),
        h('span', {}, h('b', {}, p.label), h('span', {class: 'pref-help'}, p.help))))));
  }

  // paceBots tells the server whether this player wants the table's bots
  // without pauses. The server keeps it in memory only, so the page says
  // it again on every connection while the preference is on.
  paceBots(fast) {
    if (this.you == null || !this.token || !this.seats.some(s => s.kind === 'bot')) return;
    setBotPace(this.id, this.token, fast).catch(() => { /* the bots keep their pace: nothing lost */ });
  }

  // renderConfirm shows the move waiting for the player's confirmation.
  renderConfirm() {
    const el = this.el.confirm, p = this.proposal;
    el.hidden = !p;
    this.el.root.dataset.proposal = p ? p.text : '';
    if (!p) { el.replaceChildren(); el.dataset.sig = ''; return; }
    if (el.dataset.sig === p.text) return;
    el.dataset.sig = p.text;
    const said = this.mod.describeMove({version: p.version + 1, seat: this.you, move: p.text, note: null}, this.seats, this.game.table);
    fill(el, h('span', {class: 'confirm-what'}, h('span', {class: 'confirm-q'}, 'Play this move?'), h('span', {class: 'log-text-wrap'}, said)),
      h('button', {class: 'btn btn-primary btn-small', type: 'button', 'data-action': 'confirm', onclick: () => this.confirm()}, 'Confirm'),
      h('button', {class: 'btn btn-small', type: 'button', 'data-action': 'cancel', onclick: () => this.cancelProposal()}, 'Cancel'));
  }

  confirm() {
    const p = this.proposal;
    if (!p) return;
    this.propose(p.text, {confirmed: true});
  }

  cancelProposal() {
    if (!this.proposal) return;
    this.proposal = null;
    this.render({});
  }

  status(st, detail) {
    if (!this.el) return;
    const was = this.online;
    this.online = st === 'open';
    if (was !== this.online) this.renderPlayers();
    const labels = {connecting: 'Connecting…', open: 'Live', reconnecting: 'Reconnecting…', stopped: 'Offline'};
    this.el.root.dataset.conn = st;
    const el = this.el.conn;
    el.dataset.state = st;
    el.title = st === 'reconnecting' && detail && detail.code === 1001 ? 'The server is restarting; the game carries on when it is back.' :
      st === 'reconnecting' ? 'The connection dropped; trying again.' : st === 'open' ? 'Connected: moves appear as they are made.' : '';
    fill(el, h('span', {class: 'conn-dot'}), labels[st] || st);
    if (st === 'open' && this.pending) this.sendPending();
    if (st === 'open' && !was && preference('fastbots')) this.paceBots(true);
  }

  message(msg) {
    switch (msg.type) {
      case 'welcome':
        if (msg.you != null) this.you = msg.you;
        this.game.seats = msg.seats;
        this.render({});
        break;
      case 'snapshot': {
        // A snapshot replaces the events missed, a phase's end among them:
        // its summary is shown as the move would have shown it.
        const you = this.you, seen = this.state.version;
        this.setGame(msg.game);
        this.you = msg.game.you != null ? msg.game.you : you;
        // A move the snapshot holds is no longer on its way: cleared
        // before the render, as a move's event does, so that the module
        // sees it may move again.
        if (this.pending && this.state.version > this.pending.version) this.pending = null;
        this.render({});
        const missed = this.summaries().filter(s => s.move.version > seen);
        if (this.state.over && !this.shownWinner) this.winner();
        else if (missed.length) this.phaseSummary(missed[missed.length - 1].move);
        break;
      }
      case 'move': this.onMove(msg); break;
      case 'game_over':
        this.socket.version = msg.version;
        this.state.standing = msg.standing;
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
      case 'take_back_request':
        this.request = {version: msg.version, seat: msg.seat, to: msg.to, waiting: msg.waiting, accepted: msg.accepted || []};
        this.render({});
        break;
      case 'take_back_answer':
        if (this.request) this.request = {...this.request, waiting: msg.waiting};
        this.render({});
        break;
      case 'take_back_ended': {
        const asked = this.request && this.request.seat === this.you;
        this.request = null;
        this.render({});
        const who = msg.seat === this.you ? 'You' : this.seats[msg.seat].name;
        if (msg.reason === 'refused' && asked) this.say(`${who} refused to take the move back.`, 'info', 5000);
        else if (msg.reason === 'withdrawn' && msg.seat !== this.you) this.say(`${who} withdrew the request to take a move back.`, 'info', 4000);
        break;
      }
      case 'take_back': this.onTakeBack(msg); break;
    }
  }

  // onTakeBack goes back to the version a take-back left: the moves above
  // it leave the log.
  onTakeBack(msg) {
    this.request = null;
    this.proposal = null;
    this.game.moves = this.game.moves.filter(m => m.version <= msg.version);
    this.game.state = msg.state;
    if (this.game.take_backs) this.game.take_backs = {...this.game.take_backs, count: msg.take_backs, request: null};
    this.clockBase = Date.now();
    this.socket.version = msg.version;
    this.socket.takeBacks = msg.take_backs;
    if (this.pending) this.pending = null;
    this.render({});
    const who = msg.seat === this.you ? 'Your' : `${this.seats[msg.seat].name}'s`;
    this.say(`${who} last move was taken back (back to move ${msg.version}).`, 'info', 4000);
  }

  // canTakeBack says whether the viewer may ask to take back their last
  // move now: not once chance has shown something since (chanceSince).
  canTakeBack() {
    const tb = this.game.take_backs;
    // A turn the sand ended, taken back, has no time left and ends again
    // at once: nothing a player would see (issue 47).
    const mine = this.game.moves.filter(m => m.seat === this.you);
    if (this.game.time && this.game.time.kind === 'turn' && mine.length && mine[mine.length - 1].by_time) return false;
    return this.you != null && !this.state.over && tb && tb.allowed && !this.request && !this.pending &&
      this.game.moves.some(m => m.seat === this.you) && !this.chanceSince();
  }

  // chanceSince says whether a move since the viewer's last one (or that
  // move itself) showed what chance drew: a take-back never goes back past
  // the state's take_back_floor, so that a draw cannot be played again
  // until it suits (docs/api.md, Take-backs).
  chanceSince() {
    const mine = this.game.moves.findLast(m => m.seat === this.you);
    return !!mine && mine.version <= (this.state.take_back_floor || 0);
  }

  // renderTakeBack draws the take-back's button, or the request under way:
  // the asker may withdraw it, the seats asked accept or refuse it.
  renderTakeBack() {
    const el = this.el.takeback, r = this.request, you = this.you;
    let sig, body;
    if (r) {
      const asker = r.seat === you ? 'You' : this.seats[r.seat].name;
      const waiting = (r.waiting || []).map(p => (p === you ? 'you' : this.seats[p].name)).join(' and ');
      sig = ['r', r.version, r.seat, (r.waiting || []).join()].join('|');
      const askedMe = you != null && (r.waiting || []).includes(you);
      body = [h('span', {class: 'takeback-what'}, `${asker} ${r.seat === you ? 'ask' : 'asks'} to take back ${r.seat === you ? 'your' : 'their'} last move${waiting ? `; waiting for ${waiting}` : ''}.`),
        askedMe ? h('button', {class: 'btn btn-primary btn-small', type: 'button', 'data-action': 'takeback-accept', onclick: () => this.answerTakeBack(true)}, 'Accept') : null,
        askedMe ? h('button', {class: 'btn btn-small', type: 'button', 'data-action': 'takeback-refuse', onclick: () => this.answerTakeBack(false)}, 'Refuse') : null,
        r.seat === you ? h('button', {class: 'btn btn-small', type: 'button', 'data-action': 'takeback-withdraw', onclick: () => this.answerTakeBack(false)}, 'Withdraw') : null,
        // The board still takes moves: say what one does to the request.
        h('span', {class: 'takeback-note'}, 'A move made before everyone has answered ends the request, and nothing is taken back.')];
    } else if (this.canTakeBack()) {
      const people = this.seats.some((s, p) => p !== you && s.kind === 'human');
      sig = 'b' + (people ? 'p' : '');
      body = [h('button', {class: 'btn btn-small btn-takeback', type: 'button', 'data-action': 'takeback', onclick: () => this.askTakeBack(),
        title: (people ? 'The other players are asked to accept' : 'Your last move and the moves after it are undone') + '; a take-back never goes back past a draw of chance'},
      people ? 'Ask to take back my last move' : 'Take back my last move')];
    } else if (this.you != null && !this.state.over && this.game.take_backs && this.game.take_backs.allowed && this.chanceSince()) {
      sig = 'c';
      body = [h('span', {class: 'takeback-what', 'data-takeback': 'chance'}, 'Your last move can no longer be taken back: chance has shown something since, and a take-back never goes back past a draw.')];
    } else {
      sig = '';
      body = [];
    }
    if (el.dataset.sig === sig) return;
    el.dataset.sig = sig;
    fill(el, body);
  }

  askTakeBack() {
    if (!this.canTakeBack()) return;
    if (!this.socket.send({type: 'take_back', id: 't' + (++this.moveSeq), version: this.state.version})) {
      this.say('Not connected: try again when the connection is back.', 'error');
    }
  }

  answerTakeBack(accept) {
    const r = this.request;
    if (!r) return;
    this.socket.send({type: 'take_back_answer', id: 'a' + (++this.moveSeq), version: r.version, accept});
  }

  onMove(msg) {
    if (msg.version <= this.state.version) return;
    this.myTurnBefore = this.myTurn;
    const move = {version: msg.version, seat: msg.seat, move: msg.move, note: msg.note || {}, by_time: !!msg.by_time};
    this.game.moves.push(move);
    this.game.state = msg.state;
    this.clockBase = Date.now();
    // A move that ends the game is followed by game_over at the same
    // version: until it is here, a reconnection asks again from the
    // version before, so that it is sent again if lost.
    this.socket.version = msg.state.over ? msg.version - 1 : msg.version;
    if (this.pending && (msg.version > this.pending.version)) this.pending = null;
    const mine = msg.seat === this.you;
    const wasMyTurn = this.myTurnBefore;
    this.render({animate: true});
    if (!mine && this.myTurn && !wasMyTurn && preference('sound')) chime();
    if (!mine && this.myTurn) {
      const banner = this.el.banner;
      banner.classList.remove('nudge');
      void banner.getBoundingClientRect();
      banner.classList.add('nudge');
    }
    const said = this.mod.moveSaid(move, {mine, name: this.seats[msg.seat].name});
    if (said) this.say(said, mine ? 'good' : 'info', 2500);
    else if (mine) this.quiet();
    if (move.note.phase_ends && move.note.phase_ends.length && this.summaryOf(move)) this.phaseSummary(move);
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
    const move = ours ? this.pending.move : null;
    if (ours) this.pending = null;
    if (msg.state && msg.state.version === this.state.version) {
      this.game.state = msg.state;
      this.clockBase = Date.now();
    }
    this.render({});
    let text;
    switch (msg.code) {
      // The rules' refusal: its code for the module to key on, its
      // reason in words for the player.
      case 'illegal_move': text = this.mod.refusal(move, msg.refusal || {code: 'not_now', reason: msg.message}); break;
      case 'not_your_turn': text = `It is not your turn: ${this.seats[this.state.to_move].name} is to move.`; break;
      case 'stale_version': text = 'The game moved on before your move arrived; look again and replay it.'; break;
      // Under a turn timer: the time is up, or too short for the hand to
      // make the move (docs/api.md, A hand's time).
      case 'time_up': text = 'Too late: the time left in this turn is too short for that.'; break;
      case 'move_waiting': text = 'Your last move is still being made.'; break;
      case 'game_over': text = 'The game is over.'; break;
      case 'no_token': text = 'You are watching: only the players can move.'; break;
      case 'rate_limited': text = 'Slow down a little: too many moves at once.'; break;
      case 'shutting_down': text = 'The server is restarting; try again in a moment.'; break;
      case 'nothing_to_take_back': text = 'You have no move to take back yet.'; break;
      case 'take_back_pending': text = 'A take-back is already waiting for answers.'; break;
      case 'take_backs_off': text = 'This game was started without take-backs.'; break;
      case 'no_request': case 'not_asked': text = 'That take-back is no longer asked for.'; break;
      default: text = msg.message;
    }
    this.say(text, 'error', 7000);
    if (move) this.table.refused(move);
  }

  // say shows a message under the table for a while.
  say(text, kind = 'info', ms = 5000) {
    const el = this.el.message;
    el.dataset.kind = kind;
    el.className = 'message message-' + kind + ' show';
    el.textContent = text;
    clearTimeout(this.messageTimer);
    this.messageTimer = setTimeout(() => { el.classList.remove('show'); }, ms);
  }

  // quiet hides the message under the table.
  quiet() {
    clearTimeout(this.messageTimer);
    this.el.message.classList.remove('show');
  }

  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
    if (modalOpen()) return;
    if (this.proposal && e.key === 'Escape') { this.cancelProposal(); e.preventDefault(); return; }
    if (e.defaultPrevented) return;
    if (this.proposal && e.key === 'Enter' && !(e.target instanceof HTMLButtonElement)) { this.confirm(); e.preventDefault(); return; }
    if (this.table.key(e)) e.preventDefault();
  }

  // propose sends a move of the viewer's, in the game's notation, or says
  // why not: it returns "sent", "queued" (sent when the connection is
  // back), "watching", "over", "not_your_turn" or "pending".
  propose(text, {confirmed = false} = {}) {
    const st = this.state;
    if (this.you == null) {
      this.say('You are watching this game: only the players can move.', 'info');
      return 'watching';
    }
    if (st.over) {
      this.say('The game is over.', 'info');
      return 'over';
    }
    if (!this.myTurn) {
      this.say(`Not your turn yet: ${this.seats[st.to_move].name} is to move.`, 'error');
      return 'not_your_turn';
    }
    if (this.pending) {
      this.say('Your move is on its way…', 'info');
      return 'pending';
    }
    // With "confirm each move", a move waits for Confirm, or for the same
    // move again (a second click on the same space).
    if (preference('confirm') && !confirmed && !(this.proposal && this.proposal.text === text)) {
      this.proposal = {text, version: st.version};
      this.render({});
      return 'proposed';
    }
    this.proposal = null;
    this.pending = {id: 'm' + (++this.moveSeq), version: st.version, move: text};
    const sent = this.sendPending();
    if (!sent) this.say('Not connected: your move will be sent as soon as the connection is back.', 'error');
    this.render({});
    return sent ? 'sent' : 'queued';
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
    const what = this.game.game_name || 'this game';
    modal({
      title: 'Join the game',
      className: 'join-modal',
      body: h('div', {},
        h('p', {}, host ? `${host.name} invited you to a game of ${what}.` : `You have been invited to a game of ${what}.`,
          ` You play seat ${this.you + 1}, `, icon('mark-' + this.you, 'icon mark'), ` ${PLAYERS[this.you].colourName} ${PLAYERS[this.you].shapeName}.`),
        seedWarning(this.game),
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

  // phaseSummary shows the module's summary of the phase move ended.
  phaseSummary(move) {
    const sum = this.summaryOf(move);
    if (!sum) return;
    this.phaseModal = modal({
      title: sum.title,
      className: 'phase-modal',
      body: sum.body,
      actions: [
        {label: 'Score sheet', onclick: close => { close(); this.showTab('scores'); }},
        {label: sum.next || 'Play on', primary: true},
      ],
    });
  }

  winner() {
    this.shownWinner = true;
    // A phase's summary nobody closed (a spectator is not asked to play
    // on) gives way to the result rather than hide it (issue 47).
    if (this.phaseModal) this.phaseModal.close();
    const st = this.state, standing = st.standing;
    const w = standing.winners || [];
    const res = this.mod.result(st.view, this.seats) || {};
    if (this.mod.scoreSheet) this.showTab('scores');
    const scores = standing.scores || [];
    const order = res.order || this.seats.map((_, p) => p).sort((a, b) => (scores[b] || 0) - (scores[a] || 0));
    const title = verdict(standing, this.seats, this.you, true);
    modal({
      title,
      className: 'winner-modal',
      body: h('div', {},
        h('ol', {class: 'podium'}, order.map(p => h('li', {class: w.includes(p) ? 'win' : '', 'data-seat': p},
          w.includes(p) ? icon('crown', 'icon crown') : icon('mark-' + p, 'icon mark'),
          h('span', {class: 'podium-name'}, this.seats[p].name),
          res.detail ? res.detail(p) : null,
          scores[p] != null ? h('b', {class: 'podium-total', 'data-total': p}, String(scores[p])) : null))),
        standing.move_limit ? h('p', {class: 'move-limit'}, `The game reached the server's limit of ${standing.move_limit} moves before its rules ended it: nobody wins, and the scores stand as they were.`)
          : res.explanation || null),
      actions: [
        this.mod.scoreSheet ? {label: 'Score sheet', onclick: close => { close(); this.showTab('scores'); }} : {label: 'Moves', onclick: close => { close(); this.showTab('moves'); }},
        {label: 'Replay', href: `/replay/${this.id}`},
        {label: 'New game', href: '/', primary: true},
      ],
    });
  }
}

// verdict says who won: a seat, a team (the standing's teams), or seats
// sharing the victory, or that the server's bound on a game's length ended
// it (move_limit) with nobody winning; now: in the present tense, for the
// winner's dialog.
function verdict(standing, seats, you, now) {
  if (standing.move_limit) return `${now ? 'A draw' : 'Drawn'}: the limit of ${standing.move_limit} moves`;
  const w = standing.winners || [];
  const team = (standing.teams || []).find(t => t.length === w.length && t.every(p => w.includes(p)));
  const names = list => list.map(p => seats[p].name).join(' and ');
  if (!w.length) return now ? 'The game is over' : 'Game over';
  if (team) return w.includes(you) ? (now ? 'Your team wins!' : 'Your team won!') : `${names(w)} ${now ? 'win' : 'won'}`;
  if (w.length > 1) return now ? 'A shared victory' : 'Shared victory';
  if (w[0] === you) return now ? 'You win!' : 'You won!';
  return `${seats[w[0]].name} ${now ? 'wins' : 'won'}`;
}

// chime plays a short sound for "your turn" (the preference "sound"),
// and tells the page's listeners (a lagoon-sound event on window).
let audio = null;
function chime() {
  window.dispatchEvent(new Event('lagoon-sound'));
  try {
    audio = audio || new AudioContext();
    const t = audio.currentTime;
    for (const [f, at] of [[660, 0], [880, 0.12]]) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, t + at);
      gain.gain.exponentialRampToValueAtTime(0.15, t + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + at + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(t + at);
      osc.stop(t + at + 0.32);
    }
  } catch { /* no sound here */ }
}
