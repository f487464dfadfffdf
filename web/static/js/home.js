// The home page: a new game in one or two clicks, and the lobby (your
// games, games with open seats, games in progress, finished games).
//
// The new game form is built from the server's rules (GET /api/rules): the
// games, each game's player counts, options, time rules and bot levels. An
// option is a select or a number field unless the game's module draws a
// richer control for it (Blue Lagoon's boards as pictures).

import {waitingPanel} from './mygames.js';
import {h, icon, fill, toast, modal, ago, plural, navigate, likeSelector, refocus, lowerFirst, seedMark, seedWarning} from './ui.js';
import {getRules, preview, getLobby, createGame, joinGame, mySeats, rememberSeat, playerName, setPlayerName, newGameForm, rememberNewGameForm} from './api.js';
import {PLAYERS, namedSeats} from './art.js';
import {gameModule, plain} from './games.js';

// The time rules a table may choose, by kind (game.TimeKind).
const TIMES = {
  bank: [
    {key: 'bank:5+5', label: '5 min + 5 s a move', time: {kind: 'bank', initial_ms: 300000, increment_ms: 5000}},
    {key: 'bank:10+10', label: '10 min + 10 s a move', time: {kind: 'bank', initial_ms: 600000, increment_ms: 10000}},
    {key: 'bank:30+30', label: '30 min + 30 s a move', time: {kind: 'bank', initial_ms: 1800000, increment_ms: 30000}},
  ],
  turn: [
    {key: 'turn:30', label: '30 s a turn', time: {kind: 'turn', turn_ms: 30000, carry: false}},
    {key: 'turn:30c', label: '30 s a turn, time left carried on', time: {kind: 'turn', turn_ms: 30000, carry: true}},
    {key: 'turn:60', label: '1 min a turn', time: {kind: 'turn', turn_ms: 60000, carry: false}},
  ],
  // Correspondence, over days: the days a turn the server allows
  // (game.CorrespondenceDays).
  days: [1, 2, 3, 5, 7, 10, 14].map(n => ({key: `days:${n}`, label: `${n} ${n === 1 ? 'day' : 'days'} a turn, by correspondence`,
    time: {kind: 'days', turn_ms: n * 86400000}})),
};
// A game that declares a time of its own (rules.default_time, Laguna's sand
// timer) offers it first and by default: the form then sends no time and
// the server gives the table the game's own for its players and options
// (none for a solo puzzle). "No clock" is then asked for in so many words.
const timesOf = rules => {
  const listed = (rules.times || []).flatMap(k => TIMES[k] || []);
  const none = {key: 'none', label: 'No clock', time: rules.default_time ? {kind: 'none'} : null};
  if (!rules.default_time) return [none, ...listed];
  const d = rules.default_time;
  const same = listed.find(c => c.time.kind === d.kind && (c.time.turn_ms || 0) === (d.turn_ms || 0) && !!c.time.carry === !!d.carry &&
    (c.time.initial_ms || 0) === (d.initial_ms || 0) && (c.time.increment_ms || 0) === (d.increment_ms || 0));
  return [{key: 'default', label: `The game's own${same ? ': ' + same.label : ''}`, time: null}, none, ...listed];
};
const defaultTimeKey = rules => (rules.default_time ? 'default' : 'none');

export function mountHome(root) {
  const view = new HomeView(root);
  view.mount();
  return () => view.unmount();
}

class HomeView {
  constructor(root) {
    this.root = root;
    this.form = {game: null, players: 2, seats: ['you', 'bot:medium', 'bot:medium', 'bot:medium'], options: {}, seed: '', time: 'none', takeBacks: true, name: playerName()};
    this.games = [];
    this.mods = new Map();   // game id -> module
    this.timer = null;
    this.lobbySig = null;
    this.busy = false;
    this.gone = false;
  }

  get rules() { return this.games.find(g => g.id === this.form.game) || null; }
  get mod() { return this.mods.get(this.form.game) || plain; }
  // alone is how a game whose rules need two seats is played by one
  // (home.alone: {seats, option, level}: a seat the rules play): the
  // form offers "1" among the players, as for a game with a solo mode of
  // its own, and sends those seats with the option set to a level.
  get alone() {
    const home = this.mod.home, r = this.rules;
    return home && home.alone && r && r.min_players > 1 ? home.alone : null;
  }
  // soloSeats are the seats of a game of one played through alone.
  get soloSeats() { return this.alone && this.form.players === 1 ? this.alone.seats : null; }

