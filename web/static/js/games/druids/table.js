// Land of Druids' table on the game and replay screens: the world, the
// bag and the destiny forecast above it, and under it what the seat to
// decide is asked with its choices as buttons (the drawn tiles as cards
// with both sides), the site under the pointer or picked, and AJ's last
// turn step by step.
//
// A turn is many small decisions (the view's legal list). At the Action
// step's menu a player may pick a druid, or a site, on the world first:
// the page then offers only the actions that druid (or a druid there) can
// invoke, with their cost, and once the action is chosen it answers the
// engine's "which druid?" with the druid picked. The page never checks a
// move itself: it sends what the view lists.

import {h, icon, fill, plural} from '../../ui.js';
import {ENERGIES, energyOf, energyIndex, threat, seatOfSlot} from './art.js';
import {WorldView} from './world.js';
import {GROUPS, KINDS, BASICS, kindOf, parseDruid, druidText, choiceWords, stepWords, druidWords, moveWords, besideSpace, SEED_NAMES} from './words.js';
import {houseRule} from './rules.js';

// speakers builds what words.js needs to name druids and seats for a
// viewer.
export function speakers(cat, seats, you, view = null) {
  return {
    cat, you,
    // beside: the sites around a space of the decision at hand, but the
    // site being moved.
    beside: at => {
      if (!view) return [];
      const top = (view.resolving || [])[(view.resolving || []).length - 1];
      return besideSpace(at, view.world, top && top.site ? top.site : null);
    },
    seatOf: slot => seatOfSlot(slot, cat.aj),
    name: seat => (seat === you ? 'you' : seats[seat] ? seats[seat].name : `Seat ${seat + 1}`),
    circle: slot => (cat.table.circles || [])[slot] || `circle ${slot + 1}`,
  };
}

// energyCard draws a site of the catalogue as a card: name, energy,
// type, group, when it acts and its effect.
export function siteCard(st, {locked = false, inPlay = null, extra = null} = {}) {
  const en = energyOf(st.energy);
  return h('div', {class: `site-card en-${en.letter}`, 'data-card': st.id},
    h('div', {class: 'site-card-head'},
      icon(en.symbol, 'icon energy-icon'),
      h('b', {class: 'site-card-name'}, st.name),
      h('span', {class: 'site-card-id'}, st.id)),
    h('div', {class: 'site-card-tags'},
      h('span', {class: 'tag tag-energy'}, st.energy),
      h('span', {class: 'tag'}, st.type),
      h('span', {class: 'tag'}, `group ${GROUPS[st.group]}`),
      st.once ? h('span', {class: 'tag'}, 'once a turn') : null,
      locked ? h('span', {class: 'tag tag-locked'}, icon('dr-lock', 'icon'), 'locked') : null,
      st.original ? h('span', {class: 'tag tag-original', title: 'This side\'s printed text is not public: its effect is a design of our own'}, icon('dr-original', 'icon'), 'original to Lagoon') : null),
    h('p', {class: 'site-card-kind'}, KINDS[st.kind] || st.kind),
    h('p', {class: 'site-card-effect'}, st.effect),
    st.cost ? h('p', {class: 'site-card-cost'}, h('b', {}, 'Cost: '), st.cost) : null,
    inPlay, extra);
}

// ownTurn is the seat's own count of turns for the turn being played:
// turns go round the seats in order (AJ's too), so a seat's second turn
// is the game's turn players + 1 or so.
export const ownTurn = v => Math.floor((v.turn - 1) / Math.max(1, v.players.length)) + 1;

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
// ordinal says a count as a place: "second", "12th".
export const ordinal = n => ORDINALS[n - 1] || (n % 10 === 1 && n % 100 !== 11 ? `${n}st` : n % 10 === 2 && n % 100 !== 12 ? `${n}nd` : n % 10 === 3 && n % 100 !== 13 ? `${n}rd` : `${n}th`);

// turnsOf groups moves by the turn they were made in (the note's turn),
// each turn's owner the seat of its first decision.
function turnsOf(moves) {
  const turns = new Map();
  for (const m of moves) {
    const t = m.note && m.note.turn;
    if (!t) continue;
    if (!turns.has(t)) turns.set(t, {turn: t, seat: m.seat, moves: []});
    turns.get(t).moves.push(m);
  }
  return [...turns.values()];
}

