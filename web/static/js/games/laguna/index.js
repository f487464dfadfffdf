// @ts-check
// Laguna's module: everything the page knows of the game, behind the
// interface the shell asks every game module for (docs/web.md, "Game
// modules"). The shell hands it the API's objects: the table (the board's
// rows, laguna/view.go), each state's view (the rafts and their holes, the
// pearls on the islands and in the volcano, the legal moves) and each
// move's note (what a move uncovered, whether it ended the turn).

import {h, icon, plural, noun, loadStyle, clause, sentence} from '../../ui.js';
import {installSymbols, pearlIcon, colourName, COLOURS} from './art.js';
import {Table, boardTitle, puzzleBox, touchScreen} from './table.js';
import {BoardView, squareAt, squareName, extent} from './board.js';
import {summary, legend, rulesPage} from './rules.js';

installSymbols();
await loadStyle(new URL('./laguna.css', import.meta.url).href);

const DIR_WORDS = {N: 'north', E: 'east', S: 'south', W: 'west'};
const PHASES = {place: 'Placing the rafts', deal: 'Dealing the pearls', play: 'Sailing', over: 'Game over'};

// phrase says a move as a player says it, without the player's name: done
// ("stepped east"), or to do ("step east") for a refusal.
function phrase(move, done = true) {
  const f = move.split(' ');
  const pearl = c => `a ${colourName(c)} pearl`;
  const say = (past, present) => (done ? past : present);
  switch (f[0]) {
    case 'N': case 'E': case 'S': case 'W': return say('stepped', 'step') + ' ' + DIR_WORDS[f[0]];
    case 'end': return say('ended', 'end') + ' the turn';
    case 'peek': return say('peeked', 'peek') + ' under the pearls';
    case 'shift': return `${say('moved', 'move')} the pearl in hole ${f[1]} to hole ${f[2]}`;
    case 'load': return `${say('loaded', 'load')} ${pearl(f[1])} into hole ${f[2]}`;
    case 'unload': return `${say('left', 'leave')} the pearl of hole ${f[1]} on the island`;
    case 'swap': return `${say('swapped', 'swap')} the pearl in hole ${f[1]} for ${pearl(f[2])}`;
    case 'deliver': return `${say('delivered', 'deliver')} the pearl of hole ${f[1]} to the volcano`;
    case 'trade': return f[2] === f[3] ? `${say('traded', 'trade')} hole ${f[2]} with the ${colourName(f[1])} raft`
      : `${say('traded', 'trade')} with the ${colourName(f[1])} raft: hole ${f[2]} for its hole ${f[3]}`;
    case 'put': return `${say('put', 'put')} ${pearl(f[1])} on island ${f[2]}`;
    case 'place': return `${say('put', 'put')} the raft ${f[1] === 'V' ? 'down' : 'across'} at ${f[2]}`;
  }
  return move;
}

// words says a move done, with what its note says it uncovered or ended:
// a turn the sand ended is the sand's, a raft placed when its player's
// time ran out was done for them.
function words(move, note) {
  if (note && note.turn_ends === 'time') return 'ran out of sand: the turn is over';
  let text = phrase(move);
  if (note && note.by_time) text += ' (done for them: their time ran out)';
  if (note && note.uncovers === '#') text += ', uncovering a reef';
  else if (note && note.uncovers && '^>v<'.includes(note.uncovers)) text += ', uncovering a current';
  if (note && note.turn_ends === 'reef' && move !== 'end') text += ': a reef ends the turn';
  return text;
}

