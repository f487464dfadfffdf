// Laguna's rules in short for the rules page and the Rules tab, and the
// legend of the board's symbols. Our own words (docs/laguna.md has them
// whole).

import {h, icon} from '../../ui.js';
import {COLOURS, pearlIcon} from './art.js';

export function summary() {
  return h('div', {class: 'lg-rules'},
    h('p', {}, h('b', {}, 'Goal. '), 'Be the first to bring pearls of your colour to the volcano in the middle: 6 of them in a game of two, 5 of three, 4 of four.'),
    h('p', {}, h('b', {}, 'Your raft '), 'covers 3 by 2 squares and has a hole over each. Pearls sit in the holes; an open hole shows the square under it, a hole with a pearl hides it. Two to four pearls are always aboard.'),
    h('p', {}, h('b', {}, 'A turn. '), 'Step one square at a time, as often as the sand timer lets you. Before any step you may move a pearl to another hole. A reef showing through the raft stops you: uncovered by a step or a move of a pearl, it ends your turn. Arrows showing drive your next step their way, unless the way is barred.'),
    h('p', {}, h('b', {}, 'Docked '), 'beside an island, with no arrow showing, you may load, unload or swap pearls; beside another raft, trade pearl for pearl into the same holes; beside the volcano, deliver pearls of your colour, keeping two aboard. What an exchange with an island or a raft uncovers counts only once you do something else: then cover a reef before you step, and follow an arrow.'),
    h('p', {}, h('b', {}, 'Memory. '), 'What lies under the pearls is not shown. Before your first step of a turn you may peek under your own pearls.'),
    h('p', {}, h('b', {}, 'The sand timer. '), 'A turn lasts 30 seconds; the sand you leave passes to the next player, who gets it before a fresh glass.'),
    h('p', {}, h('b', {}, 'Keys. '), 'Arrows step; 1–6 pick a hole (a second hole moves the pearl); L load, U unload or deliver, X swap, T trade, P peek, E end the turn.'));
}

export function legend(seats) {
  const row = (pic, text) => h('li', {}, pic, h('span', {}, text));
  return h('ul', {class: 'lg-legend'},
    row(icon('lg-island', 'icon lg-legend-icon'), 'An island (A to H) with its pearls; the shallow water with a dashed edge along it is its landing line, where a raft starts.'),
    row(icon('lg-volcano', 'icon lg-legend-icon'), 'The volcano: the pearls delivered, by colour.'),
    row(icon('lg-reef', 'icon lg-legend-icon lg-on-sea'), 'A reef: it stops a raft that uncovers it.'),
    row(icon('lg-arrow', 'icon lg-legend-icon lg-on-sea'), 'A current arrow: it drives the raft its way.'),
    row(icon('lg-raft', 'icon lg-legend-icon'), 'A raft: six numbered holes; its flag bears its player\'s mark.'),
    COLOURS.map((c, i) => row(icon(pearlIcon(c.letter), 'icon lg-legend-icon'),
      `A ${c.name} pearl, marked with a ${c.shape}` + (seats && seats[i] ? `: ${seats[i].name} collects these.` : '.'))),
    row(icon('lg-water', 'icon lg-legend-icon'), 'In the raft\'s panel: an open hole over open water.'));
}

export function rulesPage() {
  return h('article', {class: 'page lg-rules-page'},
    h('h1', {}, 'Laguna'),
    h('p', {class: 'lede'}, 'A game of sailing and memory for 2 to 4 players, or one alone: steer a raft with pearls in its holes, and remember what the pearls hide.'),
    h('section', {class: 'card'}, h('h2', {}, 'The rules in short'), summary()),
    h('section', {class: 'card'}, h('h2', {}, 'On the board'), legend(null)),
    h('section', {class: 'card'},
      h('h2', {}, 'Alone'),
      h('p', {}, 'The solo game is a puzzle: bring the islands\' pearls to a target pattern in as few steps as you can. The page shows the target and its par, the fewest steps the project\'s solver found.'),
      h('h2', {}, 'The boards'),
      h('p', {}, 'The printed board was never published, so Lagoon plays on original boards of its own design, an easy side and a hard side, each checked fair: every island and the volcano can be reached from every island, and no raft can be trapped for good. A board of your own in the board notation is checked the same way.')),
    h('p', {class: 'page-foot'}, h('a', {class: 'btn btn-primary', href: '/', 'data-link': ''}, 'Start a game')));
}