  async mount() {
    this.el = {
      form: h('form', {class: 'card newgame', onsubmit: e => { e.preventDefault(); this.create(); }}),
      games: h('section', {class: 'game-list', 'aria-label': 'The games'}),
      hero: h('div', {class: 'hero-text'}),
      lobby: h('div', {class: 'lobby'}, h('div', {class: 'loading small'}, h('div', {class: 'spinner'}), 'Loading the lobby…')),
    };
    // The games waiting on the player, from the live list (mygames.js).
    this.waiting = waitingPanel();
    fill(this.root, h('div', {class: 'home'},
      this.waiting.el,
      this.el.games,
      h('section', {class: 'hero'}, this.el.hero, this.el.form),
      this.el.lobby));
    fill(this.el.form, h('div', {class: 'loading small'}, h('div', {class: 'spinner'}), 'Loading the games…'));
    this.refresh();
    this.timer = setInterval(() => { if (document.visibilityState === 'visible') this.refresh(); }, 5000);
    try {
      const rules = await getRules();
      this.games = rules.games;
      await Promise.all(this.games.map(async g => this.mods.set(g.id, await gameModule(g.id))));
    } catch (err) {
      toast(err.message, 'error');
      return;
    }
    if (this.gone) return;
    this.drawGames();
    this.choose(this.games[0].id);
  }

  // drawGames lists the games side by side, alike: what each is, its
  // players, time and solo mode, and a picture; a card's button sets the
  // form up for its game.
  drawGames() {
    if (this.games.length < 2) return;
    const fact = (label, text) => (text ? h('div', {}, h('dt', {}, label), h('dd', {}, text)) : null);
    fill(this.el.games, this.games.map(g => {
      const home = this.mods.get(g.id).home || {};
      const picture = h('div', {class: 'game-card-picture', 'aria-hidden': 'true'});
      if (home.picture) {
        home.picture({options: {}, preview: opts => preview(g.id, g.min_players, opts)})
          .then(svg => { if (svg) picture.replaceChildren(svg); }, () => {});
      }
      const players = g.min_players === g.max_players ? String(g.min_players) : `${g.min_players} to ${g.max_players}`;
      return h('article', {class: 'game-card', 'data-game': g.id},
        picture,
        h('h2', {}, home.title || g.name),
        home.what ? h('p', {class: 'game-card-what'}, home.what) : null,
        h('dl', {class: 'game-card-facts'}, fact('Players', players), fact('Time', home.time), fact('Solo', home.solo)),
        h('div', {class: 'game-card-actions'},
          h('button', {type: 'button', class: 'btn btn-small btn-primary', 'data-choose': g.id, onclick: () => {
            this.choose(g.id);
            this.el.form.scrollIntoView({block: 'start'});
          }}, 'Set up a game'),
          h('a', {class: 'btn btn-small', href: `/rules/${g.id}`, 'data-link': ''}, 'Rules')));
    }));
  }

  unmount() {
    this.gone = true;
    if (this.waiting) this.waiting.stop();
    clearInterval(this.timer);
  }

