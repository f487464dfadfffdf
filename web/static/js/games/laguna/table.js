// Laguna's table on the game and replay screens: the board (board.js) and,
// beside it, the raft's panel: the sand glass running out, the six holes
// of the raft as buttons, the steps, and the actions (load, unload or
// deliver, swap or trade, peek, end the turn). Everything a key does a
// button does, for a finger; a move is handed to the shell in the rules'
// notation ("E", "shift 2 5", "load R 3") and the server decides: the page
// never checks a move itself.
//
// Keys: the arrows step (while the rafts are being placed they choose a
// place, R turns the raft, Enter puts it there); 1 to 6 pick a hole, and a
// second hole moves the pearl between them; L loads, U unloads (delivers at
// the volcano), X swaps with the island, T trades with a raft alongside (then
// 1 to 6 pick its hole), R Y G B choose a colour when asked (or, with a hole
// picked, load or swap that colour at once), P peeks, E ends the turn, Escape
// lets go.

import {h, icon, fill, clock, plural} from '../../ui.js';
import {BoardView, SIZE, squareAt, squareName, extent, kindOf, describeSquare, DELTA} from './board.js';
import {colourName, pearlIcon} from './art.js';

const DIR_WORDS = {N: 'north', E: 'east', S: 'south', W: 'west'};
const DIR_ARROWS = {N: '↑', E: '→', S: '↓', W: '←'};
const DIR_KEYS = {ArrowUp: 'N', ArrowRight: 'E', ArrowDown: 'S', ArrowLeft: 'W'};

// A sand glass's turn when the game's time rule gives none.
const GLASS_MS = 30000;

export class Table {
  constructor(ctx, {interactive = true} = {}) {
    this.ctx = ctx;
    this.interactive = interactive;
    this.state = null;
    this.selected = null;   // the hole picked, 1 to 6
    this.mode = null;       // {kind: 'load'|'swap'|'trade', hole, raft}
    this.place = null;      // the raft position chosen in the placing phase
    this.orient = 'H';
    const table = ctx.table;
    this.board = new BoardView(table, {interactive, label: interactive ? `The board, ${boardTitle(table.name)}` : 'The board at the move shown'});
    this.board.onclick = at => this.click(at);
    this.glass = sandGlass();
    this.panel = h('div', {class: 'lg-panel'});
    this.el = h('div', {class: 'board-wrap lg-table'}, h('div', {class: 'lg-board-box'}, this.board.svg), this.panel);
    this.controls = null;
  }

  get view() { return this.state.view; }
  you() { return this.ctx.you(); }
  // raft is the raft the panel shows: the viewer's, else the one to move.
  raftShown() {
    const v = this.view, you = this.you();
    const seat = you != null ? you : v.to_move;
    return (v.rafts || []).find(r => r.seat === seat) || null;
  }
  mine() { return this.interactive && this.ctx.canMove(); }
  legal() { return this.view.legal || []; }

  update(state, {animate = false, recent = null} = {}) {
    const before = this.state;
    this.state = state;
    const v = state.view;
    const turned = !before || before.view.to_move !== v.to_move || before.view.phase !== v.phase;
    if (turned || !this.mine()) this.mode = null;
    if (turned) this.selected = null;
    // A turn of the viewer's ended without their asking: the sand ran out
    // and the server ended it. Said after the shell has had its word on
    // the move (it quiets the message line after one's own moves).
    const last = state.last_move;
    if (animate && last && last.move === 'end' && last.seat === this.you() && this.sent !== 'end' && this.interactive) {
      setTimeout(() => this.ctx.say('The sand ran out: your turn is over.', 'info', 4000), 0);
    }
    if (animate) this.sent = null;
    const raft = this.raftShown();
    if (this.selected && (!raft || !raft.holes.length)) this.selected = null;
    const moves = recent || (state.last_move ? [state.last_move] : []);
    this.trails = trails(v, moves);
    this.board.setState(v, {animate, trails: this.trails, selected: this.selected && raft ? {seat: raft.seat, hole: this.selected} : null});
    this.updatePlaces();
    this.renderPanel();
    this.startGlass();
    if (turned && this.mine() && v.phase === 'play') requestAnimationFrame(() => this.bringIntoView());
  }

