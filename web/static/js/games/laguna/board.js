// BoardView draws a Laguna board as SVG from the server's table (the 24 rows
// of the board notation, laguna/view.go): the sea, the eight islands with
// their landing lines, the volcano, reefs and current arrows; and on top, a
// state's view: the pearls on the islands and in the volcano, the rafts with
// their six holes and pearls, the recent steps as a trail, a selected hole,
// and the places a raft may be put in the placing phase.
//
// What lies under a pearl is not drawn: a square under a hole holding a
// pearl shows plain water unless the view says what shows through it (the
// owner peeking, or the open board assist). That is the table's memory game.

import {s} from '../../ui.js';
import {COLOURS, pearlIcon} from './art.js';

export const SIZE = 24;
const C = 10;        // a square, in board units
const M = 4;         // the margin around the squares
const ISLAND_FILL = '#e9d49a';

// square names: "c7" is the third column, seventh row (a1 top left).
export const squareName = (row, col) => String.fromCharCode(97 + col) + (row + 1);
export function squareAt(name) {
  return {row: Number(name.slice(1)) - 1, col: name.charCodeAt(0) - 97};
}
const DIRS = {'^': 'N', '>': 'E', 'v': 'S', '<': 'W'};
export const DELTA = {N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1]};
const ROTATE = {N: 0, E: 90, S: 180, W: 270};

// kindOf says what a square of the notation is: water, reef, arrow, volcano,
// island, landing (water along an island).
export function kindOf(ch) {
  if (!ch || ch === '.') return {kind: 'water'};
  if (ch === '#') return {kind: 'reef'};
  if (DIRS[ch]) return {kind: 'arrow', dir: DIRS[ch]};
  if (ch === '@') return {kind: 'volcano'};
  if (ch >= 'A' && ch <= 'H') return {kind: 'island', island: ch};
  if (ch >= 'a' && ch <= 'h') return {kind: 'landing', island: ch.toUpperCase()};
  return {kind: 'water'};
}

// describeSquare says in words what a character shows.
export function describeSquare(ch) {
  const k = kindOf(ch);
  switch (k.kind) {
    case 'reef': return 'a reef';
    case 'arrow': return `a current to the ${{N: 'north', E: 'east', S: 'south', W: 'west'}[k.dir]}`;
    default: return 'open water';
  }
}

// extent is a raft's size in squares: across (H) 3 wide and 2 high.
export const extent = orient => (orient === 'V' ? {rows: 3, cols: 2} : {rows: 2, cols: 3});

let drawings = 0;

export class BoardView {
  // options: interactive (the board takes clicks and taps), label (for
  // screen readers), mini (a small picture: no pearls' marks or numbers).
  constructor(table, {interactive = false, label = 'The board', mini = false} = {}) {
    this.table = table;
    this.rows = table.rows;
    this.interactive = interactive;
    this.mini = mini;
    this.symbols = new Map();   // square -> the reef's or arrow's element
    this.rafts = new Map();     // seat -> {g, holes: [..]}
    this.islandPearls = new Map();
    this.onclick = null;        // ({row, col}, event)
    this.places = this.findPlaces();
    this.svg = this.draw(label);
  }

  charAt(row, col) { return this.rows[row] ? this.rows[row][col] : undefined; }

