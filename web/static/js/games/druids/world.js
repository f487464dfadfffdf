// WorldView draws the world of Land of Druids as SVG: a hex tile for each
// site in play on the engine's axial grid (q, r), with its name, energy
// (colour and symbol), type and group, a lock when it is locked and a
// star when its side is original to Lagoon; the druids on it by circle,
// refreshed standing and exhausted lying down; and, when a choice is
// asked, the legal sites, druids and empty spaces, which are buttons.

import {s} from '../../ui.js';
import {energyOf, druidSymbol} from './art.js';
import {GROUPS, druidText, spaceWords} from './words.js';

const R = 56;                       // a hex's radius
const W = R * Math.sqrt(3);         // a hex's width
const CORNERS = Array.from({length: 6}, (_, k) => {
  const a = (-90 + 60 * k) * Math.PI / 180;
  return [R * Math.cos(a), R * Math.sin(a)];
});
const hexPoints = (scale = 1) => CORNERS.map(([x, y]) => `${(x * scale).toFixed(1)},${(y * scale).toFixed(1)}`).join(' ');

// place is where cell (q, r) is drawn.
const place = (q, r) => ({x: W * (q + r / 2), y: R * 1.5 * r});

// nameLines splits a site's name into at most two lines.
function nameLines(name) {
  if (name.length <= 11) return [name];
  const words = name.split(' ');
  let best = null;
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(' '), b = words.slice(i).join(' ');
    const worst = Math.max(a.length, b.length);
    if (!best || worst < best.worst) best = {worst, lines: [a, b]};
  }
  return best ? best.lines : [name];
}

export class WorldView {
  // cat is the Catalogue; ctx names druids for people (words.js).
  // least: the fewest hexes across and down a world is drawn as (a small
  // world is not blown up).
  constructor(cat, ctx, {interactive = false, label = 'The world', least = [4.4, 3.5]} = {}) {
    this.least = least;
    this.cat = cat;
    this.ctx = ctx;
    this.interactive = interactive;
    this.svg = s('svg', {class: 'world', role: 'group', 'aria-label': label});
    this.onsite = null;
    this.ondruid = null;
    this.onspace = null;
    this.onhover = null;
    this.legal = {sites: new Set(), druids: new Set(), spaces: new Set()};
    this.selected = null;    // a site id or a druid's text
    this.marked = new Set(); // sites named by the step of AJ's turn shown
    this.view = null;
    this.byKey = false;      // a choice is being made with the keyboard
    this.svg.addEventListener('keydown', e => {
      if ((e.key === 'Enter' || e.key === ' ') && e.target.dataset && e.target.dataset.hit) {
        e.preventDefault();
        this.byKey = true;
        this.activate(e.target);
        this.byKey = false;
      }
    });
    this.svg.addEventListener('click', e => {
      const hit = e.target.closest('[data-hit]');
      if (hit) this.activate(hit);
    });
    this.svg.addEventListener('pointerover', e => {
      const g = e.target.closest('[data-site]');
      if (this.onhover) this.onhover(g ? g.dataset.site : null);
    });
    this.svg.addEventListener('focusin', e => {
      const g = e.target.closest('[data-site]');
      if (this.onhover) this.onhover(g ? g.dataset.site : null);
    });
  }

  activate(el) {
    const {hit, value} = el.dataset;
    if (hit === 'druid' && this.ondruid) this.ondruid(value);
    else if (hit === 'site' && this.onsite) this.onsite(value);
    else if (hit === 'space' && this.onspace) this.onspace(value);
  }

  // setLegal marks the choices: sites, druids (in the notation: those
  // asked for, or at the menu those that may invoke an action) and spaces
  // ("q,r").
  setLegal({sites = [], druids = [], spaces = []} = {}) {
    this.legal = {sites: new Set(sites), druids: new Set(druids), spaces: new Set(spaces)};
    this.draw();
  }

  setSelected(what) { this.selected = what; this.draw(); }
  setMarked(sites) { this.marked = new Set(sites); this.draw(); }

  setView(view) {
    this.view = view;
    this.draw();
  }

