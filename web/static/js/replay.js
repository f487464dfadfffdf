// The replay screen (/replay/{id}): any game, stepped through move by move
// with buttons, a slider and the keyboard, the players' panel and the score
// sheet following the position shown. Positions come from the server
// (GET /api/games/{id}?at=N), one request at a time, newest wish first. The
// game's module draws the table, the sheet and the log's words.

import {h, icon, fill, toast, tabList, selectTab, seedMark} from './ui.js';
import {getGame, getRules, ApiError, patiently, recordURL} from './api.js';
import {playerCards} from './players.js';
import {logItem} from './log.js';
import {gameModule} from './games.js';
import {namedSeats} from './art.js';

const PLAY_MS = 700;     // a move a step while playing
const GAP_MS = 70;       // between two requests, to stay under the rate limit

export function mountReplay(root, id) {
  const view = new ReplayView(root, id);
  view.mount();
  return () => view.unmount();
}

class ReplayView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.cache = new Map();   // version -> state
    this.step = 0;            // the step asked for
    this.shown = -1;          // the step drawn
    this.loading = false;
    this.playing = null;
    this.tab = 'scores';
    this.onKey = e => this.key(e);
    this.gone = false;
  }

  async mount() {
    document.title = 'Replay · Lagoon';
    const loading = h('div', {class: 'loading'}, h('div', {class: 'spinner'}), 'Loading the game…');
    fill(this.root, loading);
    let game;
    try {
      game = await patiently(() => getGame(this.id),
        () => fill(loading, h('div', {class: 'spinner'}), 'The server is not answering; trying again…'),
        () => this.gone);
    } catch (err) {
      if (this.gone) return;
      const notFound = err instanceof ApiError && err.status === 404;
      fill(this.root, h('div', {class: 'page empty-page'},
        h('h1', {}, notFound ? 'No such game' : 'The replay could not be loaded'),
        h('p', {}, notFound ? 'This link does not lead to a game on this server.' : err.message),
        h('a', {class: 'btn btn-primary', href: '/', 'data-link': ''}, 'Back to the lobby')));
      return;
    }
    this.mod = await gameModule(game.game);
    this.rules = await getRules().then(r => r.games.find(x => x.id === game.game), () => null);
    if (this.gone) return;
    game.seats = namedSeats(game.seats);
    this.game = game;
    this.last = game.state.version;
    this.cache.set(this.last, game.state);
    const m = /^#(\d+)$/.exec(location.hash);
    this.step = m ? Math.min(this.last, Number(m[1])) : 0;
    this.layout();
    document.addEventListener('keydown', this.onKey);
    this.go(this.step);
  }

  unmount() {
    this.gone = true;
    this.pause();
    document.removeEventListener('keydown', this.onKey);
  }

  layout() {
    const g = this.game;
    this.table = this.mod.table({
      table: g.table, options: g.options, seats: () => g.seats, you: () => null, canMove: () => false,
      move: () => 'watching', say: () => {}, modalOpen: () => true,
    }, {interactive: false});
    if (!this.mod.scoreSheet) this.tab = 'moves';
    const el = this.el = {};
    const btn = (label, title, action, cls = '') => h('button', {class: 'btn btn-icon ' + cls, type: 'button', title, 'aria-label': title, 'data-action': action,
      onclick: () => this.action(action)}, label);
    el.slider = h('input', {class: 'slider', type: 'range', min: 0, max: this.last, value: this.step, 'aria-label': 'Move',
      oninput: e => { this.pause(); this.go(Number(e.target.value)); }});
    el.play = btn(icon('i-play'), 'Play (space)', 'play', 'btn-play');
    el.caption = h('div', {class: 'replay-caption', role: 'status'});
    el.phase = h('span', {class: 'chip chip-phase'});
    el.count = h('span', {class: 'chip chip-move'});
    el.players = h('div', {class: 'players-slot'});
    el.tabs = tabList(h('div', {class: 'tabs', role: 'tablist'},
      [['scores', 'Score sheet'], ['moves', 'Moves']].filter(([k]) => k !== 'scores' || this.mod.scoreSheet).map(([k, label]) =>
        h('button', {class: 'tab', type: 'button', role: 'tab', 'data-tab': k, onclick: () => { this.tab = k; this.renderTab(); }}, label))));
    el.panel = h('div', {class: 'tab-panel', role: 'tabpanel'});
    const actions = [];
    if (this.mod.recordOpen(g.state)) {
      actions.push(h('a', {class: 'btn btn-ghost', href: recordURL(this.id), download: `lagoon-${this.id}.json`, 'data-action': 'download'}, 'Download record'));
    }
    if (!g.state.over) actions.push(h('a', {class: 'btn btn-ghost', href: `/game/${this.id}`, 'data-link': ''}, 'Back to the live game'));
    actions.push(h('a', {class: 'btn btn-ghost', href: '/', 'data-link': ''}, 'Lobby'));
    el.root = h('section', {class: 'game replay', 'data-game': g.id, 'data-last': this.last},
      h('div', {class: 'game-main'},
        h('div', {class: 'statusbar'},
          h('div', {class: 'turn-banner', 'data-mood': 'replay'},
            icon('i-replay', 'icon banner-mark'),
            h('div', {class: 'banner-text'},
              h('span', {class: 'banner-title'}, 'Replay'),
              h('span', {class: 'banner-sub'}, [g.game_name, this.mod.describeOptions(g.options, this.rules), g.seats.map(s => s.name).join(' vs ')].filter(Boolean).join(' · ')))),
          h('div', {class: 'status-chips'}, seedMark(g), el.phase, el.count)),
        this.table.el,
        h('div', {class: 'controls replay-controls'},
          h('div', {class: 'transport'},
            btn(icon('i-first'), 'First position (Home)', 'first'),
            btn(icon('i-prev'), 'Previous move (←)', 'prev'),
            el.play,
            btn(icon('i-next'), 'Next move (→)', 'next'),
            btn(icon('i-last'), 'Last position (End)', 'last')),
          el.slider,
          el.caption)),
      h('aside', {class: 'game-side'}, el.players, el.tabs, el.panel, h('div', {class: 'side-actions'}, actions)));
    fill(this.root, el.root);
  }

  action(a) {
    switch (a) {
      case 'first': this.pause(); this.go(0); break;
      case 'prev': this.pause(); this.go(this.step - 1); break;
      case 'next': this.pause(); this.go(this.step + 1); break;
      case 'last': this.pause(); this.go(this.last); break;
      case 'play': this.playing ? this.pause() : this.play(); break;
    }
  }

  play() {
    if (this.step >= this.last) this.go(0);
    this.playing = setInterval(() => {
      if (this.shown !== this.step) return;
      if (this.step >= this.last) { this.pause(); return; }
      this.go(this.step + 1);
    }, PLAY_MS);
    fill(this.el.play, icon('i-pause'));
    this.el.play.title = 'Pause (space)';
    this.el.play.setAttribute('aria-label', 'Pause (space)');
  }

  pause() {
    if (!this.playing) return;
    clearInterval(this.playing);
    this.playing = null;
    fill(this.el.play, icon('i-play'));
    this.el.play.title = 'Play (space)';
    this.el.play.setAttribute('aria-label', 'Play (space)');
  }

  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
    const k = e.key;
    const moves = {ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last', ' ': 'play'};
    if (k in moves) { e.preventDefault(); this.action(moves[k]); }
    else if (k === 'PageUp') { e.preventDefault(); this.pause(); this.go(this.step - 10); }
    else if (k === 'PageDown') { e.preventDefault(); this.pause(); this.go(this.step + 10); }
  }

  // go asks for step n and draws it once its state is here.
  go(n) {
    n = Math.max(0, Math.min(this.last, n));
    this.step = n;
    this.el.root.dataset.step = n;
    this.el.slider.value = n;
    history.replaceState(history.state, '', `#${n}`);
    this.caption();
    if (this.cache.has(n)) this.draw(n);
    else this.load();
  }

  async load() {
    if (this.loading) return;
    this.loading = true;
    this.el.root.dataset.loading = 'true';
    while (!this.gone && !this.cache.has(this.step)) {
      const want = this.step;
      try {
        // While the server does not answer the caption says so: the board
        // would otherwise stay on the last position drawn without a word.
        let waited = false;
        const g = await patiently(() => getGame(this.id, {at: want}), () => {
          waited = true;
          fill(this.el.caption, 'The server is not answering; trying again…');
        }, () => this.gone);
        this.cache.set(want, g.state);
        if (waited) this.caption();
      } catch (err) {
        if (!this.gone) toast(err.message, 'error');
        break;
      }
      await sleep(GAP_MS);
    }
    this.loading = false;
    this.el.root.dataset.loading = 'false';
    if (!this.gone && this.cache.has(this.step)) this.draw(this.step);
  }

  draw(n) {
    const st = this.cache.get(n);
    const animate = Math.abs(n - this.shown) === 1;
    this.shown = n;
    this.state = st;
    this.el.root.dataset.shown = n;
    this.table.update(st, {animate});
    fill(this.el.phase, st.over ? 'Game over' : this.mod.phaseName(st.standing.phase || ''));
    this.el.phase.dataset.phase = st.over ? 'over' : st.standing.phase || '';
    fill(this.el.players, playerCards(this.game.seats, st, this.mod, {replay: true, time: this.game.time}));
    this.renderTab();
  }

  caption() {
    const n = this.step;
    fill(this.el.count, `Move ${n} of ${this.last}`);
    if (n === 0) {
      fill(this.el.caption, this.mod.startCaption);
      return;
    }
    const m = this.game.moves[n - 1];
    fill(this.el.caption, [...logItem(m, this.game.seats, this.mod, this.game.table).childNodes]);
  }

  renderTab() {
    selectTab(this.el.tabs, this.tab);
    const panel = this.el.panel;
    if (!this.state) return;
    if (this.tab === 'scores') {
      fill(panel, this.mod.scoreSheet(this.state.view, this.game.seats));
      return;
    }
    const moves = this.game.moves;
    const list = h('ol', {class: 'log log-replay'},
      h('li', {class: 'log-move' + (this.shown === 0 ? ' current' : ''), 'data-version': 0, onclick: () => { this.pause(); this.go(0); }},
        h('span', {class: 'log-no'}, '0'), h('span', {class: 'log-text'}, 'Start')),
      moves.map(m => {
        const li = logItem(m, this.game.seats, this.mod, this.game.table);
        if (m.version === this.shown) li.classList.add('current');
        li.addEventListener('click', () => { this.pause(); this.go(m.version); });
        return li;
      }));
    fill(panel, list);
    // The current move is scrolled into the panel's view; the page itself
    // is not scrolled (on a phone the panel does not scroll, and the board
    // must stay in sight while the replay plays).
    const cur = list.querySelector('.current');
    if (cur && panel.scrollHeight > panel.clientHeight) {
      const p = panel.getBoundingClientRect(), c = cur.getBoundingClientRect();
      if (c.top < p.top) panel.scrollTop -= p.top - c.top;
      else if (c.bottom > p.bottom) panel.scrollTop += c.bottom - p.bottom;
    }
  }
}

function sleep(ms) {
  return new Promise(r => setTimeout(r, ms));
}