export class Table {
  constructor(ctx, {interactive = true} = {}) {
    this.ctx = ctx;
    this.interactive = interactive;
    this.cat = ctx.cat;
    this.state = null;
    this.pick = null;        // at the menu: {druid} or {site} picked first
    this.follow = null;      // {druid, version}: answer "which druid?" with it
    this.batch = null;       // {moves, version}: the refreshes still to send
    this.hovered = null;     // the site under the pointer
    this.ajTimer = null;
    // A phone's narrow world is drawn as large as its width allows.
    const narrow = window.matchMedia('(max-width: 600px)').matches;
    this.world = new WorldView(this.cat, this.words(), {interactive, label: interactive ? 'The world: sites and druids' : 'The world at the move shown',
      least: narrow ? [3.2, 2.6] : undefined});
    this.world.onsite = id => this.clickSite(id);
    this.world.ondruid = text => this.clickDruid(text);
    this.world.onspace = at => this.send(at);
    this.world.onhover = id => { this.hovered = id; this.renderInfo(); };
    this.world.svg.addEventListener('pointerleave', () => { this.hovered = null; this.renderInfo(); });
    this.top = h('div', {class: 'dr-top'});
    this.info = h('div', {class: 'dr-info'});
    this.aj = h('div', {class: 'dr-aj', hidden: true});
    this.ask = h('div', {class: 'dr-ask', role: 'group', 'aria-label': 'Your choices'});
    this.turnLog = h('div', {class: 'dr-turnlog'});
    this.others = h('div', {class: 'dr-others', hidden: true});
    this.unfolded = new Set(); // the other seats' turns opened, by turn
    // Beside the world: AJ's last turn, the choices, the site card; a
    // replay has only AJ's turn, under the world.
    this.el = h('div', {class: 'board-wrap druids-table' + (interactive ? ' interactive' : '')}, this.top,
      h('div', {class: 'dr-middle'}, h('div', {class: 'world-wrap'}, this.world.svg),
        interactive ? h('div', {class: 'dr-controls'}, this.aj, this.others, this.ask, this.turnLog, this.info) : null),
      interactive ? null : this.aj);
    this.controls = null;
  }

  words() { return speakers(this.cat, this.ctx.seats(), this.ctx.you(), this.state ? this.state.view : null); }
  get view() { return this.state.view; }

  update(state, {recent = null} = {}) {
    const was = this.state;
    this.state = state;
    const v = state.view;
    this.world.ctx = this.words();
    if (!was || was.version !== state.version) {
      if (this.pick && !(v.offers || []).length) this.pick = null;
    }
    this.renderTop();
    this.renderAJ(recent);
    this.renderOthers();
    this.renderAsk();
    this.renderTurnLog();
    this.renderInfo();
    this.world.setView(v);
    // The druid picked before the action answers the action's first
    // question, when the engine asks it.
    const f = this.follow;
    if (f && state.version !== f.version) {
      this.follow = null;
      if (state.version === f.version + 1 && this.ctx.canMove() && v.legal.includes(f.druid)) this.send(f.druid);
    }
    // A refresh of many druids is sent a druid at a time, each once the
    // one before it is taken.
    const b = this.batch;
    if (b && state.version !== b.version) {
      this.batch = null;
      if (state.version === b.version + 1 && this.ctx.canMove() && v.legal.includes(b.moves[0])) this.sendAll(b.moves);
    }
  }

  // sendAll sends the first of moves and keeps the rest for the updates
  // that follow.
  sendAll(moves) {
    const [first, ...rest] = moves;
    this.batch = rest.length ? {moves: rest, version: this.state.version} : null;
    this.send(first);
  }

