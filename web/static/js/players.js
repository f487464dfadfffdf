// The players' panel: for each seat its name and kind, whether it is to
// move, its pieces left, the tokens it holds, its score and its clock.

import {h, icon, clock} from './ui.js';
import {TOKENS, seatKind} from './art.js';
import {phaseScores} from './scores.js';

// playerCards draws one card per seat. you is the viewer's seat or null,
// and connected whether the viewer's own connection is up; clockBase is when
// the state's clocks were read (Date.now()); a replay shows no connections.
export function playerCards(seats, state, {you = null, connected = true, clockBase = Date.now(), replay = false} = {}) {
  const live = phaseScores(state, state.phase);
  const winners = state.result ? new Set(state.result.winners) : new Set();
  return h('div', {class: 'players', 'data-count': seats.length},
    seats.map((seat, p) => {
      const pl = state.players[p];
      const turn = !state.over && state.current === p;
      const liveScore = live.scores && !live.final ? live.scores[p].total : null;
      const online = seat.kind === 'bot' || (p === you ? connected : seat.connected > 0);
      const kind = replay ? (seat.kind === 'bot' ? `Bot · ${seat.level}` : 'Player') : seatKind(seat, online);
      const cl = state.clocks && state.clocks[p];
      return h('div', {
        class: 'pcard' + (turn ? ' is-turn' : '') + (p === you ? ' is-you' : '') + (winners.has(p) ? ' is-winner' : ''),
        'data-seat': p,
      },
        h('div', {class: 'pcard-head'},
          icon('mark-' + p, 'icon mark'),
          h('span', {class: 'pcard-name', title: seat.name}, seat.name),
          p === you ? h('span', {class: 'tag tag-you'}, 'you') : null,
          winners.has(p) ? icon('crown', 'icon crown', 'Winner') : null,
          h('span', {class: 'pcard-kind'},
            seat.kind === 'bot' || replay ? null : h('span', {class: 'dot ' + (online ? 'dot-on' : 'dot-off'), title: online ? 'Connected' : 'Not connected'}),
            kind)),
        h('div', {class: 'pcard-body'},
          h('div', {class: 'pcard-pieces'},
            h('span', {class: 'count', title: 'Settlers left', 'data-count': 'settlers'}, icon('settler-' + p, 'icon piece-icon'), h('b', {}, pl.settlers_left), h('span', {class: 'sr-only'}, ' settlers left,')),
            h('span', {class: 'count', title: 'Villages left', 'data-count': 'villages'}, icon('village-' + p, 'icon piece-icon'), h('b', {}, pl.villages_left), h('span', {class: 'sr-only'}, ' villages left,'))),
          h('div', {class: 'pcard-tokens', title: 'Tokens held'},
            TOKENS.map(t => h('span', {class: 'count' + (pl.held[t.kind] ? '' : ' zero'), title: t.name, 'data-token': t.kind},
              icon('tok-' + t.kind, 'icon tok'), h('b', {}, pl.held[t.kind]), h('span', {class: 'sr-only'}, ` ${t.plural.toLowerCase()},`))))),
        h('div', {class: 'pcard-foot'},
          h('span', {class: 'pcard-score', 'data-score': p},
            h('b', {}, state.over ? state.scores.totals[p] : pl.total), ' pts',
            liveScore != null ? h('span', {class: 'pcard-live', title: 'What this phase would score now'}, ` + ${liveScore} now`) : null),
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
