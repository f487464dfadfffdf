// Land of Druids' pictures: the three energies (a colour and a symbol
// each, so that they are told apart without colour), the eight circles'
// emblems (a druid is its seat's shape with its circle's emblem on it), the
// lock of a locked site and the star of a side original to Lagoon, added
// to the shell's sprite.

import {addSymbols, PLAYERS, shapePath} from '../../art.js';

// ENERGIES: the engine's order (Elemeen, Vowelon, Deonin), each with its
// letter in the notation ("seed E"), its colours and its symbol's id.
export const ENERGIES = [
  {name: 'Elemeen', letter: 'E', colour: '#3d8b3d', tint: '#e3f1d9', symbol: 'en-elemeen', what: 'a leaf'},
  {name: 'Vowelon', letter: 'V', colour: '#2470a8', tint: '#dcebf7', symbol: 'en-vowelon', what: 'a wave'},
  {name: 'Deonin', letter: 'D', colour: '#b4562a', tint: '#f6e3d4', symbol: 'en-deonin', what: 'a crystal'},
];

export const energyOf = name => ENERGIES.find(e => e.name === name) || ENERGIES[0];
export const energyIndex = name => ENERGIES.findIndex(e => e.name === name);
// threat is the energy that threatens (and so unravels) a site of energy i.
export const threat = i => (i + 2) % 3;

// The circles' emblems, drawn in a 24-unit box about 0,0 with currentColor.
const EMBLEMS = {
  Stag: '<path d="M0 7 V-1 M0 -1 L-5 -8 M0 -1 L5 -8 M-2.6 -4.6 L-7 -4 M2.6 -4.6 L7 -4 M-4 -6.6 L-3 -9.5 M4 -6.6 L3 -9.5" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round"/>',
  Dragonfly: '<path d="M0 -8 V8" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><ellipse cx="-4.5" cy="-3" rx="4.5" ry="1.8" fill="currentColor"/><ellipse cx="4.5" cy="-3" rx="4.5" ry="1.8" fill="currentColor"/><ellipse cx="-4" cy="1.2" rx="3.8" ry="1.5" fill="currentColor"/><ellipse cx="4" cy="1.2" rx="3.8" ry="1.5" fill="currentColor"/>',
  Hare: '<ellipse cx="-2.6" cy="-4.5" rx="1.8" ry="5" fill="currentColor" transform="rotate(-12 -2.6 -4.5)"/><ellipse cx="2.6" cy="-4.5" rx="1.8" ry="5" fill="currentColor" transform="rotate(12 2.6 -4.5)"/><circle cy="4" r="4.4" fill="currentColor"/>',
  Owl: '<path d="M-6 -7 L-3 -3.5 H3 L6 -7 V4 Q0 10 -6 4 Z" fill="currentColor"/><circle cx="-2.6" cy="-0.4" r="1.6" fill="#fff"/><circle cx="2.6" cy="-0.4" r="1.6" fill="#fff"/>',
  Fern: '<path d="M0 8 Q1 0 -1 -8 M0 4 L-5 1 M0.4 1 L5 -2 M-0.1 -2 L-4.4 -5 M-0.4 -5 L3.6 -7.6" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round"/>',
  Turtle: '<ellipse cy="0.5" rx="6.5" ry="5" fill="currentColor"/><circle cy="-6.5" r="2.2" fill="currentColor"/><path d="M-6 4.5 L-8 7 M6 4.5 L8 7 M-6 -3 L-8 -5 M6 -3 L8 -5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  Mushroom: '<path d="M-8 0 Q-7.5 -8 0 -8 Q7.5 -8 8 0 Z" fill="currentColor"/><path d="M-2.4 0 H2.4 L3 7.5 H-3 Z" fill="currentColor"/>',
  Moon: '<path d="M2 -8 A8 8 0 1 0 2 8 A6 6 0 1 1 2 -8 Z" fill="currentColor"/>',
};

export const CIRCLES = ['Stag', 'Dragonfly', 'Hare', 'Owl', 'Fern', 'Turtle', 'Mushroom', 'Moon'];