  // findPlaces gathers each island's and the volcano's squares, and the
  // islands' landing lines.
  findPlaces() {
    const places = new Map();
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const k = kindOf(this.charAt(r, c));
        const name = k.kind === 'volcano' ? '@' : k.kind === 'island' ? k.island : k.kind === 'landing' ? 'l' + k.island : null;
        if (!name) continue;
        const p = places.get(name) || {r0: r, c0: c, r1: r, c1: c, squares: []};
        p.r0 = Math.min(p.r0, r); p.c0 = Math.min(p.c0, c); p.r1 = Math.max(p.r1, r); p.c1 = Math.max(p.c1, c);
        p.squares.push([r, c]);
        places.set(name, p);
      }
    }
    return places;
  }

  draw(label) {
    const uid = ++drawings;
    const W = SIZE * C + 2 * M;
    const svg = s('svg', {class: 'lg-board' + (this.mini ? ' lg-mini' : '') + (this.interactive ? ' lg-interactive' : ''),
      viewBox: `0 0 ${W} ${W}`, role: 'img', 'aria-label': label});
    svg.append(s('defs', {},
      s('linearGradient', {id: `lg-sea-${uid}`, x1: 0, y1: 0, x2: 1, y2: 1},
        s('stop', {offset: 0, 'stop-color': '#46aad6'}), s('stop', {offset: 1, 'stop-color': '#2479a8'})),
      s('pattern', {id: `lg-grid-${uid}`, width: C, height: C, patternUnits: 'userSpaceOnUse', x: M, y: M},
        s('path', {d: `M${C} 0 H0 V${C}`, fill: 'none', stroke: 'rgba(255,255,255,.16)', 'stroke-width': .4}))));
    svg.append(s('rect', {class: 'lg-sea', x: 0, y: 0, width: W, height: W, rx: 6, fill: `url(#lg-sea-${uid})`}));
    svg.append(s('rect', {x: M, y: M, width: SIZE * C, height: SIZE * C, fill: `url(#lg-grid-${uid})`}));
    const ground = s('g', {class: 'lg-ground'});
    const marks = s('g', {class: 'lg-marks'});
    svg.append(ground, marks);
    for (const [name, p] of this.places) {
      const x = M + p.c0 * C, y = M + p.r0 * C, w = (p.c1 - p.c0 + 1) * C, hgt = (p.r1 - p.r0 + 1) * C;
      if (name.startsWith('l')) {
        ground.append(s('rect', {class: 'lg-landing', x: x + .6, y: y + .6, width: w - 1.2, height: hgt - 1.2, rx: 2.5}));
      } else if (name === '@') {
        ground.append(this.drawVolcano(x, y, w, hgt));
      } else {
        ground.append(this.drawIsland(name, x, y, w, hgt));
      }
    }
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        const k = kindOf(this.charAt(r, c));
        if (k.kind !== 'reef' && k.kind !== 'arrow') continue;
        const cx = M + c * C + C / 2, cy = M + r * C + C / 2;
        const el = s('use', {href: k.kind === 'reef' ? '#lg-reef' : '#lg-arrow', x: -12, y: -12, width: 24, height: 24,
          class: 'lg-sym lg-' + k.kind, 'data-at': squareName(r, c),
          transform: `translate(${cx} ${cy}) scale(${k.kind === 'reef' ? .4 : .36})` + (k.kind === 'arrow' ? ` rotate(${ROTATE[k.dir]})` : '')});
        marks.append(el);
        this.symbols.set(squareName(r, c), el);
      }
    }
    this.layerPlaces = s('g', {class: 'lg-places-layer'});
    this.layerTrail = s('g', {class: 'lg-trails'});
    this.layerRafts = s('g', {class: 'lg-rafts'});
    this.layerTop = s('g', {class: 'lg-top'});
    svg.append(this.layerPlaces, this.layerTrail, this.layerRafts, this.layerTop);
    if (this.interactive) {
      const hit = s('rect', {class: 'lg-hit', x: M, y: M, width: SIZE * C, height: SIZE * C, fill: 'transparent'});
      hit.addEventListener('click', e => {
        const at = this.squareFromEvent(e);
        if (at && this.onclick) this.onclick(at, e);
      });
      svg.append(hit);
    }
    return svg;
  }

  drawIsland(letter, x, y, w, hgt) {
    const g = s('g', {class: 'lg-island', 'data-island': letter},
      s('rect', {x: x + .5, y: y + .5, width: w - 1, height: hgt - 1, rx: 4, fill: ISLAND_FILL, stroke: '#8c6d2c', 'stroke-width': .8}),
      s('rect', {x: x + 2.5, y: y + 2.5, width: w - 5, height: hgt - 5, rx: 3, fill: '#9fcf7c', opacity: .55}));
    // The letter in a corner away from the edge of the board, the pearls
    // along the island's long side.
    const wide = w >= hgt;
    const lx = x + (wide ? 4.5 : w / 2), ly = y + (wide ? hgt / 2 : 4.5);
    g.append(s('circle', {cx: lx, cy: ly, r: 3.6, class: 'lg-badge'}),
      s('text', {x: lx, y: ly + 1.5, class: 'lg-badge-text', 'text-anchor': 'middle'}, letter));
    const slots = s('g', {class: 'lg-island-pearls'});
    const spots = [];
    for (let i = 0; i < 3; i++) {
      spots.push(wide ? [x + 11.5 + i * 6.4, y + hgt / 2] : [x + w / 2, y + 11.5 + i * 6.4]);
    }
    this.islandPearls.set(letter, {g: slots, spots, shown: ''});
    g.append(slots);
    return g;
  }

  drawVolcano(x, y, w, hgt) {
    const cx = x + w / 2, cy = y + hgt / 2;
    const g = s('g', {class: 'lg-volcano'},
      s('rect', {x: x + .5, y: y + .5, width: w - 1, height: hgt - 1, rx: 7, fill: '#d9c49a', stroke: '#6e5234', 'stroke-width': .8}),
      s('path', {d: `M${x + 5} ${y + hgt - 6} L${cx - 6} ${y + 9} L${cx + 6} ${y + 9} L${x + w - 5} ${y + hgt - 6} Z`, fill: '#7a5a48', stroke: '#3b261a', 'stroke-width': .8, 'stroke-linejoin': 'round'}),
      s('ellipse', {cx, cy: y + 9, rx: 6, ry: 2, fill: '#ff7a2f', class: 'lg-crater'}));
    // The pearls delivered, one count a colour.
    this.volcanoCounts = COLOURS.map((c, i) => {
      const px = x + 4.5 + i * ((w - 6) / 4), py = y + hgt - 5;
      const text = s('text', {x: px + 3.2, y: py + 1.4, class: 'lg-count'}, '0');
      g.append(s('g', {class: 'lg-volcano-pearl', 'data-colour': c.letter},
        s('use', {href: '#' + pearlIcon(c.letter), x: -12, y: -12, width: 24, height: 24, transform: `translate(${px} ${py}) scale(.22)`}), text));
      return text;
    });
    return g;
  }

  squareFromEvent(e) {
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = pt.matrixTransform(m.inverse());
    const col = Math.floor((p.x - M) / C), row = Math.floor((p.y - M) / C);
    if (row < 0 || col < 0 || row >= SIZE || col >= SIZE) return null;
    return {row, col, at: squareName(row, col)};
  }

  // setState draws a view: the rafts, the pearls on the islands and in the
  // volcano. animate: the view follows the one drawn by a move, so that
  // what changed moves. trails: seat -> the squares its raft's top-left
  // corner went through lately, oldest first. selected: the viewer's
  // selected hole {seat, hole}.
  setState(view, {animate = false, trails = new Map(), selected = null} = {}) {
    this.view = view;
    // Islands' pearls.
    (view.islands || []).forEach((pearls, i) => {
      const isl = this.islandPearls.get('ABCDEFGH'[i]);
      if (!isl || isl.shown === pearls) return;
      const before = isl.shown;
      isl.shown = pearls;
      isl.g.replaceChildren(...[...pearls].map((c, k) => s('use', {href: '#' + pearlIcon(c), x: -12, y: -12, width: 24, height: 24,
        class: 'lg-pearl' + (animate && before[k] !== c ? ' lg-pop' : ''), 'data-colour': c,
        transform: `translate(${isl.spots[k][0]} ${isl.spots[k][1]}) scale(.24)`})));
    });
    if (this.volcanoCounts) (view.volcano || []).forEach((n, i) => {
      const t = this.volcanoCounts[i];
      if (t.textContent !== String(n)) {
        t.textContent = String(n);
        if (animate) pop(t.parentNode);
      }
      t.parentNode.classList.toggle('lg-none', n === 0);
    });
    // Squares under a pearl that shows nothing are drawn as plain water.
    const hidden = new Set();
    for (const raft of view.rafts || []) {
      for (const hv of raft.holes) if (hv.pearl && !hv.shows) hidden.add(hv.square);
    }
    for (const [at, el] of this.symbols) el.classList.toggle('lg-covered', hidden.has(at));
    // Rafts.
    const seen = new Set();
    for (const raft of view.rafts || []) {
      if (!raft.at) continue;
      seen.add(raft.seat);
      this.drawRaft(raft, {animate, selected: selected && selected.seat === raft.seat ? selected.hole : null, toMove: view.to_move === raft.seat && !view.over});
    }
    for (const [seat, r] of this.rafts) {
      if (!seen.has(seat)) { r.g.remove(); this.rafts.delete(seat); }
    }
    // Trails of the recent steps.
    this.layerTrail.replaceChildren();
    for (const [seat, squares] of trails) {
      const raft = (view.rafts || []).find(r => r.seat === seat);
      if (!raft || squares.length < 2) continue;
      const {rows, cols} = extent(raft.orient);
      const pts = squares.map(at => {
        const {row, col} = squareAt(at);
        return `${M + (col + cols / 2) * C},${M + (row + rows / 2) * C}`;
      });
      this.layerTrail.append(s('polyline', {class: 'lg-trail', 'data-seat': seat, points: pts.join(' ')}),
        ...squares.slice(0, -1).map(at => {
          const {row, col} = squareAt(at);
          return s('circle', {class: 'lg-trail-dot', cx: M + (col + cols / 2) * C, cy: M + (row + rows / 2) * C, r: 1});
        }));
    }
  }

  drawRaft(raft, {animate, selected, toMove}) {
    const {rows, cols} = extent(raft.orient);
    const {row, col} = squareAt(raft.at);
    let r = this.rafts.get(raft.seat);
    const fresh = !r || r.orient !== raft.orient;
    if (fresh) {
      if (r) r.g.remove();
      const w = cols * C, hgt = rows * C;
      // The raft: planks with six holes cut out, so that an open hole
      // shows the square under it.
      let d = `M1 0 H${w - 1} Q${w} 0 ${w} 1 V${hgt - 1} Q${w} ${hgt} ${w - 1} ${hgt} H1 Q0 ${hgt} 0 ${hgt - 1} V1 Q0 0 1 0 Z`;
      const centres = raft.holes.map(hv => {
        const q = squareAt(hv.square);
        return [(q.col - col) * C + C / 2, (q.row - row) * C + C / 2];
      });
      for (const [x, y] of centres) d += ` M${x - 3.9} ${y} a3.9 3.9 0 1 0 7.8 0 a3.9 3.9 0 1 0 -7.8 0 Z`;
      const g = s('g', {class: 'lg-raft', 'data-seat': raft.seat});
      const planks = s('g', {class: 'lg-planks'},
        s('path', {d, 'fill-rule': 'evenodd', class: 'lg-wood'}),
        ...Array.from({length: (raft.orient === 'V' ? cols : rows) * 2 - 1}, (_, i) => raft.orient === 'V'
          ? s('line', {x1: (i + 1) * C / 2, y1: .8, x2: (i + 1) * C / 2, y2: hgt - .8, class: 'lg-plank-line'})
          : s('line', {x1: .8, y1: (i + 1) * C / 2, x2: w - .8, y2: (i + 1) * C / 2, class: 'lg-plank-line'})),
        s('path', {d, 'fill-rule': 'evenodd', class: 'lg-rim', fill: 'none'}));
      const holes = centres.map(([x, y], i) => {
        const hole = s('g', {class: 'lg-hole', 'data-hole': i + 1, transform: `translate(${x} ${y})`});
        return {el: hole, x, y, shown: null};
      });
      const flag = s('g', {class: 'lg-flag', transform: `translate(${w - 1.5} 1.5)`},
        s('circle', {r: 3.3, class: 'lg-flag-disc'}),
        s('use', {href: '#mark-' + raft.seat, x: -12, y: -12, width: 24, height: 24, transform: 'scale(.2)'}));
      g.append(planks, ...holes.map(hl => hl.el), flag);
      r = {g, holes, orient: raft.orient, at: null};
      this.rafts.set(raft.seat, r);
      this.layerRafts.append(g);
      if (animate) g.classList.add('lg-arrive');
    }
    if (r.at !== raft.at) {
      r.g.style.transform = `translate(${M + col * C}px, ${M + row * C}px)`;
      r.g.classList.toggle('lg-still', !animate || fresh);
      r.at = raft.at;
    }
    r.g.classList.toggle('lg-to-move', toMove);
    r.g.setAttribute('data-at', raft.at);
    raft.holes.forEach((hv, i) => {
      const hole = r.holes[i];
      const sig = `${hv.pearl}|${hv.shows}|${selected === i + 1}`;
      hole.el.setAttribute('data-square', hv.square);
      hole.el.setAttribute('data-pearl', hv.pearl || '');
      hole.el.setAttribute('data-shows', hv.shows || '');
      if (hole.shown === sig) return;
      const had = hole.shown ? hole.shown.split('|')[0] : '';
      hole.shown = sig;
      const parts = [];
      if (selected === i + 1) parts.push(s('circle', {r: 4.7, class: 'lg-selected'}));
      if (hv.pearl) {
        // A pearl lifted (the owner peeking, the open board) shows what
        // is under it: drawn smaller, to a side of its hole.
        const lifted = !!hv.shows;
        parts.push(s('use', {href: '#' + pearlIcon(hv.pearl), x: -12, y: -12, width: 24, height: 24,
          class: 'lg-pearl' + (lifted ? ' lg-lifted' : '') + (animate && had !== hv.pearl ? ' lg-pop' : ''), 'data-colour': hv.pearl,
          transform: lifted ? 'translate(2.6 -2.6) scale(.17)' : 'scale(.33)'}));
      }
      if (!this.mini) parts.push(s('text', {class: 'lg-hole-no', x: -4.2, y: -2.6, 'text-anchor': 'middle'}, String(i + 1)));
      hole.el.replaceChildren(...parts);
    });
  }

  // setPlaces draws the raft positions offered in the placing phase, the
  // chosen one stronger.
  setPlaces(places, chosen) {
    this.layerPlaces.replaceChildren(...places.map(p => {
      const {rows, cols} = extent(p.orient);
      const {row, col} = squareAt(p.at);
      return s('rect', {class: 'lg-place' + (chosen && chosen.move === p.move ? ' lg-chosen' : ''), 'data-move': p.move,
        x: M + col * C + .6, y: M + row * C + .6, width: cols * C - 1.2, height: rows * C - 1.2, rx: 1.5});
    }).sort((a, b) => a.classList.contains('lg-chosen') - b.classList.contains('lg-chosen')));
  }

  // flash marks a square briefly (a step refused).
  flash(at, kind = 'refused') {
    const {row, col} = squareAt(at);
    const el = s('rect', {class: 'lg-flash lg-' + kind, x: M + col * C, y: M + row * C, width: C, height: C, rx: 1.5});
    this.layerTop.append(el);
    setTimeout(() => el.remove(), 900);
  }
}

function pop(el) {
  el.classList.remove('lg-pop');
  void el.getBoundingClientRect();
  el.classList.add('lg-pop');
}
