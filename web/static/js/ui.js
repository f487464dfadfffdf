// Small DOM helpers shared by the views: element builders, toasts, modals,
// the clipboard and number formatting.

const SVG_NS = 'http://www.w3.org/2000/svg';

// h builds an HTML element: h('button', {class: 'x', onclick: f}, 'Label').
// Attributes starting with "on" are event listeners; null and false
// attributes are left out; children may be strings, nodes, arrays or null.
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

// s builds an SVG element the same way.
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2), v);
    } else if (k === 'class') {
      el.setAttribute('class', v);
    } else if (k === 'value' && 'value' in el) {
      el.value = v;
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// clear empties an element and fills it with children.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// icon returns an inline SVG that shows a symbol of the sprite (art.js).
export function icon(id, cls = 'icon', title = null) {
  const svg = s('svg', {class: cls, viewBox: '-12 -12 24 24', 'aria-hidden': title ? null : 'true', role: title ? 'img' : null},
    title ? s('title', {}, title) : null,
    s('use', {href: '#' + id, x: -12, y: -12, width: 24, height: 24}));
  return svg;
}

// toast shows a short message at the bottom of the screen.
export function toast(message, kind = 'info', ms = 3500) {
  const box = document.getElementById('toasts');
  const t = h('div', {class: 'toast toast-' + kind}, message);
  box.append(t);
  setTimeout(() => t.classList.add('toast-out'), ms);
  setTimeout(() => t.remove(), ms + 400);
}

// The open modal, if any, and the ones waiting behind it.
let current = null;
const queue = [];

// modal shows a dialog above the page; dialogs opened while one is showing
// wait their turn. It returns a handle whose close() removes it.
// actions: [{label, primary, onclick(close), href}].
export function modal({title, body, actions = [], className = '', dismissable = true, onclose = null}) {
  const handle = {open: false, closed: false, el: null, close() { closeModal(handle); }};
  handle.spec = {title, body, actions, className, dismissable, onclose};
  if (current) queue.push(handle);
  else showModal(handle);
  return handle;
}

function showModal(handle) {
  const {title, body, actions, className, dismissable} = handle.spec;
  const buttons = actions.map(a => a.href
    ? h('a', {class: 'btn' + (a.primary ? ' btn-primary' : ''), href: a.href, 'data-link': '', onclick: () => handle.close()}, a.label)
    : h('button', {class: 'btn' + (a.primary ? ' btn-primary' : ''), type: 'button', onclick: () => a.onclick ? a.onclick(() => handle.close()) : handle.close()}, a.label));
  const dialog = h('div', {class: 'modal ' + className, role: 'dialog', 'aria-modal': 'true', 'aria-label': title},
    dismissable ? h('button', {class: 'modal-x', type: 'button', 'aria-label': 'Close', onclick: () => handle.close()}, '×') : null,
    h('h2', {class: 'modal-title'}, title),
    h('div', {class: 'modal-body'}, body),
    buttons.length ? h('div', {class: 'modal-actions'}, buttons) : null);
  const backdrop = h('div', {class: 'backdrop', onclick: e => { if (dismissable && e.target === backdrop) handle.close(); }}, dialog);
  handle.el = backdrop;
  handle.open = true;
  // Focus goes back where it was when the last dialog in line closes.
  if (!current && !returnFocus) {
    returnFocus = document.activeElement;
    returnKey = likeSelector(returnFocus);
  }
  current = handle;
  document.body.append(backdrop);
  const focus = dialog.querySelector('input:not([readonly])') || dialog.querySelector('.btn-primary') || dialog.querySelector('button, input, a');
  if (focus) focus.focus({preventScroll: true});
}

// The element focused before the dialogs opened, and a selector for its
// like should the page have drawn it again meanwhile (the lobby's rows are).
let returnFocus = null;
let returnKey = null;

// likeSelector returns a selector for el's like in a drawing of the same
// view made again (a form, the lobby's rows), or null: the attributes that
// name what a control does, a radio button's value with its name.
export function likeSelector(el) {
  if (!el || !el.getAttribute) return null;
  if (el.type === 'radio' && el.name) return `input[name="${CSS.escape(el.name)}"][value="${CSS.escape(el.value)}"]`;
  for (const a of ['data-join', 'data-watch', 'data-replay', 'data-action', 'data-players', 'name', 'href']) {
    const v = el.getAttribute(a);
    if (v != null) return `[${a}="${CSS.escape(v)}"]`;
  }
  return el.tagName === 'SUMMARY' ? 'summary' : null;
}

// refocus gives the focus, after root was drawn again, to the like of what
// had it before (key from likeSelector), if there is one.
export function refocus(root, key) {
  const el = key && root.querySelector(key);
  if (el) el.focus({preventScroll: true});
}

function restoreFocus() {
  let el = returnFocus;
  if (el && !el.isConnected && returnKey) el = document.querySelector(returnKey);
  returnFocus = returnKey = null;
  if (el && el.isConnected && typeof el.focus === 'function') el.focus({preventScroll: true});
}

function closeModal(handle) {
  if (handle.closed) return;
  handle.closed = true;
  const i = queue.indexOf(handle);
  if (i >= 0) { queue.splice(i, 1); return; }
  if (handle.el) handle.el.remove();
  if (handle.spec.onclose) handle.spec.onclose();
  if (current === handle) {
    current = null;
    const next = queue.shift();
    if (next) showModal(next);
    else restoreFocus();
  }
}

// closeAllModals removes every dialog, shown or waiting (when leaving a view).
export function closeAllModals() {
  queue.length = 0;
  returnFocus = returnKey = null;
  if (current) {
    current.closed = true;
    current.el.remove();
    current = null;
  }
}

// modalOpen reports whether a dialog is showing.
export function modalOpen() { return current != null; }

// document-wide: Escape closes a dismissable dialog, and Tab stays in the
// dialog (the page behind it is not to be used meanwhile).
document.addEventListener('keydown', e => {
  if (!current) return;
  if (e.key === 'Escape' && current.spec.dismissable) current.close();
  if (e.key !== 'Tab') return;
  const all = [...current.el.querySelectorAll('button, a[href], input, select, textarea, summary')].filter(el => !el.disabled);
  if (!all.length) return;
  const first = all[0], last = all[all.length - 1];
  const inside = current.el.contains(document.activeElement);
  if (e.shiftKey && (document.activeElement === first || !inside)) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && (document.activeElement === last || !inside)) { e.preventDefault(); first.focus(); }
});

