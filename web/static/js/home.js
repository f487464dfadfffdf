// The home page: a new game in one or two clicks, and the lobby (your
// games, games with open seats, games in progress, finished games).

import {h, icon, fill, toast, modal, ago, plural, navigate, likeSelector, refocus} from './ui.js';
import {getBoards, getLevels, getLobby, createGame, joinGame, mySeats, rememberSeat, playerName, setPlayerName} from './api.js';
import {BoardView} from './board.js';
import {PLAYERS} from './art.js';

const CLOCKS = [
  {key: 'none', label: 'No clock'},
  {key: '5+5', label: '5 min + 5 s a move', initial_ms: 300000, increment_ms: 5000},
  {key: '10+10', label: '10 min + 10 s a move', initial_ms: 600000, increment_ms: 10000},
  {key: '30+30', label: '30 min + 30 s a move', initial_ms: 1800000, increment_ms: 30000},
];

const BOARD_TITLES = {standard: 'Standard', wheels: 'Wheels', face: 'Face', sides: 'Sides', space_invaders: 'Space Invaders'};
export const boardTitle = name => BOARD_TITLES[name] || (name === 'custom' || !name ? 'Custom board' : name);

export function mountHome(root) {
  const view = new HomeView(root);
  view.mount();
  return () => view.unmount();
}

class HomeView {
  constructor(root) {
    this.root = root;
    this.form = {players: 2, seats: ['you', 'bot:medium', 'bot:medium', 'bot:medium'], board: 'standard', seed: '', first: 0, clock: 'none', name: playerName()};
    this.levels = ['easy', 'medium', 'hard', 'max'];
    this.boards = [];
    this.timer = null;
    this.lobbySig = null;
    this.busy = false;
  }

