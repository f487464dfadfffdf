// Land of Druids' rules, short and in our own words: a page of its own
// (/rules/druids), a summary beside the world and a legend of what is
// drawn, and the rules of Lagoon's own where the rulebook is silent.

import {h, icon} from '../../ui.js';
import {PLAYERS} from '../../art.js';
import {ENERGIES, CIRCLES} from './art.js';

const energy = e => h('span', {class: 'legend-item'}, icon(e.symbol, 'icon energy-icon'), `${e.name} (${e.what})`);

// HOUSE_RULES are the rules of Lagoon's own that a player meets: where
// the rulebook leaves a question open, the answer the engine plays
// (docs/druids.md, "Decisions the rulebook leaves open"), in a player's
// words. The table shows each where it acts; the rules page lists them.
export const HOUSE_RULES = {
  lost: 'Your circle has no druid on the board. The rulebook does not say what then; here you set one druid from your supply (your Eldrid if it is there) exhausted on a haven of your choice, and your Refresh step goes on as usual. Without this a circle with no druid could never act again.',
  menu: 'An action that would do nothing now is not offered, and no seed or druid is spent on nothing: each action left out says why.',
  refresh: 'Only exhausted druids are refreshed: refreshing a refreshed one would do nothing. Up to 3 a turn, 4 with Mani Temple.',
  placing: 'Whoever unravels places the druids of the unravelled site on havens, one at a time, seat by seat, each Eldrid first; at once when only one haven is left.',
  ancient: 'An Ancient\'s extra energy is asked for only when your sites leave a shortfall; your seeds then pay exactly the rest, by themselves.',
  moveIn: 'After laying the site and gaining its seed, the exploring druid may move onto it; then the new site\'s own exploration action, if it has one.',
  hotSpring: 'Any haven but the site being unravelled; No sends the druid back to your supply as usual.',
  portal: 'Every circle on the Portal may refresh one of its own exhausted druids, from the active player\'s left, the active player last; only at the first unravel of a turn.',
};

// houseRule is the rule of Lagoon's own that acts at a view's decision,
// {key, text}, or null.
export function houseRule(v) {
  const legal = v.legal || [];
  const key = (() => {
    if (v.question === 'lost') return 'lost';
    if (v.asking === 'Hot Spring of the Phoenix') return 'hotSpring';
    if (v.asking === 'Awakening Portal') return 'portal';
    if (v.question === 'moveIn') return 'moveIn';
    if (v.question === 'unravel') return legal.includes('yes') ? 'ancient' : 'placing';
    if (v.step === 'refresh' && !(v.resolving || []).length) return 'refresh';
    if ((v.offers || []).length && (v.unavailable || []).length) return 'menu';
    return null;
  })();
  return key ? {key, text: HOUSE_RULES[key]} : null;
}

// legend explains what is drawn on the world.
export function legend(seats = null) {
  const players = seats || PLAYERS.slice(0, 2).map((_, i) => ({name: `Player ${i + 1}`}));
  return h('div', {class: 'legend dr-legend'},
    h('div', {class: 'legend-group'}, ENERGIES.map(energy)),
    h('div', {class: 'legend-group'},
      players.map((seat, p) => h('span', {class: 'legend-item'}, icon('mark-' + p, 'icon mark'),
        `${seat.name}: ${PLAYERS[p].colourName} ${PLAYERS[p].shapeName}`))),
    h('div', {class: 'legend-group'},
      CIRCLES.filter((_, i) => i % 2 === 0).map(c => h('span', {class: 'legend-item'}, icon('em-' + c, 'icon emblem'), `${c} circle`))),
    h('div', {class: 'legend-group legend-small'},
      h('span', {class: 'legend-item'}, h('span', {class: 'swatch dr-swatch-eldrid'}), 'Eldrid: the larger token, ringed'),
      h('span', {class: 'legend-item'}, h('span', {class: 'swatch dr-swatch-ex'}), 'Exhausted: lying down, faded'),
      h('span', {class: 'legend-item'}, icon('dr-lock', 'icon'), 'Locked: removing it would split the world'),
      h('span', {class: 'legend-item'}, icon('dr-original', 'icon'), 'Original to Lagoon: a side of our own design'),
      h('span', {class: 'legend-item'}, h('span', {class: 'swatch swatch-legal'}), 'A choice you may make now')));
}

