// The move log's frame: numbered moves, in words the game module writes
// (describeMove), under headings where the module says a new part of the
// game begins (logGroup).

import {h} from './ui.js';

// logItem is one move of the log: {version, seat, move, note}.
export function logItem(m, seats, game) {
  return h('li', {class: 'log-move', 'data-version': m.version},
    h('span', {class: 'log-no'}, m.version),
    game.describeMove(m, seats));
}

// moveLog lists the moves so far; over adds the end of the game.
export function moveLog(moves, seats, game, over) {
  if (!moves.length) return h('p', {class: 'muted log-empty'}, 'No moves yet. Every move will be listed here.');
  const items = [];
  let group = null;
  for (const m of moves) {
    const g = game.logGroup(m);
    if (g && g !== group) items.push(h('li', {class: 'log-phase'}, g));
    if (g) group = g;
    items.push(logItem(m, seats, game));
  }
  if (over) items.push(h('li', {class: 'log-phase'}, 'Game over'));
  return h('ol', {class: 'log'}, items);
}
