// @ts-check
// Lagoon: Land of Druids' module: everything the page knows of the game,
// behind the interface the shell asks every game module for (docs/web.md,
// "Game modules"). The shell hands it the API's objects: the table (the
// sites' catalogue, the play set, the teams, each druid slot's circle),
// each state's view and each move's note (druids/view.go).

import {h, icon, plural, noun, loadStyle, clause, sentence} from '../../ui.js';
import {installSymbols, installDruids, ENERGIES, CIRCLES, energyOf, energyIndex} from './art.js';
import {Catalogue, moveWords, stepWords} from './words.js';
import {Table, speakers, ownTurn} from './table.js';
import {WorldView} from './world.js';
import {legend, summary, rulesPage} from './rules.js';

installSymbols();
await loadStyle(new URL('./druids.css', import.meta.url).href);

// Catalogues by table, so that the log's many lines share one; the seat
// cards, which are handed no table, use the last one a table was drawn
// with.
const catalogues = new WeakMap();
let shown = null;
function catalogue(table) {
  if (!catalogues.has(table)) {
    const cat = new Catalogue(table);
    installDruids(table.circles || [], cat.aj);
    catalogues.set(table, cat);
  }
  return catalogues.get(table);
}
const energyLetter = id => {
  const st = shown && shown.site(id);
  return st ? energyOf(st.energy).letter : 'E';
};

const AJ_LEVELS = {initiate: 'Initiate', acolyte: 'Acolyte', adept: 'Adept', eldrid: 'Eldrid', legend: 'Legend'};

// teamTable is the end of a game of teams: each team's members, their
// pooled seeds by energy and unravelled sites, and the team's points.
function teamTable(view, seats, teams, pts) {
  const sum = (t, f) => t.reduce((n, p) => n + f(p), 0);
  return h('table', {class: 'dr-team-result'},
    h('caption', {}, 'Teammates pool their seeds and sites: the team\'s total decides.'),
    h('thead', {}, h('tr', {}, h('th', {}, 'Team'), ENERGIES.map(e => h('th', {}, icon(e.symbol, 'icon energy-icon'), h('span', {class: 'sr-only'}, `${e.name} seeds`))),
      h('th', {}, 'Sites'), h('th', {}, 'Points'))),
    h('tbody', {}, teams.map((t, k) => h('tr', {'data-team': k},
      h('th', {}, `Team ${k + 1}`, h('span', {class: 'dr-team-names'}, t.map(p => seats[p].name).join(' & '))),
      ENERGIES.map((_, i) => h('td', {'data-seeds': ENERGIES[i].letter}, String(sum(t, p => view.players[p].seeds[i])))),
      h('td', {'data-sites': k, title: t.flatMap(p => view.players[p].unravelled).join(', ')}, String(sum(t, p => view.players[p].unravelled.length))),
      h('td', {'data-team-total': k}, h('b', {}, String(sum(t, pts))))))));
}