// summary is the in-game rules, in a few lines; link: to the rules page.
export function summary(link = true) {
  return h('div', {class: 'rules-summary'},
    h('h3', {}, 'Your turn'),
    h('p', {}, h('b', {}, 'Begin'), ' (timely sites), ', h('b', {}, 'Refresh'), ' (your marker and up to 3 druids), ',
      h('b', {}, 'Action'), ' (as many actions as your refreshed druids allow), ', h('b', {}, 'End'), '.'),
    h('p', {}, 'Every action exhausts the druid that invokes it. ',
      h('b', {}, 'Move'), ' to a neighbouring site; ', h('b', {}, 'summon'), ' a druid onto a haven; ',
      h('b', {}, 'explore'), ' (once a turn: it exhausts your marker) to lay a new site and gain its seed; ',
      h('b', {}, 'unravel'), ' the druid\'s site into your score area; or use a site\'s own action.'),
    h('p', {}, 'Your circle shares the actions of every site one of its druids stands on, refreshed or exhausted: any refreshed druid of yours may invoke them, an Eldrid action your Eldrid, wherever it stands.'),
    h('h3', {}, 'Unravelling'),
    h('p', {}, 'Takes 3 energy of the kind that threatens the site: one for each site of that energy your druids stand on, seeds for the rest. ',
      'Elemeen threatens Vowelon, Vowelon threatens Deonin, Deonin threatens Elemeen. A locked site, or the only haven, cannot be unravelled.'),
    h('h3', {}, 'The end'),
    h('p', {}, 'After the turn in which the bag empties. The energy with the most sites in play is destiny: a point for each of your seeds of it, two for each unravelled site of another energy.'),
    link ? h('p', {}, h('a', {href: '/rules/druids', 'data-link': '', target: '_blank'}, 'The rules in short')) : null);
}

// rulesPage is the rules page.
export function rulesPage() {
  return h('article', {class: 'page rules-page'},
    h('header', {class: 'page-head'},
      h('h1', {}, 'How to play Lagoon: Land of Druids'),
      h('p', {class: 'lede'}, 'David Chott\'s game of druid circles in a world of sites, for 2 to 4 players or one against AJ, in our own words: the whole of it is on this page, with the answers Lagoon gives where the rulebook leaves a question open.')),
    h('section', {class: 'rules-grid'},
      h('div', {class: 'card'},
        h('h2', {}, 'The world'),
        h('p', {}, 'Hex tiles, each a site with two sides. A site has an energy, a type (haven, trove, sanctum, shrine, ally), a group (I, II, III) and an action: invoked by a druid of yours, by your Eldrid, timely (it acts by itself at its moment), or when it is explored. A site\'s invoked actions are your circle\'s while one of your druids stands on it.'),
        h('p', {}, 'The world grows as sites are explored and shrinks as they are unravelled; it must stay in one piece, so a site whose removal would split it is locked.'),
        h('ul', {class: 'token-list'}, ENERGIES.map(e => h('li', {}, icon(e.symbol, 'icon energy-icon'), `${e.name}, drawn with ${e.what}`)))),
      h('div', {class: 'card'},
        h('h2', {}, 'Druids'),
        h('p', {}, 'Each player leads a circle of five druids: an Eldrid and four acolytes, each refreshed (standing) or exhausted (lying down). Druids stand only on sites; the rest wait in your supply.'),
        h('p', {}, 'Each circle has an emblem (the Stag, the Hare, the Fern, the Mushroom...) drawn on its seat\'s shape, so circles are told apart without colour.')),
      h('div', {class: 'card'},
        h('h2', {}, 'A turn'),
        summary(false)),
      h('div', {class: 'card'},
        h('h2', {}, 'Alone against AJ'),
        h('p', {}, 'AJ, the rulebook\'s solo opponent, plays three Eldrids and a bag of tokens. His turn is played as soon as yours ends: the table shows it step by step, each step\'s sites marked on the world. Five levels, from Initiate to Legend.'))),
    h('section', {class: 'rules-grid'},
      h('div', {class: 'card'},
        h('h2', {}, 'Destiny and the score'),
        h('p', {}, 'The game ends after the turn in which the last tile leaves the bag. The energy with the most sites in play then dominates: it is Lagoon\'s destiny. Each of your seeds of that energy is a point, and each site of another energy in your score area two.'),
        h('p', {}, 'A tie of two energies goes to the one that threatens the other (Elemeen threatens Vowelon, Vowelon Deonin, Deonin Elemeen); three tied go to the energy of which the players hold the most seeds together (two tied there: again the one that threatens the other), and three still tied make a draw that every seat shares. The most points wins; a tie goes to the player with the most seeds of the destiny less their unravelled sites of it, and a tie after that is a shared victory.'),
        h('p', {}, 'With four players, seats 1 and 3 play against 2 and 4: teammates pool their seeds and unravelled sites, and the team\'s total decides.')),
      h('div', {class: 'card', 'data-rules': 'house'},
        h('h2', {}, 'Lagoon\'s own rules'),
        h('p', {}, 'Where the rulebook leaves a question open, this is how Lagoon plays it; the table says so where it acts.'),
        h('ul', {class: 'house-rules'}, Object.values(HOUSE_RULES).map(text => h('li', {}, text))))),
    h('section', {class: 'card'},
      h('h2', {}, 'On the table'),
      legend()),
    h('p', {class: 'page-foot'}, h('a', {class: 'btn btn-primary', href: '/', 'data-link': ''}, 'Start a game')));
}