  draw() {
    const v = this.view;
    if (!v) return;
    const focused = this.svg.contains(document.activeElement) ? document.activeElement.dataset.value : null;
    const cells = v.world.map(w => ({...w, ...place(w.q, w.r)}));
    const spaces = [...this.legal.spaces].map(t => {
      const [q, r] = t.split(',').map(Number);
      return {at: t, ...place(q, r)};
    });
    const all = [...cells, ...spaces];
    const xs = all.map(c => c.x), ys = all.map(c => c.y);
    let x0 = Math.min(...xs) - W / 2 - 8, x1 = Math.max(...xs) + W / 2 + 8;
    let y0 = Math.min(...ys) - R - 8, y1 = Math.max(...ys) + R + 8;
    const minW = W * this.least[0], minH = R * 1.5 * this.least[1];
    if (x1 - x0 < minW) { const c = (x0 + x1) / 2; x0 = c - minW / 2; x1 = c + minW / 2; }
    if (y1 - y0 < minH) { const c = (y0 + y1) / 2; y0 = c - minH / 2; y1 = c + minH / 2; }
    this.svg.setAttribute('viewBox', `${x0.toFixed(1)} ${y0.toFixed(1)} ${(x1 - x0).toFixed(1)} ${(y1 - y0).toFixed(1)}`);
    this.svg.style.setProperty('--aspect', ((x1 - x0) / (y1 - y0)).toFixed(3));
    this.svg.replaceChildren(
      s('g', {class: 'spaces'}, spaces.map(sp => this.space(sp))),
      s('g', {class: 'sites'}, cells.map(c => this.site(c))));
    // The focus stays on what had it, or, gone, on the first choice of the
    // world, so that a keyboard keeps its place.
    if (focused) {
      const again = this.svg.querySelector(`[data-value="${CSS.escape(focused)}"][tabindex]`) ||
        this.svg.querySelector('.legal[data-hit][tabindex], .legal [data-hit][tabindex]');
      if (again) again.focus({preventScroll: true});
    }
  }

  space(sp) {
    return s('g', {class: 'space legal', transform: `translate(${sp.x.toFixed(1)} ${sp.y.toFixed(1)})`, 'data-space': sp.at,
      'data-hit': 'space', 'data-value': sp.at, tabindex: this.interactive ? 0 : null, role: 'button', 'aria-label': `Lay it in ${spaceWords(this.ctx.beside ? this.ctx.beside(sp.at) : [], this.ctx)}`},
    s('polygon', {points: hexPoints(0.94)}),
    s('path', {d: 'M-10 0 H10 M0 -10 V10', class: 'space-plus'}));
  }

  site(c) {
    const st = this.cat.site(c.id) || {name: c.id, energy: 'Elemeen', type: '', group: 0};
    const en = energyOf(st.energy);
    const legal = this.legal.sites.has(c.id);
    const lines = nameLines(st.name);
    const cls = ['site', `en-${en.letter}`, legal ? 'legal' : '', c.locked ? 'locked' : '', this.selected === c.id ? 'selected' : '',
      this.marked.has(c.id) ? 'marked' : '', st.original ? 'original' : ''].filter(Boolean).join(' ');
    const label = `${st.name} (${c.id}), ${st.energy} ${st.type}, group ${GROUPS[st.group]}${c.locked ? ', locked' : ''}${st.original ? ', original to Lagoon' : ''}` +
      (c.druids.length ? `; ${this.druidsSaid(c)}` : '');
    const interactive = this.interactive && (legal || this.onsite);
    const tokens = this.tokens(c);
    const crowded = tokens.childElementCount > 4;
    return s('g', {class: cls, transform: `translate(${c.x.toFixed(1)} ${c.y.toFixed(1)})`, 'data-site': c.id},
      s('g', {'data-hit': 'site', 'data-value': c.id, tabindex: interactive ? 0 : null, role: interactive ? 'button' : 'img', 'aria-label': label},
        s('polygon', {class: 'hex', points: hexPoints(0.97), fill: en.tint, stroke: en.colour}),
        s('polygon', {class: 'hex-inner', points: hexPoints(0.86)}),
        s('use', {href: '#' + en.symbol, x: -7.5, y: crowded ? -R * 0.9 : -R * 0.84, width: crowded ? 14 : 16, height: crowded ? 14 : 16}),
        // A crowded site's words move up, to leave the druids' rows under
        // them clear of its name (issue 47).
        s('text', {class: 'site-id', y: crowded ? -R * 0.5 : -R * 0.37}, `${c.id} · ${GROUPS[st.group]}`),
        lines.map((line, i) => s('text', {class: 'site-name', y: (crowded ? -18 : -7) + i * 11.5 + (lines.length === 1 ? 5 : 0)}, line)),
        // With many druids on it, their tokens take the type's line.
        crowded ? null : s('text', {class: 'site-type', y: R * 0.29}, st.type),
        c.locked ? s('use', {class: 'lock', href: '#dr-lock', x: -R * 0.6 - 8, y: crowded ? -R * 0.6 : R * 0.29 - 12, width: 16, height: 16}, s('title', {}, 'Locked: removing it would split the world')) : null,
        st.original ? s('use', {class: 'orig', href: '#dr-original', x: R * 0.6 - 8, y: crowded ? -R * 0.6 : R * 0.29 - 12, width: 16, height: 16}, s('title', {}, 'Original to Lagoon')) : null),
      tokens);
  }

