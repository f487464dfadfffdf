// The players' panel: for each seat its name and kind, whether it is to
// move, what the game shows of it (the module's seatCard: Blue Lagoon's
// pieces left and tokens held), its points and its clock.

import {h, icon, clock} from './ui.js';
import {seatKind} from './art.js';

// playerCards draws one card per seat. game is the module; you is the
// viewer's seat or null, and connected whether the viewer's own connection
// is up; clockBase is when the state's clocks were read (Date.now()); a
// replay shows no connections. time is the game's time rule: a turn
// timer's clock is shown on the card of the seat deciding, a bank on each;
// a bot has no clock (bots have no time). idle(p) says why a seat's turns
// are skipped now, or null.
export function playerCards(seats, state, game, {you = null, connected = true, clockBase = Date.now(), replay = false, time = null, idle = () => null} = {}) {
  const standing = state.standing || {};
  const winners = new Set(standing.winners || []);
  const teams = standing.teams || [];
  return h('div', {class: 'players', 'data-count': seats.length},
    seats.map((seat, p) => {
      const turn = !state.over && state.to_move === p;
      // Bots and the seats the rules play themselves (house) are always
      // there, and keep no clock.
      const machine = seat.kind === 'bot' || seat.kind === 'house';
      const online = machine || (p === you ? connected : seat.connected > 0);
      const kind = replay ? (seat.kind === 'human' || seat.kind === 'open' ? 'Player' : seatKind(seat, online)) : seatKind(seat, online);
      const turnTimer = time && time.kind === 'turn';
      const cl = state.clocks && !machine && (!turnTimer || turn) ? state.clocks[p] : null;
      const skipped = state.over ? null : idle(p);
      const body = game.seatCard(state.view, p);
      const score = standing.scores ? standing.scores[p] : null;
      return h('div', {
        class: 'pcard' + (turn ? ' is-turn' : '') + (p === you ? ' is-you' : '') + (winners.has(p) ? ' is-winner' : '') + (skipped ? ' is-skipped' : ''),
        'data-seat': p,
      },
        h('div', {class: 'pcard-head'},
          icon('mark-' + p, 'icon mark'),
          h('span', {class: 'pcard-name', title: seat.name}, seat.name),
          p === you ? h('span', {class: 'tag tag-you'}, 'you') : null,
          teams.length ? h('span', {class: 'tag tag-team', 'data-team': teams.findIndex(t => t.includes(p))}, `team ${teams.findIndex(t => t.includes(p)) + 1}`) : null,
          winners.has(p) ? icon('crown', 'icon crown', 'Winner') : null,
          skipped ? h('span', {class: 'tag tag-skipped', title: `${p === you ? 'You have' : seat.name + ' has'} ${skipped}: turns skipped`}, 'skipped') : null,
          h('span', {class: 'pcard-kind'},
            machine || replay ? null : h('span', {class: 'dot ' + (online ? 'dot-on' : 'dot-off'), title: online ? 'Connected' : 'Not connected'}),
            kind)),
        body ? h('div', {class: 'pcard-body'}, body) : null,
        h('div', {class: 'pcard-foot'},
          score != null ? h('span', {class: 'pcard-score', 'data-score': p},
            h('b', {}, score), ' ' + game.scoreUnit(state.view, true, score), game.scoreNote(state.view, p)) : null,
          cl ? h('span', {class: 'pcard-clock' + (cl.running ? ' running' : '') + (cl.remaining_ms < 30000 ? ' low' : ''),
            'data-remaining': cl.remaining_ms, 'data-base': clockBase}, clock(cl.remaining_ms)) : null,
          turn ? h('span', {class: 'pcard-turn'}, 'to move') : null));
    }));
}

// tickClocks updates the running clocks drawn by playerCards.
export function tickClocks(root) {
  for (const el of root.querySelectorAll('.pcard-clock.running')) {
    const left = Number(el.dataset.remaining) - (Date.now() - Number(el.dataset.base));
    el.textContent = clock(left);
    el.classList.toggle('low', left < 30000);
  }
}
