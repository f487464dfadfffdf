// Blue Lagoon's table on the game and replay screens: the board, the
// settler/village toggle under it, the tip that says what a space holds and
// what a placement would take, and the keys S and V. A click on a space is
// a move in the rules' notation ("S 9,3", "T 9,3") handed to the shell,
// which sends it; the page never checks a move itself.

import {h, icon, fill} from '../../ui.js';
import {BoardView} from './board.js';
import {tokenPhrase} from './art.js';
import {idle, villageWhy} from './space.js';

export class Table {
  // ctx is the shell's (see games/README in docs/web.md): table, seats(),
  // you(), canMove(), move(text), say(text, kind), modalOpen().
  constructor(ctx, {interactive = true} = {}) {
    this.ctx = ctx;
    this.interactive = interactive;
    this.piece = 'settler';
    this.state = null;
    const board = ctx.table;
    this.board = new BoardView(board, interactive
      ? {interactive: true, label: `Board ${board.name || 'custom'}`}
      : {label: 'The board at the move shown'});
    this.tooltip = h('div', {class: 'tooltip', hidden: true});
    // The board scrolls in its own box when zoomed (zoom); otherwise the
    // box is no box at all (display: contents). The tip stays outside it,
    // placed by the wrap's own box.
    this.scroller = h('div', {class: 'board-scroll'}, this.board.svg);
    this.el = h('div', {class: 'board-wrap'}, this.scroller, this.tooltip);
    this.controls = null;
    if (interactive) {
      this.board.onclick = at => this.click(at);
      this.board.onhover = at => this.hover(at);
      this.settlerBtn = h('button', {class: 'piece-btn', type: 'button', 'data-piece': 'settler', 'aria-pressed': 'true',
        title: 'Place settlers (key S)', onclick: () => this.choose('settler')});
      this.villageBtn = h('button', {class: 'piece-btn', type: 'button', 'data-piece': 'village', 'aria-pressed': 'false',
        title: 'Place villages (key V)', onclick: () => this.choose('village')});
      this.why = h('p', {class: 'piece-why', hidden: true});
      // On a phone a space is some 27 px across, under a fingertip's 44:
      // zoomed, the board is drawn larger and scrolls (issue 47).
      this.zoomBtn = h('button', {class: 'btn btn-small zoom-btn', type: 'button', 'data-action': 'zoom', 'aria-pressed': 'false',
        title: 'Draw the board larger, to scroll, so that each space is a fingertip across', onclick: () => this.zoom(!this.el.classList.contains('zoomed'))}, 'Zoom in');
      this.controls = h('div', {class: 'piece-controls'},
        h('div', {class: 'piece-row'},
          this.toggle = h('div', {class: 'piece-toggle', role: 'group', 'aria-label': 'Piece to place'}, this.settlerBtn, this.villageBtn),
          this.zoomBtn),
        this.why);
    }
  }

  get view() { return this.state.view; }

  // zoom draws the board larger in a box of its own that scrolls, centred
  // on the spaces the player may take (or on the board), or as before.
  zoom(on) {
    this.el.classList.toggle('zoomed', on);
    this.zoomBtn.setAttribute('aria-pressed', String(on));
    fill(this.zoomBtn, on ? 'Zoom out' : 'Zoom in');
    this.tooltip.hidden = true;
    if (!on) return;
    const box = this.scroller.getBoundingClientRect();
    const legal = [...this.board.legal].map(at => this.board.hitFor(at)).filter(Boolean).map(e => e.getBoundingClientRect());
    const mid = legal.length
      ? {x: legal.reduce((n, r) => n + r.left + r.width / 2, 0) / legal.length, y: legal.reduce((n, r) => n + r.top + r.height / 2, 0) / legal.length}
      : {x: box.left + this.scroller.scrollWidth / 2, y: box.top + this.scroller.scrollHeight / 2};
    this.scroller.scrollLeft += mid.x - box.left - box.width / 2;
    this.scroller.scrollTop += mid.y - box.top - box.height / 2;
  }

  // update draws a state; animate: it follows the one drawn by one move.
  // recent are the moves to mark, oldest first (the shell's: every move
  // since the viewer's own last one); without them, the last move.
  update(state, {animate = false, recent = null} = {}) {
    this.state = state;
    const v = state.view;
    const marks = (recent || (state.last_move ? [state.last_move] : [])).filter(m => m && m.move.length > 2);
    this.board.setState({pieces: v.pieces, tokens: v.tokens,
      recent: marks.map((m, i) => ({at: m.move.slice(2), n: i + 1, seat: m.seat}))}, {animate});
    if (state.over) {
      // Nothing more to point at: the tip under a finger goes.
      this.tooltip.hidden = true;
      this.board.armed = null;
    }
    if (!this.interactive) return;
    const you = this.ctx.you();
    // Pieces the viewer can place now.
    const mine = you != null ? v.players[you] : null;
    if (v.phase === 'settlement' || (mine && mine.villages_left === 0)) this.piece = 'settler';
    if (mine && mine.settlers_left === 0 && mine.villages_left > 0 && v.phase === 'exploration') this.piece = 'village';
    this.updateLegal();
    // The tip under a pointer that has not moved says what is there now.
    if (!this.tooltip.hidden && this.board.hovered) this.hover(this.board.hovered);
    this.renderToggle();
  }