  // bringIntoView scrolls the table to the top of the screen when the
  // viewer's turn begins on a screen too short for it and what lies above
  // it (a phone's), so that the board and every control of the turn are
  // seen together and none is reached by scrolling the board away.
  bringIntoView() {
    const r = this.el.getBoundingClientRect();
    // The page's bar stays on top of the screen as it scrolls.
    const bar = document.querySelector('.topbar');
    const top = bar ? bar.getBoundingClientRect().bottom : 0;
    if (r.bottom <= innerHeight || r.height > innerHeight - top - 4) return;
    scrollBy({top: r.top - top - 4, behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth'});
  }

  // The placing phase: the raft's positions against free islands.
  places() {
    return this.legal().filter(m => m.startsWith('place ')).map(m => {
      const [, orient, at] = m.split(' ');
      return {move: m, orient, at};
    });
  }

  updatePlaces() {
    const places = this.mine() && this.view.phase === 'place' ? this.places() : [];
    if (!places.length) {
      this.place = null;
      this.board.setPlaces([], null);
      return;
    }
    if (!this.place || !places.some(p => p.move === this.place.move)) {
      this.place = this.clearest(places.filter(p => p.orient === this.orient)) || this.clearest(places);
    }
    this.board.setPlaces(places.filter(p => p.orient === this.place.orient), this.place);
  }

  // clearest is the first of the places whose raft would lie over the
  // fewest reefs and arrows: the place first offered, where the first
  // pearls may go in any hole.
  clearest(places) {
    const hazards = p => {
      const a = squareAt(p.at), {rows, cols} = extent(p.orient);
      let n = 0;
      for (let r = a.row; r < a.row + rows; r++) {
        for (let c = a.col; c < a.col + cols; c++) {
          const k = kindOf(this.ctx.table.rows[r][c]).kind;
          if (k === 'reef' || k === 'arrow') n++;
        }
      }
      return n;
    };
    let best = null, fewest = Infinity;
    for (const p of places) {
      const n = hazards(p);
      if (n < fewest) { best = p; fewest = n; }
    }
    return best;
  }

  // movePlace chooses the nearest place that way (dir), or the nearest one
  // lying the other way round (turn).
  movePlace(dir, turn = false) {
    const places = this.places();
    if (!places.length || !this.place) return;
    const from = squareAt(this.place.at);
    let best = null, bestCost = Infinity;
    for (const p of places) {
      if (p.move === this.place.move) continue;
      const to = squareAt(p.at);
      const dr = to.row - from.row, dc = to.col - from.col;
      if (turn) {
        if (p.orient === this.place.orient) continue;
      } else {
        if (p.orient !== this.place.orient) continue;
        const [vr, vc] = DELTA[dir];
        const along = dr * vr + dc * vc;
        if (along <= 0) continue;
      }
      const cost = Math.abs(dr) + Math.abs(dc) + (turn ? 0 : Math.abs(dir === 'N' || dir === 'S' ? dc : dr) * 2);
      if (cost < bestCost) { best = p; bestCost = cost; }
    }
    if (best) {
      this.place = best;
      this.orient = best.orient;
      this.board.setPlaces(places.filter(p => p.orient === best.orient), best);
      this.renderPanel();
    } else {
      this.ctx.say(turn ? 'There is no place for the raft the other way round.' : `No other place ${DIR_WORDS[dir]} of this one.`, 'info', 2500);
    }
  }

  // ---- The panel

  renderPanel() {
    const v = this.view, you = this.you();
    const parts = [this.glass.el, this.statusLine(), v.goal ? this.parLine() : null];
    const raft = this.raftShown();
    if (v.phase === 'play' || v.phase === 'over') {
      if (raft && raft.holes.length) parts.push(this.holesBox(raft));
    }
    if (this.interactive && you != null && !this.state.over) {
      if (v.phase === 'place') parts.push(this.placeBox());
      else if (v.phase === 'deal') parts.push(this.dealBox());
      else if (v.phase === 'play') parts.push(...[this.playBox()].flat());
    }
    // The focus stays on the like of the button that had it.
    const had = this.panel.contains(document.activeElement) ? document.activeElement : null;
    const like = had && ['data-action', 'data-move', 'data-hole', 'data-colour'].map(a => [a, had.getAttribute(a)]).find(([, val]) => val != null);
    fill(this.panel, parts);
    if (like) {
      const again = this.panel.querySelector(`[${like[0]}="${CSS.escape(like[1])}"]`);
      if (again && !again.disabled) again.focus({preventScroll: true});
    }
  }

  // statusLine says where the raft to move is and what holds it.
  statusLine() {
    const v = this.view, seats = this.ctx.seats();
    const lines = [];
    if (v.phase === 'play' && !v.over) {
      const who = v.to_move === this.you() ? 'Your raft' : `${seats[v.to_move].name}'s raft`;
      const raft = v.rafts.find(r => r.seat === v.to_move);
      const aboard = raft ? raft.holes.filter(x => x.pearl).length : 0;
      lines.push(h('div', {class: 'lg-status-main'}, icon('mark-' + v.to_move, 'icon mark'),
        h('span', {}, `${who}: ${plural(v.steps, 'step')} this turn, ${plural(aboard, 'pearl')} aboard`)));
      if (v.docked) {
        lines.push(h('div', {class: 'lg-docked', 'data-docked': v.docked}, v.docked === 'volcano' ? 'Docked at the volcano' : `Docked at island ${v.docked}`));
      }
      if (v.forced && v.forced.length) {
        lines.push(h('div', {class: 'lg-forced'}, `The current takes the raft ${v.forced.map(d => DIR_ARROWS[d] + ' ' + DIR_WORDS[d]).join(' or ')}`));
      }
      if (v.peeked) lines.push(h('div', {class: 'lg-peek-note'}, 'Peeking: what lies under the pearls shows until the first step.'));
    }
    if (v.open_board) lines.push(h('div', {class: 'lg-open-note'}, 'Open board: everything under the pearls is shown.'));
    return h('div', {class: 'lg-status'}, lines);
  }

  // holesBox shows a raft's six holes as buttons laid out as the raft lies.
  holesBox(raft) {
    const mine = this.mine() && raft.seat === this.you();
    const {rows, cols} = extent(raft.orient);
    const cells = raft.holes.map((hv, i) => {
      const n = i + 1;
      const shows = hv.shows ? kindOf(hv.shows) : null;
      const under = shows ? (shows.kind === 'reef' ? icon('lg-reef', 'icon lg-under') : shows.kind === 'arrow'
        ? h('span', {class: 'lg-under-arrow', 'data-dir': shows.dir}, icon('lg-arrow', 'icon lg-under')) : icon('lg-water', 'icon lg-under')) : null;
      const label = `Hole ${n}: ` + (hv.pearl ? `a ${colourName(hv.pearl)} pearl` + (hv.shows ? `, over ${describeSquare(hv.shows)}` : '') : `open, ${describeSquare(hv.shows)}`);
      const {row, col} = squareAt(hv.square), at = squareAt(raft.at);
      return h('button', {class: 'lg-hole-btn' + (this.selected === n && raft.seat === this.you() ? ' selected' : ''), type: 'button',
        'data-hole': n, 'data-pearl': hv.pearl || '', 'data-shows': hv.shows || '', 'aria-label': label, title: label,
        style: `grid-row: ${row - at.row + 1}; grid-column: ${col - at.col + 1}`,
        disabled: mine ? null : true, onclick: () => this.pick(n)},
      h('span', {class: 'lg-hole-no-btn'}, String(n)),
      hv.pearl ? icon(pearlIcon(hv.pearl), 'icon lg-hole-pearl' + (hv.shows ? ' lifted' : '')) : null,
      under);
    });
    return h('div', {class: 'lg-holes-box'},
      h('div', {class: 'lg-box-title'}, raft.seat === this.you() ? 'Your raft' : `${this.ctx.seats()[raft.seat].name}'s raft`,
        mine ? h('span', {class: 'lg-hint'}, 'keys 1–6') : null),
      h('div', {class: 'lg-holes', style: `grid-template-columns: repeat(${cols}, 1fr); grid-template-rows: repeat(${rows}, 1fr)`, 'data-orient': raft.orient}, cells));
  }

  placeBox() {
    if (!this.mine()) return h('p', {class: 'lg-help'}, 'The rafts are being put on the water.');
    const p = this.place;
    return h('div', {class: 'lg-actions-box'},
      h('p', {class: 'lg-help'}, 'Put your raft against the landing line of a free island (the shallow water beside it): tap a place to choose it, and again to put the raft there. ',
        h('span', {class: 'lg-keys'}, 'Or ', h('kbd', {}, '←'), h('kbd', {}, '→'), h('kbd', {}, '↑'), h('kbd', {}, '↓'), ' choose a place, ', h('kbd', {}, 'R'), ' turns the raft, ',
          h('kbd', {}, 'Enter'), ' puts it there.')),
      h('div', {class: 'lg-stack'},
        h('button', {class: 'btn btn-small', type: 'button', 'data-action': 'turn', onclick: () => this.movePlace(null, true)}, 'Turn the raft', h('kbd', {}, 'R')),
        h('button', {class: 'btn btn-primary btn-small', type: 'button', 'data-action': 'place', disabled: p ? null : true, onclick: () => p && this.send(p.move)},
          p ? `Put it ${p.orient === 'V' ? 'down' : 'across'} at ${p.at}` : 'Put it here', h('kbd', {}, 'Enter'))));
  }

  dealBox() {
    if (!this.mine()) return h('p', {class: 'lg-help'}, 'The players are putting the pearls on the islands.');
    const puts = this.legal().filter(m => m.startsWith('put '));
    return h('div', {class: 'lg-actions-box'},
      h('p', {class: 'lg-help'}, 'Put a pearl on an island: never your own colour, never two of a colour on one island.'),
      h('div', {class: 'lg-row lg-wrap'}, puts.map(m => {
        const [, c, isl] = m.split(' ');
        return h('button', {class: 'btn btn-small lg-put', type: 'button', 'data-move': m, onclick: () => this.send(m)},
          icon(pearlIcon(c), 'icon lg-pearl-icon'), `to ${isl}`);
      })));
  }

  playBox() {
    if (!this.mine()) return h('p', {class: 'lg-help'}, this.view.to_move === this.you() ? 'Your move is on its way…' : 'Watch the rafts: what shows through their holes is worth remembering.');
    const v = this.view, forced = new Set(v.forced || []);
    const kinds = new Set(this.legal().map(m => m.split(' ')[0]));
    // A step the rules do not offer now is dimmed as Unload is, and still
    // sent when clicked, so that the rules' refusal says why.
    const legal = new Set(this.legal());
    const step = d => h('button', {class: 'lg-step' + (forced.has(d) ? ' forced' : '') + (legal.has(d) ? '' : ' dim'), type: 'button', 'data-move': d,
      'aria-disabled': legal.has(d) ? null : 'true',
      'aria-label': `Step ${DIR_WORDS[d]}` + (forced.has(d) ? ' (the current)' : '') + (legal.has(d) ? '' : ' (not now)'), title: `Step ${DIR_WORDS[d]} (arrow key)`,
      onclick: () => this.send(d)}, DIR_ARROWS[d]);
    const act = (key, label, action, on, title) => h('button', {class: 'btn btn-small lg-act' + (on ? '' : ' dim'), type: 'button', 'data-action': action, title,
      onclick: () => this.action(action)}, label, h('kbd', {}, key));
    const atVolcano = v.docked === 'volcano';
    const acts = [
      h('div', {class: 'lg-acts'},
        act('L', 'Load', 'load', kinds.has('load'), 'Take a pearl from the island into the hole picked'),
        atVolcano ? act('U', 'Deliver', 'unload', kinds.has('deliver'), 'Leave the pearl of your colour in the hole picked at the volcano')
          : act('U', 'Unload', 'unload', kinds.has('unload'), 'Leave the pearl in the hole picked on the island'),
        act('X', 'Swap', 'swap', kinds.has('swap'), 'Swap the pearl in the hole picked for one of the island'),
        kinds.has('trade') ? act('T', 'Trade', 'trade', true, 'Trade the pearl in the hole picked with a raft alongside') : null,
        act('P', 'Peek', 'peek', kinds.has('peek'), 'Look under your pearls (before your first step)'),
        act('E', 'End turn', 'end', kinds.has('end'), 'End your turn')),
    ];
    acts.push(this.modeBox() || h('p', {class: 'lg-help lg-hint-line'}, this.hint()));
    return [h('div', {class: 'lg-pad', role: 'group', 'aria-label': 'Steps'}, step('N'), step('W'), step('E'), step('S')),
      h('div', {class: 'lg-actions-box'}, acts)];
  }

  // hint says what to do next, in the words of the keys, or of the
  // fingers on a touch screen.
  hint() {
    const v = this.view;
    const first = this.legal().every(m => m.startsWith('load ') || m === 'end') && v.steps === 0 && !v.docked;
    if (touchScreen()) {
      if (first) return 'Load your first pearls: tap an open hole, then Load.';
      if (this.selected) return `Hole ${this.selected} picked: tap another hole to move a pearl between them, or the same one to let go.`;
      return 'Tap an arrow, or a square beside the raft, to step; tap two holes to move a pearl.';
    }
    if (first) {
      return ['Load your first pearls from your island: pick an open hole ', h('kbd', {}, '1'), '–', h('kbd', {}, '6'), ' then ', h('kbd', {}, 'L'), '.'];
    }
    if (this.selected) return [`Hole ${this.selected} picked: another hole moves a pearl between them; `, h('kbd', {}, 'Esc'), ' lets go.'];
    return ['Arrow keys step; ', h('kbd', {}, '1'), '–', h('kbd', {}, '6'), ' pick a hole, a second hole moves a pearl.'];
  }

  // modeBox asks for what an action still needs: a colour, or the other
  // raft's hole.
  modeBox() {
    const m = this.mode;
    if (!m) return null;
    const cancel = h('button', {class: 'btn btn-small btn-ghost', type: 'button', onclick: () => { this.mode = null; this.renderPanel(); }}, 'Cancel', h('kbd', {}, 'Esc'));
    if (m.kind === 'load' || m.kind === 'swap') {
      return h('div', {class: 'lg-mode'},
        h('span', {}, m.kind === 'load' ? `Load into hole ${m.hole}: which pearl?` : `Swap the pearl in hole ${m.hole} for:`),
        h('div', {class: 'lg-row'}, m.colours.map(c => h('button', {class: 'btn btn-small lg-colour', type: 'button', 'data-colour': c,
          onclick: () => this.chooseColour(c)}, icon(pearlIcon(c), 'icon lg-pearl-icon'), colourName(c), h('kbd', {}, c))), cancel));
    }
    const trades = this.legal().filter(t => t.startsWith('trade ') && t.split(' ')[2] === String(m.hole) && (!m.raft || t.split(' ')[1] === m.raft));
    return h('div', {class: 'lg-mode'},
      h('span', {}, `Trade the pearl in hole ${m.hole}: take the pearl from which hole of the other raft?`),
      h('div', {class: 'lg-row lg-wrap'}, trades.map(t => {
        const [, raft, , j] = t.split(' ');
        return h('button', {class: 'btn btn-small', type: 'button', 'data-move': t, onclick: () => this.send(t)},
          icon('mark-' + 'RYGB'.indexOf(raft), 'icon mark'), `its hole ${j}`, h('kbd', {}, j));
      }), cancel));
  }

  // parLine says the puzzle's steps so far, its par and its target, island
  // by island, beside the board: on a phone the score sheet, which has it
  // too, is far below (issue 47).
  parLine() {
    const v = this.view;
    return h('div', {class: 'lg-par-line'}, h('b', {}, 'The puzzle'),
      h('span', {}, `${plural(this.state.standing.scores[0], 'step')} so far`),
      h('span', {class: 'lg-par'}, v.par != null ? `par ${v.par}` : 'par unknown'),
      h('span', {class: 'lg-par-goal', 'aria-label': 'The target'}, v.goal.map((want, i) => h('span', {class: 'lg-par-island' + (v.islands[i] === want ? ' done' : ''), 'data-island': 'ABCDEFGH'[i],
        title: `Island ${'ABCDEFGH'[i]} wants ${want.length ? [...want].join(' ') : 'no pearl'}` + (v.islands[i] === want ? ': done' : '')},
      h('b', {}, 'ABCDEFGH'[i]), [...want].map(c => icon(pearlIcon(c), 'icon lg-pearl-icon'))))));
  }

  // ---- Actions

  send(text) {
    const r = this.ctx.move(text);
    if (r === 'sent' || r === 'queued' || r === 'proposed') this.sent = text;
    if (r === 'sent' || r === 'queued' || r === 'proposed') {
      this.mode = null;
      if (!/^[NESW]$/.test(text) && text !== 'peek') this.selected = null;
    }
    return r;
  }

  // pick picks hole n; a second hole moves the pearl between the two.
  pick(n) {
    if (this.mode && this.mode.kind === 'trade') return this.tradeWith(n);
    const raft = this.raftShown();
    if (!raft || !raft.holes.length) return;
    const a = this.selected;
    if (a === n) {
      this.selected = null;
    } else if (a) {
      const pa = raft.holes[a - 1].pearl, pn = raft.holes[n - 1].pearl;
      if (pa && !pn) return this.send(`shift ${a} ${n}`);
      if (!pa && pn) return this.send(`shift ${n} ${a}`);
      this.selected = n;
    } else {
      this.selected = n;
    }
    this.mode = null;
    this.redraw();
  }

  redraw() {
    const raft = this.raftShown();
    this.board.setState(this.view, {trails: this.trails, selected: this.selected && raft ? {seat: raft.seat, hole: this.selected} : null});
    this.renderPanel();
  }

  // holeFor is the hole an action works on: the one picked, else the
  // first hole of the legal moves of that kind, else the first hole that
  // holds a pearl (full) or is open.
  holeFor(kind, full) {
    if (this.selected) return this.selected;
    const raft = this.raftShown();
    const m = this.legal().find(x => x.startsWith(kind + ' '));
    if (m) return Number(kind === 'load' ? m.split(' ')[2] : m.split(' ')[1]);
    const i = raft ? raft.holes.findIndex(x => !!x.pearl === full) : -1;
    return i >= 0 ? i + 1 : null;
  }

  action(kind) {
    // Not the viewer's move now: the shell says why (watching, not their
    // turn, a move on its way) and sends nothing.
    if (!this.mine()) return this.ctx.move(kind);
    const v = this.view;
    switch (kind) {
      case 'end': case 'peek': return this.send(kind);
      case 'trade': return this.startTrade();
      case 'unload': {
        const verb = v.docked === 'volcano' ? 'deliver' : 'unload';
        const n = this.holeFor(verb, true);
        return n ? this.send(`${verb} ${n}`) : this.ctx.say('Pick a hole with a pearl first (keys 1–6).', 'info');
      }
      case 'load': case 'swap': {
        const n = this.holeFor(kind, kind === 'swap');
        if (!n) return this.ctx.say(kind === 'load' ? 'Your raft has no open hole.' : 'Pick a hole with a pearl first (keys 1–6).', 'info');
        const colours = this.coloursFor(kind, n);
        if (!colours.length) return this.ctx.say(v.docked || kind === 'load' ? 'There is no pearl to take here.' : 'Your raft is not docked at an island.', 'info');
        if (colours.length === 1) return this.send(kind === 'load' ? `load ${colours[0]} ${n}` : `swap ${n} ${colours[0]}`);
        this.mode = {kind, hole: n, colours};
        this.renderPanel();
        return 'asked';
      }
    }
    return null;
  }

  // coloursFor are the colours an island offers for a load or swap into
  // hole n: those of the legal moves, else the island's pearls.
  coloursFor(kind, n) {
    const set = new Set();
    for (const m of this.legal()) {
      const f = m.split(' ');
      if (kind === 'load' && f[0] === 'load' && f[2] === String(n)) set.add(f[1]);
      if (kind === 'swap' && f[0] === 'swap' && f[1] === String(n)) set.add(f[2]);
    }
    if (!set.size) {
      const v = this.view, raft = this.raftShown();
      const isl = v.docked && v.docked !== 'volcano' ? v.docked : raft && raft.home;
      const i = isl ? 'ABCDEFGH'.indexOf(isl) : -1;
      if (i >= 0) for (const c of v.islands[i]) set.add(c);
    }
    return [...set].sort((a, b) => 'RYGB'.indexOf(a) - 'RYGB'.indexOf(b));
  }

  chooseColour(c) {
    const m = this.mode;
    if (!m) return;
    this.send(m.kind === 'load' ? `load ${c} ${m.hole}` : `swap ${m.hole} ${c}`);
  }

  startTrade() {
    const trades = this.legal().filter(m => m.startsWith('trade '));
    const n = this.selected || (trades.length ? Number(trades[0].split(' ')[2]) : null);
    if (!n) return this.ctx.say('Pick a hole first (keys 1–6).', 'info');
    const rafts = new Set(trades.filter(t => t.split(' ')[2] === String(n)).map(t => t.split(' ')[1]));
    this.mode = {kind: 'trade', hole: n, raft: rafts.size === 1 ? [...rafts][0] : null};
    this.renderPanel();
    return 'asked';
  }

  tradeWith(j) {
    const m = this.mode;
    const t = this.legal().find(x => {
      const f = x.split(' ');
      return f[0] === 'trade' && f[2] === String(m.hole) && f[3] === String(j) && (!m.raft || f[1] === m.raft);
    });
    if (t) return this.send(t);
    // Not a trade the rules offer: sent all the same, for the reason.
    const raft = m.raft || (this.legal().find(x => x.startsWith('trade ')) || 'trade R').split(' ')[1];
    return this.send(`trade ${raft} ${m.hole} ${j}`);
  }

  // key takes the table's keys (see the top of the file).
  key(e) {
    if (!this.interactive || !this.state) return false;
    const k = e.key, v = this.view;
    if (e.target instanceof HTMLButtonElement && (k === 'Enter' || k === ' ')) return false;
    if (v.phase === 'place' && this.mine()) {
      if (DIR_KEYS[k]) { this.movePlace(DIR_KEYS[k]); return true; }
      if (k === 'r' || k === 'R') { this.movePlace(null, true); return true; }
      if ((k === 'Enter' || k === ' ') && this.place) { this.send(this.place.move); return true; }
      return false;
    }
    if (v.phase !== 'play' || this.you() == null) return false;
    // A key held down repeats faster than a hand moves: a repeat while a
    // move is on its way (the server holds it for its hand's time) is let
    // go, so that holding an arrow steps at the hand's pace and never
    // queues steps.
    if (e.repeat && !this.ctx.canMove()) return true;
    if (DIR_KEYS[k]) { this.send(DIR_KEYS[k]); return true; }
    if (/^[1-6]$/.test(k)) {
      if (this.mode && this.mode.kind === 'trade') this.tradeWith(Number(k));
      else this.pick(Number(k));
      return true;
    }
    const K = k.length === 1 ? k.toUpperCase() : k;
    if (this.mode && (this.mode.kind === 'load' || this.mode.kind === 'swap') && 'RYGB'.includes(K) && K.length === 1) {
      this.chooseColour(K);
      return true;
    }
    if (this.mode && this.mode.kind === 'trade' && 'RYGB'.includes(K) && K.length === 1) {
      this.mode.raft = K;
      this.renderPanel();
      return true;
    }
    // A colour with a hole picked: load it into an open hole, or swap the
    // hole's pearl for it.
    if (!this.mode && this.selected && 'RYGB'.includes(K) && K.length === 1) {
      const raft = this.raftShown();
      const full = raft && raft.holes[this.selected - 1] && raft.holes[this.selected - 1].pearl;
      this.send(full ? `swap ${this.selected} ${K}` : `load ${K} ${this.selected}`);
      return true;
    }
    switch (K) {
      case 'L': this.action('load'); return true;
      case 'U': case 'D': this.action('unload'); return true;
      case 'X': this.action('swap'); return true;
      case 'T': this.action('trade'); return true;
      case 'P': this.action('peek'); return true;
      case 'E': this.action('end'); return true;
      case 'Escape':
        if (!this.mode && !this.selected) return false;
        this.mode = null;
        this.selected = null;
        this.redraw();
        return true;
    }
    return false;
  }

  // click: a square of the board was clicked or tapped.
  click({row, col, at}) {
    if (this.ctx.modalOpen() || !this.state) return;
    const v = this.view;
    if (v.phase === 'place') {
      if (!this.mine()) return this.ctx.move('place H ' + at);
      const places = this.places();
      const covers = p => {
        const a = squareAt(p.at), {rows, cols} = extent(p.orient);
        return row >= a.row && row < a.row + rows && col >= a.col && col < a.col + cols;
      };
      if (this.place && covers(this.place)) return this.send(this.place.move);
      const p = places.find(x => covers(x) && x.orient === this.orient) || places.find(covers);
      if (!p) return this.ctx.say('Put your raft against the landing line of a free island: the dashed places.', 'info', 3000);
      this.place = p;
      this.orient = p.orient;
      this.board.setPlaces(places.filter(x => x.orient === p.orient), p);
      this.renderPanel();
      return;
    }
    if (v.phase !== 'play') return;
    const raft = this.raftShown();
    if (!raft || !raft.at) return;
    const hole = raft.holes.findIndex(x => x.square === at);
    if (hole >= 0) return this.pick(hole + 1);
    if (this.mode && this.mode.kind === 'trade') {
      const other = v.rafts.find(r => r.holes.some(x => x.square === at));
      if (other) {
        this.mode.raft = 'RYGB'[other.seat];
        return this.tradeWith(other.holes.findIndex(x => x.square === at) + 1);
      }
    }
    // A square beside the raft steps that way.
    const a = squareAt(raft.at), {rows, cols} = extent(raft.orient);
    let dir = null;
    if (col >= a.col && col < a.col + cols) dir = row === a.row - 1 ? 'N' : row === a.row + rows ? 'S' : null;
    else if (row >= a.row && row < a.row + rows) dir = col === a.col - 1 ? 'W' : col === a.col + cols ? 'E' : null;
    if (dir) this.send(dir);
  }

  refused(move) {
    const raft = this.raftShown();
    if (!move || !raft || !raft.at) return;
    if (/^[NESW]$/.test(move)) {
      const a = squareAt(raft.at), {rows, cols} = extent(raft.orient), [dr, dc] = DELTA[move];
      const row = a.row + (dr > 0 ? rows : dr < 0 ? -1 : Math.floor(rows / 2));
      const col = a.col + (dc > 0 ? cols : dc < 0 ? -1 : Math.floor(cols / 2));
      if (row >= 0 && row < SIZE && col >= 0 && col < SIZE) this.board.flash(squareName(row, col));
    }
  }

  // ---- The sand glass

  startGlass() {
    this.drawGlass();
    if (this.ticking) return;
    this.ticking = setInterval(() => {
      if (!this.el.isConnected && this.state) {
        clearInterval(this.ticking);
        this.ticking = null;
        return;
      }
      this.drawGlass();
    }, 200);
  }

  // drawGlass shows the turn's time as the sand glass: the sand left over
  // from the last turn runs first, then a fresh glass (docs/api.md).
  drawGlass() {
    const st = this.state;
    const cl = st && st.clocks && !st.over && st.to_move >= 0 ? st.clocks[st.to_move] : null;
    const time = this.ctx.time ? this.ctx.time() : null;
    if (!this.interactive || !cl || (time && time.kind !== 'turn')) {
      this.glass.el.hidden = true;
      return;
    }
    this.glass.el.hidden = false;
    const glassMs = (time && time.turn_ms) || GLASS_MS;
    // The clocks are as of when they arrived, with a move or on their
    // own (a seats event: a reconnection, the server back from a
    // restart), which replaces them.
    if (this.glassBase == null || this.glassClocks !== st.clocks) {
      this.glassClocks = st.clocks;
      this.glassBase = Date.now();
    }
    const left = Math.max(0, cl.remaining_ms - (cl.running ? Date.now() - this.glassBase : 0));
    const extra = left > glassMs;
    const upper = extra ? left - glassMs : left;
    this.glass.set(upper / glassMs, {running: cl.running && left > 0, text: clock(left), extra, low: left < 8000});
  }
}

// sandGlass draws a sand glass whose upper bulb holds a share of a glass.
function sandGlass() {
  const el = h('div', {class: 'lg-glass', role: 'timer', 'aria-label': 'The sand timer'});
  el.innerHTML = `<svg viewBox="0 0 40 64" class="lg-glass-svg" aria-hidden="true">
    <defs><clipPath id="lg-glass-top"><path d="M7 6 H33 C33 20 22 26 20.8 31 H19.2 C18 26 7 20 7 6 Z"/></clipPath>
    <clipPath id="lg-glass-bottom"><path d="M19.2 33 H20.8 C22 38 33 44 33 58 H7 C7 44 18 38 19.2 33 Z"/></clipPath></defs>
    <rect x="3" y="1.5" width="34" height="4.5" rx="1.5" class="lg-glass-cap"/><rect x="3" y="58" width="34" height="4.5" rx="1.5" class="lg-glass-cap"/>
    <path d="M7 6 H33 C33 20 22 26 20.8 32 C22 38 33 44 33 58 H7 C7 44 18 38 19.2 32 C18 26 7 20 7 6 Z" class="lg-glass-body"/>
    <rect class="lg-sand-top" x="5" width="30" clip-path="url(#lg-glass-top)"/>
    <rect class="lg-sand-bottom" x="5" width="30" clip-path="url(#lg-glass-bottom)"/>
    <line class="lg-stream" x1="20" y1="31" x2="20" y2="57"/>
  </svg>`;
  const top = el.querySelector('.lg-sand-top'), bottom = el.querySelector('.lg-sand-bottom'), stream = el.querySelector('.lg-stream');
  const text = h('div', {class: 'lg-glass-text'});
  el.append(text);
  return {
    el,
    // set fills the upper bulb to share (0 to 1) of a glass.
    set(share, {running, text: t, extra, low}) {
      share = Math.max(0, Math.min(1, share));
      // The upper bulb spans y 6 to 31, the lower 33 to 58.
      const topH = 25 * share, botH = 25 * (1 - share);
      top.setAttribute('y', String(31 - topH));
      top.setAttribute('height', String(topH));
      bottom.setAttribute('y', String(58 - botH));
      bottom.setAttribute('height', String(botH));
      stream.style.visibility = running && share > 0 ? 'visible' : 'hidden';
      el.classList.toggle('low', !!low);
      el.classList.toggle('running', !!running);
      el.dataset.share = share.toFixed(3);
      fill(text, h('b', {}, t), extra ? h('span', {class: 'lg-glass-extra'}, 'sand carried over, then a fresh glass') : h('span', {class: 'lg-glass-extra'}, running ? 'sand running' : 'the glass waits'));
    },
  };
}

// trails gives, for each raft, the squares its top-left corner went
// through in the moves marked (a suffix of the game's moves), found by
// going back from where it lies now.
function trails(view, moves) {
  const out = new Map();
  for (const raft of view.rafts || []) {
    if (!raft.at) continue;
    let {row, col} = squareAt(raft.at);
    const path = [raft.at];
    for (let i = moves.length - 1; i >= 0; i--) {
      const m = moves[i];
      if (!m || m.seat !== raft.seat) continue;
      if (m.move.startsWith('place ')) break;
      if (!DELTA[m.move]) continue;
      const [dr, dc] = DELTA[m.move];
      row -= dr; col -= dc;
      path.unshift(squareName(row, col));
    }
    if (path.length > 1) out.set(raft.seat, path);
  }
  return out;
}


// touchScreen reports whether the page is used with a finger: its words
// then say tap, not keys.
export function touchScreen() {
  return matchMedia('(pointer: coarse)').matches;
}

export function boardTitle(name) {
  return name === 'easy' ? 'original board, easy side' : name === 'hard' ? 'original board, hard side' : 'a board of your own';
}

// puzzleBox shows the solo game's target island by island, each ticked
// when it holds what the target wants, with the par.
export function puzzleBox(view, steps) {
  return h('div', {class: 'lg-goal'},
    h('div', {class: 'lg-box-title'}, 'The puzzle', h('span', {class: 'lg-par'}, view.par != null ? `par ${plural(view.par, 'step')}` : 'par unknown')),
    h('div', {class: 'lg-goal-list'}, view.goal.map((want, i) => {
      const done = view.islands[i] === want;
      return h('div', {class: 'lg-goal-row' + (done ? ' done' : ''), 'data-island': 'ABCDEFGH'[i]},
        h('b', {}, 'ABCDEFGH'[i]),
        h('span', {class: 'lg-goal-pearls', title: 'Wanted'}, [...want].map(c => icon(pearlIcon(c), 'icon lg-pearl-icon'))),
        h('span', {class: 'lg-goal-mark'}, done ? '✓' : ''));
    })),
    h('p', {class: 'lg-help'}, `Bring the islands' pearls to this pattern (two finish aboard) in as few steps as you can: ${steps} so far.`));
}