/** @type {import('../../module.js').GameModule} */
export default {
  home: {
    title: 'Lagoon: Land of Druids',
    lede: 'Lead a circle of druids across a world of sites that grows as you explore and shrinks as you unravel. The energy with the most sites in play at the end is destiny: it decides what your seeds and unravelled sites are worth. 2 to 4 players, or alone against AJ.',
    what: 'Lead druids across a world that grows and shrinks; the last energy standing sets the scores.',
    // The rulebook's own figure (docs/druids.md, Decisions).
    time: 'About an hour',
    solo: 'Alone against AJ, the rulebook\'s opponent, at five levels',
    points: () => [
      [icon('en-elemeen', 'icon energy-icon'), 'Play alone against AJ, at five levels'],
      [icon('en-vowelon', 'icon energy-icon'), 'Or bots, or friends by invite link'],
      [icon('en-deonin', 'icon energy-icon'), 'New to the game?', {rules: 'The rules in short'}],
    ],
    // alone: a game of one is you against AJ, at the level of the option
    // "aj" (the lowest unless chosen).
    alone: {seats: ['you', 'house'], option: 'aj', level: 'initiate'},
    // teams: four players play as two teams, the first and third seats
    // against the second and fourth (docs/druids.md).
    teams: players => (players === 4 ? [[0, 2], [1, 3]] : null),
    // quick: a solo game against AJ in one click, at each of his levels.
    quickLabel: 'Solo against AJ',
    quick: () => Object.entries(AJ_LEVELS).map(([level, name]) => ({key: `aj-${level}`, label: name,
      title: `You alone against AJ, the rulebook's solo opponent, at the ${name} level`, seats: ['you', 'house'], options: {aj: level, first: '0'}})),
    // picture draws the world a game would start with.
    async picture(ctx) {
      const p = await ctx.preview(ctx.options || {});
      if (!p.table || !p.state) return null;
      const cat = catalogue(p.table);
      const world = new WorldView(cat, speakers(cat, [], null), {label: 'The starting world', least: [2.6, 2.2]});
      world.setView(p.state.view);
      return world.svg;
    },
  },

  // optionField: the first player among the seats there are; AJ's level
  // for a game of one only.
  optionField(option, ctx) {
    if (option.key === 'aj') {
      if (ctx.players !== 1) return h('span', {hidden: true});
      const sel = h('select', {class: 'select', name: 'aj', onchange: e => ctx.set(e.target.value, false)},
        Object.entries(AJ_LEVELS).map(([level, name]) => h('option', {value: level}, name)));
      sel.value = AJ_LEVELS[ctx.value] ? ctx.value : 'initiate';
      return h('label', {class: 'field', title: option.help}, h('span', {class: 'field-label'}, "AJ's level"), sel);
    }
    if (option.key !== 'first') return null;
    if (Number(ctx.value) >= ctx.players) ctx.set('0', false);
    const sel = h('select', {class: 'select', name: 'first', onchange: e => ctx.set(e.target.value, false)},
      Array.from({length: ctx.players}, (_, i) => h('option', {value: i}, `Seat ${i + 1}`)));
    sel.value = ctx.value;
    return h('label', {class: 'field', title: option.help}, h('span', {class: 'field-label'}, option.label), sel);
  },

  describeOptions(options) {
    const set = options.set || 'regular';
    const aj = options.aj && options.aj !== 'none' ? `, solo against AJ (${AJ_LEVELS[options.aj] || options.aj})` : '';
    return `${set[0].toUpperCase()}${set.slice(1)} set${aj}`;
  },

  table(ctx, opts) {
    shown = catalogue(ctx.table);
    return new Table({...ctx, cat: shown}, opts);
  },

  phaseName: () => '',

  // progress counts rounds, not decisions (a turn is many of them) nor
  // the game's turns: beside "your sixth turn", "Turn 11" (the game's
  // eleventh, of two seats) read as another count (issue 47).
  progress: state => (state.view.over ? plural(state.view.turn - 1, 'turn') : `Round ${ownTurn(state.view)}`),

  prompt(view) {
    switch (view.asking) {
      case 'begin': return 'Begin step: use your timely sites, or done';
      case 'refresh': return 'Refresh step: refresh your druids';
      case 'action': return 'Pick a druid or a site, then an action';
      case 'end': return 'End step: use your timely sites, or done';
      case 'return to the world': return 'Your circle has no druid on the board: set one on a haven';
      default: return `${stepWords(view.asking)}: make your choice`;
    }
  },

  // seatCard: seeds by energy, the player marker, the supply, the score
  // area; AJ's Eldrids and his token bag's acolytes by circle.
  seatCard(view, p) {
    const pl = view.players[p];
    if (!pl) return null;
    const aj = view.aj && p === 1 ? view.aj : null;
    return [
      h('div', {class: 'dr-seat-row'},
        ENERGIES.map((e, i) => h('span', {class: 'count' + (pl.seeds[i] ? '' : ' zero'), title: `${e.name} seeds`, 'data-seeds': e.letter},
          icon(e.symbol, 'icon energy-icon'), h('b', {}, pl.seeds[i]), h('span', {class: 'sr-only'}, ` ${e.name} ${noun(pl.seeds[i], 'seed')},`))),
        aj ? null : h('span', {class: 'count dr-marker' + (pl.marker === 'exhausted' ? ' zero' : ''), title: `Player marker ${pl.marker}: ${pl.marker === 'exhausted' ? 'no explore until the next Refresh step' : 'an explore is possible'}`},
          icon('dr-marker', 'icon'), pl.marker === 'exhausted' ? 'marker spent' : 'marker ready'),
        aj ? null : h('span', {class: 'count', title: 'Druids in the supply'}, `supply ${pl.acolytes_in_supply + (pl.eldrid_in_supply ? 1 : 0)}`, pl.eldrid_in_supply ? h('span', {class: 'muted'}, ' (Eldrid)') : null)),
      h('div', {class: 'dr-area', title: 'Score area: the sites unravelled'},
        pl.unravelled.length ? pl.unravelled.map(id => h('span', {class: `dr-chip en-${energyLetter(id)}`, 'data-area': id, title: shown ? shown.name(id) : id}, id)) : h('span', {class: 'muted small'}, 'no site unravelled')),
      aj ? h('div', {class: 'dr-ajcard'}, h('span', {class: 'muted small'}, `Level ${AJ_LEVELS[aj.level] || aj.level} · Eldrids: `),
        aj.circles.map((c, i) => h('span', {class: 'dr-aj-eldrid', title: `${c} Eldrid ${aj.eldrids[i] ? 'on ' + aj.eldrids[i] : 'not in play yet'}`},
          icon(`em-${c}`, 'icon emblem'), aj.eldrids[i] || '—'))) : null,
      // AJ's token bag is public: the acolytes in it, by circle.
      aj ? h('div', {class: 'dr-ajbag', title: 'AJ\'s token bag: a token drawn decides his Invoke step'}, h('span', {class: 'muted small'}, 'Token bag: '),
        CIRCLES.map((c, i) => (aj.tokens[i] ? h('span', {class: 'dr-aj-token', 'data-token': c, title: `${aj.tokens[i]} ${c} acolytes`}, icon(`em-${c}`, 'icon emblem'), aj.tokens[i]) : null))) : null,
    ];
  },

  scoreNote: () => null,

  // scoreSheet: the destiny forecast (each seat's points under each
  // energy, the one dominating now marked) and what makes it.
  scoreSheet(view, seats) {
    const dom = energyIndex(view.destiny);
    // Four players are two teams, seats 1 and 3 against 2 and 4, scored
    // together: the team's columns add their members'.
    const teams = view.players.length === 4 ? [[0, 2], [1, 3]] : [];
    const sum = (t, i) => t.reduce((n, p) => n + view.players[p].forecast[i], 0);
    return h('div', {class: 'dr-sheet'},
      h('table', {class: 'dr-forecast-table' + (teams.length ? ' dr-forecast-teams' : '')},
        h('caption', {}, 'Destiny forecast: the points if each energy dominated now'),
        h('thead', {}, h('tr', {}, h('th', {}, 'If it dominated'), seats.map((s, p) => h('th', {}, icon('mark-' + p, 'icon mark'), s.name)),
          teams.map((_, k) => h('th', {class: 'dr-team'}, `Team ${k + 1}`)))),
        h('tbody', {}, ENERGIES.map((e, i) => h('tr', {class: i === dom ? 'on' : '', 'data-energy': e.letter},
          h('th', {}, icon(e.symbol, 'icon energy-icon'), e.name, i === dom ? h('span', {class: 'tag tag-now'}, 'now') : null),
          seats.map((_, p) => h('td', {'data-points': p}, String(view.players[p].forecast[i]))),
          teams.map((t, k) => h('td', {class: 'dr-team', 'data-team': k}, String(sum(t, i)))))))),
      h('p', {class: 'muted small'}, view.destiny === 'draw'
        ? 'No energy dominates now: the energies are tied, and so would the tie-breaks be.'
        : `${view.destiny} dominates now: it has the most sites in play (or wins the tie-break).`,
      teams.length ? ' Teammates score together.' : ''),
      h('ul', {class: 'dr-sheet-areas'}, seats.map((s, p) => h('li', {},
        icon('mark-' + p, 'icon mark'), h('b', {}, s.name), ': ',
        view.players[p].unravelled.length ? `unravelled ${view.players[p].unravelled.join(', ')}` : 'nothing unravelled', '; seeds ',
        ENERGIES.map((e, i) => `${view.players[p].seeds[i]} ${e.letter}`).join(' · ')))));
  },

  idle: () => null,

  logGroup(move) { return move.note && move.note.turn ? `Turn ${move.note.turn}` : null; },

  describeMove(move, seats, table) {
    const cat = catalogue(table);
    const words = speakers(cat, seats, null);
    const aj = move.note && move.note.aj;
    const drew = move.note && move.note.drew;
    return [
      icon('mark-' + move.seat, 'icon mark'),
      h('span', {class: 'log-text', 'data-move': move.move}, h('b', {}, seats[move.seat] ? seats[move.seat].name : `Seat ${move.seat + 1}`), ' ', moveWords(move, words),
        drew && drew.length ? h('span', {class: 'muted'}, ` (drew ${drew.map(n => `tile ${n}`).join(' and ')})`) : null,
        move.note && move.note.ends_turn ? h('span', {class: 'muted'}, ' · turn ends') : null,
        aj && aj.length ? h('ol', {class: 'log-aj'}, aj.map(line => h('li', {}, line))) : null),
    ];
  },

  moveSaid(move, {mine}) {
    const note = move.note || {};
    if (note.aj && note.aj.length) return `AJ played his turn: ${plural(note.aj.length, 'step')}, shown on the table.`;
    if (mine && note.drew && note.drew.length) return `You drew ${note.drew.map(n => `tile ${n}`).join(' and ')}.`;
    return null;
  },

  // refusal: a choice not offered now says what the choices are; the
  // game over is said as it is.
  refusal(move, {code, reason}) {
    if (code === 'over') return sentence(reason);
    return move ? `That choice (${move}) was refused: ${clause(reason)}` : `Your choice was refused: ${clause(reason)}`;
  },

  // result: the order by points (a team's together, its members side by
  // side), each seat's seeds and sites, the destiny that decided; in a
  // game of teams each team's pooled seeds and sites and its total.
  result(view, seats) {
    const dom = energyIndex(view.destiny);
    const pts = p => (dom >= 0 ? view.players[p].forecast[dom] : 0);
    const teams = view.players.length === 4 ? [[0, 2], [1, 3]] : null;
    const unit = p => (teams ? teams[p % 2] : [p]);
    const total = list => list.reduce((n, p) => n + pts(p), 0);
    const seeds = p => view.players[p].seeds.reduce((a, b) => a + b, 0);
    return {
      order: seats.map((_, p) => p).sort((a, b) => total(unit(b)) - total(unit(a)) || a % 2 - b % 2 || pts(b) - pts(a)),
      detail: p => h('span', {class: 'podium-tokens'}, teams ? `team ${p % 2 + 1} · ` : '', `${plural(view.players[p].unravelled.length, 'site')}, ${plural(seeds(p), 'seed')}`),
      explanation: [
        h('p', {class: 'explanation'}, dom >= 0
          ? [icon(ENERGIES[dom].symbol, 'icon energy-icon'), ` ${view.destiny} is Lagoon's destiny: it counted for the points.`]
          : 'No energy dominated: the game is a draw, every seat shares the victory.'),
        teams ? teamTable(view, seats, teams, pts) : null,
      ],
    };
  },

  startCaption: 'The start: three sites, the druids on the haven.',

  rulesPage,
  rulesSummary: summary,
  legend,
};
