// The game modules. Each game the server hosts has its module at
// js/games/{id}/index.js, loaded when a page first needs it; the shell asks
// it for everything that is the game's own (docs/web.md, "Game modules").
// A game without a module of its own is shown by the plain module below:
// the view as text, the legal moves as buttons and a field for any move in
// the game's notation. This is the only place the shell finds a game by id.

import {h, fill, clause} from './ui.js';

const loaded = new Map();

// gameModule returns (a promise of) the module of game id, or the plain
// one when the game has none.
export function gameModule(id) {
  if (!loaded.has(id)) {
    const p = /^[a-z0-9]+$/.test(id || '')
      ? import(`./games/${id}/index.js`).then(m => ({...plain, ...m.default}), err => {
        console.warn(`The game ${id} has no module of its own here (${err.message}); it is shown plainly.`);
        return plain;
      })
      : Promise.resolve(plain);
    loaded.set(id, p);
  }
  return loaded.get(id);
}

// plain is what the shell uses of a module that leaves something out.
export const plain = {
  home: null,
  optionField: () => null,
  // describeOptions names the options a table set apart from their
  // defaults ("cards in hand 2, goal fewest points"), "" if none.
  describeOptions(options, rules) {
    const declared = (rules && rules.options) || [];
    return declared.filter(o => options[o.key] != null && options[o.key] !== o.default).map(o => {
      const c = (o.choices || []).find(c => c.value === options[o.key]);
      return `${o.label.toLowerCase()} ${c ? c.label.toLowerCase() : options[o.key]}`;
    }).join(', ');
  },
  table(ctx, opts) { return new PlainTable(ctx, opts); },
  phaseName: phase => (phase ? phase[0].toUpperCase() + phase.slice(1) : ''),
  progress: state => `Move ${state.version}`,
  prompt: () => 'Your move',
  seatCard: () => null,
  idle: () => null,
  scoreNote: () => null,
  // What a score counts, short for a card ("pts") or in full ("points").
  scoreUnit: (view, short) => (short ? 'pts' : 'points'),
  scoreSheet: null,
  logGroup: () => null,
  describeMove: (move, seats) => [h('span', {class: 'log-text'}, h('b', {}, seats[move.seat].name), ' ', move.move)],
  moveSaid: () => null,
  refusal: (move, {reason}) => (move ? `Your move ${move} was refused: ${clause(reason)}` : `Your move was refused: ${clause(reason)}`),
  phaseSummary: () => null,
  result: () => null,
  recordOpen: state => state.over,
  startCaption: 'The start.',
  rulesPage: null,
  rulesSummary: null,
  legend: null,
};

// PlainTable shows a view as text, with the legal moves (a view's "legal"
// list, if it has one) as buttons and a field for a move in the notation.
class PlainTable {
  constructor(ctx, {interactive = true} = {}) {
    this.ctx = ctx;
    this.interactive = interactive;
    this.text = h('pre', {class: 'plain-view'});
    this.moves = h('div', {class: 'plain-moves'});
    this.el = h('div', {class: 'board-wrap plain-table'}, this.text, this.moves);
    this.controls = null;
    if (interactive) {
      const field = h('input', {class: 'input', type: 'text', name: 'move', 'aria-label': 'A move', placeholder: 'A move'});
      this.controls = h('form', {class: 'plain-move', onsubmit: e => {
        e.preventDefault();
        if (field.value.trim()) this.ctx.move(field.value.trim());
      }}, field, h('button', {class: 'btn btn-small', type: 'submit'}, 'Play'));
    }
  }

  update(state) {
    this.state = state;
    this.text.textContent = JSON.stringify(state.view, null, 1);
    const legal = this.interactive && this.ctx.canMove() && state.view && Array.isArray(state.view.legal) ? state.view.legal : [];
    fill(this.moves, legal.map(m => h('button', {class: 'btn btn-small', type: 'button', 'data-move': m, onclick: () => this.ctx.move(m)}, m)));
  }

  key() { return false; }
  refused() {}
}