// tabList makes a row of role=tab buttons a tab list as the ARIA pattern
// has it: the arrow keys, Home and End go from tab to tab, each chosen as it
// is reached; selectTab keeps only the chosen tab in the tab order.
export function tabList(list) {
  list.addEventListener('keydown', e => {
    const tabs = [...list.querySelectorAll('[role=tab]')];
    const i = tabs.indexOf(document.activeElement);
    const j = {ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1}[e.key];
    if (i < 0 || j === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    const tab = tabs[(j + tabs.length) % tabs.length];
    tab.focus();
    tab.click();
  });
  return list;
}

export function selectTab(list, key) {
  for (const b of list.querySelectorAll('[role=tab]')) {
    const on = b.dataset.tab === key;
    b.setAttribute('aria-selected', String(on));
    b.tabIndex = on ? 0 : -1;
  }
}

// copyText puts text on the clipboard, falling back to a selection for
// pages that are not a secure context.
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea', {class: 'offscreen', readonly: true}, text);
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}

// copyField is a read-only text field with a Copy button.
export function copyField(text, label) {
  const input = h('input', {class: 'copy-input', type: 'text', readonly: true, value: text, 'aria-label': label,
    onfocus: e => e.target.select()});
  const btn = h('button', {class: 'btn btn-small', type: 'button', onclick: async () => {
    const ok = await copyText(text);
    btn.textContent = ok ? 'Copied' : 'Select and copy';
    btn.classList.toggle('copied', ok);
    setTimeout(() => { btn.textContent = 'Copy'; btn.classList.remove('copied'); }, 1800);
  }}, 'Copy');
  return h('div', {class: 'copy-field'}, input, btn);
}