  async mount() {
    this.el = {
      form: h('form', {class: 'card newgame', onsubmit: e => { e.preventDefault(); this.create(); }}),
      lobby: h('div', {class: 'lobby'}, h('div', {class: 'loading small'}, h('div', {class: 'spinner'}), 'Loading the lobby…')),
    };
    fill(this.root, h('div', {class: 'home'},
      h('section', {class: 'hero'},
        h('div', {class: 'hero-text'},
          h('div', {class: 'hero-copy'},
            h('h1', {}, 'Blue Lagoon'),
            h('p', {class: 'lede'}, 'Sail out, settle the islands, gather coconuts, bamboo, water and precious stones, and claim the statuettes. A game for 2 to 4 players, about twenty minutes.'),
            h('ul', {class: 'hero-points'},
              h('li', {}, icon('settler-0', 'icon piece-icon'), 'Play a bot, from easy to very strong'),
              h('li', {}, icon('village-1', 'icon piece-icon'), 'Or send a link to a friend'),
              h('li', {}, icon('tok-statuette', 'icon tok'), h('span', {}, 'New to the game? ', h('a', {href: '/rules', 'data-link': ''}, 'The rules in two minutes'))))),
          h('div', {class: 'hero-board', 'aria-hidden': 'true'})),
        this.el.form),
      this.el.lobby));
    this.renderForm();
    this.refresh();
    this.timer = setInterval(() => { if (document.visibilityState === 'visible') this.refresh(); }, 5000);
    try {
      const [levels, boards] = await Promise.all([getLevels(), getBoards()]);
      this.levels = levels;
      this.boards = boards;
      const hero = this.root.querySelector('.hero-board');
      if (hero && boards.length) {
        const view = new BoardView(boards[0], {label: 'A game in progress'});
        view.setState(sampleState(boards[0]));
        hero.append(view.svg);
      }
      this.renderForm();
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  unmount() {
    clearInterval(this.timer);
  }

  // renderForm draws the form again from this.form, and gives the focus
  // back to the control that had it (a change of seat, players or board
  // redraws the form; a keyboard user must not be sent back to its top).
  renderForm() {
    const focused = document.activeElement;
    const again = this.el.form.contains(focused) ? likeSelector(focused) : null;
    this.drawForm();
    refocus(this.el.form, again);
  }

  drawForm() {
    const f = this.form;
    const youSeat = f.seats.slice(0, f.players).indexOf('you');
    const choice = (i) => {
      const sel = h('select', {class: 'select seat-select', 'aria-label': `Seat ${i + 1}`, name: `seat${i}`, onchange: e => {
        const v = e.target.value;
        if (v === 'you') f.seats = f.seats.map(x => (x === 'you' ? 'friend' : x));
        f.seats[i] = v;
        this.renderForm();
      }},
        h('option', {value: 'you'}, 'You'),
        h('optgroup', {label: 'Bot'}, this.levels.map(l => h('option', {value: 'bot:' + l}, `Bot · ${l}`))),
        h('option', {value: 'friend'}, 'A friend (invite link)'),
        h('option', {value: 'open'}, 'Open seat (anyone in the lobby)'));
      sel.value = f.seats[i];
      return sel;
    };
    const boardCards = (this.boards.length ? this.boards : [{name: 'standard'}]).map(b =>
      h('label', {class: 'board-card' + (f.board === b.name ? ' selected' : '')},
        h('input', {type: 'radio', name: 'board', value: b.name, checked: f.board === b.name, onchange: () => { f.board = b.name; this.renderForm(); }}),
        b.islands ? new BoardView(b, {mini: true, label: boardTitle(b.name)}).svg : null,
        h('span', {class: 'board-card-name'}, boardTitle(b.name)),
        b.islands ? h('span', {class: 'board-card-info'}, `${b.islands.length} islands`) : null));

    fill(this.el.form,
      h('h2', {}, 'New game'),
      h('div', {class: 'field'},
        h('span', {class: 'field-label'}, 'Players'),
        h('div', {class: 'segmented', role: 'radiogroup', 'aria-label': 'Number of players'},
          [2, 3, 4].map(n => h('button', {type: 'button', role: 'radio', class: 'seg' + (f.players === n ? ' on' : ''), 'aria-checked': String(f.players === n),
            'data-players': n, onclick: () => { f.players = n; if (f.first >= n) f.first = 0; this.renderForm(); }}, String(n))))),
      h('div', {class: 'field seats'},
        h('span', {class: 'field-label'}, 'Seats'),
        Array.from({length: f.players}, (_, i) => h('div', {class: 'seat-row', 'data-seat': i},
          icon('mark-' + i, 'icon mark'),
          h('span', {class: 'seat-no'}, `${PLAYERS[i].colourName}`),
          choice(i)))),
      youSeat >= 0 ? h('label', {class: 'field'},
        h('span', {class: 'field-label'}, 'Your name'),
        h('input', {class: 'input', type: 'text', name: 'name', maxlength: 32, placeholder: `Player ${youSeat + 1}`, value: f.name,
          oninput: e => { f.name = e.target.value; setPlayerName(f.name.trim()); }})) : null,
      h('details', {class: 'more', open: this.moreOpen ? true : null, ontoggle: e => { this.moreOpen = e.target.open; }},
        h('summary', {}, 'Board, seed, first player, clock'),
        h('div', {class: 'field'},
          h('span', {class: 'field-label'}, 'Board'),
          h('div', {class: 'board-cards'}, boardCards)),
        h('div', {class: 'field-row'},
          h('label', {class: 'field'},
            h('span', {class: 'field-label'}, 'Seed'),
            h('input', {class: 'input', type: 'text', inputmode: 'numeric', name: 'seed', placeholder: 'random', value: f.seed,
              oninput: e => { f.seed = e.target.value.trim(); e.target.removeAttribute('aria-invalid'); }})),
          h('label', {class: 'field'},
            h('span', {class: 'field-label'}, 'First player'),
            (() => {
              const sel = h('select', {class: 'select', name: 'first', onchange: e => { f.first = Number(e.target.value); }},
                Array.from({length: f.players}, (_, i) => h('option', {value: i}, `Seat ${i + 1} (${PLAYERS[i].colourName})`)));
              sel.value = String(f.first);
              return sel;
            })()),
          h('label', {class: 'field'},
            h('span', {class: 'field-label'}, 'Clock'),
            (() => {
              const sel = h('select', {class: 'select', name: 'clock', onchange: e => { f.clock = e.target.value; }},
                CLOCKS.map(c => h('option', {value: c.key}, c.label)));
              sel.value = f.clock;
              return sel;
            })()))),
      h('button', {class: 'btn btn-primary btn-big', type: 'submit', 'data-action': 'start', disabled: this.busy}, this.busy ? 'Starting…' : 'Start game'));
  }

  async create() {
    const f = this.form;
    const seats = f.seats.slice(0, f.players);
    const youSeat = seats.indexOf('you');
    const spec = {board: f.board, first: f.first, seats: seats.map((c, i) => {
      if (c === 'you') return {kind: 'human', name: f.name.trim() || `Player ${i + 1}`};
      if (c === 'friend') return {kind: 'human'};
      if (c === 'open') return {kind: 'open'};
      return {kind: 'bot', level: c.slice(4)};
    })};
    if (f.seed !== '') {
      const n = Number(f.seed);
      if (!/^\d+$/.test(f.seed) || !Number.isSafeInteger(n)) {
        // The field is shown (it may be folded away), marked and focused.
        this.moreOpen = true;
        this.renderForm();
        const field = this.el.form.querySelector('input[name=seed]');
        field.setAttribute('aria-invalid', 'true');
        field.focus();
        toast('The seed is a whole number from 0 to 9007199254740991, or empty for a random one.', 'error', 6000);
        return;
      }
      spec.seed = n;
    }
    const cl = CLOCKS.find(c => c.key === f.clock);
    if (cl && cl.initial_ms) spec.clock = {initial_ms: cl.initial_ms, increment_ms: cl.increment_ms};
    this.busy = true;
    this.renderForm();
    try {
      const res = await createGame(spec);
      const invites = res.seats.filter(st => seats[st.seat] === 'friend').map(st => ({seat: st.seat, link: st.link}));
      const mine = res.seats.find(st => st.seat === youSeat);
      rememberSeat(res.id, {creator: true, invites, ...(mine ? {token: mine.token, seat: youSeat} : {})});
      navigate(`/game/${res.id}`);
    } catch (err) {
      toast(err.message, 'error', 6000);
      this.busy = false;
      this.renderForm();
    }
  }

  async refresh() {
    let lobby;
    try {
      lobby = await getLobby();
    } catch (err) {
      if (!this.el.lobby.querySelector('.lobby-col')) fill(this.el.lobby, h('p', {class: 'muted'}, err.message));
      return;
    }
    const mine = mySeats();
    const all = new Map([...lobby.open, ...lobby.playing, ...lobby.finished].map(g => [g.id, g]));
    const yours = Object.entries(mine).filter(([id, m]) => m.token && all.has(id) && !all.get(id).over)
      .sort((a, b) => (b[1].touched || 0) - (a[1].touched || 0)).map(([id, m]) => ({g: all.get(id), seat: m.seat}));
    // A redraw replaces every button and link, and a click that lands as it
    // happens is lost: redraw only when the lobby changed, and otherwise
    // bring the times ago up to date in place.
    const sig = JSON.stringify([lobby, yours.map(({g, seat}) => [g.id, seat])]);
    if (sig === this.lobbySig) {
      for (const el of this.el.lobby.querySelectorAll('[data-updated]')) el.textContent = ago(el.dataset.updated);
      return;
    }
    this.lobbySig = sig;
    // The redraw replaces the buttons: the focus goes back to the same one.
    const focused = document.activeElement;
    const again = this.el.lobby.contains(focused) ? likeSelector(focused) : null;
    const col = (title, cls, games, empty, row) => h('section', {class: 'lobby-col ' + cls},
      h('h2', {}, title, h('span', {class: 'count-badge'}, String(games.length))),
      games.length ? h('ul', {class: 'lobby-list'}, games.map(row)) : h('p', {class: 'muted empty'}, empty));
    fill(this.el.lobby,
      yours.length ? col('Your games', 'lobby-yours', yours, '', ({g, seat}) => gameRow(g, {
        action: h('a', {class: 'btn btn-primary btn-small', href: `/game/${g.id}`, 'data-link': ''}, g.current === seat ? 'Your turn' : 'Continue'),
        you: seat,
      })) : null,
      h('div', {class: 'lobby-cols'},
        col('Open seats', 'lobby-open', lobby.open, 'No open seats right now. Start a game with an open seat and someone can join it here.', g => gameRow(g, {
          action: h('button', {class: 'btn btn-primary btn-small', type: 'button', 'data-join': g.id, onclick: () => this.join(g)}, 'Join'),
        })),
        col('In progress', 'lobby-playing', lobby.playing, 'No games being played.', g => gameRow(g, {
          action: h('a', {class: 'btn btn-small', href: `/game/${g.id}`, 'data-link': '', 'data-watch': g.id}, 'Watch'),
        })),
        col('Finished', 'lobby-finished', lobby.finished, 'No finished games yet.', g => gameRow(g, {
          action: h('a', {class: 'btn btn-small', href: `/replay/${g.id}`, 'data-link': '', 'data-replay': g.id}, 'Replay'),
        }))));
    refocus(this.el.lobby, again);
  }

  join(g) {
    const seat = g.open_seats[0];
    const name = h('input', {class: 'input', type: 'text', maxlength: 32, value: playerName(), placeholder: `Player ${seat + 1}`, 'aria-label': 'Your name'});
    let busy = false;
    const go = async close => {
      if (busy) return; // a second click must not ask for the seat we are getting
      busy = true;
      const n = name.value.trim();
      if (n) setPlayerName(n);
      try {
        const res = await joinGame(g.id, {seat, name: n || null});
        rememberSeat(g.id, {token: res.token, seat: res.seat});
        close();
        navigate(`/game/${g.id}`);
      } catch (err) {
        toast(err.code === 'seat_taken' ? `Someone else took seat ${seat + 1} just now.` : err.message, 'error', 6000);
        close();
        this.refresh();
      }
    };
    modal({
      title: 'Join this game',
      className: 'join-modal',
      body: h('div', {},
        h('p', {}, `You take seat ${seat + 1} `, icon('mark-' + seat, 'icon mark'), ` on the ${boardTitle(g.board).toLowerCase()} board, with `,
          g.seats.filter(st => st.seat !== seat).map(st => st.name).join(', '), '.'),
        h('label', {class: 'field'}, h('span', {class: 'field-label'}, 'Your name'), name)),
      actions: [{label: 'Cancel'}, {label: 'Join', primary: true, onclick: go}],
    });
    name.addEventListener('keydown', e => { if (e.key === 'Enter') document.querySelector('.join-modal .btn-primary').click(); });
  }
}

function gameRow(g, {action, you = null}) {
  const winners = new Set(g.winners || []);
  let status;
  if (g.over) {
    status = g.winners && g.winners.length > 1 ? 'shared victory' : `${g.seats[g.winners[0]].name} won`;
  } else if (g.open_seats.length) {
    status = `${plural(g.open_seats.length, 'open seat')}`;
  } else {
    status = `${g.phase} · move ${g.version}`;
  }
  return h('li', {class: 'lobby-game', 'data-game': g.id},
    h('div', {class: 'lg-seats'}, g.seats.map(st => h('span', {class: 'lg-seat' + (st.kind === 'open' ? ' open' : '') + (winners.has(st.seat) ? ' won' : '') + (st.seat === you ? ' you' : '')},
      icon('mark-' + st.seat, 'icon mark'),
      st.kind === 'open' ? 'open seat' : st.name,
      g.over ? h('b', {}, String(g.totals[st.seat])) : null))),
    h('div', {class: 'lg-meta'}, `${boardTitle(g.board)} · ${status} · `, h('span', {'data-updated': g.updated}, ago(g.updated))),
    h('div', {class: 'lg-action'}, action));
}

// sampleState is a made-up position for the picture on the home page: the
// tokens dealt, and a few pieces of two players.
function sampleState(board) {
  let x = 7;
  const next = n => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
  const kinds = [];
  for (const [kind, n] of [['coconut', 6], ['bamboo', 6], ['water', 6], ['stone', 6], ['statuette', 8]]) {
    for (let i = 0; i < n; i++) kinds.push(kind);
  }
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = next(i + 1);
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  const stones = new Set(board.stone_circles);
  const land = new Set(board.islands.flatMap(isl => isl.spaces));
  const free = [];
  for (let r = 0; r < board.height; r++) {
    for (let c = 0; c < (r % 2 ? board.height : board.height - 1); c++) {
      if (!stones.has(`${r},${c}`)) free.push(`${r},${c}`);
    }
  }
  const pieces = [];
  for (let i = 0; i < 14; i++) {
    const at = free.splice(next(free.length), 1)[0];
    pieces.push({at, seat: i % 2, piece: land.has(at) && i % 5 === 0 ? 'village' : 'settler'});
  }
  const last = pieces[pieces.length - 1];
  return {
    pieces,
    tokens: board.stone_circles.map((at, i) => ({at, token: kinds[i]})),
    last_move: {move: 'S ' + last.at},
  };
}
