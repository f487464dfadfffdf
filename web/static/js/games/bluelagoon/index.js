// @ts-check
// Blue Lagoon's module: everything the page knows of the game, behind the
// interface the shell asks every game module for (docs/web.md, "Game
// modules"). The shell hands it the API's objects: the table (the board),
// each state's view (bluelagoon/view.go) and each move's note (the token it
// took, the phases it ended).

import {h, icon, plural, loadStyle, clause, sentence} from '../../ui.js';
import {PLAYERS} from '../../art.js';
import {installSymbols, tokenName, tokenPhrase, TOKENS} from './art.js';
import {Table} from './table.js';
import {BoardView} from './board.js';
import {scoreSheet, phaseScores, grandTotals} from './scores.js';
import {legend, summary, rulesPage} from './rules.js';
import {idle, where} from './space.js';

installSymbols();
await loadStyle(new URL('./bluelagoon.css', import.meta.url).href);

const BOARD_TITLES = {standard: 'Standard', wheels: 'Wheels', face: 'Face', sides: 'Sides', space_invaders: 'Space Invaders', wheel: 'Wheel', fractal: 'Fractal'};
const boardTitle = name => BOARD_TITLES[name] || (name === 'custom' || !name ? 'Custom board' : name);
// A board option is a built-in board's name or a board in the notation.
const boardName = value => (!value || value.startsWith('a ') ? 'custom' : value);

const pieceOf = move => (move[0] === 'T' ? 'village' : 'settler');