  // renderTop: the turn, the bag and the destiny forecast.
  renderTop() {
    const v = this.view, words = this.words();
    const seats = this.ctx.seats();
    const counts = [0, 0, 0];
    for (const w of v.world) {
      const st = this.cat.site(w.id);
      if (st) counts[energyIndex(st.energy)]++;
    }
    const dom = energyIndex(v.destiny);
    const teams = this.cat.table.teams;
    // Teams score together: a team's points are its members'.
    const sides = teams ? teams.map((t, i) => ({label: `Team ${i + 1}`, seat: t[0], seats: t}))
      : seats.map((_, p) => ({label: p === words.you ? 'You' : seats[p].name, seat: p, seats: [p]}));
    fill(this.top,
      h('span', {class: 'dr-turn', title: v.over ? null : `The game's turn ${v.turn}: each seat plays one turn a round`}, v.over ? 'Game over' : `Round ${ownTurn(v)}`,
        v.over ? null : h('span', {class: 'muted'}, ` · ${stepWords(v.step).toLowerCase()}`)),
      h('span', {class: 'dr-bag', title: 'Tiles left in the bag', 'data-bag': v.bag}, icon('dr-bag', 'icon'), h('b', {}, v.bag), v.bag === 1 ? ' tile left' : ' tiles left'),
      h('span', {class: 'dr-destiny', 'data-destiny': v.destiny},
        h('span', {class: 'muted'}, v.over ? 'Destiny: ' : 'Destiny now: '),
        dom >= 0 ? [icon(ENERGIES[dom].symbol, 'icon energy-icon'), h('b', {}, v.destiny)] : h('b', {}, 'a draw'),
        h('span', {class: 'dr-counts', title: 'Sites of each energy in play'}, ENERGIES.map((e, i) => h('span', {class: 'dr-count' + (i === dom ? ' on' : '')}, icon(e.symbol, 'icon energy-icon'), counts[i])))),
      dom >= 0 ? h('span', {class: 'dr-forecast', title: `Points if ${v.destiny} dominated at the end`},
        sides.map(sd => h('span', {class: 'dr-fc', 'data-side': sd.seats.join(' ')}, sd.seats.map(p => icon('mark-' + p, 'icon mark')), `${sd.label} `,
          h('b', {}, sd.seats.reduce((n, p) => n + v.players[p].forecast[dom], 0))))) : null);
  }

  // renderTurnLog lists the moves of the turn being played, in words.
  renderTurnLog() {
    const moves = this.ctx.moves ? this.ctx.moves() : [];
    const v = this.view;
    const mine = moves.filter(m => m.note && m.note.turn === v.turn);
    this.turnLog.hidden = !this.interactive || v.over;
    const seats = this.ctx.seats(), words = this.words();
    const who = seats[v.active] ? (v.active === words.you ? 'Your' : `${seats[v.active].name}'s`) : 'This';
    fill(this.turnLog, h('div', {class: 'dr-turnlog-head'}, h('b', {}, `${who} ${ordinal(ownTurn(v))} turn`), h('span', {class: 'muted'}, mine.length ? ` · ${plural(mine.length, 'decision')}` : ' · nothing yet')),
      mine.length ? h('ol', {class: 'dr-turnlog-list'}, mine.slice(-8).map(m => h('li', {'data-version': m.version},
        m.seat === v.active ? '' : h('b', {}, `${seats[m.seat] ? seats[m.seat].name : ''}: `), moveWords(m, words)))) : null);
  }

  // renderOthers sums up, in the play area, the turns the other seats
  // played since the viewer's own last turn (or, for a spectator, the
  // turns of the round before the one being played): each decision in
  // words, as AJ's panel shows his.
  renderOthers() {
    const v = this.view, words = this.words(), seats = this.ctx.seats();
    const played = turnsOf(this.ctx.moves ? this.ctx.moves() : []).filter(t => t.turn < v.turn || v.over);
    let since = played;
    if (words.you != null) since = played.slice(played.findLastIndex(t => t.seat === words.you) + 1);
    since = since.filter(t => t.seat !== words.you).slice(-Math.max(1, v.players.length - 1));
    this.others.hidden = !this.interactive || v.over || !since.length;
    const name = seat => (seats[seat] ? seats[seat].name : `Seat ${seat + 1}`);
    const most = 10;
    // Folded to a line each, so that the world and the choices stay in
    // one view however many seats played (issue 47); a turn opened stays
    // open across the updates that redraw it.
    fill(this.others, since.map(t => h('details', {class: 'dr-other', 'data-turn': t.turn, 'data-seat': t.seat, open: this.unfolded.has(t.turn),
      ontoggle: e => { if (e.target.open) this.unfolded.add(t.turn); else this.unfolded.delete(t.turn); }},
      h('summary', {class: 'dr-other-head'}, icon('mark-' + t.seat, 'icon mark'), h('b', {}, `${name(t.seat)}'s turn`),
        h('span', {class: 'muted'}, ` · ${plural(t.moves.length, 'decision')}`)),
      h('ol', {class: 'dr-other-steps'}, t.moves.slice(0, most).map(m => h('li', {'data-version': m.version},
        m.seat === t.seat ? '' : h('b', {}, `${name(m.seat)}: `), moveWords(m, words)))),
      t.moves.length > most ? h('p', {class: 'muted small'}, `and ${plural(t.moves.length - most, 'more decision')} in the Moves tab`) : null)));
  }