/** @type {import('../../module.js').GameModule} */
export default {
  home: {
    title: 'Laguna',
    lede: 'Steer a raft through reefs and currents, carry pearls from the islands to the volcano, and remember what your pearls hide. For 2 to 4 players, or one alone with a puzzle; a sand timer keeps the pace.',
    what: 'Steer a raft, carry pearls to the volcano, remember what they hide.',
    time: 'Paced by a sand timer',
    solo: 'A puzzle against its par',
    points: () => [
      [icon(pearlIcon('R'), 'icon'), 'On Lagoon\'s own original boards, an easy and a hard side'],
      [icon('lg-raft', 'icon'), 'Play bots or friends, or a solo puzzle with its par'],
      [icon('lg-reef', 'icon'), 'New to the game?', {rules: 'The rules in two minutes'}],
    ],
    // quick starts a game in one click: the solo puzzle, or a game
    // against a bot.
    quick: () => [
      {key: 'solo', label: 'A solo puzzle', title: 'Alone: bring the islands\' pearls to a target pattern in as few steps as you can, against the par',
        seats: ['you'], options: {puzzle: '1'}},
      {key: 'bot', label: 'Against a bot', title: 'Two players: you and a medium bot', seats: ['you', 'bot:medium']},
    ],
    async picture(ctx) {
      const p = await ctx.preview(ctx.options && ctx.options.board ? {board: ctx.options.board} : {});
      if (!p.table) return null;
      const view = new BoardView(p.table, {label: `Laguna, ${boardTitle(p.table.name)}`});
      if (p.state && p.state.view) view.setState(sampleView(view, p.state.view));
      return view.svg;
    },
  },

  optionField(option, ctx) {
    if (option.key === 'board') return boardPicker(option, ctx);
    if (option.key === 'puzzle' && ctx.players !== 1) return h('span', {hidden: true});
    // The sand timer's rules are chosen with the clock (clockField).
    if (option.key === 'timer') return h('span', {hidden: true});
    return null;
  },

  clockField: timeField,

  describeOptions(options) {
    const b = options.board || 'easy';
    const parts = [b === 'easy' ? 'Original board: easy' : b === 'hard' ? 'Original board: hard' : 'A board of their own'];
    if (options.timer === 'off') parts.push('no sand timer');
    if (options.open === 'on') parts.push('open board');
    if (options.raft === '5') parts.push('five pearls a raft');
    if (options.deal === 'players') parts.push('pearls dealt by the players');
    return parts.join(', ');
  },

  table(ctx, opts) { return new Table(ctx, opts); },

  phaseName: phase => PHASES[phase] || phase,

  prompt(view, seat) {
    switch (view.phase) {
      case 'place': return 'Put your raft against an island\'s landing line';
      case 'deal': return 'Put a pearl on an island';
    }
    const raft = view.rafts[seat];
    if (raft && raft.holes.filter(x => x.pearl).length < 2) return 'Load your pearls from your island';
    if (view.docked === 'volcano') return 'At the volcano: deliver your pearls, or sail on';
    if (view.docked) return `At island ${view.docked}: load, unload, swap, or sail on`;
    if (view.forced && view.forced.length) return 'The current takes you: step with it, or cover the arrow';
    return touchScreen() ? 'Sail: tap an arrow or a square beside the raft to step, and the holes to move pearls' : 'Sail: arrow keys step, 1–6 pick holes';
  },

  seatCard(view, p) {
    const raft = view.rafts[p];
    const c = COLOURS[p].letter;
    const aboard = raft ? raft.holes.filter(x => x.pearl).map(x => x.pearl) : [];
    return [
      h('div', {class: 'lg-card'},
        h('span', {class: 'lg-chip', title: `Collects ${colourName(c)} pearls`, 'data-collects': c}, icon(pearlIcon(c), 'icon lg-pearl-icon'),
          view.target ? h('b', {}, `${view.scores[p]}/${view.target}`) : h('b', {}, colourName(c)),
          h('span', {class: 'sr-only'}, view.target ? ` ${colourName(c)} pearls delivered of ${view.target},` : '')),
        h('span', {class: 'lg-aboard', title: 'Pearls aboard', 'data-aboard': aboard.join('')},
          aboard.map(a => icon(pearlIcon(a), 'icon lg-pearl-icon small')),
          h('span', {class: 'sr-only'}, ` ${plural(aboard.length, 'pearl')} aboard,`))),
    ];
  },

  scoreNote(view) {
    return view.target === 0 && view.par != null ? h('span', {class: 'pcard-live', title: 'The puzzle\'s par: the fewest steps found'}, ` · par ${view.par}`) : null;
  },

  // The solo puzzle counts steps; a game of two or more, pearls delivered.
  scoreUnit: (view, short, n) => (view.target === 0 ? noun(n, 'step') : short ? 'delivered' : 'pearls delivered'),

  scoreSheet(view, seats) { return scoreSheet(view, seats); },

  idle: () => null,

  logGroup: () => null,

  describeMove(move, seats) {
    const f = move.move.split(' ');
    const pearl = f[0] === 'load' || f[0] === 'put' ? f[1] : f[0] === 'swap' ? f[2] : null;
    return [
      icon('mark-' + move.seat, 'icon mark'),
      h('span', {class: 'log-text', 'data-move': move.move}, h('b', {}, seats[move.seat].name), ' ', words(move.move, move.note)),
      pearl ? icon(pearlIcon(pearl), 'icon lg-pearl-icon small') : null,
    ];
  },

  moveSaid(move, {mine, name}) {
    const note = move.note || {};
    const f = move.move.split(' ');
    if (note.turn_ends === 'reef') return mine ? 'A reef! Your turn is over.' : `${name}'s turn ended on a reef.`;
    if (note.turn_ends === 'time') return mine ? 'The sand ran out: your turn is over.' : `The sand ran out: ${name}'s turn is over.`;
    if (f[0] === 'deliver') return mine ? 'You delivered a pearl to the volcano.' : `${name} delivered a pearl to the volcano.`;
    return null;
  },

  // refusal: the rules' reason after the move in words; the game over is
  // said as it is.
  refusal(move, {code, reason}) {
    if (code === 'over') return sentence(reason);
    return `You can't ${move ? phrase(move, false) : 'do that'}: ${clause(reason)}`;
  },

  phaseSummary: () => null,

  result(view, seats) {
    const scores = view.scores;
    const solo = view.target === 0;
    return {
      order: seats.map((_, p) => p).sort((a, b) => (solo ? scores[a] - scores[b] : scores[b] - scores[a])),
      detail: p => h('span', {class: 'podium-tokens'}, solo ? plural(scores[p], 'step') : `${plural(scores[p], 'pearl')} delivered`),
      explanation: solo
        ? h('p', {class: 'explanation'}, `Solved in ${plural(scores[0], 'step')}`, view.par != null ? [': ', h('b', {class: 'lg-to-par'}, toPar(scores[0], view.par)), ` (par ${view.par})`] : null, '.',
          bestNote(view, scores[0]))
        : h('p', {class: 'explanation'}, `The first to deliver ${view.target} pearls of their colour wins at once.`),
    };
  },

  // The seed only deals the pearls, in the open: the record may always be
  // downloaded.
  recordOpen: () => true,

  startCaption: 'The start: the pearls on the islands, no raft on the water yet.',

  rulesPage,
  rulesSummary: summary,
  legend,
};