  druidsSaid(c) {
    return c.druids.map(d => {
      const parts = [];
      if (d.eldrid) parts.push(`${d.eldrid_exhausted ? 'exhausted ' : ''}Eldrid`);
      if (d.acolytes_refreshed) parts.push(`${d.acolytes_refreshed} refreshed acolyte${d.acolytes_refreshed > 1 ? 's' : ''}`);
      if (d.acolytes_exhausted) parts.push(`${d.acolytes_exhausted} exhausted acolyte${d.acolytes_exhausted > 1 ? 's' : ''}`);
      return `${this.ctx.circle(d.seat)} (${this.ctx.name(this.ctx.seatOf(d.seat))}): ${parts.join(', ')}`;
    }).join('; ');
  }

  // tokens draws the druids on a site, a circle's after another: its
  // Eldrid, its refreshed acolytes, its exhausted ones (a count beside a
  // token that stands for more than one).
  tokens(c) {
    const list = [];
    for (const d of c.druids) {
      if (d.eldrid) list.push({slot: d.seat, eldrid: true, exhausted: d.eldrid_exhausted, n: 1});
      if (d.acolytes_refreshed) list.push({slot: d.seat, eldrid: false, exhausted: false, n: d.acolytes_refreshed});
      if (d.acolytes_exhausted) list.push({slot: d.seat, eldrid: false, exhausted: true, n: d.acolytes_exhausted});
    }
    // Up to four tokens go in one row under the type; more in rows of
    // five, smaller, from under the name (site).
    const crowded = list.length > 4;
    const perRow = crowded ? 5 : 4, step = crowded ? 18 : 21, scale = crowded ? 0.82 : 1;
    return s('g', {class: 'tokens'}, list.map((t, i) => {
      const row = Math.floor(i / perRow), inRow = Math.min(perRow, list.length - row * perRow);
      const x = (i % perRow - (inRow - 1) / 2) * step, y = crowded ? R * 0.25 + row * 16 : R * 0.56;
      const text = druidText(t.slot, t.eldrid, t.exhausted, c.id);
      const legal = this.legal.druids.has(text);
      const size = (t.eldrid ? 22 : 16) * scale;
      const who = this.ctx.seatOf(t.slot) === this.ctx.you ? 'Your' : `${this.ctx.name(this.ctx.seatOf(t.slot))}'s`;
      const said = `${who} ${t.exhausted ? 'exhausted' : 'refreshed'} ${this.ctx.circle(t.slot)} ${t.eldrid ? 'Eldrid' : t.n > 1 ? `acolytes (${t.n})` : 'acolyte'} on ${c.id}`;
      const interactive = this.interactive && legal;
      return s('g', {class: 'druid' + (t.eldrid ? ' eldrid' : '') + (t.exhausted ? ' ex' : '') + (legal ? ' legal' : '') + (this.selected === text ? ' selected' : ''),
        transform: `translate(${x} ${y})`, 'data-druid': text, 'data-hit': 'druid', 'data-value': text,
        tabindex: interactive ? 0 : null, role: interactive ? 'button' : 'img', 'aria-label': said},
      s('title', {}, said),
      s('circle', {class: 'druid-ring', r: size / 2 + 3}),
      // Exhausted, a druid lies down.
      s('g', {class: 'druid-body', transform: t.exhausted ? 'rotate(90)' : null},
        s('use', {href: '#' + druidSymbol(t.slot, this.cat.aj), x: -size / 2, y: -size / 2, width: size, height: size})),
      t.eldrid ? s('circle', {class: 'eldrid-halo', r: size / 2 + 0.5}) : null,
      t.n > 1 ? s('g', {class: 'count'}, s('circle', {cx: 8, cy: 7, r: 5.6}), s('text', {x: 8, y: 9.6}, String(t.n))) : null);
    }));
  }
}