  // renderAJ shows AJ's last turn, a step at a time when it has just been
  // played, each step's sites marked on the world.
  renderAJ(recent) {
    const v = this.view;
    const steps = v.aj ? v.aj.last_turn : [];
    this.aj.hidden = !steps.length;
    if (!steps.length) { this.world.marked = new Set(); return; }
    const last = recent && recent.length ? recent[recent.length - 1] : null;
    const fresh = last && last.note && last.note.aj && last.note.aj.length && last.version === this.state.version;
    const key = JSON.stringify(steps) + this.state.version;
    if (this.aj.dataset.key === key) return;
    this.aj.dataset.key = key;
    clearInterval(this.ajTimer);
    const items = steps.map((line, i) => h('li', {class: 'aj-step', 'data-step': i, tabindex: 0,
      onclick: () => this.showStep(i), onfocus: () => this.showStep(i)}, line.replace(/^AJ /, '')));
    fill(this.aj, h('div', {class: 'dr-aj-head'}, h('b', {}, 'AJ\'s turn'), h('span', {class: 'muted'}, ` ${plural(steps.length, 'step')}`),
      h('button', {class: 'btn btn-small btn-ghost', type: 'button', 'data-action': 'aj-replay', onclick: () => this.playAJ(items)}, 'Show again')),
    h('ol', {class: 'aj-steps'}, items));
    if (fresh) this.playAJ(items);
    else this.world.marked = new Set();
  }

  // playAJ reveals AJ's steps one after the other.
  playAJ(items) {
    clearInterval(this.ajTimer);
    let i = 0;
    items.forEach(li => li.classList.add('later'));
    const next = () => {
      if (i >= items.length) { clearInterval(this.ajTimer); this.showStep(-1); return; }
      items[i].classList.remove('later');
      this.showStep(i++);
    };
    next();
    this.ajTimer = setInterval(next, 900);
  }

  showStep(i) {
    const items = [...this.aj.querySelectorAll('.aj-step')];
    items.forEach((li, j) => li.classList.toggle('now', j === i));
    const line = i >= 0 && items[i] ? items[i].textContent : '';
    this.world.setMarked(line.match(/\b\d{1,2}[AB]\b/g) || []);
  }

  // choices are the view's legal moves when the viewer decides now.
  choices() {
    return this.interactive && this.ctx.canMove() && !this.state.over ? this.view.legal : [];
  }

  renderAsk() {
    const v = this.view, legal = this.choices(), words = this.words();
    const druids = legal.filter(m => kindOf(m) === 'druid');
    const sites = legal.filter(m => kindOf(m) === 'site' && v.world.some(w => w.id === m));
    const spaces = legal.filter(m => kindOf(m) === 'space');
    const offers = legal.length ? v.offers || [] : [];
    // At the menu the druids that may invoke something are picked first.
    const pickable = [...new Set(offers.flatMap(o => o.invokers))];
    this.world.legal = {druids: new Set([...druids, ...pickable]), sites: new Set(sites), spaces: new Set(spaces)};
    this.world.selected = this.pick ? this.pick.druid || this.pick.site : null;
    this.ask.hidden = !this.interactive || this.ctx.you() == null || this.state.over;
    delete this.ask.dataset.menu;
    if (this.ask.hidden) return;
    if (!legal.length) {
      fill(this.ask, h('p', {class: 'dr-wait muted'}, this.waitWords()));
      return;
    }
    if (offers.length) { this.renderMenu(offers); return; }
    if (v.step === 'refresh' && !v.resolving.length) { this.renderRefresh(legal); return; }
    const asking = v.asking, top = (v.resolving || [])[v.resolving.length - 1];
    const site = top ? this.cat.site((this.cat.table.sites.find(st => st.name === top.action) || {}).id) : null;
    const title = stepWords(asking);
    const drawn = this.drawnCards(legal);
    // A timely site's use (Begin and End steps) is a card with its effect.
    const uses = legal.filter(m => kindOf(m) === 'use');
    const buttons = legal.filter(m => !['side', 'tile', 'use'].includes(kindOf(m)));
    fill(this.ask,
      h('div', {class: 'dr-q'}, h('b', {class: 'dr-q-title'}, title), h('span', {class: 'dr-q-hint'}, this.hint(legal, asking, top))),
      site ? h('p', {class: 'dr-q-effect'}, site.effect) : null,
      this.houseNote(),
      drawn,
      uses.length ? h('div', {class: 'dr-actions'}, uses.map(m => this.actionButton({move: m, invokers: []}))) : null,
      h('div', {class: 'dr-choices'}, buttons.map(m => this.button(m, choiceWords(m, words), kindOf(m)))));
  }

