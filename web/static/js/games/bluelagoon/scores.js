// The score sheet, laid out like the rulebook's score pad: one column per
// player, the six scoring rows and a total for each phase, and the game's
// total. A phase being played shows what it would score if it ended now.

import {h, icon} from '../../ui.js';

const SCORE_ROWS = [
  ['islands', 'Islands', '8+ islands: 20 · 7 islands: 10'],
  ['links', 'Links', '5 per island in your best chain'],
  ['majorities', 'Majorities', 'most pieces on an island: its bonus'],
  ['resources', 'Resources', 'per kind: 2 → 5 · 3 → 10 · 4+ → 20'],
  ['set', 'Complete set', 'one of each resource: 10'],
  ['statuettes', 'Statuettes', '4 each'],
];

const PHASES = [['exploration', 'Exploration'], ['settlement', 'Settlement']];

// phaseScores returns a phase's scores and whether they are final: the
// scored breakdown, the live one for the phase being played, or null.
export function phaseScores(state, phase) {
  if (state.scores[phase]) return {scores: state.scores[phase], final: true};
  if (state.phase === phase && !state.over) return {scores: state.scores.live, final: false};
  return {scores: null, final: false};
}

// grandTotals returns each player's total: the phases scored plus, while a
// phase is played, what it would score now; and whether it is final.
export function grandTotals(state) {
  const live = phaseScores(state, state.phase);
  const final = state.over;
  return {
    totals: state.scores.totals.map((t, p) => t + (!live.final && live.scores ? live.scores[p].total : 0)),
    final,
  };
}

// scoreSheet draws the sheet for seats (names) and a state.
export function scoreSheet(seats, state) {
  const n = seats.length;
  const winners = state.result ? new Set(state.result.winners) : new Set();
  const head = h('tr', {},
    h('th', {class: 'sheet-corner', scope: 'col'}, ''),
    seats.map((seat, p) => h('th', {scope: 'col', class: 'sheet-player' + (winners.has(p) ? ' winner' : ''), 'data-seat': p},
      h('span', {class: 'sheet-player-inner'},
        icon('mark-' + p, 'icon mark'),
        h('span', {class: 'sheet-name', title: seat.name}, seat.name),
        winners.has(p) ? icon('crown', 'icon crown', 'Winner') : null))));

  const body = [];
  for (const [phase, title] of PHASES) {
    const {scores, final} = phaseScores(state, phase);
    const status = scores ? (final ? 'scored' : 'live') : 'to come';
    body.push(h('tr', {class: 'sheet-phase' + (final ? ' is-final' : scores ? ' is-live' : ' is-empty')},
      h('th', {scope: 'colgroup', colspan: n + 1},
        h('span', {class: 'sheet-phase-name'}, `${title} phase`),
        h('span', {class: 'sheet-phase-status'}, status))));
    for (const [row, label, hint] of [...SCORE_ROWS, ['total', 'Phase total', '']]) {
      body.push(h('tr', {class: 'sheet-row' + (row === 'total' ? ' sheet-subtotal' : '')},
        h('th', {scope: 'row', title: hint}, label),
        Array.from({length: n}, (_, p) => h('td', {
          'data-phase': phase, 'data-row': row, 'data-seat': p,
          class: scores ? (final ? 'final' : 'live') : 'empty',
        }, scores ? String(scores[p][row]) : '·'))));
    }
  }
  const {totals, final} = grandTotals(state);
  body.push(h('tr', {class: 'sheet-grand'},
    h('th', {scope: 'row'}, final ? 'Final score' : 'Total so far'),
    totals.map((t, p) => h('td', {'data-phase': 'game', 'data-row': 'total', 'data-seat': p,
      class: (final ? 'final' : 'live') + (winners.has(p) ? ' winner' : '')}, String(t)))));

  return h('div', {class: 'sheet-wrap'},
    h('table', {class: 'sheet', 'data-players': n}, h('thead', {}, head), h('tbody', {}, body)),
    h('p', {class: 'sheet-note'}, final
      ? 'Both phases are scored. Ties are broken by the tokens held at the end.'
      : 'Numbers in italics are live: what the phase would score if it ended now.'));
}