  // choose makes id the game of the new game form.
  choose(id) {
    const f = this.form;
    f.game = id;
    f.options = {};
    const r = this.rules;
    const levels = r.levels || [];
    f.time = defaultTimeKey(r);
    // What the form last had for this game, as far as it still holds.
    const saved = newGameForm(id);
    // Each game keeps its own count: one never seen starts at two players.
    f.players = saved && Number.isInteger(saved.players) ? saved.players : 2;
    if (saved) {
      const ok = v => v === 'you' || v === 'friend' || v === 'open' || (v.startsWith('bot:') && levels.includes(v.slice(4)));
      if (Array.isArray(saved.seats)) saved.seats.forEach((v, i) => { if (typeof v === 'string' && ok(v)) f.seats[i] = v; });
      if (f.seats.filter(v => v === 'you').length > 1) f.seats = f.seats.map((v, i) => (v === 'you' && i !== f.seats.indexOf('you') ? 'friend' : v));
      if (typeof saved.time === 'string') f.time = saved.time;
      if (typeof saved.takeBacks === 'boolean') f.takeBacks = saved.takeBacks;
      for (const o of r.options || []) {
        const v = saved.options && saved.options[o.key];
        if (typeof v === 'string' && (o.kind !== 'choice' || o.custom || (o.choices || []).some(c => c.value === v))) f.options[o.key] = v;
      }
    }
    f.players = Math.min(Math.max(f.players, this.alone ? 1 : r.min_players), r.max_players);
    f.seats = f.seats.map(s => (s.startsWith('bot:') && !levels.includes(s.slice(4)) ? 'bot:' + (levels.includes('medium') ? 'medium' : levels[0]) : s));
    while (f.seats.length < r.max_players) f.seats.push(f.seats[f.seats.length - 1] === 'you' ? 'bot:' + levels[0] : f.seats[f.seats.length - 1]);
    if (!timesOf(r).some(t => t.key === f.time)) f.time = defaultTimeKey(r);
    this.drawHero();
    this.renderForm();
  }

  drawHero() {
    const r = this.rules, home = this.mod.home;
    const picture = h('div', {class: 'hero-board', 'aria-hidden': 'true'});
    fill(this.el.hero,
      h('div', {class: 'hero-copy'},
        h('h1', {}, home ? home.title : r.name),
        home && home.lede ? h('p', {class: 'lede'}, home.lede) : null,
        home && home.points ? h('ul', {class: 'hero-points'}, home.points().map(([pic, text, more]) => h('li', {}, pic,
          more && more.rules ? h('span', {}, text + ' ', h('a', {href: this.rulesPath(), 'data-link': ''}, more.rules)) : text))) : null),
      picture);
    this.picture = picture;
    this.pictureSig = null;
    this.drawPicture();
  }

  // drawPicture draws the module's picture of the game as the form sets
  // it up (Blue Lagoon: the board chosen), again when an option changes.
  drawPicture() {
    const r = this.rules, home = this.mod.home, f = this.form;
    if (!home || !home.picture || !this.picture) return;
    const options = {...f.options};
    const sig = JSON.stringify([r.id, options]);
    if (sig === this.pictureSig) return;
    this.pictureSig = sig;
    const picture = this.picture, game = r.id;
    picture.dataset.options = JSON.stringify(options);
    home.picture({options, preview: opts => preview(game, r.min_players, opts)})
      .then(svg => { if (svg && this.form.game === game && this.pictureSig === sig) picture.replaceChildren(svg); }, () => {});
  }

  // remember keeps the form's choices in this browser for the next game.
  remember() {
    const f = this.form;
    if (!f.game) return;
    rememberNewGameForm(f.game, {players: f.players, seats: f.seats, time: f.time, takeBacks: f.takeBacks, options: f.options});
  }

  rulesPath() { return `/rules/${this.form.game}`; }

  // renderForm draws the form again from this.form, and gives the focus
  // back to the control that had it (a change of seat, players or option
  // redraws the form; a keyboard user must not be sent back to its top).
  renderForm() {
    this.remember();
    const focused = document.activeElement;
    const again = this.el.form.contains(focused) ? likeSelector(focused) : null;
    this.drawForm();
    refocus(this.el.form, again);
  }