// SEED_CHOSEN says what a chosen seed means for the people at a table: the
// seed decides every draw, so whoever knows it (the one who chose it, or
// anyone who read it in another game's record) knows what is to come.
const SEED_CHOSEN = 'This table\'s seed was chosen when it was made: whoever knows the seed knows every draw to come.';

// seedMark returns the mark of a table whose seed was chosen (a game or a
// lobby line with seed_chosen), or null: the same mark in the lobby, the
// table's header and the replay's, so nobody sits down or watches without
// seeing it.
export function seedMark(g) {
  if (!g.seed_chosen) return null;
  return h('span', {class: 'chip chip-seed', 'data-seed-chosen': '', title: SEED_CHOSEN}, 'Chosen seed',
    h('span', {class: 'sr-only'}, `: ${SEED_CHOSEN}`));
}

// seedWarning says it in a sentence where someone is about to take a seat,
// or null.
export function seedWarning(g) {
  return g.seed_chosen ? h('p', {class: 'seed-warning', 'data-seed-chosen': ''}, h('b', {}, 'Chosen seed. '), SEED_CHOSEN) : null;
}

// plural writes "1 settler", "2 settlers".
export function plural(n, one, many = one + 's') {
  return `${n} ${noun(n, one, many)}`;
}

// noun is the word for n of a thing, where the count is written apart
// (a figure in bold before it): "settler" for 1, "settlers" for the rest.
export function noun(n, one, many = one + 's') {
  return n === 1 ? one : many;
}

// clock writes milliseconds as m:ss, or h:mm:ss.
export function clock(ms) {
  const t = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(t / 3600), mm = Math.floor(t / 60) % 60, ss = t % 60;
  const pad = n => String(n).padStart(2, '0');
  return hh ? `${hh}:${pad(mm)}:${pad(ss)}` : `${mm}:${pad(ss)}`;
}

// ago writes how long ago a time was, roughly.
export function ago(iso) {
  const sec = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (sec < 60) return 'just now';
  if (sec < 3600) return `${Math.floor(sec / 60)} min ago`;
  if (sec < 86400) return plural(Math.floor(sec / 3600), 'hour') + ' ago';
  return plural(Math.floor(sec / 86400), 'day') + ' ago';
}

// capitalize upper-cases the first letter.
export function capitalize(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// sentence makes words a sentence: a capital first, a full stop last
// unless it ends in one.
export function sentence(words) {
  const text = capitalize((words || '').trim());
  return /[.!?]$/.test(text) ? text : text + '.';
}

// clause makes words a clause that follows a colon: a full stop last, the
// first letter left as it is.
export function clause(words) {
  const text = (words || '').trim();
  return /[.!?]$/.test(text) ? text : text + '.';
}

// lowerFirst lower-cases the first letter, for a label inside a sentence,
// unless it begins a word in capitals ("AJ, the solo opponent").
export function lowerFirst(text) {
  return text && !/^[A-Z]{2}/.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
}

// navigate shows another page of the app without reloading (app.js listens).
export function navigate(path) {
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

// loadStyle adds a style sheet to the page once, and resolves when it is
// loaded (or has failed: the page goes on without it).
export function loadStyle(href) {
  let link = document.querySelector(`link[rel=stylesheet][href="${CSS.escape(href)}"]`);
  if (!link) {
    link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.loaded = new Promise(resolve => { link.onload = link.onerror = resolve; });
    document.head.append(link);
  }
  return link.loaded || Promise.resolve();
}
