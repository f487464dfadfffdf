// BoardView draws a board as SVG hexes from the server's Board object
// (docs/api.md): sea and islands, island bonuses, stone circles, and on top
// of them the tokens, the pieces, the last move, the legal spaces and a
// preview of the piece under the pointer.
//
// Rows are horizontal; even rows are half a space indented and one space
// shorter (rules, section 2), so the hexes are "pointy-top".

import {s} from '../../ui.js';

const R = 10;                    // a hex's radius, in board units
const W = R * Math.sqrt(3);      // a hex's width
const PAD = 7;                   // the deep sea around the spaces

const LAND = ['#bcd98c', '#dccf8e', '#a8d2a0', '#e2d6a2', '#c6dd90', '#d2d89c', '#b3d4a8', '#dec98c'];

// The corners of a hex, clockwise from the top.
const CORNERS = Array.from({length: 6}, (_, k) => {
  const a = (-90 + 60 * k) * Math.PI / 180;
  return [R * Math.cos(a), R * Math.sin(a)];
});

const key = (r, c) => `${r},${c}`;

// Each drawing names its gradients apart from the others on the page.
let drawings = 0;

function hexPoints(x, y, scale = 1) {
  return CORNERS.map(([dx, dy]) => `${(x + dx * scale).toFixed(2)},${(y + dy * scale).toFixed(2)}`).join(' ');
}

// across returns the space across edge k of (r, c), edge k joining corners k
// and k+1: upper right, right, lower right, lower left, left, upper left.
function across(r, c, k) {
  const even = r % 2 === 0;
  switch (k) {
    case 0: return [r - 1, even ? c + 1 : c];
    case 1: return [r, c + 1];
    case 2: return [r + 1, even ? c + 1 : c];
    case 3: return [r + 1, even ? c : c - 1];
    case 4: return [r, c - 1];
    default: return [r - 1, even ? c : c - 1];
  }
}

// Geometry is a board's spaces with their places on the drawing.
class Geometry {
  constructor(board) {
    this.board = board;
    const H = board.height;
    this.height = H;
    this.spaces = new Map();  // "r,c" -> {r, c, x, y, island, stone}
    for (let r = 0; r < H; r++) {
      const len = r % 2 === 0 ? H - 1 : H;
      for (let c = 0; c < len; c++) {
        this.spaces.set(key(r, c), {
          at: key(r, c), r, c,
          x: PAD + c * W + (r % 2 === 0 ? W : W / 2),
          y: PAD + R + r * 1.5 * R,
          island: -1, stone: false,
        });
      }
    }
    board.islands.forEach((isl, i) => {
      for (const at of isl.spaces) this.spaces.get(at).island = i;
    });
    for (const at of board.stone_circles) this.spaces.get(at).stone = true;
    this.width = H * W + 2 * PAD;
    this.heightPx = (H - 1) * 1.5 * R + 2 * R + 2 * PAD;
  }

  get(at) { return this.spaces.get(at); }

  islandOf(at) {
    const sp = this.spaces.get(at);
    return sp ? sp.island : -1;
  }

  // bonusSpot finds where to write an island's bonus: a corner inside the
  // island, near its middle, away from stone circles, so that the badge
  // covers no piece.
  bonusSpot(i) {
    const spaces = this.board.islands[i].spaces.map(at => this.spaces.get(at));
    const cx = spaces.reduce((a, p) => a + p.x, 0) / spaces.length;
    const cy = spaces.reduce((a, p) => a + p.y, 0) / spaces.length;
    const corners = new Map();
    for (const p of spaces) {
      for (const [dx, dy] of CORNERS) {
        const x = p.x + dx, y = p.y + dy;
        const k = `${x.toFixed(1)},${y.toFixed(1)}`;
        const e = corners.get(k) || {x, y, n: 0, stones: 0};
        e.n++;
        if (p.stone) e.stones++;
        corners.set(k, e);
      }
    }
    let best = null, bestCost = Infinity;
    for (const e of corners.values()) {
      const cost = Math.hypot(e.x - cx, e.y - cy) + (3 - e.n) * 30 + e.stones * 12;
      if (cost < bestCost) { best = e; bestCost = cost; }
    }
    return best;
  }
}