  drawForm() {
    const f = this.form, r = this.rules;
    const youSeat = f.seats.slice(0, f.players).indexOf('you');
    const choice = (i) => {
      const sel = h('select', {class: 'select seat-select', 'aria-label': `Seat ${i + 1}`, name: `seat${i}`, onchange: e => {
        const v = e.target.value;
        if (v === 'you') f.seats = f.seats.map(x => (x === 'you' ? 'friend' : x));
        f.seats[i] = v;
        this.renderForm();
      }},
        h('option', {value: 'you'}, 'You'),
        h('optgroup', {label: 'Bot'}, (r.levels || []).map(l => h('option', {value: 'bot:' + l}, `Bot · ${l}`))),
        h('option', {value: 'friend'}, 'A friend (invite link)'),
        h('option', {value: 'open'}, 'Open seat (anyone in the lobby)'));
      sel.value = f.seats[i];
      return sel;
    };
    const counts = [];
    for (let n = this.alone ? 1 : r.min_players; n <= r.max_players; n++) counts.push(n);
    const solo = this.soloSeats;
    // A game whose seats play in teams at this count says so beside them
    // (home.teams: the seats of each team, or null).
    const teams = !solo && this.mod.home && this.mod.home.teams ? this.mod.home.teams(f.players) : null;
    const times = timesOf(r);
    // A game whose clock is also one of its options (Laguna's sand timer)
    // draws the one choice itself.
    const ownClock = this.mod.clockField ? this.mod.clockField({
      times, time: f.time, options: {...f.options}, players: f.players,
      set: (time, options = {}) => {
        f.time = time;
        Object.assign(f.options, options);
        this.remember();
      },
    }) : null;

    fill(this.el.form,
      h('h2', {}, 'New game'),
      this.games.length > 1 ? h('div', {class: 'field'},
        h('span', {class: 'field-label'}, 'Game'),
        h('div', {class: 'segmented', role: 'radiogroup', 'aria-label': 'Game'},
          this.games.map(g => h('button', {type: 'button', role: 'radio', class: 'seg' + (f.game === g.id ? ' on' : ''), 'aria-checked': String(f.game === g.id),
            'data-action': 'game-' + g.id, onclick: () => { if (f.game !== g.id) this.choose(g.id); }}, g.name)))) : null,
      this.quickStarts(),
      counts.length > 1 ? h('div', {class: 'field'},
        h('span', {class: 'field-label'}, 'Players'),
        h('div', {class: 'segmented', role: 'radiogroup', 'aria-label': 'Number of players'},
          counts.map(n => h('button', {type: 'button', role: 'radio', class: 'seg' + (f.players === n ? ' on' : ''), 'aria-checked': String(f.players === n),
            'data-players': n, onclick: () => { f.players = n; this.renderForm(); }}, String(n))))) : null,
      h('div', {class: 'field seats'},
        h('span', {class: 'field-label'}, 'Seats'),
        Array.from({length: solo ? solo.length : f.players}, (_, i) => h('div', {class: 'seat-row' + (teams ? ' with-team' : ''), 'data-seat': i},
          icon('mark-' + i, 'icon mark'),
          h('span', {class: 'seat-no'}, `${PLAYERS[i].colourName}`),
          teams ? h('span', {class: 'tag seat-team', 'data-team': teams.findIndex(t => t.includes(i))}, `Team ${teams.findIndex(t => t.includes(i)) + 1}`) : null,
          solo && solo[i] !== 'you' ? h('span', {class: 'seat-house'}, 'Played by the rules') : choice(i))),
        teams ? h('p', {class: 'field-note seats-teams'}, `${plural(f.players, 'player')} play as ${teams.length} teams, teammates scoring together: `,
          teams.map(t => t.map(p => PLAYERS[p].colourName[0].toUpperCase() + PLAYERS[p].colourName.slice(1)).join(' and ')).join(' against '), '.') : null),
      youSeat >= 0 ? h('label', {class: 'field'},
        h('span', {class: 'field-label'}, 'Your name'),
        h('input', {class: 'input', type: 'text', name: 'name', maxlength: 32, placeholder: `Player ${youSeat + 1}`, value: f.name,
          oninput: e => { f.name = e.target.value; setPlayerName(f.name.trim()); }})) : null,
      h('details', {class: 'more', open: this.moreOpen ? true : null, ontoggle: e => { this.moreOpen = e.target.open; }},
        h('summary', {}, [...(r.options || []).map(o => o.label), 'seed', ownClock ? null : 'clock', 'take-backs'].filter(w => w)
          .map((w, i) => (i ? lowerFirst(w) : w)).join(', ')),
        ownClock,
        (r.options || []).map(o => this.optionField(o)),
        h('div', {class: 'field-row'},
          h('label', {class: 'field', title: 'A seed of your own marks the table, in the lobby and for every seat: whoever knows it knows every draw.'},
            h('span', {class: 'field-label'}, 'Seed'),
            h('input', {class: 'input', type: 'text', inputmode: 'numeric', name: 'seed', placeholder: 'random', value: f.seed,
              oninput: e => { f.seed = e.target.value.trim(); e.target.removeAttribute('aria-invalid'); }})),
          ownClock ? null : h('label', {class: 'field'},
            h('span', {class: 'field-label'}, 'Clock'),
            (() => {
              const sel = h('select', {class: 'select', name: 'clock', onchange: e => { f.time = e.target.value; this.remember(); }},
                times.map(c => h('option', {value: c.key}, c.label)));
              sel.value = f.time;
              return sel;
            })())),
        h('label', {class: 'check-field', title: 'A player may take back their last move: at once against bots, with the others\' consent among people.'},
          h('input', {type: 'checkbox', name: 'take_backs', checked: f.takeBacks ? true : null, onchange: e => { f.takeBacks = e.target.checked; this.remember(); }}),
          h('span', {}, 'Allow take-backs'))),
      h('button', {class: 'btn btn-primary btn-big', type: 'submit', 'data-action': 'start', disabled: this.busy}, this.busy ? 'Starting…' : 'Start game'));
  }

