// Blue Lagoon's pictures: the settlers and villages of each seat (its shape
// and colour, from the shell's art), the five token kinds and the stone
// circle, added to the page's sprite when the module is loaded.
//
// A settler is the seat's shape; a village is a house with the seat's shape
// on its door. The four resources and the statuette have icons of
// different outlines (round nut, stalks, drop, gem, figure).

import {PLAYERS, shapePath, addSymbols} from '../../art.js';

// TOKENS are the token kinds in the server's order, with their names.
export const TOKENS = [
  {kind: 'coconut', name: 'Coconut', plural: 'Coconuts'},
  {kind: 'bamboo', name: 'Bamboo', plural: 'Bamboo'},
  {kind: 'water', name: 'Water', plural: 'Water'},
  {kind: 'stone', name: 'Precious stone', plural: 'Precious stones'},
  {kind: 'statuette', name: 'Statuette', plural: 'Statuettes'},
];
export const tokenName = kind => (TOKENS.find(t => t.kind === kind) || {name: kind}).name;

// tokenPhrase names one token in a sentence: "a coconut", "water".
export function tokenPhrase(kind) {
  return {coconut: 'a coconut', bamboo: 'bamboo', water: 'water', stone: 'a precious stone', statuette: 'a statuette'}[kind] || kind;
}

function playerSymbols() {
  return PLAYERS.map((p, i) => `
  <symbol id="settler-${i}" viewBox="-12 -12 24 24" overflow="visible">
    <g fill="${p.colour}" stroke="#fff" stroke-width="3.4" opacity="0.85">${shapePath(p.shape, 8)}</g>
    <g fill="${p.colour}" stroke="#141821" stroke-width="1.5">${shapePath(p.shape, 8)}</g>
    <g fill="none" stroke="#fff" stroke-opacity="0.35" stroke-width="1.2" transform="translate(-1.6 -1.6) scale(0.55)">${shapePath(p.shape, 8)}</g>
  </symbol>
  <symbol id="village-${i}" viewBox="-12 -12 24 24" overflow="visible">
    <path d="M-10 10 V-1 L0 -10.5 L10 -1 V10 Z" fill="${p.colour}" stroke="#fff" stroke-width="3.4" stroke-linejoin="round" opacity="0.85"/>
    <path d="M-10 10 V-1 L0 -10.5 L10 -1 V10 Z" fill="${p.colour}" stroke="#141821" stroke-width="1.5" stroke-linejoin="round"/>
    <path d="M-11.5 0 L0 -11.8 L11.5 0" fill="none" stroke="#141821" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>
    <g fill="${p.ink}" transform="translate(0 3.6)">${shapePath(p.shape, 3.7)}</g>
  </symbol>
`).join('');
}

const TOKEN_ART = {
  coconut: `
    <circle r="8.6" fill="#7a4b2a" stroke="#3e2412" stroke-width="1.2"/>
    <path d="M-5.8 -4.6 A7 7 0 0 1 -1 -7.4" fill="none" stroke="#b07a4f" stroke-width="1.3" stroke-linecap="round"/>
    <circle cx="-2.8" cy="-1.6" r="1.45" fill="#2b170a"/>
    <circle cx="2.8" cy="-1.6" r="1.45" fill="#2b170a"/>
    <circle cx="0" cy="3.2" r="1.45" fill="#2b170a"/>`,
  bamboo: `
    <g stroke="#2f6a1b" stroke-width="1.1">
      <rect x="-6.6" y="-9.5" width="5" height="19" rx="2" fill="#7cb342"/>
      <rect x="1.2" y="-7.5" width="5" height="17" rx="2" fill="#8bc34a"/>
      <path d="M-6.6 -2.5 h5 M-6.6 4 h5 M1.2 -1 h5 M1.2 5 h5" fill="none"/>
    </g>
    <path d="M6.2 -4.5 C9.5 -7.5 11 -8 11.4 -10.6 C8.5 -10 6.5 -8.5 6.2 -4.5 Z" fill="#9ccc65" stroke="#2f6a1b" stroke-width="0.9"/>`,
  water: `
    <path d="M0 -10 C3.4 -5.4 7.6 -1.2 7.6 3.2 A7.6 7.6 0 0 1 -7.6 3.2 C-7.6 -1.2 -3.4 -5.4 0 -10 Z" fill="#3b8fd9" stroke="#174a80" stroke-width="1.2" stroke-linejoin="round"/>
    <path d="M-3.9 3 A4 4 0 0 0 -0.6 6.7" fill="none" stroke="#d6ecff" stroke-width="1.5" stroke-linecap="round"/>`,
  stone: `
    <path d="M-8.6 -2.6 L-4.6 -8 H4.6 L8.6 -2.6 L0 9.4 Z" fill="#b5179e" stroke="#5c0a50" stroke-width="1.2" stroke-linejoin="round"/>
    <path d="M-8.6 -2.6 H8.6 M-4.6 -8 L-2.4 -2.6 L0 9.4 L2.4 -2.6 L4.6 -8 M-2.4 -2.6 L0 -8 L2.4 -2.6" fill="none" stroke="#5c0a50" stroke-width="0.8" stroke-linejoin="round"/>
    <path d="M-4.6 -8 L-2.4 -2.6 H-8.6 Z" fill="#e56bd2"/>`,
  statuette: `
    <path d="M-5.2 10 V-3.5 C-5.2 -8.5 -3.6 -10.4 0 -10.4 C3.6 -10.4 5.2 -8.5 5.2 -3.5 V10 Z" fill="#8d8478" stroke="#3a342c" stroke-width="1.2" stroke-linejoin="round"/>
    <path d="M-5.2 -4.6 H5.2" stroke="#3a342c" stroke-width="1.5"/>
    <rect x="-3.6" y="-3.4" width="2.5" height="1.6" fill="#1e1a15"/>
    <rect x="1.1" y="-3.4" width="2.5" height="1.6" fill="#1e1a15"/>
    <path d="M0 -3.5 V2.5 H1.5" fill="none" stroke="#3a342c" stroke-width="1.1"/>
    <path d="M-2.4 5.2 H2.4" stroke="#3a342c" stroke-width="1.3"/>`,
};

function tokenSymbols() {
  return TOKENS.map(t => `<symbol id="tok-${t.kind}" viewBox="-12 -12 24 24" overflow="visible">${TOKEN_ART[t.kind]}</symbol>`).join('');
}

const STONE_CIRCLE = `
  <symbol id="stone-circle" viewBox="-12 -12 24 24" overflow="visible">
    ${Array.from({length: 9}, (_, k) => {
      const a = (k / 9) * Math.PI * 2 - Math.PI / 2;
      return `<ellipse cx="${(9.2 * Math.cos(a)).toFixed(2)}" cy="${(9.2 * Math.sin(a)).toFixed(2)}" rx="1.45" ry="1.15" transform="rotate(${(a * 180 / Math.PI).toFixed(1)} ${(9.2 * Math.cos(a)).toFixed(2)} ${(9.2 * Math.sin(a)).toFixed(2)})"/>`;
    }).join('')}
  </symbol>
`;

// installSymbols adds Blue Lagoon's symbols to the sprite.
export function installSymbols() {
  addSymbols('bluelagoon', playerSymbols() + tokenSymbols() + STONE_CIRCLE);
}
