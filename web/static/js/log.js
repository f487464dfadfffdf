// The move log's frame: numbered moves, in words the game module writes
// (describeMove), under headings where the module says a new part of the
// game begins (logGroup), and a line for each seat whose turns are skipped
// (the module's idle) after its last move.

import {h} from './ui.js';

// logItem is one move of the log: {version, seat, move, note}; table is
// the game's table, for words that name what is on it.
export function logItem(m, seats, game, table = null) {
  return h('li', {class: 'log-move', 'data-version': m.version, 'data-seat': m.seat},
    h('span', {class: 'log-no'}, m.version),
    game.describeMove(m, seats, table));
}

// moveLog lists the moves so far; over adds the end of the game. idle
// lists the seats skipped now, [{seat, why}] ("nowhere to place"); you is
// the viewer's seat.
export function moveLog(moves, seats, game, over, {table = null, idle = [], you = null} = {}) {
  if (!moves.length && !idle.length) return h('p', {class: 'muted log-empty'}, 'No moves yet. Every move will be listed here.');
  // A skipped seat's line goes after its last move, or after the start
  // of the part of the game being played if it has not moved in it.
  const groups = moves.map(m => game.logGroup(m));
  let groupStart = groups.length;
  while (groupStart > 0 && groups[groupStart - 1] === groups[groups.length - 1]) groupStart--;
  const after = new Map(), atStart = [];
  for (const {seat, why} of idle) {
    const i = moves.findLastIndex(m => m.seat === seat);
    const who = seat === you ? 'You have' : `${seats[seat].name} has`;
    const line = h('li', {class: 'log-skip', 'data-seat': seat}, h('span', {class: 'log-no'}, ''),
      h('span', {class: 'log-text'}, `${who} ${why}: ${seat === you ? 'your' : 'their'} turns are skipped`));
    if (i < groupStart) {
      atStart.push(line);
      continue;
    }
    if (!after.has(i)) after.set(i, []);
    after.get(i).push(line);
  }
  const items = moves.length ? [] : atStart;
  let group = null;
  moves.forEach((m, i) => {
    const g = groups[i];
    if (g && g !== group) items.push(h('li', {class: 'log-phase'}, g));
    if (g) group = g;
    if (i === groupStart) items.push(...atStart);
    items.push(logItem(m, seats, game, table));
    items.push(...(after.get(i) || []));
  });
  if (over) items.push(h('li', {class: 'log-phase'}, 'Game over'));
  return h('ol', {class: 'log'}, items);
}
