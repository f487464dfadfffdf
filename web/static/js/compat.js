// The server's API before the platform's redesign (issue 11), read in the
// new shapes (docs/api.md): a Game with table, options, time and a state of
// {to_move, standing, view}; moves with notes; a lobby summary with game,
// options and scores. Each function recognises the old shape and returns
// the new one, or its argument untouched when it is already new. This file
// goes once the server speaks the new API.

export let legacy = false;

const OLD_GAME = {id: 'bluelagoon', name: 'Blue Lagoon'};

// rulesFrom builds /api/rules's answer from /api/levels and /api/boards.
export function rulesFrom(levels, boards) {
  legacy = true;
  return {games: [{
    id: OLD_GAME.id, name: OLD_GAME.name, min_players: 2, max_players: 4, times: ['bank'], levels,
    options: [
      {key: 'board', label: 'Board', kind: 'choice', default: 'standard', custom: true,
        choices: boards.map(b => ({value: b.name, label: b.name})), help: ''},
      {key: 'first', label: 'First player', kind: 'choice', default: '0',
        choices: [0, 1, 2, 3].map(i => ({value: String(i), label: `Seat ${i + 1}`})), help: ''},
    ],
    boards,
  }]};
}

// previewFrom answers a preview from the built-in boards.
export function previewFrom(rules, body) {
  const game = rules.games[0];
  const options = {board: 'standard', first: '0', ...(body.options || {})};
  const table = game.boards.find(b => b.name === options.board) || null;
  return {options, table, state: null};
}

// oldSpec turns a new game's request into the old one.
export function oldSpec(spec) {
  const out = {seats: spec.seats};
  const o = spec.options || {};
  if (o.board != null) out.board = o.board;
  if (o.first != null) out.first = Number(o.first);
  if (spec.seed != null) out.seed = spec.seed;
  if (spec.time && spec.time.kind === 'bank') out.clock = {initial_ms: spec.time.initial_ms, increment_ms: spec.time.increment_ms};
  return out;
}

export function state(s) {
  if (!s || s.view !== undefined) return s;
  return {
    version: s.version,
    to_move: s.over ? -1 : s.current,
    over: s.over,
    clocks: s.clocks,
    last_move: s.last_move ? {version: s.last_move.version, seat: s.last_move.seat, move: s.last_move.move, note: {took: s.last_move.took}} : null,
    standing: {phase: s.phase, scores: s.scores.totals, winners: s.result ? s.result.winners : [], teams: null},
    view: s,
  };
}

export function game(g) {
  if (!g || g.table !== undefined) return g;
  g.game = OLD_GAME.id;
  g.game_name = OLD_GAME.name;
  g.table = g.board;
  g.options = {board: g.board.name || g.board.notation, first: String(g.first)};
  g.time = g.clock ? {kind: 'bank', ...g.clock} : null;
  g.moves = g.moves.map(m => ({version: m.version, seat: m.seat, move: m.move, note: {phase: m.phase, took: m.took}}));
  if (g.exploration_end) {
    const m = g.moves[g.exploration_end.version - 1];
    if (m) m.note.phase_ends = [{phase: 'exploration', ...g.exploration_end}];
  }
  g.state = state(g.state);
  delete g.board;
  delete g.first;
  delete g.clock;
  delete g.exploration_end;
  return g;
}

export function summary(g) {
  if (g.game !== undefined) return g;
  return {...g, game: OLD_GAME.id, game_name: OLD_GAME.name, options: {board: g.board}, to_move: g.current, scores: g.totals};
}

// message reads a WebSocket message; phase is the phase before it. An old
// phase_end becomes a "phase_ends" message the page adds to the move's note.
export function message(msg, phase) {
  switch (msg.type) {
    case 'snapshot': return {...msg, game: game(msg.game)};
    case 'move':
      if (msg.note !== undefined) return msg;
      return {type: 'move', version: msg.version, seat: msg.seat, move: msg.move, note: {phase, took: msg.took}, state: state(msg.state)};
    case 'phase_end':
      return {type: 'phase_ends', version: msg.version, phase_end: {phase: msg.phase, ...(msg.summary || {scores: msg.scores, totals: msg.totals})}};
    case 'game_over':
      if (msg.standing) return msg;
      return {type: 'game_over', version: msg.version, standing: {phase: 'settlement', scores: msg.result.totals, winners: msg.result.winners, teams: null}, result: msg.result};
    case 'error': return msg.state ? {...msg, state: state(msg.state)} : msg;
  }
  return msg;
}