  // houseNote explains a rule of Lagoon's own where it acts (rules.js,
  // houseRule; docs/druids.md, "Decisions").
  houseNote() {
    const rule = houseRule(this.view);
    return rule ? h('p', {class: 'dr-house', 'data-house': rule.key}, h('b', {}, 'Lagoon\'s rule: '), rule.text) : null;
  }

  // renderRefresh: the Refresh step in one click when which druids are
  // refreshed does not matter (all of them may be, or they are all
  // alike); otherwise the druids to choose from, a click each, until the
  // rest may all be refreshed at once.
  renderRefresh(legal) {
    const v = this.view, words = this.words();
    const tired = [];
    for (const w of v.world) {
      for (const d of w.druids) {
        if (seatOfSlot(d.seat, this.cat.aj) !== v.active) continue;
        if (d.eldrid && d.eldrid_exhausted) tired.push({text: druidText(d.seat, true, true, w.id), n: 1});
        if (d.acolytes_exhausted) tired.push({text: druidText(d.seat, false, true, w.id), n: d.acolytes_exhausted});
      }
    }
    const total = tired.reduce((n, d) => n + d.n, 0), left = v.refreshes_left || 0;
    const all = tired.flatMap(d => Array(d.n).fill(d.text)).filter(m => legal.includes(m)).slice(0, left);
    const matters = total > left && tired.length > 1;
    const druids = legal.filter(m => kindOf(m) === 'druid');
    fill(this.ask,
      h('div', {class: 'dr-q'}, h('b', {class: 'dr-q-title'}, 'Refresh step'),
        h('span', {class: 'dr-q-hint'}, matters
          ? `You may refresh ${plural(left, 'druid')} of your ${total} exhausted: choose them, one at a time, on the world or below.`
          : `Your marker is refreshed; ${plural(total, 'exhausted druid')} of yours ${total === 1 ? 'stands' : 'stand'} up in one go.`)),
      this.houseNote(),
      h('div', {class: 'dr-choices'},
        matters ? druids.map(m => this.button(m, `Refresh ${choiceWords(m, words)}`, 'druid')) : null,
        matters ? null : h('button', {class: 'btn btn-small btn-primary dr-choice', type: 'button', 'data-action': 'refresh-all', 'data-count': all.length,
          onclick: () => this.sendAll(all)}, all.length === 1 ? `Refresh ${choiceWords(all[0], words)}` : `Refresh all ${all.length}`),
        this.button('done', 'Refresh none', 'done')));
  }

  waitWords() {
    const v = this.view, seats = this.ctx.seats();
    const who = seats[v.to_move] ? seats[v.to_move].name : 'The next player';
    return `${who} is deciding: ${stepWords(v.asking).toLowerCase()}.`;
  }

  // hint says what the choices are, in words.
  hint(legal, asking, top) {
    const kinds = new Set(legal.map(kindOf));
    if (asking === 'begin' || asking === 'end') return 'Use a timely site of yours now, or Done.';
    if (kinds.has('side')) return 'Choose the side of the tile to lay.';
    if (kinds.has('tile')) return 'Choose the tile to keep.';
    if (kinds.has('space')) return 'Choose where the site goes: a highlighted space on the world.';
    if (kinds.has('druid')) return top && top.invoker ? 'Choose a druid: a highlighted one on the world, or below.' : 'Choose the druid that acts: a highlighted one on the world, or below.';
    if (kinds.has('site')) return 'Choose a site: a highlighted one on the world, or below.';
    if (kinds.has('seed')) return 'Choose the seed to give up.';
    if (kinds.has('yes')) return asking === 'explore' ? 'Move the exploring druid onto the new site?' : asking === 'unravel' ? 'Count your Ancient\'s extra energy?' : `Use ${asking}'s effect? It is yours to choose.`;
    if (kinds.has('eldrid')) return 'Your Eldrid or an acolyte?';
    return '';
  }