/** @type {import('../../module.js').GameModule} */
export default {
  // The home page.
  home: {
    title: 'Blue Lagoon',
    lede: 'Sail out, settle the islands, gather coconuts, bamboo, water and precious stones, and claim the statuettes. A game for 2 to 4 players, about twenty minutes.',
    // what, time and solo are the game's line on the home page's list of
    // games, beside its players and picture.
    what: 'Settle islands and gather their goods, over two phases.',
    time: 'About twenty minutes',
    solo: 'None: play a bot',
    // points are the lines under the lede: an icon and words; a line
    // whose words end in a question leads to the rules.
    points: () => [
      [icon('settler-0', 'icon piece-icon'), 'Play a bot, from easy to very strong'],
      [icon('village-1', 'icon piece-icon'), 'Or send a link to a friend'],
      [icon('tok-statuette', 'icon tok'), 'New to the game?', {rules: 'The rules in two minutes'}],
    ],
    // picture draws a made-up game on the board chosen in the form.
    async picture(ctx) {
      const p = await ctx.preview(ctx.options && ctx.options.board ? {board: ctx.options.board} : {});
      if (!p.table) return null;
      const view = new BoardView(p.table, {label: 'A game in progress'});
      view.setState(sampleState(p.table, p.state));
      return view.svg;
    },
  },

  // optionField draws a richer control than the shell's for an option:
  // the boards as pictures, the first player among the seats there are.
  optionField(option, ctx) {
    if (option.key === 'board') return boardPicker(option, ctx);
    if (option.key === 'first') {
      if (Number(ctx.value) >= ctx.players) ctx.set('0', false);
      const sel = h('select', {class: 'select', name: 'first', onchange: e => ctx.set(e.target.value, false)},
        Array.from({length: ctx.players}, (_, i) => h('option', {value: i}, `Seat ${i + 1} (${PLAYERS[i].colourName})`)));
      sel.value = ctx.value;
      return h('label', {class: 'field'}, h('span', {class: 'field-label'}, option.label), sel);
    }
    return null;
  },

  // describeOptions says in a few words how a game is set up.
  describeOptions(options) {
    return `${boardTitle(boardName(options.board))} board`;
  },

  // table draws the game for the game screen (interactive) or a replay.
  table(ctx, opts) { return new Table(ctx, opts); },

  // phaseName names a phase of the standing.
  phaseName(phase) {
    return phase === 'exploration' ? 'Exploration phase' : phase === 'settlement' ? 'Settlement phase' : phase;
  },

  // prompt says what the seat to move does now.
  prompt(view) {
    return view.phase === 'exploration' ? 'Place a settler or a village' : 'Place a settler next to your pieces';
  },

  // seatCard shows a seat's pieces left and tokens held.
  seatCard(view, p) {
    const pl = view.players[p];
    return [
      h('div', {class: 'pcard-pieces'},
        h('span', {class: 'count', title: 'Settlers left', 'data-count': 'settlers'}, icon('settler-' + p, 'icon piece-icon'), h('b', {}, pl.settlers_left), h('span', {class: 'sr-only'}, pl.settlers_left === 1 ? ' settler left,' : ' settlers left,')),
        h('span', {class: 'count', title: 'Villages left', 'data-count': 'villages'}, icon('village-' + p, 'icon piece-icon'), h('b', {}, pl.villages_left), h('span', {class: 'sr-only'}, pl.villages_left === 1 ? ' village left,' : ' villages left,'))),
      h('div', {class: 'pcard-tokens', title: 'Tokens held'},
        TOKENS.map(t => h('span', {class: 'count' + (pl.held[t.kind] ? '' : ' zero'), title: t.name, 'data-token': t.kind},
          icon('tok-' + t.kind, 'icon tok'), h('b', {}, pl.held[t.kind]), h('span', {class: 'sr-only'}, ` ${(pl.held[t.kind] === 1 ? t.name : t.plural).toLowerCase()},`)))),
    ];
  },

  // scoreNote adds to a seat's points what the phase would score now.
  scoreNote(view, p) {
    const live = phaseScores(view, view.phase);
    if (!live.scores || live.final) return null;
    return h('span', {class: 'pcard-live', title: 'What this phase would score now'}, ` + ${live.scores[p].total} now`);
  },

  scoreSheet(view, seats) { return scoreSheet(seats, view); },

  // idle says why a seat's turns are skipped: it has nowhere to place.
  idle(view, seat, table) { return idle(table, view, seat); },

  // logGroup names the part of the game a move was made in.
  logGroup(move) { return move.note && move.note.phase ? this.phaseName(move.note.phase) : null; },

  // describeMove writes a move for the log and the replay's caption, as a
  // player says it: "settler on the island of 8, took water".
  describeMove(move, seats, table) {
    const piece = pieceOf(move.move), took = move.note && move.note.took, at = move.move.slice(2);
    return [
      icon(`${piece}-${move.seat}`, 'icon piece-icon'),
      h('span', {class: 'log-text', title: at, 'data-at': at}, h('b', {}, seats[move.seat].name),
        ` ${piece} ${where(table, at)}`, took ? `, took ${tokenPhrase(took)}` : ''),
      took ? h('span', {class: 'log-took', title: 'took ' + tokenName(took)}, icon('tok-' + took, 'icon tok')) : null,
    ];
  },

  // moveSaid is what the message line says of a move just made, if anything.
  moveSaid(move, {mine, name}) {
    const took = move.note && move.note.took;
    if (!took) return null;
    return mine ? `You took ${tokenPhrase(took)}.` : `${name} took ${tokenPhrase(took)}.`;
  },

  // refusal says why a move of ours was refused: the rules' refusal, its
  // code and its reason. One that is not about the place (the game or the
  // phase over, no pieces of the kind left) is said as it is.
  refusal(move, {code, reason}) {
    if (!move || ['over', 'phase_over', 'no_settlers', 'no_villages'].includes(code)) return sentence(reason);
    return `You can't place a ${pieceOf(move)} on ${move.slice(2)}: ${clause(reason)}`;
  },

  // phaseSummary describes the end of the exploration phase, if move ended
  // it: what was removed and kept, and the scores.
  // playing: the viewer plays on (not a spectator, nor a seat skipped).
  phaseSummary(move, seats, {playing = true} = {}) {
    const end = move.note && (move.note.phase_ends || []).find(e => e.phase === 'exploration');
    if (!end) return null;
    const count = lists => lists.map((l, p) => `${seats[p].name} ${l.length}`).join(', ');
    return {
      title: 'The exploration phase is over',
      button: 'Exploration summary',
      next: playing ? 'Play the settlement phase' : 'Watch the settlement phase',
      body: h('div', {},
        h('table', {class: 'mini-scores'},
          h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'This phase'), h('th', {}, 'Total'))),
          h('tbody', {}, seats.map((seat, p) => h('tr', {},
            h('th', {}, h('span', {class: 'who'}, icon('mark-' + p, 'icon mark'), seat.name)),
            h('td', {}, String(end.scores[p].total)), h('td', {}, h('b', {}, String(end.totals[p]))))))),
        h('ul', {class: 'changes'},
          h('li', {}, icon('settler-0', 'icon piece-icon'), h('span', {}, h('b', {}, 'Settlers returned'), ' to their owners: ', count(end.settlers_removed), '.')),
          h('li', {}, icon('village-0', 'icon piece-icon'), h('span', {}, h('b', {}, 'Villages on stone circles removed'), ': ', count(end.villages_removed), '.')),
          h('li', {}, icon('village-1', 'icon piece-icon'), h('span', {}, h('b', {}, 'Villages kept'), ', they count again: ', count(end.villages_kept), '.')),
          h('li', {}, icon('tok-statuette', 'icon tok'), h('span', {}, h('b', {}, 'All 32 tokens'), ' were shuffled and dealt again onto the stone circles; nobody holds any now.'))),
        h('p', {class: 'next'}, h('b', {}, 'Settlement phase: '), 'place settlers next to your pieces, on land or sea. No more villages.')),
    };
  },

  // result explains a finished game: the seats in their order (points,
  // then tokens held), each seat's tokens, and the tie-break in words,
  // under the page's names for the seats.
  result(view, seats) {
    const res = view.result;
    if (!res) return null;
    const {totals} = grandTotals(view);
    return {
      order: totals.map((_, p) => p).sort((a, b) => totals[b] - totals[a] || res.tokens_held[b] - res.tokens_held[a]),
      detail: p => h('span', {class: 'podium-tokens', title: 'Tokens held at the end'}, plural(res.tokens_held[p], 'token')),
      explanation: h('p', {class: 'explanation' + (res.tie_break !== 'none' ? ' tie' : '')},
        res.tie_break === 'none' ? null : h('b', {}, res.tie_break === 'tokens' ? 'Tie-break. ' : 'Still tied. '),
        explain(res, seats)),
    };
  },

  // recordOpen says whether the record may be downloaded: the seed of a
  // game in its exploration phase would tell the settlement's layout.
  recordOpen(state) { return state.over || state.view.phase === 'settlement'; },

  // startCaption is the replay's caption for the position before any move.
  startCaption: 'The start: tokens dealt, no pieces yet.',

  rulesPage,
  rulesSummary: summary,
  legend,
};

