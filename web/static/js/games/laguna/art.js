// Laguna's pictures: the pearls of the four colours, each with a mark of
// its own so that they are told apart without colour (the shapes of the
// seats that collect them: red a circle, yellow a square, green a
// triangle, blue a diamond), the reef and the current arrow, added to the
// page's sprite when the module is loaded.

import {shapePath, addSymbols} from '../../art.js';

// COLOURS are the pearls' colours in the notation's order (RYGB), which is
// the seats' order: seat p collects the pearls of COLOURS[p].
export const COLOURS = [
  {letter: 'R', name: 'red', fill: '#d8344f', dark: '#7d1024', ink: '#fff', shape: 'circle'},
  {letter: 'Y', name: 'yellow', fill: '#f5c518', dark: '#8a6400', ink: '#3a2a00', shape: 'square'},
  {letter: 'G', name: 'green', fill: '#2fa35a', dark: '#0f5129', ink: '#fff', shape: 'triangle'},
  {letter: 'B', name: 'blue', fill: '#2f6fd8', dark: '#0d2f70', ink: '#fff', shape: 'diamond'},
];

export const colourName = letter => (COLOURS.find(c => c.letter === letter) || COLOURS[0]).name;

// pearlIcon is the id of a colour's pearl in the sprite.
export const pearlIcon = letter => 'lg-pearl-' + letter;

function pearlSymbols() {
  return COLOURS.map(c => `
  <symbol id="${pearlIcon(c.letter)}" viewBox="-12 -12 24 24" overflow="visible">
    <circle r="10.2" fill="${c.fill}" stroke="${c.dark}" stroke-width="1.4"/>
    <circle r="10.2" fill="url(#lg-shine)"/>
    <g fill="${c.ink}" stroke="none">${shapePath(c.shape, 4.4)}</g>
  </symbol>`).join('');
}

const OTHER = `
  <radialGradient id="lg-shine" cx="35%" cy="30%" r="70%">
    <stop offset="0" stop-color="#fff" stop-opacity=".65"/>
    <stop offset=".35" stop-color="#fff" stop-opacity=".08"/>
    <stop offset="1" stop-color="#000" stop-opacity=".22"/>
  </radialGradient>
  <symbol id="lg-reef" viewBox="-12 -12 24 24" overflow="visible">
    <path d="M-9.5 6.5 L-7 -1 L-4 2 L-1.5 -8 L2 -1.5 L4.5 -5 L9.5 6.5 Z" fill="#6b5844" stroke="#fff" stroke-width="1.6" stroke-linejoin="round"/>
    <path d="M-10.5 8.2 Q-6 6.2 -2.5 8.2 T5 8.2 T10.5 8.2" fill="none" stroke="#fff" stroke-width="1.3" stroke-linecap="round" opacity=".85"/>
  </symbol>
  <symbol id="lg-arrow" viewBox="-12 -12 24 24" overflow="visible">
    <path d="M0 -10 L8 -1.5 L3.2 -1.5 L3.2 9 L-3.2 9 L-3.2 -1.5 L-8 -1.5 Z" fill="#e9fbff" stroke="#0b4a6e" stroke-width="1.2" stroke-linejoin="round"/>
  </symbol>
  <symbol id="lg-water" viewBox="-12 -12 24 24" overflow="visible">
    <circle r="9" fill="#3a9ccc" stroke="#1f6f9d" stroke-width="1"/>
    <path d="M-6 1 Q-3 -2 0 1 T6 1" fill="none" stroke="#dff4ff" stroke-width="1.5" stroke-linecap="round"/>
  </symbol>
  <symbol id="lg-raft" viewBox="-12 -12 24 24" overflow="visible">
    <rect x="-11" y="-7.5" width="22" height="15" rx="2.5" fill="#b98a52" stroke="#5b3d1c" stroke-width="1.3"/>
    ${[-6, 0, 6].map(x => `<circle cx="${x}" cy="-3" r="2" fill="#2a86b6"/><circle cx="${x}" cy="3" r="2" fill="#2a86b6"/>`).join('')}
  </symbol>
  <symbol id="lg-volcano" viewBox="-12 -12 24 24" overflow="visible">
    <path d="M-11 9 L-3.5 -6 L3.5 -6 L11 9 Z" fill="#7a5a48" stroke="#3b261a" stroke-width="1.3" stroke-linejoin="round"/>
    <ellipse cx="0" cy="-6" rx="3.6" ry="1.4" fill="#ff7a2f"/>
    <path d="M-1.5 -8 Q-3 -11 0 -12 M1.5 -8 Q3.5 -10.5 1.5 -12" fill="none" stroke="#9a8f88" stroke-width="1.1" stroke-linecap="round"/>
  </symbol>
  <symbol id="lg-island" viewBox="-12 -12 24 24" overflow="visible">
    <ellipse cx="0" cy="3" rx="11" ry="6.5" fill="#ecd9a0" stroke="#8c6d2c" stroke-width="1.2"/>
    <path d="M0 4 Q1 -3 -1 -8" fill="none" stroke="#6b4a20" stroke-width="1.6"/>
    <path d="M-1 -8 Q-7 -9 -9 -4 M-1 -8 Q5 -10 8 -5 M-1 -8 Q-3 -12 -7 -11" fill="none" stroke="#3f8a3a" stroke-width="2.2" stroke-linecap="round"/>
  </symbol>`;

// installSymbols adds Laguna's symbols to the page's sprite.
export function installSymbols() {
  addSymbols('laguna', OTHER + pearlSymbols());
}
