// The shell's pictures: each seat's colour and shape, the icons of the
// page (the replay's buttons, the crown), and the SVG sprite they are drawn
// from. A game module adds its own symbols to the sprite (addSymbols).
//
// Every seat has a colour and a shape (circle, square, triangle, diamond),
// so that seats can be told apart without colour vision; a game draws its
// pieces from them (shapePath).

// accent is the colour that marks the player in the page around the board,
// dark enough to show on paper.
export const PLAYERS = [
  {colour: '#d1344b', ink: '#ffffff', accent: '#d1344b', shape: 'circle', shapeName: 'circle', colourName: 'red'},
  {colour: '#f7f3e8', ink: '#1d2433', accent: '#a8997a', shape: 'square', shapeName: 'square', colourName: 'white'},
  {colour: '#2b2d42', ink: '#ffffff', accent: '#2b2d42', shape: 'triangle', shapeName: 'triangle', colourName: 'black'},
  {colour: '#f6ae2d', ink: '#1d2433', accent: '#e09b17', shape: 'diamond', shapeName: 'diamond', colourName: 'amber'},
];

// shapePath draws a player's shape centred on 0,0 with radius r.
export function shapePath(shape, r) {
  switch (shape) {
    case 'circle': return `<circle r="${r}"/>`;
    case 'square': {
      const a = r * 0.86;
      return `<rect x="${-a}" y="${-a}" width="${2 * a}" height="${2 * a}" rx="${r * 0.16}"/>`;
    }
    case 'triangle': return `<path d="M0 ${-r * 1.12} L${r * 1.05} ${r * 0.74} L${-r * 1.05} ${r * 0.74} Z" stroke-linejoin="round"/>`;
    default: return `<path d="M0 ${-r * 1.18} L${r * 1.05} 0 L0 ${r * 1.18} L${-r * 1.05} 0 Z" stroke-linejoin="round"/>`;
  }
}

function playerSymbols() {
  return PLAYERS.map((p, i) => `
  <symbol id="mark-${i}" viewBox="-12 -12 24 24" overflow="visible">
    <g fill="${p.colour}" stroke="#141821" stroke-width="1.8">${shapePath(p.shape, 8.5)}</g>
  </symbol>`).join('');
}

const OTHER_SYMBOLS = `
  <symbol id="i-first" viewBox="-12 -12 24 24"><path d="M-8 -8 h2.8 v16 h-2.8 Z M8 -8 L-3.5 0 L8 8 Z" fill="currentColor"/></symbol>
  <symbol id="i-prev" viewBox="-12 -12 24 24"><path d="M6 -8 L-6 0 L6 8 Z" fill="currentColor"/></symbol>
  <symbol id="i-play" viewBox="-12 -12 24 24"><path d="M-5 -8.5 L8 0 L-5 8.5 Z" fill="currentColor"/></symbol>
  <symbol id="i-pause" viewBox="-12 -12 24 24"><path d="M-7 -8 h4.6 v16 h-4.6 Z M2.4 -8 h4.6 v16 h-4.6 Z" fill="currentColor"/></symbol>
  <symbol id="i-next" viewBox="-12 -12 24 24"><path d="M-6 -8 L6 0 L-6 8 Z" fill="currentColor"/></symbol>
  <symbol id="i-last" viewBox="-12 -12 24 24"><path d="M-8 -8 L3.5 0 L-8 8 Z M5.2 -8 h2.8 v16 h-2.8 Z" fill="currentColor"/></symbol>
  <symbol id="i-replay" viewBox="-12 -12 24 24">
    <path d="M-7.6 -3.2 A8.4 8.4 0 1 1 -6.2 5.6" fill="none" stroke="#0b3954" stroke-width="2.6" stroke-linecap="round"/>
    <path d="M-11 -7.4 L-7.4 -1.6 L-2.6 -5.6 Z" fill="#0b3954"/>
    <path d="M-2.2 -4 L4.2 0 L-2.2 4 Z" fill="#e0603a"/>
  </symbol>
  <symbol id="crown" viewBox="-12 -12 24 24">
    <path d="M-10 6 L-8 -6 L-3.5 0 L0 -8 L3.5 0 L8 -6 L10 6 Z" fill="#ffd166" stroke="#8a5a00" stroke-width="1.3" stroke-linejoin="round"/>
    <rect x="-10" y="6.5" width="20" height="3.2" rx="1" fill="#f4b400" stroke="#8a5a00" stroke-width="1.1"/>
  </symbol>`;

// installSprite adds the shell's symbols to the document once.
export function installSprite() {
  if (document.getElementById('lagoon-sprite')) return;
  const div = document.createElement('div');
  div.innerHTML = `<svg id="lagoon-sprite" xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" aria-hidden="true"><defs>${playerSymbols()}${OTHER_SYMBOLS}</defs></svg>`;
  document.body.prepend(div.firstChild);
}

// seatKind says what a seat is, for people; online tells whether a person
// is connected.
export function seatKind(seat, online) {
  if (seat.kind === 'bot') return `Bot · ${seat.level}`;
  if (seat.kind === 'house') return 'Played by the rules';
  if (seat.kind === 'open') return 'Open seat';
  if (seat.stand_in) return 'Out of time · bot plays';
  if (!seat.joined) return 'Invited';
  return online ? 'Online' : 'Offline';
}

// namedSeats gives each seat a short name that no other seat shares, in
// copies of the seats (the server's name kept as full_name): a bot under
// the server's default name ("Bot (medium)") is called by its colour ("Red
// bot"; its level is on its card), and a name still shared gets its colour.
export function namedSeats(seats) {
  const names = seats.map((s, i) => (s.kind === 'bot' && /^Bot \(.*\)$/.test(s.name)
    ? `${PLAYERS[i].colourName[0].toUpperCase()}${PLAYERS[i].colourName.slice(1)} bot` : s.name));
  const count = new Map();
  for (const n of names) count.set(n, (count.get(n) || 0) + 1);
  return seats.map((s, i) => ({...s, full_name: s.name, name: count.get(names[i]) > 1 ? `${names[i]} (${PLAYERS[i].colourName})` : names[i]}));
}

// addSymbols adds a game's symbols (SVG <symbol> elements as text) to the
// sprite, once for each key.
export function addSymbols(key, symbols) {
  installSprite();
  const defs = document.querySelector('#lagoon-sprite defs');
  if (defs.querySelector(`[data-symbols="${key}"]`)) return;
  const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
  g.setAttribute('data-symbols', key);
  g.innerHTML = symbols;
  defs.append(g);
}
