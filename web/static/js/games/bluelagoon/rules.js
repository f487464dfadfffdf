// The rules, short: a page of its own (/rules) and a summary beside the
// board. They restate docs/rules.md for people who are about to play.

import {h, icon} from '../../ui.js';
import {PLAYERS} from '../../art.js';
import {TOKENS} from './art.js';

const tok = kind => icon('tok-' + kind, 'icon tok');

// legend explains what is drawn on the board.
export function legend(seats = null) {
  const players = seats || PLAYERS.slice(0, 2).map((_, i) => ({name: `Player ${i + 1}`}));
  return h('div', {class: 'legend'},
    h('div', {class: 'legend-group'},
      h('span', {class: 'legend-item'}, h('span', {class: 'swatch swatch-sea'}), 'Sea'),
      h('span', {class: 'legend-item'}, h('span', {class: 'swatch swatch-land'}), 'Island'),
      h('span', {class: 'legend-item'}, h('span', {class: 'swatch swatch-badge'}, '8'), 'Island bonus'),
      h('span', {class: 'legend-item'}, icon('stone-circle', 'icon stone-icon'), 'Stone circle')),
    h('div', {class: 'legend-group'},
      TOKENS.map(t => h('span', {class: 'legend-item'}, tok(t.kind), t.name))),
    h('div', {class: 'legend-group'},
      players.map((seat, p) => h('span', {class: 'legend-item'},
        icon(`settler-${p}`, 'icon piece-icon'), icon(`village-${p}`, 'icon piece-icon'),
        `${seat.name} (${PLAYERS[p].colourName} ${PLAYERS[p].shapeName})`))),
    h('div', {class: 'legend-group legend-small'},
      h('span', {class: 'legend-item'}, h('span', {class: 'swatch swatch-legal'}), 'Where you may place'),
      h('span', {class: 'legend-item'}, h('span', {class: 'swatch swatch-last'}), 'Last move')));
}

// summary is the in-game rules, in a few lines.
export function summary() {
  return h('div', {class: 'rules-summary'},
    h('h3', {}, 'Your turn'),
    h('p', {}, 'Place one piece on an empty space. ',
      h('b', {}, 'Exploration:'), ' a settler anywhere on the sea, or a settler or village on land next to one of your pieces. ',
      h('b', {}, 'Settlement:'), ' settlers only, next to one of your pieces, on land or sea.'),
    h('p', {}, 'A piece on a stone circle takes its token. ', h('kbd', {}, 'S'), ' settler · ', h('kbd', {}, 'V'), ' village.'),
    h('h3', {}, 'A phase ends'),
    h('p', {}, 'when all 24 resources are taken or nobody can move. After exploration, settlers and the villages on stone circles leave the board, and the tokens are dealt again.'),
    h('h3', {}, 'Scoring, each phase'),
    h('ul', {},
      h('li', {}, 'Pieces on 8 or more islands: 20 (7 islands: 10).'),
      h('li', {}, 'Links: 5 per island in your best connected chain.'),
      h('li', {}, 'Majorities: most pieces on an island wins its bonus (shared on a tie).'),
      h('li', {}, 'Resources, per kind: 2 → 5, 3 → 10, 4 or more → 20; one of each: +10.'),
      h('li', {}, 'Statuettes: 4 each.')),
    h('p', {}, 'Most points over both phases wins; a tie goes to the most tokens held.'),
    h('p', {}, h('a', {href: '/rules/bluelagoon', 'data-link': '', target: '_blank'}, 'The full rules')));
}

// page is the rules page.
export function rulesPage() {
  return h('article', {class: 'page rules-page'},
    h('header', {class: 'page-head'},
      h('h1', {}, 'How to play Blue Lagoon'),
      h('p', {class: 'lede'}, 'Reiner Knizia\'s game of settling an archipelago, for 2 to 4 players. ',
        'Explore the lagoon, found villages, collect resources, then settle what you discovered.')),
    h('section', {class: 'rules-grid'},
      h('div', {class: 'card'},
        h('h2', {}, 'The board'),
        h('p', {}, 'Hexagonal spaces of sea and land. Land spaces form islands; each island is worth a bonus (6, 8 or 10 on the standard board), shown in its dark badge. ',
          '32 land spaces are stone circles: at the start of each phase every stone circle gets a token.'),
        h('p', {}, 'Tokens are resources, six of each kind, and eight statuettes:'),
        h('ul', {class: 'token-list'}, TOKENS.map(t => h('li', {}, tok(t.kind), t.name))),
        h('p', {}, 'Each player has 5 villages and 30 settlers (25 with three players, 20 with four).')),
      h('div', {class: 'card'},
        h('h2', {}, 'A turn'),
        h('p', {}, 'Players take turns placing one of their pieces on an empty space. A piece never moves.'),
        h('h3', {}, 'Exploration phase'),
        h('ul', {},
          h('li', {}, 'a settler on any empty sea space, anywhere;'),
          h('li', {}, 'or a settler or a village on an empty land space next to one of your pieces.')),
        h('p', {}, 'Villages never go on the sea.'),
        h('h3', {}, 'Settlement phase'),
        h('ul', {}, h('li', {}, 'a settler on any empty space, land or sea, next to one of your pieces. No villages.')),
        h('p', {}, 'Putting a piece on a stone circle takes its token. A player who cannot place is skipped.')),
      h('div', {class: 'card'},
        h('h2', {}, 'End of a phase'),
        h('p', {}, 'A phase ends as soon as all 24 resources are collected (statuettes may remain), or when nobody can place a piece. The phase is then scored.'),
        h('p', {}, 'After the exploration phase:'),
        h('ol', {},
          h('li', {}, 'all settlers leave the board;'),
          h('li', {}, 'villages on stone circles leave the board; the other villages stay and count again;'),
          h('li', {}, 'every token goes back and all 32 are dealt again onto the stone circles.')),
        h('p', {}, 'The settlement phase is played from there, then scored the same way. The game is over.')),
      h('div', {class: 'card'},
        h('h2', {}, 'Scoring, at the end of each phase'),
        h('table', {class: 'rules-table'},
          h('tbody', {},
            h('tr', {}, h('th', {}, 'Islands'), h('td', {}, 'your pieces on 8 or more islands: 20; on exactly 7: 10')),
            h('tr', {}, h('th', {}, 'Links'), h('td', {}, 'your biggest group of connected pieces (land and sea) scores 5 for each island it touches')),
            h('tr', {}, h('th', {}, 'Majorities'), h('td', {}, 'the player with the most pieces on an island scores its bonus; a tie shares it, rounded down')),
            h('tr', {}, h('th', {}, 'Resources'), h('td', {}, 'for each kind you hold: 2 → 5, 3 → 10, 4 or more → 20')),
            h('tr', {}, h('th', {}, 'Complete set'), h('td', {}, '10 if you hold one of each of the four resources')),
            h('tr', {}, h('th', {}, 'Statuettes'), h('td', {}, '4 for each statuette you hold')))),
        h('p', {}, 'The most points over both phases wins. A tie goes to the tied player holding the most tokens; if still tied, they share the victory.'))),
    h('section', {class: 'card'},
      h('h2', {}, 'On this board'),
      legend()),
    h('p', {class: 'page-foot'}, h('a', {class: 'btn btn-primary', href: '/', 'data-link': ''}, 'Start a game')));
}
