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
// as its own ("the Stag Eldrid on Gruu's Refuge").
export function druidWords(d, ctx, {mover = null} = {}) {
  const circle = ctx.circle(d.slot);
  const what = d.eldrid ? `${circle} Eldrid` : `${circle} acolyte`;
  const owner = mover != null && ctx.seatOf(d.slot) === mover ? 'the ' : `${whose(d.slot, ctx)} `;
  return `${owner}${d.exhausted ? 'exhausted ' : ''}${what} on ${ctx.cat.name(d.site)}`;
}

// choiceWords says a choice of the legal list for a button or the log.
export function choiceWords(move, ctx) {
  const k = kindOf(move);
  switch (k) {
    case 'druid': return druidWords(parseDruid(move), ctx);
    case 'site': return `${ctx.cat.name(move)} (${move})`;
    case 'space': return spaceWords(ctx.beside ? ctx.beside(move) : [], ctx);
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
    default: return asking ? asking[0].toUpperCase() + asking.slice(1) : '';
  }
}

// listWords joins names as a sentence does: "A, B and C".
export const listWords = xs => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

// spaceWords names an empty space by the sites around it (the note's or
// the view's beside: each site and where the space lies from it): "the
// space east of Gruu's Refuge, by Sylvant". The first site and its
// direction tell the space apart; the others help find it.
export function spaceWords(beside, ctx) {
  if (!beside.length) return 'an empty space';
  const [first, ...others] = beside;
  return `the space ${first.dir} of ${ctx.cat.name(first.site)}${others.length ? `, by ${listWords(others.map(b => ctx.cat.name(b.site)))}` : ''}`;
}

// SPACE_DIRS: where a space lies from a neighbouring site, by the space's
// offset from it on the axial grid, in the engine's order of directions
// (druids/view.go, fromSite).
const NEIGHBOURS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]];
const FROM_SITE = ['west', 'east', 'north-west', 'south-east', 'south-west', 'north-east'];

// besideSpace lists the sites of the world next to the space "q,r", but
// the one being moved, with where the space lies from each: as the
// engine's notes say them.
export function besideSpace(at, world, moving = null) {
  const [q, r] = at.split(',').map(Number);
  const out = [];
  NEIGHBOURS.forEach(([dq, dr], k) => {
    const w = world.find(x => x.q === q + dq && x.r === r + dr);
    if (w && w.id !== moving) out.push({site: w.id, dir: FROM_SITE[k]});
  });
  return out;
}

// BASIC_VERBS: an invoking druid chosen for a basic action, as a player
// says it.
const BASIC_VERBS = {move: 'moves', summon: 'summons with', explore: 'explores with', unravel: 'unravels the site of'};

// moveWords writes a move for the log, as a sentence a player would say:
// what it answered (the note's asking and question: the step of the
// action that asked) and the choice.
export function moveWords(move, ctx) {
  const m = move.move, note = move.note || {}, asking = note.asking || null, k = kindOf(m);
  if (k === 'basic') return `chooses to ${m}`;
  if (k === 'use' && (asking === 'begin' || asking === 'end')) return `uses ${ctx.cat.name(m.slice(4))}`;
  if (k === 'use') return `chooses ${ctx.cat.name(m.slice(4))}'s action`;
  if (m === 'end') return 'ends the turn';
  if (m === 'done') return asking === 'refresh' ? 'refreshes no more' : asking === 'begin' || asking === 'end' ? `is done with the ${stepWords(asking).toLowerCase()}` : `is done (${stepWords(asking)})`;
  const mover = {mover: move.seat};
  const druid = () => druidWords(parseDruid(m), ctx, mover);
  const site = () => ctx.cat.name(m);
  const action = stepWords(asking);
  switch (`${note.question || asking}:${k}`) {
    case 'refresh:druid': return `refreshes ${druid()}`;
    case 'invoke:druid': return BASIC_VERBS[asking] ? `${BASIC_VERBS[asking]} ${druid()}` : `invokes ${action} with ${druid()}`;
    case 'moveIn:yes': return 'moves the exploring druid onto the new site';
    case 'moveIn:no': return 'leaves the exploring druid where it stands';
    case 'may:yes': return `takes ${action}'s effect`;
    case 'may:no': return `passes on ${action}'s effect`;
    case 'unravel:yes': return 'counts the Ancient\'s extra energy';
    case 'unravel:no': return 'does not count the Ancient\'s extra energy';
    case 'unravel:site': case 'lost:site': return `sets a druid on ${site()}`;
    case 'explore:side': case 'fork:side': case 'chaos:side': return `chooses side ${m.slice(5)} of the tile drawn`;
    case 'explore:tile': case 'fork:tile': case 'chaos:tile': return `keeps tile ${m.slice(5)}`;
    case 'discard:seed': case 'songSeeds:seed': return `gives up ${choiceWords(m, ctx)} (${action})`;
    case 'exhaust:druid': return `exhausts ${druid()} (${action})`;
    case 'exile:druid': return `sends ${druid()} back to the supply (${action})`;
    case 'moveDruid:druid': return `picks ${druid()} to move (${action})`;
    case 'moveDruid:site': return `moves it to ${site()} (${action})`;
    case 'summon:site': return `summons a druid onto ${site()} (${action})`;
    case 'summon:eldrid': return `summons the Eldrid (${action})`;
    case 'summon:acolyte': return `summons an acolyte (${action})`;
    case 'summon:druid': return `lifts ${druid()} to summon it (${action})`;
  }
  if (k === 'space') {
    const where = spaceWords(note.beside || [], ctx);
    return ['explore', 'fork', 'chaos', 'returnSite'].includes(note.question) ? `lays it in ${where} (${action})` : `moves it to ${where} (${action})`;
  }
  if (k === 'druid') return `chooses ${druid()} (${action})`;
  if (k === 'site') return `chooses ${site()} (${action})`;
  if (k === 'yes') return `says yes (${action})`;
  if (k === 'no') return `says no (${action})`;
  return `chooses ${choiceWords(m, ctx).toLowerCase()} (${action})`;
}