  // renderMenu offers the Action step's actions: all of them, or those of
  // the druid or site picked on the world, each with its cost. The four
  // basic actions are always there, and a site picked shows its own
  // action: what cannot be taken now says why (the view's unavailable).
  renderMenu(offers) {
    const words = this.words(), p = this.pick;
    let shown = offers, head, at = null;
    if (p && p.druid) {
      at = parseDruid(p.druid).site;
      shown = offers.filter(o => o.invokers.includes(p.druid));
      head = ['What should ', h('b', {}, druidWords(parseDruid(p.druid), words)), ' do?'];
    } else if (p && p.site) {
      at = p.site;
      shown = offers.filter(o => o.move === `use ${p.site}` || o.invokers.some(d => parseDruid(d).site === p.site));
      head = ['Actions from ', h('b', {}, this.cat.name(p.site))];
    }
    const card = move => {
      const o = shown.find(x => x.move === move);
      return o ? this.actionButton(o) : this.unavailableCard(move, this.whyNot(move, at, p && p.druid));
    };
    const site = p && p.site ? this.cat.site(p.site) : null;
    const own = site && (site.kind === 'invoke' || site.kind === 'eldrid') ? `use ${p.site}` : null;
    const uses = shown.filter(o => kindOf(o.move) === 'use' && o.move !== own);
    this.ask.dataset.menu = 'true';
    fill(this.ask,
      h('div', {class: 'dr-q'}, h('b', {class: 'dr-q-title'}, 'Action step'),
        h('span', {class: 'dr-q-hint'}, head || 'Pick a druid or a site on the world, or an action below. Each action exhausts the druid that invokes it.')),
      h('div', {class: 'dr-actions'}, ['move', 'summon', 'explore', 'unravel'].map(card), own ? card(own) : null,
        uses.map(o => this.actionButton(o)), shown.filter(o => o.move === 'end').map(o => this.actionButton(o))),
      this.houseNote(),
      p ? h('button', {class: 'btn btn-small btn-ghost', type: 'button', 'data-action': 'unpick', onclick: () => { this.pick = null; this.update(this.state); }}, 'All actions') : null);
  }

  // whyNot says why an action is not offered (for the druid or site
  // picked, at): the view's reason for that site's unravel, else for the
  // action; an action another druid of the seat could take is "not from
  // here".
  whyNot(move, at, druid) {
    const why = this.view.unavailable || [];
    const u = (at && why.find(x => x.move === move && x.site === at)) || why.find(x => x.move === move && !x.site);
    if (u) return u.reason;
    if (druid && parseDruid(druid).exhausted) return 'this druid is exhausted';
    if (at && kindOf(move) === 'basic' && !this.freshHere(at)) return 'no refreshed druid of yours stands here';
    return at ? 'not from here: another druid of yours can' : 'not now';
  }

  // freshHere reports whether a refreshed druid of the seat deciding
  // stands on the site.
  freshHere(id) {
    const v = this.view, w = v.world.find(x => x.id === id);
    return !!w && w.druids.some(d => seatOfSlot(d.seat, this.cat.aj) === v.to_move && (d.acolytes_refreshed > 0 || d.eldrid && !d.eldrid_exhausted));
  }

  // unavailableCard is an action that cannot be taken now, with why.
  unavailableCard(move, reason) {
    const st = kindOf(move) === 'use' ? this.cat.site(move.slice(4)) : null;
    return h('div', {class: 'dr-action-off', 'data-unavailable': move, 'aria-disabled': 'true'},
      h('span', {class: 'dr-action-title'}, st ? icon(energyOf(st.energy).symbol, 'icon energy-icon') : null, st ? st.name : BASICS[move].title),
      h('span', {class: 'dr-action-why'}, h('b', {}, 'Not now: '), reason));
  }

  actionButton(o) {
    const words = this.words();
    const k = kindOf(o.move);
    let title, what;
    if (k === 'basic') { title = BASICS[o.move].title; what = BASICS[o.move].what; }
    else if (k === 'use') { const st = this.cat.site(o.move.slice(4)); title = st.name; what = st.effect; }
    else { title = 'End the turn'; what = 'Your End step, then the next player\'s turn.'; }
    const cost = this.costOf(o);
    const pickedDruid = this.pick && this.pick.druid;
    return h('button', {class: 'dr-action', type: 'button', 'data-move': o.move, 'data-invokers': o.invokers.join(' '), onclick: () => {
      if (pickedDruid) this.follow = {druid: pickedDruid, version: this.state.version};
      else if (this.pick && this.pick.site) {
        const here = o.invokers.filter(d => parseDruid(d).site === this.pick.site);
        if (here.length === 1) this.follow = {druid: here[0], version: this.state.version};
      }
      this.pick = null;
      this.send(o.move);
    }},
    h('span', {class: 'dr-action-title'}, k === 'use' ? icon(energyOf(this.cat.site(o.move.slice(4)).energy).symbol, 'icon energy-icon') : null, title),
    h('span', {class: 'dr-action-what'}, what),
    cost ? h('span', {class: 'dr-action-cost'}, h('b', {}, 'Cost: '), cost) : null,
    o.invokers.length && !pickedDruid ? h('span', {class: 'dr-action-who'}, `by ${o.invokers.length === 1 ? druidWords(parseDruid(o.invokers[0]), words) : plural(o.invokers.length, 'druid') + ' of yours'}`) : null);
  }