// toPar says how a solved puzzle stood to its par: "par matched",
// "2 over par", "1 under par".
export function toPar(steps, par) {
  return steps === par ? 'par matched' : steps > par ? `${steps - par} over par` : `${par - steps} under par`;
}

// bestNote keeps, in this browser, the fewest steps a puzzle was solved in
// (a puzzle known by its target and par) and says it beside this result.
function bestNote(view, steps) {
  if (!view.goal) return null;
  const key = 'lagoon.laguna.best';
  const puzzle = `${view.goal.join(' ')}|${view.par}`;
  let best = {};
  try { best = JSON.parse(localStorage.getItem(key)) || {}; } catch { /* storage refused: no best kept */ }
  const before = best[puzzle];
  if (before == null || steps < before) {
    best[puzzle] = steps;
    try { localStorage.setItem(key, JSON.stringify(best)); } catch { /* storage refused: forget */ }
  }
  if (before == null) return null;
  return h('span', {class: 'lg-best'}, steps < before ? ` Your best yet at this puzzle (it was ${plural(before, 'step')}).` : ` Your best at this puzzle: ${plural(before, 'step')}.`);
}

// scoreSheet: the pearls each seat delivered and carries, the volcano's,
// and in the solo game the puzzle's steps and par.
function scoreSheet(view, seats) {
  const solo = view.target === 0;
  return h('div', {class: 'lg-sheet'},
    h('table', {class: 'lg-sheet-table'},
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'Collects'), h('th', {}, solo ? 'Steps' : 'Delivered'), h('th', {}, 'Aboard'))),
      h('tbody', {}, seats.map((seat, p) => {
        const raft = view.rafts[p];
        const aboard = raft ? raft.holes.filter(x => x.pearl).map(x => x.pearl) : [];
        return h('tr', {'data-seat': p},
          h('th', {}, h('span', {class: 'lg-who'}, icon('mark-' + p, 'icon mark'), seat.name)),
          h('td', {}, icon(pearlIcon(COLOURS[p].letter), 'icon lg-pearl-icon'), ' ', COLOURS[p].name),
          h('td', {'data-delivered': p}, solo ? String(view.scores[0]) : `${view.scores[p]} of ${view.target}`),
          h('td', {}, aboard.map(a => icon(pearlIcon(a), 'icon lg-pearl-icon small'))));
      }))),
    solo ? puzzleBox(view, view.scores[0])
      // Before the players have dealt them, the pearls wait in the volcano.
      : h('p', {class: 'muted'}, (view.phase === 'place' || view.phase === 'deal') && view.volcano.some(n => n > 0) ? 'Still to deal: ' : 'In the volcano: ', COLOURS.map((c, i) => [icon(pearlIcon(c.letter), 'icon lg-pearl-icon small'), ` ${view.volcano[i]} `])));
}