export class BoardView {
  // options: interactive (pointer events on the spaces), label (for
  // screen readers), mini (a small preview without tokens or badges).
  constructor(board, {interactive = false, label = 'The board', mini = false} = {}) {
    this.geo = new Geometry(board);
    this.interactive = interactive;
    this.mini = mini;
    this.pieces = new Map();   // at -> element
    this.tokens = new Map();   // at -> element
    this.legal = new Set();
    this.onclick = null;       // (at, event)
    this.onhover = null;       // (at or null)
    this.hovered = null;
    this.armed = null;         // the legal space a finger's first tap previews
    this.pointer = null;       // the kind of pointer last pressed on the board
    this.ghostPiece = null;    // {seat, piece} drawn under the pointer on legal spaces
    this.svg = this.draw(label);
  }

  draw(label) {
    const g = this.geo;
    const uid = ++drawings;
    // A picture, unless it is played on: then a group whose legal spaces
    // are buttons, reached with Tab and the arrow keys.
    const svg = s('svg', {
      class: 'board' + (this.mini ? ' board-mini' : '') + (this.interactive ? ' board-interactive' : ''),
      viewBox: `0 0 ${g.width.toFixed(1)} ${g.heightPx.toFixed(1)}`,
      role: this.interactive ? 'group' : 'img', 'aria-label': label,
    });
    const defs = s('defs', {},
      s('linearGradient', {id: `sea-grad-${uid}`, gradientUnits: 'userSpaceOnUse', x1: 0, y1: 0, x2: g.width, y2: g.heightPx},
        s('stop', {offset: '0', 'stop-color': '#3fa3cf'}),
        s('stop', {offset: '0.55', 'stop-color': '#2a86b6'}),
        s('stop', {offset: '1', 'stop-color': '#1f6f9d'})),
      s('radialGradient', {id: `deep-grad-${uid}`, cx: '50%', cy: '45%', r: '75%'},
        s('stop', {offset: '0', 'stop-color': '#145e86'}),
        s('stop', {offset: '1', 'stop-color': '#0a3954'})));
    svg.append(defs);
    svg.append(s('rect', {class: 'deep', x: 0, y: 0, width: g.width, height: g.heightPx, rx: 9, fill: `url(#deep-grad-${uid})`}));

    const sea = s('g', {class: 'sea'});
    const land = s('g', {class: 'land'});
    const stones = s('g', {class: 'stones'});
    let beach = '', coast = '';
    for (const sp of g.spaces.values()) {
      if (sp.island < 0) {
        sea.append(s('polygon', {points: hexPoints(sp.x, sp.y, 0.97), fill: `url(#sea-grad-${uid})`}));
        continue;
      }
      land.append(s('polygon', {points: hexPoints(sp.x, sp.y), fill: LAND[sp.island % LAND.length]}));
      for (let k = 0; k < 6; k++) {
        const [nr, nc] = across(sp.r, sp.c, k);
        if (g.islandOf(key(nr, nc)) === sp.island) continue;
        const [x1, y1] = CORNERS[k], [x2, y2] = CORNERS[(k + 1) % 6];
        const seg = `M${(sp.x + x1).toFixed(2)} ${(sp.y + y1).toFixed(2)}L${(sp.x + x2).toFixed(2)} ${(sp.y + y2).toFixed(2)}`;
        beach += seg;
        coast += seg;
      }
      if (sp.stone) {
        stones.append(s('use', {href: '#stone-circle', x: sp.x - 9.3, y: sp.y - 9.3, width: 18.6, height: 18.6, class: 'stone-circle'}));
      }
    }
    svg.append(sea);
    svg.append(s('path', {class: 'beach', d: beach}));
    svg.append(land);
    svg.append(s('path', {class: 'coast', d: coast}));
    svg.append(stones);

    this.layers = {};
    for (const name of ['highlights', 'tokens', 'pieces', 'marks', 'badges', 'proposal', 'ghost', 'hits']) {
      this.layers[name] = s('g', {class: 'layer-' + name});
      svg.append(this.layers[name]);
    }
    if (!this.mini) {
      this.geo.board.islands.forEach((isl, i) => {
        const spot = g.bonusSpot(i);
        if (!spot) return;
        this.layers.badges.append(s('g', {class: 'badge', transform: `translate(${spot.x.toFixed(2)} ${spot.y.toFixed(2)})`, 'data-island': i},
          s('circle', {r: 3.9}),
          s('text', {y: 1.45, 'text-anchor': 'middle'}, String(isl.bonus))));
      });
    }
    if (this.interactive) {
      for (const sp of g.spaces.values()) {
        this.layers.hits.append(s('polygon', {
          class: 'hit', points: hexPoints(sp.x, sp.y), 'data-at': sp.at,
        }));
      }
      // A finger covers the small spaces of a phone and has no hover to
      // preview with: its first tap on a legal space previews the piece
      // there (armed), and a second tap on it places it.
      this.layers.hits.addEventListener('pointerdown', e => { this.pointer = e.pointerType; });
      this.layers.hits.addEventListener('click', e => {
        const at = e.target.getAttribute && e.target.getAttribute('data-at');
        if (!at || !this.onclick) return;
        if (this.pointer === 'touch' && this.legal.has(at) && this.armed !== at) {
          this.armed = at;
          this.hovered = null;
          this.hover(at);
          return;
        }
        this.armed = null;
        if (this.pointer === 'touch') this.hover(null);
        this.onclick(at, e);
      });
      this.layers.hits.addEventListener('keydown', e => this.key(e));
      this.layers.hits.addEventListener('focusin', e => {
        const at = e.target.getAttribute('data-at');
        if (at) { this.focused = at; this.hover(at); }
      });
      this.layers.hits.addEventListener('focusout', () => this.hover(null));
      // Hovering is for mice and pens; a finger's tap is a click.
      this.layers.hits.addEventListener('pointerover', e => {
        const at = e.target.getAttribute && e.target.getAttribute('data-at');
        if (at && e.pointerType !== 'touch') this.hover(at);
      });
      // A finger leaves at every tap; its preview stays until the next.
      this.layers.hits.addEventListener('pointerleave', e => { if (e.pointerType !== 'touch') this.hover(null); });
    }
    return svg;
  }