  // costOf says what an action costs: a basic action's invoking druid
  // exhausted, the marker for an explore, and for an unravel the energy it
  // needs; a site's action what the catalogue says.
  costOf(o) {
    const k = kindOf(o.move);
    if (k === 'end') return null;
    const st = k === 'use' ? this.cat.site(o.move.slice(4)) : null;
    // A site's action: the catalogue's cost (a timely one may cost
    // nothing).
    if (st) return st.cost || null;
    const parts = ['the druid is exhausted'];
    if (o.move === 'explore') parts.push('so is your player marker');
    if (o.move === 'unravel') {
      const you = this.ctx.you(), v = this.view;
      const mine = v.world.filter(w => w.druids.some(d => seatOfSlot(d.seat, this.cat.aj) === you)).map(w => w.id);
      const need = new Map();
      for (const d of (this.pick && this.pick.druid ? [this.pick.druid] : o.invokers)) {
        const en = energyIndex(this.cat.site(parseDruid(d).site).energy), th = threat(en);
        if (need.has(th)) continue;
        const fromSites = mine.filter(id => energyIndex(this.cat.site(id).energy) === th).length;
        const seeds = Math.max(0, 3 - fromSites);
        need.set(th, `3 ${ENERGIES[th].name} to unravel a ${ENERGIES[en].name} site: ${Math.min(3, fromSites)} from your ${ENERGIES[th].name} sites${seeds ? `, ${plural(seeds, `${ENERGIES[th].name} seed`)}` : ''}`);
      }
      parts.push(...need.values());
    }
    return parts.join('; ');
  }

  // drawnCards shows the tiles drawn and not yet laid, both sides, as
  // buttons when the side (or the tile) is the choice.
  drawnCards(legal) {
    const v = this.view;
    if (!v.drawn.length) return null;
    const sides = legal.filter(m => kindOf(m) === 'side');
    const tiles = legal.filter(m => kindOf(m) === 'tile');
    return h('div', {class: 'dr-drawn'}, v.drawn.map(n => {
      const [a, b] = this.cat.tileSides(n);
      const pickTile = tiles.includes(`tile ${n}`);
      const side = (st, letter) => {
        const card = siteCard(st);
        if (sides.includes(`side ${letter}`) && v.drawn.length === 1) {
          return h('button', {class: 'dr-side', type: 'button', 'data-move': `side ${letter}`, onclick: () => this.send(`side ${letter}`)},
            card, h('span', {class: 'dr-side-go'}, `Lay side ${letter}`));
        }
        return h('div', {class: 'dr-side'}, card);
      };
      return h('div', {class: 'dr-tile', 'data-tile': n},
        h('div', {class: 'dr-tile-head'}, h('b', {}, `Tile ${n}`), pickTile ? h('button', {class: 'btn btn-small btn-primary', type: 'button', 'data-move': `tile ${n}`, onclick: () => this.send(`tile ${n}`)}, `Keep tile ${n}`) : null),
        h('div', {class: 'dr-tile-sides'}, side(a, 'A'), side(b, 'B')));
    }),
    // Two tiles drawn and a side to choose: the side buttons are plain.
    sides.length && v.drawn.length > 1 ? h('div', {class: 'dr-choices'}, sides.map(m => this.button(m, choiceWords(m, this.words()), 'side'))) : null);
  }

  button(move, label, kind) {
    return h('button', {class: 'btn btn-small dr-choice' + (['done', 'end', 'no'].includes(kind) ? ' btn-ghost' : ''), type: 'button', 'data-move': move, 'data-kind': kind,
      onclick: () => this.send(move)}, kind === 'seed' ? [icon(energyOf(SEED_NAMES[move.slice(5)]).symbol, 'icon energy-icon'), label] : label);
  }

