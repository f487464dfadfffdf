// Land of Druids in words: sites, druids, choices and moves as a player
// says them, from the table's catalogue (druids/view.go: Table) and the
// notation (docs/druids.md, "What the page gets"). The effects are the
// engine's own words, never a printed text.

export const GROUPS = ['', 'I', 'II', 'III'];

// Catalogue indexes the table's sites by id ("14A").
export class Catalogue {
  constructor(table) {
    this.table = table;
    this.sites = new Map((table.sites || []).map(st => [st.id, st]));
    // A game against AJ has four druid slots (the player's circle and his
    // three Eldrids') and no teams; four players always play in teams.
    this.aj = (table.circles || []).length === 4 && !table.teams;
  }

  site(id) { return this.sites.get(id) || null; }
  name(id) { const st = this.site(id); return st ? st.name : id; }
  // tileSides are a tile's two sides, by its number.
  tileSides(n) { return [this.site(`${n}A`), this.site(`${n}B`)]; }
}

// KINDS say when a site's action is used, in our words.
export const KINDS = {
  invoke: 'Invoke: while a druid of yours stands here, any refreshed druid of yours may invoke it',
  eldrid: 'Eldrid invoke: while a druid of yours stands here, your refreshed Eldrid may invoke it, wherever it stands',
  timely: 'Timely: works by itself when its moment comes, for a circle here',
  exploration: 'On exploring it',
};

// parseDruid reads a druid of the notation: "2E@14A" (slot 1's Eldrid,
// refreshed, on 14A); null if text is not one.
export function parseDruid(text) {
  const m = /^([1-4])([AEae])@(\d+[AB])$/.exec(text);
  if (!m) return null;
  return {slot: Number(m[1]) - 1, eldrid: m[2] === 'E' || m[2] === 'e', exhausted: m[2] === 'e' || m[2] === 'a', site: m[3]};
}

// druidText writes a druid in the notation.
export const druidText = (slot, eldrid, exhausted, site) => `${slot + 1}${eldrid ? (exhausted ? 'e' : 'E') : (exhausted ? 'a' : 'A')}@${site}`;

// kindOf sorts a choice of the view's legal list.
export function kindOf(move) {
  if (/^[1-4][AEae]@/.test(move)) return 'druid';
  if (/^\d+[AB]$/.test(move)) return 'site';
  if (/^\d+,\d+$/.test(move)) return 'space';
  if (move.startsWith('tile ')) return 'tile';
  if (move.startsWith('side ')) return 'side';
  if (move.startsWith('seed ')) return 'seed';
  if (move.startsWith('use ')) return 'use';
  if (['move', 'summon', 'explore', 'unravel'].includes(move)) return 'basic';
  return move; // done, end, yes, no, eldrid, acolyte
}

export const SEED_NAMES = {E: 'Elemeen', V: 'Vowelon', D: 'Deonin'};

// BASICS: the four basic actions in our words.
export const BASICS = {
  move: {title: 'Move', what: 'The druid steps to a neighbouring site.'},
  summon: {title: 'Summon', what: 'A druid of your supply comes onto a haven.'},
  explore: {title: 'Explore', what: 'Draw a tile, lay one of its sides beside the druid\'s site and gain a seed of its energy; the druid may move onto it.'},
  unravel: {title: 'Unravel', what: 'The site the druid stands on goes to your score area; its druids go to havens.'},
};

// whose says a slot's owner: "your", "AJ's", "Ann's".
function whose(slot, ctx) {
  const seat = ctx.seatOf(slot);
  if (seat === ctx.you) return 'your';
  return `${ctx.name(seat)}'s`;
}

// druidWords says a druid: "your exhausted Stag Eldrid on Gruu's
// Refuge"; a druid of the seat mover, who is named already, is said
// without its owner ("Stag Eldrid on Gruu's Refuge").
export function druidWords(d, ctx, {mover = null} = {}) {
  const circle = ctx.circle(d.slot);
  const what = d.eldrid ? `${circle} Eldrid` : `${circle} acolyte`;
  const owner = mover != null && ctx.seatOf(d.slot) === mover ? '' : `${whose(d.slot, ctx)} `;
  return `${owner}${d.exhausted ? 'exhausted ' : ''}${what} on ${ctx.cat.name(d.site)}`;
}

// choiceWords says a choice of the legal list for a button or the log.
export function choiceWords(move, ctx) {
  const k = kindOf(move);
  switch (k) {
    case 'druid': return druidWords(parseDruid(move), ctx);
    case 'site': return `${ctx.cat.name(move)} (${move})`;
    case 'space': return `the space ${move}`;
    case 'tile': return `tile ${move.slice(5)}`;
    case 'side': return `side ${move.slice(5)}`;
    case 'seed': return `a ${SEED_NAMES[move.slice(5)]} seed`;
    case 'use': return `${ctx.cat.name(move.slice(4))}`;
    case 'basic': return BASICS[move].title;
    case 'end': return 'End the turn';
    case 'done': return 'Done';
    case 'yes': return 'Yes';
    case 'no': return 'No';
    case 'eldrid': return 'The Eldrid';
    case 'acolyte': return 'An acolyte';
    default: return move;
  }
}

// stepWords names the step or the action being answered (the view's and
// the note's "asking").
export function stepWords(asking) {
  switch (asking) {
    case 'begin': return 'Begin step';
    case 'refresh': return 'Refresh step';
    case 'action': return 'Action step';
    case 'end': return 'End step';
    case 'over': return 'Game over';
    case 'move': case 'summon': case 'explore': case 'unravel': return BASICS[asking].title;
    default: return asking;
  }
}

// moveWords writes a move for the log: what it answered and the choice.
export function moveWords(move, ctx) {
  const m = move.move, asking = move.note ? move.note.asking : null, k = kindOf(m);
  if (k === 'basic') return `${m}s`;
  if (k === 'use') return `uses ${ctx.cat.name(m.slice(4))}`;
  if (m === 'end') return 'ends the turn';
  if (m === 'done') return asking === 'refresh' ? 'refreshes no more' : `is done (${stepWords(asking).toLowerCase()})`;
  const about = asking && !['action', 'begin', 'refresh', 'end'].includes(asking) ? `${stepWords(asking)}: ` : '';
  const mover = {mover: move.seat};
  if (asking === 'refresh' && k === 'druid') return `refreshes ${druidWords(parseDruid(m), ctx, mover)}`;
  if (k === 'druid') return `${about}${druidWords(parseDruid(m), ctx, mover)}`;
  if (k === 'site') return `${about}${ctx.cat.name(m)}`;
  if (k === 'space') return `${about}lays it at ${m}`;
  if (k === 'side') return `${about}side ${m.slice(5)}`;
  return `${about}${choiceWords(m, ctx).toLowerCase()}`;
}