  // quickStarts are the module's games started in one click (home.quick:
  // [{key, label, title, seats, options}], seats as the form's
  // choices, "house" for a seat the rules play themselves), with the
  // form's name and clock.
  quickStarts() {
    const home = this.mod.home;
    const quick = home && home.quick ? home.quick() : [];
    if (!quick.length) return null;
    return h('div', {class: 'field quick-starts'},
      h('span', {class: 'field-label'}, home.quickLabel || 'Quick start'),
      h('div', {class: 'quick-list'}, quick.map(q => h('button', {type: 'button', class: 'btn btn-small quick-start', 'data-quick': q.key, title: q.title || null,
        disabled: this.busy, onclick: () => this.create(q)}, q.label))));
  }

  // optionField draws an option: the module's control, or a select for a
  // choice and a number field for a number.
  optionField(o) {
    const f = this.form, r = this.rules;
    const ctx = {
      value: f.options[o.key] != null ? f.options[o.key] : o.default,
      players: f.players,
      set: (v, redraw = true) => {
        f.options[o.key] = v;
        ctx.value = v;
        if (redraw) this.renderForm();
        else this.remember();
        this.drawPicture();
      },
      preview: options => preview(r.id, f.players, options),
    };
    const own = this.mod.optionField(o, ctx);
    if (own) return own;
    let control;
    if (o.kind === 'number') {
      control = h('input', {class: 'input', type: 'number', name: o.key, min: o.min, max: o.max, value: ctx.value,
        onchange: e => ctx.set(e.target.value, false)});
    } else {
      control = h('select', {class: 'select', name: o.key, onchange: e => ctx.set(e.target.value, false)},
        (o.choices || []).map(c => h('option', {value: c.value}, c.label)));
      control.value = ctx.value;
    }
    return h('label', {class: 'field', title: o.help || null}, h('span', {class: 'field-label'}, o.label), control);
  }

