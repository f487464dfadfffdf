// Land of Druids' rules, short and in our own words: a page of its own
// (/rules/druids), a summary beside the world and a legend of what is
// drawn. docs/druids.md is the engine's full reading of the rulebook.

import {h, icon} from '../../ui.js';
import {PLAYERS} from '../../art.js';
import {ENERGIES, CIRCLES} from './art.js';

const energy = e => h('span', {class: 'legend-item'}, icon(e.symbol, 'icon energy-icon'), `${e.name} (${e.what})`);

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
      h('p', {class: 'lede'}, 'David Chott\'s game of druid circles in a world of sites, for 2 to 4 players or one against AJ. In our own words; the full reading of the rulebook is in the project\'s docs/druids.md.')),
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
    h('section', {class: 'card'},
      h('h2', {}, 'On the table'),
      legend()),
    h('p', {class: 'page-foot'}, h('a', {class: 'btn btn-primary', href: '/', 'data-link': ''}, 'Start a game')));
}