  renderToggle() {
    const v = this.view, you = this.ctx.you();
    const show = you != null && !this.state.over;
    this.controls.hidden = !show;
    this.toggle.hidden = !show;
    if (!show) return;
    const me = v.players[you];
    const table = this.ctx.table;
    // Why a piece cannot be placed, said on its button before a click.
    const skipped = v.current === you ? null : idle(table, v, you);
    const villageNo = skipped ? 'nowhere to place' : villageWhy(table, v, you);
    const settlerNo = skipped ? 'nowhere to place' : me.settlers_left === 0 ? 'none left' : null;
    fill(this.settlerBtn, icon('settler-' + you, 'icon piece-icon'),
      h('span', {class: 'piece-label'}, 'Settler', h('kbd', {}, 'S')), h('span', {class: 'piece-left'}, settlerNo || `${me.settlers_left} left`));
    fill(this.villageBtn, icon('village-' + you, 'icon piece-icon'),
      h('span', {class: 'piece-label'}, 'Village', h('kbd', {}, 'V')),
      h('span', {class: 'piece-left'}, villageNo === 'not in the settlement phase' ? 'not now' : villageNo || `${me.villages_left} left`));
    this.villageBtn.disabled = !!villageNo;
    this.villageBtn.title = villageNo ? `No village: ${villageNo}` : 'Place villages (key V)';
    this.settlerBtn.disabled = !!settlerNo;
    this.settlerBtn.title = settlerNo ? `No settler: ${settlerNo}` : 'Place settlers (key S)';
    this.why.hidden = !skipped;
    this.why.textContent = skipped === 'nowhere to place'
      ? 'Nowhere to place: no free space is next to your pieces, so your turns are skipped until the phase ends.'
      : skipped ? `You have ${skipped}: your turns are skipped until the phase ends.` : '';
    if (villageNo && this.piece === 'village' && !settlerNo) this.piece = 'settler';
    this.settlerBtn.setAttribute('aria-pressed', String(this.piece === 'settler'));
    this.villageBtn.setAttribute('aria-pressed', String(this.piece === 'village'));
  }

  updateLegal() {
    if (!this.ctx.canMove()) {
      this.board.setLegal([]);
      this.board.setGhost(null);
      return;
    }
    const letter = this.piece === 'village' ? 'T ' : 'S ';
    this.board.setLegal(this.view.legal.filter(m => m.startsWith(letter)).map(m => m.slice(2)));
    this.board.setGhost({seat: this.ctx.you(), piece: this.piece});
  }

  choose(piece) {
    const you = this.ctx.you();
    if (you == null || this.state.over) return;
    const v = this.view, me = v.players[you];
    if (piece === 'village' && (v.phase === 'settlement' || me.villages_left === 0)) {
      this.ctx.say(v.phase === 'settlement' ? 'No villages in the settlement phase: settlers only.' : 'You have no villages left.', 'info');
      return;
    }
    const no = piece === 'village' ? villageWhy(this.ctx.table, v, you) : null;
    if (no) {
      this.ctx.say(`No village now: ${no}.`, 'info');
      return;
    }
    if (piece === 'settler' && me.settlers_left === 0) {
      this.ctx.say('You have no settlers left: villages only.', 'info');
      return;
    }
    this.piece = piece;
    this.renderToggle();
    this.updateLegal();
    if (this.board.hovered) this.hover(this.board.hovered);
  }

  // key takes the keys of the table: S and V choose the piece.
  key(e) {
    const k = e.key.toLowerCase();
    if (k === 's') this.choose('settler');
    else if (k === 'v' || k === 't') this.choose('village');
    else return false;
    return true;
  }

  click(at) {
    if (this.ctx.modalOpen()) return;
    const move = (this.piece === 'village' ? 'T ' : 'S ') + at;
    if (this.ctx.move(move) === 'not_your_turn') this.board.flash(at, 'refused');
  }

  // propose shows the move waiting for the player's confirmation (null:
  // none): the piece stands on its space, faded, until confirmed.
  propose(text) {
    const you = this.ctx.you();
    this.board.setProposal(text && you != null ? {at: text.slice(2), seat: you, piece: pieceOf(text)} : null);
  }

  // refused marks the space of a move the server refused.
  refused(move) {
    if (move) this.board.flash(move.slice(2));
  }

  hover(at) {
    const tip = this.tooltip;
    // Once the game is over a tip comes only under a mouse: a finger's tap
    // or a focus given back by a dialog would leave it on the board.
    if (!at || (this.state.over && this.board.pointer !== 'mouse')) { tip.hidden = true; return; }
    const sp = this.board.geo.get(at);
    const v = this.view, seats = this.ctx.seats();
    const piece = v.pieces.find(p => p.at === at);
    const token = v.tokens.find(t => t.at === at);
    const isl = sp.island >= 0 ? this.ctx.table.islands[sp.island] : null;
    const lines = [];
    lines.push(h('div', {class: 'tip-title'}, isl ? `Island · bonus ${isl.bonus}` : 'Sea', h('span', {class: 'tip-at'}, at)));
    if (piece) {
      lines.push(h('div', {}, icon(`${piece.piece}-${piece.seat}`, 'icon piece-icon'), `${seats[piece.seat].name}'s ${piece.piece}`));
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
    const wrap = this.el.getBoundingClientRect();
    const r = this.board.hitFor(at).getBoundingClientRect();
    const x = r.left + r.width / 2 - wrap.left;
    const above = r.top - wrap.top > 90;
    const half = tip.offsetWidth / 2 + 4;
    tip.style.left = `${Math.max(half, Math.min(wrap.width - half, x))}px`;
    tip.style.top = above ? `${r.top - wrap.top - 6}px` : `${r.bottom - wrap.top + 6}px`;
    tip.classList.toggle('below', !above);
  }
}

const pieceOf = move => (move[0] === 'T' ? 'village' : 'settler');