// boardPicker shows the boards as pictures, each drawn from the server's
// preview of it.
function boardPicker(option, ctx) {
  const cards = option.choices.map(c => {
    const title = c.label && c.label !== c.value ? c.label : boardTitle(c.value);
    const pic = h('span', {class: 'board-card-pic'});
    const info = h('span', {class: 'board-card-info'});
    ctx.preview({board: c.value}).then(p => {
      if (!p.table) return;
      pic.replaceWith(new BoardView(p.table, {mini: true, label: title}).svg);
      info.textContent = `${p.table.islands.length} islands`;
    }, () => {});
    return h('label', {class: 'board-card' + (ctx.value === c.value ? ' selected' : '')},
      h('input', {type: 'radio', name: option.key, value: c.value, checked: ctx.value === c.value, onchange: () => ctx.set(c.value)}),
      pic,
      h('span', {class: 'board-card-name'}, title),
      info);
  });
  return h('div', {class: 'field'},
    h('span', {class: 'field-label'}, option.label),
    h('div', {class: 'board-cards'}, cards));
}

// sampleState is a made-up position for the picture on the home page: the
// tokens dealt (as the preview dealt them, if it did), and a few pieces of
// two players.
function sampleState(board, state) {
  let x = 7;
  const next = n => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
  let tokens = state && state.view && state.view.tokens;
  if (!tokens || !tokens.length) {
    const kinds = [];
    for (const [kind, n] of [['coconut', 6], ['bamboo', 6], ['water', 6], ['stone', 6], ['statuette', 8]]) {
      for (let i = 0; i < n; i++) kinds.push(kind);
    }
    for (let i = kinds.length - 1; i > 0; i--) {
      const j = next(i + 1);
      [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
    }
    tokens = board.stone_circles.map((at, i) => ({at, token: kinds[i]}));
  }
  const stones = new Set(board.stone_circles);
  const land = new Set(board.islands.flatMap(isl => isl.spaces));
  const free = [];
  for (let r = 0; r < board.height; r++) {
    for (let c = 0; c < (r % 2 ? board.height : board.height - 1); c++) {
      if (!stones.has(`${r},${c}`)) free.push(`${r},${c}`);
    }
  }
  const pieces = [];
  for (let i = 0; i < 14; i++) {
    const at = free.splice(next(free.length), 1)[0];
    pieces.push({at, seat: i % 2, piece: land.has(at) && i % 5 === 0 ? 'village' : 'settler'});
  }
  const last = pieces[pieces.length - 1];
  return {pieces, tokens, last_move: {move: 'S ' + last.at}};
}

// explain says who won and how the tie-break decided it, as the server's
// explanation does but under the seats' names on the page ("White bot",
// not the server's "Bot (medium)").
function explain(res, seats) {
  const names = list => {
    const n = list.map(p => seats[p].name);
    return n.length > 1 ? `${n.slice(0, -1).join(', ')} and ${n[n.length - 1]}` : n[0];
  };
  const best = Math.max(...res.totals);
  const tied = res.totals.map((_, p) => p).filter(p => res.totals[p] === best);
  const who = names(res.winners);
  if (res.tie_break === 'none') return `${who} wins with ${plural(best, 'point')}.`;
  if (res.tie_break === 'tokens') {
    const held = tied.map(p => `${seats[p].name} ${res.tokens_held[p]}`).join(', ');
    const verdict = res.winners.length > 1 ? `${who} share the victory.` : `${who} wins.`;
    return `${names(tied)} tied on ${plural(best, 'point')}; the most tokens held decides (${held}): ${verdict}`;
  }
  return `${who} tied on ${plural(best, 'point')} and on ${plural(res.tokens_held[tied[0]], 'token')} held; they share the victory.`;
}