  // create starts the game the form sets up, or a module's quick start.
  async create(quick = null) {
    const f = this.form, r = this.rules;
    if (!r) return;
    const solo = this.soloSeats;
    const seats = quick ? quick.seats : solo ? solo.map(s => (s === 'you' ? f.seats[0] : s)) : f.seats.slice(0, f.players);
    const youSeat = seats.indexOf('you');
    const options = {};
    for (const o of r.options || []) if (f.options[o.key] != null) options[o.key] = String(f.options[o.key]);
    if (this.alone && !quick) {
      const key = this.alone.option;
      if (!solo) delete options[key];
      else if (!options[key] || options[key] === r.options.find(o => o.key === key).default) options[key] = this.alone.level;
    }
    if (quick) Object.assign(options, quick.options);
    const spec = {game: r.id, options, seats: seats.map((c, i) => {
      if (c === 'you') return {kind: 'human', name: f.name.trim() || `Player ${i + 1}`};
      if (c === 'friend') return {kind: 'human'};
      if (c === 'open') return {kind: 'open'};
      if (c === 'house') return {kind: 'house'};
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
    if (!f.takeBacks) spec.take_backs = false;
    const t = timesOf(r).find(c => c.key === f.time);
    if (t && t.time) spec.time = t.time;
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
    // Idle games (left at a person's move) are not shown to watch, but
    // their players find them among their own.
    const all = new Map([...lobby.open, ...lobby.playing, ...(lobby.idle || []), ...lobby.finished].map(g => [g.id, g]));
    for (const g of all.values()) {
      if (!this.mods.has(g.game)) this.mods.set(g.game, await gameModule(g.game));
    }
    if (this.gone) return;
    const mine = mySeats();
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
    const row = (g, opts) => gameRow(g, this.describe(g), opts);
    const col = (title, cls, games, empty, draw) => h('section', {class: 'lobby-col ' + cls},
      h('h2', {}, title, h('span', {class: 'count-badge'}, String(games.length))),
      games.length ? h('ul', {class: 'lobby-list'}, games.map(draw)) : h('p', {class: 'muted empty'}, empty));
    fill(this.el.lobby,
      yours.length ? col('Your games', 'lobby-yours', yours, '', ({g, seat}) => row(g, {
        action: h('a', {class: 'btn btn-primary btn-small', href: `/game/${g.id}`, 'data-link': ''}, g.to_move === seat ? 'Your turn' : 'Continue'),
        you: seat,
      })) : null,
      h('div', {class: 'lobby-cols'},
        col('Open seats', 'lobby-open', lobby.open, 'No open seats right now. Start a game with an open seat and someone can join it here.', g => row(g, {
          action: h('button', {class: 'btn btn-primary btn-small', type: 'button', 'data-join': g.id, onclick: () => this.join(g)}, 'Join'),
        })),
        col('In progress', 'lobby-playing', lobby.playing, 'No games being played.', g => row(g, {
          action: h('a', {class: 'btn btn-small', href: `/game/${g.id}`, 'data-link': '', 'data-watch': g.id}, 'Watch'),
        })),
        col('Finished', 'lobby-finished', lobby.finished, 'No finished games yet.', g => row(g, {
          action: h('a', {class: 'btn btn-small', href: `/replay/${g.id}`, 'data-link': '', 'data-replay': g.id}, 'Replay'),
        }))));
    refocus(this.el.lobby, again);
  }

  // describe says which game g is and how it is set up.
  describe(g) {
    const mod = this.mods.get(g.game) || plain;
    const rules = this.games.find(r => r.id === g.game);
    return [g.game_name, mod.describeOptions(g.options || {}, rules)].filter(Boolean).join(', ');
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
        h('p', {}, `You take seat ${seat + 1} `, icon('mark-' + seat, 'icon mark'), ` in a game of ${this.describe(g)}, with `,
          namedSeats(g.seats).filter(st => st.seat !== seat).map(st => st.name).join(', '), '.'),
        seedWarning(g),
        h('label', {class: 'field'}, h('span', {class: 'field-label'}, 'Your name'), name)),
      actions: [{label: 'Cancel'}, {label: 'Join', primary: true, onclick: go}],
    });
    name.addEventListener('keydown', e => { if (e.key === 'Enter') document.querySelector('.join-modal .btn-primary').click(); });
  }
}

function gameRow(g, what, {action, you = null}) {
  g = {...g, seats: namedSeats(g.seats)};
  const winners = new Set(g.winners || []);
  let status;
  if (g.over) {
    status = g.winners && g.winners.length ? `${g.winners.map(p => g.seats[p].name).join(' and ')} won` : 'over';
  } else if (g.open_seats.length) {
    status = `${plural(g.open_seats.length, 'open seat')}`;
  } else {
    status = `${g.phase ? g.phase + ' · ' : ''}move ${g.version}`;
  }
  return h('li', {class: 'lobby-game', 'data-game': g.id},
    h('div', {class: 'lg-seats'}, g.seats.map(st => h('span', {class: 'lg-seat' + (st.kind === 'open' ? ' open' : '') + (winners.has(st.seat) ? ' won' : '') + (st.seat === you ? ' you' : '')},
      icon('mark-' + st.seat, 'icon mark'),
      st.kind === 'open' ? 'open seat' : st.name,
      g.over && g.scores ? h('b', {}, String(g.scores[st.seat])) : null))),
    h('div', {class: 'lg-meta'}, seedMark(g), `${what} · ${status} · `, h('span', {'data-updated': g.updated}, ago(g.updated))),
    h('div', {class: 'lg-action'}, action));
}