// timeField is one choice for the sand timer, which is both a clock (30 s
// a turn, the rest passed on) and a rule (pearls move between holes
// freely): the glass, another clock with the glass's rules, no clock with
// them, or the variant without the sand timer, turn by turn.
function timeField(ctx) {
  const solo = ctx.players === 1;
  const choices = [];
  for (const t of ctx.times) {
    // The shell's own "30 s a turn, time left carried on" is the glass.
    if (t.key === 'turn:30c' || (solo && t.key === 'none')) continue;
    const label = t.key === 'default' ? (solo ? 'No clock: the puzzle counts steps' : 'The sand timer: 30 s a turn')
      : t.key === 'none' ? 'No clock, the sand timer\'s rules' : t.key === 'turn:30' ? '30 s a turn, nothing passed on' : t.label;
    choices.push({key: t.key, label, time: t.key, timer: 'on'});
  }
  choices.push({key: 'off', label: 'No sand timer: turn by turn', time: 'default', timer: 'off'});
  const now = ctx.options.timer === 'off' ? 'off' : ctx.time;
  const sel = h('select', {class: 'select', name: 'sand', onchange: e => {
    const c = choices.find(x => x.key === e.target.value);
    ctx.set(c.time, {timer: c.timer});
  }}, choices.map(c => h('option', {value: c.key}, c.label)));
  sel.value = choices.some(c => c.key === now) ? now : choices[0].key;
  return h('label', {class: 'field lg-time-field', title: 'The sand timer gives a turn 30 s, and what is left passes to the next. Without it, nobody is timed, and pearls move between holes only after a reef ended one\'s turn.'},
    h('span', {class: 'field-label'}, 'Time'), sel);
}

