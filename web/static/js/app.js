// The page's entry point: it routes on location.pathname (the server sends
// index.html for every path that is not a file) and follows in-app links
// without reloading.
//
//   /              home: a new game and the lobby
//   /game/{id}     play (with a seat token) or watch a game
//   /replay/{id}   step through a game
//   /rules         an index of the games' rules (/rules/{game}: a game's)
//   /me            the player's games (mygames.js)

import {h, fill, closeAllModals} from './ui.js';
import {installSprite} from './art.js';
import {mountHome} from './home.js';
import {mountGame} from './game.js';
import {mountReplay} from './replay.js';
import {getRules} from './api.js';
import {gameModule} from './games.js';
import {installAccount} from './account.js';
import {mountMyGames, startMyGames} from './mygames.js';

const app = document.getElementById('app');
let unmount = null;
let routed = false;

function route() {
  if (unmount) unmount();
  unmount = null;
  closeAllModals();
  document.title = 'Lagoon';
  const path = location.pathname;
  let m, nav = '';
  if (path === '/' || path === '/index.html') {
    nav = 'home';
    unmount = mountHome(app);
  } else if ((m = /^\/game\/([A-Za-z0-9_-]+)\/?$/.exec(path))) {
    unmount = mountGame(app, m[1]);
  } else if ((m = /^\/replay\/([A-Za-z0-9_-]+)\/?$/.exec(path))) {
    unmount = mountReplay(app, m[1]);
  } else if (path === '/me' || path === '/me/') {
    nav = 'me';
    unmount = mountMyGames(app);
  } else if ((m = /^\/rules(?:\/([a-z0-9]+))?\/?$/.exec(path))) {
    nav = 'rules';
    unmount = mountRules(app, m[1]);
  } else {
    document.title = 'Nothing here · Lagoon';
    fill(app, h('div', {class: 'page empty-page'},
      h('h1', {}, 'Nothing here'),
      h('p', {}, 'This page does not exist.'),
      h('a', {class: 'btn btn-primary', href: '/', 'data-link': ''}, 'Back to the lobby')));
  }
  if (nav === 'home') document.title = 'Lagoon · Play online';
  app.dataset.route = nav || path.split('/')[1] || 'home';
  for (const a of document.querySelectorAll('[data-nav]')) a.classList.toggle('active', a.dataset.nav === nav);
  window.scrollTo(0, 0);
  // A page changed in place is announced as a new page is: the focus goes
  // to its content (not on the first load, which a browser handles).
  if (routed) app.focus({preventScroll: true});
  routed = true;
}

// mountRules shows the rules of a game, as its module writes them, or
// with id undefined an index of every game's rules.
function mountRules(root, id) {
  let gone = false;
  document.title = 'Rules · Lagoon';
  (async () => {
    try {
      const rules = await getRules();
      if (!id) {
        if (!gone) fill(root, rulesIndex(rules.games));
        return;
      }
      const game = rules.games.find(g => g.id === id);
      if (!game) throw new Error('This server has no such game.');
      const mod = await gameModule(game.id);
      if (gone) return;
      document.title = `Rules of ${game.name} · Lagoon`;
      fill(root, mod.rulesPage ? mod.rulesPage() : h('article', {class: 'page rules-page'},
        h('h1', {}, game.name),
        h('p', {}, `A game for ${game.min_players} to ${game.max_players} players.`)));
    } catch (err) {
      if (!gone) fill(root, h('div', {class: 'page empty-page'}, h('h1', {}, 'No rules to show'), h('p', {}, err.message)));
    }
  })();
  return () => { gone = true; };
}

// rulesIndex lists the games, each leading to its rules.
function rulesIndex(games) {
  return h('article', {class: 'page rules-index'},
    h('h1', {}, 'Rules'),
    h('p', {}, 'Choose a game to read its rules.'),
    h('ul', {class: 'rules-list'}, games.map(g => h('li', {},
      h('a', {href: `/rules/${g.id}`, 'data-link': '', 'data-rules': g.id}, g.name),
      ` · ${g.min_players === g.max_players ? g.min_players : `${g.min_players} to ${g.max_players}`} players`))));
}

// Links marked data-link change the page without reloading it.
document.addEventListener('click', e => {
  const a = e.target.closest && e.target.closest('a[data-link]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || a.target) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  if (url.pathname === location.pathname && url.hash === location.hash) return;
  history.pushState(null, '', url.pathname + url.search + url.hash);
  route();
});

window.addEventListener('popstate', route);
installSprite();
installAccount();
route();
startMyGames();