  // renderInfo shows the site under the pointer, else the one picked,
  // else the one whose action is being resolved, in a box that does not
  // shrink under a decision (holdInfo).
  renderInfo() {
    this.showInfo();
    if (this.interactive && this.state) this.holdInfo();
  }

  showInfo() {
    const v = this.view;
    if (!v) return;
    const top = (v.resolving || [])[v.resolving.length - 1];
    const id = this.hovered || (this.pick && (this.pick.site || parseDruid(this.pick.druid || '') && parseDruid(this.pick.druid).site)) ||
      (top && top.site && v.world.some(w => w.id === top.site) ? top.site : null);
    const st = id ? this.cat.site(id) : null;
    this.info.hidden = !this.interactive;
    if (!st) {
      fill(this.info, h('p', {class: 'muted dr-info-empty'}, 'Point at a site, or tap it, to read what it does.'));
      return;
    }
    const w = v.world.find(x => x.id === id);
    fill(this.info, siteCard(st, {locked: w && w.locked, inPlay: w ? null : h('p', {class: 'muted'}, 'Not in the world now.'), extra: w ? this.cardNow(st) : null}));
  }

  // holdInfo keeps the card's box from shrinking while one decision is at
  // hand. The card follows the pointer: as the pointer left the world for
  // a choice, a page scrolled to its end that shrank scrolled back, and
  // the choice moved from under the pointer; the click landed beside it
  // and was lost (docs/web.md, "A click not taken"). With scroll anchoring
  // off (druids.css), a card growing moves nothing above it either.
  holdInfo() {
    const version = this.state.version;
    if (this.infoVersion !== version) {
      this.infoVersion = version;
      this.info.style.minHeight = '';
    }
    const height = this.info.offsetHeight;
    if (height > (parseFloat(this.info.style.minHeight) || 0)) this.info.style.minHeight = `${height}px`;
  }

  // cardNow says, at the viewer's Action step, whether the site's action
  // and an unravel of the site can be taken now, and why not.
  cardNow(st) {
    const v = this.view, offers = v.offers || [];
    if (!this.choices().length || !offers.length) return null;
    const lines = [];
    if (st.kind === 'invoke' || st.kind === 'eldrid') {
      const why = (v.unavailable || []).find(u => u.move === `use ${st.id}`);
      lines.push(h('li', {'data-now': 'use', class: why ? 'off' : 'on'}, h('b', {}, 'Its action: '), why ? `not now: ${why.reason}` : 'yours to take now'));
    }
    const unravel = offers.find(o => o.move === 'unravel');
    const why = (v.unavailable || []).find(u => u.move === 'unravel' && u.site === st.id);
    if (why || unravel && unravel.invokers.some(d => parseDruid(d).site === st.id)) {
      lines.push(h('li', {'data-now': 'unravel', class: why ? 'off' : 'on'}, h('b', {}, 'Unravel it: '), why ? `not now: ${why.reason}` : 'possible now'));
    }
    return lines.length ? h('ul', {class: 'dr-card-now'}, lines) : null;
  }

  clickSite(id) {
    if (this.ctx.modalOpen()) return;
    const legal = this.choices();
    if (legal.includes(id)) { this.send(id); return; }
    if ((this.view.offers || []).length && legal.length) {
      this.pick = {site: id};
      this.update(this.state);
      return;
    }
    this.hovered = id;
    this.renderInfo();
  }

  clickDruid(text) {
    if (this.ctx.modalOpen()) return;
    const legal = this.choices();
    if (legal.includes(text)) { this.send(text); return; }
    if ((this.view.offers || []).some(o => o.invokers.includes(text))) {
      this.pick = {druid: text};
      this.update(this.state);
      // Picked with the keyboard, the focus goes to its first action once
      // the key is up (before, the key would press that action too).
      const first = this.ask.querySelector('.dr-action');
      if (first && this.world.byKey) {
        this.world.svg.addEventListener('keyup', () => first.focus({preventScroll: true}), {once: true});
      }
    }
  }

  send(move) {
    if (this.ctx.modalOpen()) return;
    this.ctx.move(move);
  }

  key(e) {
    if (e.key === 'Escape' && this.pick) {
      this.pick = null;
      this.update(this.state);
      return true;
    }
    return false;
  }

  refused() { this.follow = null; this.batch = null; }
}