  // key plays the board from the keyboard: Enter or Space places the piece
  // on the focused space, the arrow keys go to the nearest legal space that
  // way.
  key(e) {
    const at = e.target.getAttribute && e.target.getAttribute('data-at');
    if (!at) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (this.onclick) this.onclick(at, e);
      return;
    }
    const dirs = {ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1]};
    const d = dirs[e.key];
    if (!d) return;
    e.preventDefault();
    const from = this.geo.get(at);
    let best = null, bestCost = Infinity;
    for (const to of this.legal) {
      const sp = this.geo.get(to);
      const along = (sp.x - from.x) * d[0] + (sp.y - from.y) * d[1];
      const aside = Math.abs((sp.x - from.x) * d[1] - (sp.y - from.y) * d[0]);
      if (along <= 0.5 || aside > along * 2) continue;
      const cost = along + 2 * aside;
      if (cost < bestCost) { best = to; bestCost = cost; }
    }
    if (best) this.focusSpace(best);
  }

  focusSpace(at) {
    const hit = this.hitFor(at);
    if (!hit) return;
    for (const el of this.layers.hits.querySelectorAll('[tabindex="0"]')) el.setAttribute('tabindex', '-1');
    hit.setAttribute('tabindex', '0');
    hit.focus({preventScroll: true});
  }

  // spaceLabel says what a space is, for a screen reader.
  spaceLabel(at) {
    const sp = this.geo.get(at);
    const parts = [at, sp.island >= 0 ? `island with bonus ${this.geo.board.islands[sp.island].bonus}` : 'sea'];
    const token = this.tokens.get(at);
    if (token) parts.push(token.dataset.token);
    else if (sp.stone) parts.push('stone circle');
    return parts.join(', ');
  }

  // hitFor returns the clickable polygon of a space.
  hitFor(at) {
    return this.layers.hits.querySelector(`[data-at="${at}"]`);
  }

  hover(at) {
    // A finger's preview ends when anything else is pointed at or focused:
    // a tap after that previews again instead of placing unseen.
    if (at !== this.armed) this.armed = null;
    if (at === this.hovered) return;
    this.hovered = at;
    this.drawGhost();
    if (this.onhover) this.onhover(at);
  }

  // setGhost chooses the piece previewed on legal spaces under the pointer.
  setGhost(ghost) {
    this.ghostPiece = ghost;
    this.drawGhost();
  }

  drawGhost() {
    const layer = this.layers.ghost;
    layer.replaceChildren();
    for (const el of this.layers.highlights.querySelectorAll('.hover')) el.classList.remove('hover');
    const at = this.hovered;
    if (!at) return;
    const hl = this.layers.highlights.querySelector(`[data-at="${at}"]`);
    if (hl) hl.classList.add('hover');
    if (!this.ghostPiece || !this.legal.has(at)) return;
    const sp = this.geo.get(at);
    layer.append(pieceShape(sp, this.ghostPiece.seat, this.ghostPiece.piece, 'ghost'));
  }

  // setLegal highlights the spaces where the selected piece may go.
  setLegal(spaces) {
    this.legal = new Set(spaces);
    if (!this.legal.has(this.armed)) this.armed = null;
    if (this.interactive) this.keyboardSpaces();
    const layer = this.layers.highlights;
    layer.replaceChildren();
    for (const at of this.legal) {
      const sp = this.geo.get(at);
      layer.append(s('g', {class: 'legal', 'data-at': at},
        s('polygon', {points: hexPoints(sp.x, sp.y, 0.84)}),
        s('circle', {cx: sp.x, cy: sp.y, r: 1.7})));
    }
    this.svg.classList.toggle('has-legal', this.legal.size > 0);
    this.drawGhost();
  }

  // keyboardSpaces makes the legal spaces buttons, one of them in the tab
  // order (the one last focused, if still legal), and the others not. A
  // space that has the focus keeps it while there is nothing to place (a
  // move sent, the others' turns), and hands it to a legal space when
  // there is again, so the keyboard stays on the board from move to move.
  keyboardSpaces() {
    const active = this.layers.hits.contains(document.activeElement) ? document.activeElement : null;
    const keep = this.legal.has(this.focused) ? this.focused : this.legal.values().next().value;
    for (const hit of this.layers.hits.querySelectorAll('[tabindex]')) {
      if (this.legal.has(hit.dataset.at)) continue;
      hit.removeAttribute('role');
      hit.removeAttribute('aria-label');
      // The space with the focus, or that had it before a dialog took it,
      // stays focusable, for the focus to come back to.
      if (hit === active || hit.dataset.at === this.focused) hit.setAttribute('tabindex', '-1');
      else hit.removeAttribute('tabindex');
    }
    for (const at of this.legal) {
      const hit = this.hitFor(at);
      hit.setAttribute('role', 'button');
      hit.setAttribute('aria-label', 'Place on ' + this.spaceLabel(at));
      hit.setAttribute('tabindex', at === keep ? '0' : '-1');
    }
    // Only a keyboard's focus is carried on (a click's would bring up the
    // preview where the pointer is not).
    if (active && active.matches(':focus-visible') && keep && !this.legal.has(active.dataset.at)) this.focusSpace(keep);
  }

  // setState draws the pieces, tokens and last move of a state. With
  // animate, what arrives drops in and what goes fades out.
  setState(state, {animate = false} = {}) {
    const g = this.geo;
    const pieceKey = p => `${p.seat}${p.piece}`;
    const wanted = new Map(state.pieces.map(p => [p.at, p]));
    for (const [at, el] of this.pieces) {
      const p = wanted.get(at);
      if (p && el.dataset.key === pieceKey(p)) continue;
      this.pieces.delete(at);
      leave(el, animate);
    }
    for (const p of state.pieces) {
      if (this.pieces.has(p.at)) continue;
      const el = pieceShape(g.get(p.at), p.seat, p.piece, animate ? 'piece enter' : 'piece');
      el.dataset.key = pieceKey(p);
      this.layers.pieces.append(el);
      this.pieces.set(p.at, el);
    }

    if (!this.mini) {
      const tokens = new Map(state.tokens.map(t => [t.at, t.token]));
      let dealt = 0;
      for (const [at, el] of this.tokens) {
        if (tokens.get(at) === el.dataset.token) continue;
        this.tokens.delete(at);
        leave(el, animate, 'taken');
      }
      const many = animate && [...tokens.keys()].filter(at => !this.tokens.has(at)).length > 4;
      for (const t of state.tokens) {
        if (this.tokens.has(t.at)) continue;
        const el = tokenShape(g.get(t.at), t.token);
        if (many) {
          el.classList.add('dealt');
          el.style.animationDelay = `${(dealt++) * 25}ms`;
        }
        this.layers.tokens.append(el);
        this.tokens.set(t.at, el);
      }
    }

    // The moves to mark, oldest first: the last with a turning ring, and
    // with several, each numbered in order, the older ones fainter. A
    // piece that arrived with them drops in one after the other.
    const marks = this.layers.marks;
    const had = new Set([...marks.querySelectorAll('[data-at]')].map(el => el.dataset.at));
    marks.replaceChildren();
    const recent = (state.recent || (state.last_move ? [{at: state.last_move.move.slice(2), n: 1}] : [])).filter(m => g.get(m.at) && wanted.has(m.at));
    if (this.mini) return;
    let fresh = 0;
    recent.forEach((m, i) => {
      const sp = g.get(m.at);
      const last = i === recent.length - 1;
      const isNew = animate && !had.has(m.at);
      const age = recent.length - 1 - i;
      const el = s('g', {class: 'recent-move' + (last ? ' newest' : ''), 'data-at': m.at, 'data-n': m.n, style: `opacity: ${Math.max(0.45, 1 - age * 0.12)}`},
        s('circle', {class: 'last-move' + (isNew ? ' fresh' : ''), cx: sp.x, cy: sp.y, r: 8.6, 'data-at': m.at}));
      if (recent.length > 1) {
        el.append(s('g', {class: 'recent-no', transform: `translate(${(sp.x + 6.2).toFixed(2)} ${(sp.y - 6.2).toFixed(2)})`},
          s('circle', {r: 3.3}), s('text', {y: 1.35, 'text-anchor': 'middle'}, String(m.n))));
      }
      if (isNew) {
        const piece = this.pieces.get(m.at);
        if (piece && piece.classList.contains('enter')) piece.style.setProperty('--delay', `${(fresh++) * 180}ms`);
      }
      marks.append(el);
    });
  }

  // setProposal draws the piece of a move waiting for confirmation, or
  // none: {at, seat, piece}.
  setProposal(p) {
    const layer = this.layers.proposal;
    const key = p ? `${p.at} ${p.seat} ${p.piece}` : '';
    if (layer.dataset.key === key) return;
    layer.dataset.key = key;
    layer.replaceChildren();
    if (!p || !this.geo.get(p.at)) return;
    const sp = this.geo.get(p.at);
    layer.append(s('polygon', {class: 'proposal-space', points: hexPoints(sp.x, sp.y, 0.9)}));
    layer.append(pieceShape(sp, p.seat, p.piece, 'proposal'));
  }

  // flash marks a space briefly, for a refused click.
  flash(at, cls = 'refused') {
    const sp = this.geo.get(at);
    if (!sp) return;
    const el = s('polygon', {class: 'flash ' + cls, points: hexPoints(sp.x, sp.y, 0.9)});
    this.layers.marks.append(el);
    setTimeout(() => el.remove(), 900);
  }
}

function leave(el, animate, cls = 'leave') {
  if (!animate) { el.remove(); return; }
  el.classList.add(cls);
  setTimeout(() => el.remove(), 450);
}

// pieceShape draws a piece of a seat on a space.
function pieceShape(sp, seat, piece, cls) {
  const size = piece === 'village' ? 15.5 : 13;
  return s('g', {class: cls, transform: `translate(${sp.x.toFixed(2)} ${sp.y.toFixed(2)})`,
    'data-at': sp.at, 'data-seat': seat, 'data-piece': piece},
    s('use', {href: `#${piece}-${seat}`, x: -size / 2, y: -size / 2, width: size, height: size}));
}

function tokenShape(sp, kind) {
  return s('g', {class: 'token', transform: `translate(${sp.x.toFixed(2)} ${sp.y.toFixed(2)})`, 'data-at': sp.at, 'data-token': kind},
    s('g', {class: 'token-body'},
      s('circle', {class: 'token-disc', r: 5.7}),
      s('use', {href: `#tok-${kind}`, x: -4.3, y: -4.3, width: 8.6, height: 8.6})));
}