const ENERGY_SYMBOLS = `
  <symbol id="en-elemeen" viewBox="-12 -12 24 24"><path d="M-7 8 Q-9 -6 8 -8 Q8 7 -7 8 Z" fill="#3d8b3d" stroke="#1f4d1f" stroke-width="1.2"/><path d="M-6 7 L4 -4" stroke="#e3f1d9" stroke-width="1.3" stroke-linecap="round"/></symbol>
  <symbol id="en-vowelon" viewBox="-12 -12 24 24"><path d="M-9 -1 Q-4.5 -7 0 -1 T9 -1 V8 H-9 Z" fill="#2470a8" stroke="#123b5a" stroke-width="1.2" stroke-linejoin="round"/><path d="M-7 4 Q-3.5 0 0 4 T7 4" fill="none" stroke="#dcebf7" stroke-width="1.3"/></symbol>
  <symbol id="en-deonin" viewBox="-12 -12 24 24"><path d="M0 -9.5 L7 -2 L3.5 9 H-3.5 L-7 -2 Z" fill="#b4562a" stroke="#5e2a12" stroke-width="1.2" stroke-linejoin="round"/><path d="M-7 -2 H7 M0 -9.5 L-2 -2 L0 9 M0 -9.5 L2 -2" fill="none" stroke="#f6e3d4" stroke-width=".9"/></symbol>
  <symbol id="dr-lock" viewBox="-12 -12 24 24"><rect x="-6.5" y="-2" width="13" height="10" rx="1.8" fill="#3b3328" stroke="#fff" stroke-width="1"/><path d="M-4 -2 V-5 A4 4 0 0 1 4 -5 V-2" fill="none" stroke="#3b3328" stroke-width="2.4"/><circle cy="2.6" r="1.5" fill="#fff"/></symbol>
  <symbol id="dr-original" viewBox="-12 -12 24 24"><path d="M0 -10 L2.6 -2.6 L10 0 L2.6 2.6 L0 10 L-2.6 2.6 L-10 0 L-2.6 -2.6 Z" fill="#ffd166" stroke="#8a5a00" stroke-width="1.1" stroke-linejoin="round"/></symbol>
  <symbol id="dr-bag" viewBox="-12 -12 24 24"><path d="M-5 -6 Q0 -9 5 -6 L3 -3.5 Q9 1 7 6 Q5 9.5 0 9.5 Q-5 9.5 -7 6 Q-9 1 -3 -3.5 Z" fill="#b08a55" stroke="#5a4020" stroke-width="1.2" stroke-linejoin="round"/><path d="M-3 -3.5 H3" stroke="#5a4020" stroke-width="1.4"/></symbol>
  <symbol id="dr-marker" viewBox="-12 -12 24 24"><path d="M0 -9 L8 0 L0 9 L-8 0 Z" fill="#fff4d0" stroke="#8a5a00" stroke-width="1.4"/><circle r="3" fill="#c99412"/></symbol>`;

// seatOfSlot is the seat a druid slot plays for: in a game against AJ his
// three Eldrids (slots 1 to 3) are all seat 1's.
export const seatOfSlot = (slot, aj) => (aj ? Math.min(slot, 1) : slot);

// druidSymbolText draws a slot's token: its seat's shape and colour with the
// circle's emblem on it.
function druidSymbolText(circle, slot, aj) {
  const p = PLAYERS[seatOfSlot(slot, aj)];
  return `<symbol id="${druidSymbol(slot, aj)}" viewBox="-12 -12 24 24" overflow="visible">
    <g fill="${p.colour}" stroke="#141821" stroke-width="1.3">${shapePath(p.shape, 10.5)}</g>
    <g color="${p.ink}" transform="scale(.72)">${EMBLEMS[circle] || ''}</g></symbol>`;
}

// emblemSymbols draws each circle's emblem alone (AJ's token bag).
const emblemSymbols = () => CIRCLES.map(c => `<symbol id="em-${c}" viewBox="-12 -12 24 24"><g color="#2b2d42">${EMBLEMS[c]}</g></symbol>`).join('');

export function installSymbols() {
  addSymbols('druids', ENERGY_SYMBOLS + emblemSymbols());
}

// installDruids adds the tokens of a table's circles (the circles differ
// between a game against AJ and one without). Each slot's token is added
// once, by itself: a slot always plays the same circle, and a table of
// four seats drawn after one of two (the home page's picture) still
// brings the tokens of seats 3 and 4.
export function installDruids(circles, aj) {
  circles.forEach((c, slot) => addSymbols(druidSymbol(slot, aj), druidSymbolText(c, slot, aj)));
}

export const druidSymbol = (slot, aj) => `dr-${aj ? 'aj' : 'pl'}-${slot}`;