// boardPicker shows the original boards as pictures, and takes a board of
// one's own in the board notation (24 lines of 24 characters).
function boardPicker(option, ctx) {
  const custom = !option.choices.some(c => c.value === ctx.value);
  const cards = option.choices.map(c => {
    const pic = h('span', {class: 'lg-board-card-pic'});
    ctx.preview({board: c.value}).then(p => {
      if (p.table) pic.replaceWith(new BoardView(p.table, {mini: true, label: c.label}).svg);
    }, () => {});
    return h('label', {class: 'lg-board-card' + (ctx.value === c.value ? ' selected' : '')},
      h('input', {type: 'radio', name: option.key, value: c.value, checked: ctx.value === c.value, onchange: () => ctx.set(c.value)}),
      pic, h('span', {class: 'lg-board-card-name'}, c.label));
  });
  const status = h('span', {class: 'lg-own-status muted small'});
  const area = h('textarea', {class: 'input lg-own-board', name: 'board-own', rows: 6, spellcheck: 'false',
    placeholder: '24 lines of 24 characters: . water, # reef, ^ > v < currents, @ volcano, A-H islands, a-h their landing lines',
    'aria-label': 'A board of your own'});
  if (custom && ctx.value) area.value = ctx.value.split('/').join('\n');
  const use = h('button', {class: 'btn btn-small', type: 'button', onclick: async () => {
    const rows = area.value.split('\n').map(l => l.trim()).filter(l => l && !l.startsWith(';'));
    const text = rows.join('/');
    try {
      await ctx.preview({board: text});
      ctx.set(text);
    } catch (err) {
      status.textContent = err.message;
    }
  }}, 'Check and use it');
  return h('div', {class: 'field'},
    h('span', {class: 'field-label'}, option.label),
    h('div', {class: 'lg-board-cards'}, cards),
    h('details', {class: 'lg-own', open: custom ? true : null},
      h('summary', {}, custom ? 'A board of your own (chosen)' : 'A board of your own…'),
      area, h('div', {class: 'lg-row'}, use, status)));
}

// sampleView is a made-up position for the picture on the home page: two
// rafts put where the start allows, far apart, each with two pearls of its
// island aboard.
function sampleView(board, view) {
  const places = (view.legal || []).filter(m => m.startsWith('place ')).map(m => m.split(' '));
  if (!places.length) return view;
  const at = p => squareAt(p[2]);
  const far = places.reduce((best, p) => {
    const d = q => Math.abs(at(q).row - at(places[0]).row) + Math.abs(at(q).col - at(places[0]).col);
    return d(p) > d(best) ? p : best;
  });
  const islands = [...view.islands];
  const rafts = [places[0], far].map(([, orient, top], seat) => {
    const {row, col} = squareAt(top), {rows, cols} = extent(orient);
    // The island nearest the raft gives it two pearls.
    let near = 0, nearD = Infinity;
    'ABCDEFGH'.split('').forEach((letter, i) => {
      const isl = board.places.get(letter);
      if (!isl) return;
      const d = Math.abs((isl.r0 + isl.r1) / 2 - (row + rows / 2)) + Math.abs((isl.c0 + isl.c1) / 2 - (col + cols / 2));
      if (d < nearD) { near = i; nearD = d; }
    });
    const aboard = islands[near].slice(0, 2);
    islands[near] = islands[near].slice(2);
    const holes = Array.from({length: 6}, (_, k) => {
      const [r, c] = orient === 'V' ? [row + k % 3, col + Math.floor(k / 3)] : [row + Math.floor(k / 3), col + k % 3];
      const square = squareName(r, c);
      const pearl = k === 0 ? aboard[0] || '' : k === 4 ? aboard[1] || '' : '';
      return {square, pearl, shows: pearl ? '' : board.charAt(r, c)};
    });
    return {seat, colour: 'RYGB'[seat], at: top, orient, home: 'ABCDEFGH'[near], holes};
  });
  return {...view, phase: 'play', rafts, islands};
}
