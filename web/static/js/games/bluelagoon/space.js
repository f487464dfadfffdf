// What the page works out from the board and a view without asking the
// server: a space's neighbours, the island it is on, where a seat could
// still place a piece (to say why a choice is disabled or a seat skipped)
// and a move in a player's words. The server still decides every move.

const islandMaps = new WeakMap();

// islandAt maps each land space of a board to its island's index.
function islandAt(board) {
  let m = islandMaps.get(board);
  if (!m) {
    m = new Map();
    board.islands.forEach((isl, i) => { for (const at of isl.spaces) m.set(at, i); });
    islandMaps.set(board, m);
  }
  return m;
}

// island returns the island a space is on ({bonus, spaces}), or null for sea.
export function island(board, at) {
  const i = islandAt(board).get(at);
  return i == null ? null : board.islands[i];
}

// neighbours returns the spaces next to at on a board of height rows;
// even rows are half a space indented and one space shorter.
export function neighbours(height, at) {
  const [r, c] = at.split(',').map(Number);
  const even = r % 2 === 0;
  return [[r - 1, even ? c + 1 : c], [r, c + 1], [r + 1, even ? c + 1 : c], [r + 1, even ? c : c - 1], [r, c - 1], [r - 1, even ? c : c - 1]]
    .filter(([rr, cc]) => rr >= 0 && rr < height && cc >= 0 && cc < (rr % 2 === 0 ? height - 1 : height))
    .map(([rr, cc]) => `${rr},${cc}`);
}

// freeNextTo returns the free spaces next to a seat's pieces (land only,
// with land).
export function freeNextTo(board, view, seat, {land = false} = {}) {
  const taken = new Set(view.pieces.map(p => p.at));
  const out = new Set();
  for (const p of view.pieces) {
    if (p.seat !== seat) continue;
    for (const at of neighbours(board.height, p.at)) {
      if (!taken.has(at) && (!land || islandAt(board).has(at))) out.add(at);
    }
  }
  return [...out];
}

// villageWhy says why a seat cannot place a village now, or null if it
// can: in the exploration phase a village goes on free land next to one's
// own pieces.
export function villageWhy(board, view, seat) {
  const me = view.players[seat];
  if (view.phase !== 'exploration') return 'not in the settlement phase';
  if (me.villages_left === 0) return 'none left';
  if (!freeNextTo(board, view, seat, {land: true}).length) return 'no land next to your pieces yet';
  return null;
}

// idle says why a seat's turns are skipped now ("nowhere to place", said
// after "you have" or "Ann has"), or null when it can place something.
export function idle(board, view, seat) {
  if (!board || view.over || !view.players[seat]) return null;
  const me = view.players[seat];
  if (view.phase === 'settlement') {
    if (me.settlers_left === 0) return 'no settlers left';
    return freeNextTo(board, view, seat).length ? null : 'nowhere to place';
  }
  if (me.settlers_left > 0) return null;
  if (me.villages_left === 0) return 'no pieces left';
  return freeNextTo(board, view, seat, {land: true}).length ? null : 'nowhere to place';
}

// where says where a space is as a player would: "on the island of 8"
// (its bonus), or "at sea".
export function where(board, at) {
  const isl = board ? island(board, at) : null;
  if (isl) return `on the island of ${isl.bonus}`;
  return board ? 'at sea' : `at ${at}`;
}
