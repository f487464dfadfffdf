// The "Your player" panel (docs/web.md): who this device plays as, their
// name, their passkeys (add, remove), a sign-in with a passkey made on
// another device, the devices signed in (end any) and signing out. It is
// a dialog of its own, opened from the top bar, and knows nothing of the
// games: signing in or out reloads the page, so that every screen reads
// the new player.

import {h, fill, toast} from './ui.js';
import {request} from './api.js';

// A guest's name, as the server makes them: the panel asks for a name
// before a passkey, as the server does.
const guestName = /^guest\s*[0-9]+$/i;

// installAccount adds the panel's button to the top bar.
export function installAccount() {
  const nav = document.querySelector('.topnav');
  if (!nav || document.getElementById('account-open')) return;
  const dialog = h('dialog', {id: 'account', class: 'account', 'aria-labelledby': 'account-title'});
  document.body.append(dialog);
  nav.append(h('button', {type: 'button', id: 'account-open', class: 'topnav-account', onclick: () => open(dialog)}, 'Your player'));
}

async function open(dialog) {
  if (!dialog.open) dialog.showModal();
  fill(dialog, h('p', {}, 'Loading…'));
  try {
    await draw(dialog);
  } catch (err) {
    fill(dialog, h('p', {class: 'error'}, err.message), closeButton(dialog));
  }
}

// passkeysSupported says whether this browser can make and use passkeys
// from the server's JSON options.
const passkeysSupported = () => typeof PublicKeyCredential !== 'undefined' &&
  typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function';

async function draw(dialog) {
  const me = await request('GET', '/api/me');
  const [keys, sessions] = await Promise.all([request('GET', '/api/me/passkeys'), request('GET', '/api/me/sessions')]);
  const named = !guestName.test(me.name);
  const act = fn => async ev => {
    ev.preventDefault();
    try {
      await fn();
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
    if (dialog.isConnected) await open(dialog);
  };
  const nameInput = h('input', {id: 'account-name', name: 'name', value: named ? me.name : '', maxlength: 24, required: true, autocomplete: 'nickname'});
  const keyName = h('input', {id: 'account-key-name', name: 'key', placeholder: 'This device', maxlength: 64});
  fill(dialog,
    h('h2', {id: 'account-title'}, 'Your player'),
    h('p', {}, 'You play as ', h('b', {id: 'account-me', 'data-id': me.id}, me.name),
      me.guest ? ' (a guest: keep this player with a passkey to play as them on any device).' : '.'),
    h('form', {class: 'account-name', onsubmit: act(async () => {
      await request('PUT', '/api/me/name', {body: {name: nameInput.value}});
      toast('Name saved');
    })}, h('label', {for: 'account-name'}, 'Name '), nameInput, h('button', {type: 'submit', class: 'btn'}, 'Save')),
    h('h3', {}, 'Passkeys'),
    keys.length ? h('ul', {id: 'account-keys'}, keys.map(k => h('li', {'data-id': k.id},
      h('span', {}, k.name), ' ',
      h('small', {}, 'added ' + new Date(k.created).toLocaleDateString()), ' ',
      h('button', {type: 'button', class: 'btn btn-small', onclick: act(async () => {
        await request('DELETE', '/api/me/passkeys/' + encodeURIComponent(k.id));
        toast('Passkey removed');
      })}, 'Remove')))) : h('p', {id: 'account-keys'}, 'No passkey yet.'),
    !passkeysSupported() ? h('p', {}, 'This browser cannot use passkeys.') :
      named ? h('form', {class: 'account-add', onsubmit: act(async () => {
        await addPasskey(keyName.value);
        toast('Passkey added');
      })}, keyName, h('button', {type: 'submit', id: 'account-add', class: 'btn btn-primary'}, 'Add a passkey'))
        : h('p', {}, 'Choose a name to add a passkey.'),
    passkeysSupported() ? h('p', {}, h('button', {type: 'button', id: 'account-signin', class: 'btn', onclick: act(async () => {
      await signIn();
      location.reload();
    })}, 'Sign in with a passkey'), ' made on another device; this device’s games in progress come along.') : null,
    h('h3', {}, 'Devices'),
    h('ul', {id: 'account-devices'}, sessions.map(s => h('li', {'data-current': s.current ? 'true' : 'false'},
      h('span', {}, s.user_agent || 'A device'), ' ',
      h('small', {}, s.current ? 'this device' : 'last seen ' + new Date(s.last_seen).toLocaleString()), ' ',
      s.current ? null : h('button', {type: 'button', class: 'btn btn-small', onclick: act(async () => {
        await request('DELETE', '/api/me/sessions/' + encodeURIComponent(s.id));
        toast('Device signed out');
      })}, 'Sign out')))),
    h('p', {},
      h('button', {type: 'button', id: 'account-signout', class: 'btn', onclick: act(async () => {
        await request('POST', '/api/signout');
        location.reload();
      })}, 'Sign out of this device'), ' ', closeButton(dialog)));
}

function closeButton(dialog) {
  return h('button', {type: 'button', class: 'btn', onclick: () => dialog.close()}, 'Close');
}

// addPasskey runs the ceremony that adds a passkey to the player.
async function addPasskey(name) {
  const options = await request('POST', '/api/me/passkeys/begin');
  const credential = await navigator.credentials.create({publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options)});
  await request('POST', '/api/me/passkeys', {body: {name, credential: credential.toJSON()}});
}

// signIn runs the ceremony that signs this device in with a passkey.
async function signIn() {
  const options = await request('POST', '/api/signin/begin');
  const credential = await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options)});
  await request('POST', '/api/signin', {body: {credential: credential.toJSON()}});
}
