package web_test

import (
	"context"
	"net/url"
	"regexp"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
)

// virtualAuthenticator gives p's browser a platform authenticator that
// keeps passkeys (a resident key), verifies its user and is always
// present, as a phone's or a laptop's does.
func (p *page) virtualAuthenticator() webauthn.AuthenticatorID {
	p.t.Helper()
	var id webauthn.AuthenticatorID
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return err
		}
		res, err := cdp.Call(ctx, t, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{Options: &webauthn.VirtualAuthenticatorOptions{
			Protocol: webauthn.AuthenticatorProtocolCtap2, Ctap2version: webauthn.Ctap2versionCtap21, Transport: webauthn.AuthenticatorTransportInternal,
			HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true,
		}})
		id = res.AuthenticatorID
		return err
	}))
	return id
}

// TestPasskeyOnTwoDevices: a first visit is a guest; they choose a name
// and add a passkey in the "Your player" panel; a second browser (its
// own context: another device), given the passkey, signs in with it and
// is the same player, both devices listed there.
func TestPasskeyOnTwoDevices(t *testing.T) {
	needBrowser(t)
	l := startLagoon(t)
	u, _ := url.Parse(l.url)
	// A passkey serves a host name, never an IP address.
	site := "http://localhost:" + u.Port()
	laptop := newPage(t, "laptop", desktopWidth, desktopHeight)
	laptopKeys := laptop.virtualAuthenticator()
	laptop.navigate(site + "/")
	laptop.click("#account-open")
	laptop.waitFor(`document.querySelector('#account-me')`, "the panel")
	guestID := eval[string](laptop, `document.querySelector('#account-me').dataset.id`)
	if name := eval[string](laptop, `document.querySelector('#account-me').textContent`); !guestName(name) {
		t.Errorf("a first visit plays as %q, want a guest", name)
	}
	laptop.do(chromedp.SetValue(chromedp.CSS("#account-name"), "Ann"))
	laptop.click(".account-name button")
	laptop.waitFor(`document.querySelector('#account-me')?.textContent === 'Ann'`, "the name")
	laptop.click("#account-add")
	laptop.waitFor(`document.querySelectorAll('#account-keys li').length === 1`, "the passkey listed")

	var creds []*webauthn.Credential
	laptop.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		res, err := cdp.Call(ctx, t, webauthn.GetCredentials, webauthn.GetCredentialsParams{AuthenticatorID: laptopKeys})
		creds = res.Credentials
		return err
	}))
	if len(creds) != 1 || !creds[0].IsResidentCredential {
		t.Fatalf("the laptop's authenticator keeps %d credentials, want one passkey", len(creds))
	}

	phone := newPage(t, "phone", desktopWidth, desktopHeight)
	phoneKeys := phone.virtualAuthenticator()
	// The key alone, sent as its own parameters: the command's type sends
	// the CMTG extension's fields too, which an authenticator without the
	// extension refuses.
	key := creds[0]
	addCredential := cdp.Command[map[string]any, cdp.Empty]{Method: webauthn.CommandAddCredential}
	phone.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, addCredential, map[string]any{"authenticatorId": phoneKeys, "credential": map[string]any{
			"credentialId": key.CredentialID, "isResidentCredential": true, "rpId": key.RpID,
			"privateKey": key.PrivateKey, "userHandle": key.UserHandle, "signCount": key.SignCount,
		}})
		return err
	}))
	phone.navigate(site + "/")
	phone.click("#account-open")
	phone.waitFor(`document.querySelector('#account-me')`, "the panel")
	if id := eval[string](phone, `document.querySelector('#account-me').dataset.id`); id == guestID {
		t.Fatalf("the phone is the laptop's player before signing in")
	}
	phone.click("#account-signin")
	// Signing in reloads the page; the panel is opened again there.
	phone.waitFor(`!document.querySelector('#account')?.open`, "the page reloaded")
	phone.click("#account-open")
	phone.waitFor(`document.querySelector('#account-me')?.textContent === 'Ann'`, "the phone signed in as Ann")
	if id := eval[string](phone, `document.querySelector('#account-me').dataset.id`); id != guestID {
		t.Errorf("the phone plays as %s, want the laptop's player %s", id, guestID)
	}
	phone.waitFor(`document.querySelectorAll('#account-devices li').length === 2`, "both devices listed")
	if n := eval[int](phone, `document.querySelectorAll('#account-devices li[data-current=true]').length`); n != 1 {
		t.Errorf("%d devices marked current, want 1", n)
	}
}

// guestName reports whether name is of the guests' form.
var guestName = regexp.MustCompile(`^Guest [0-9]+$`).MatchString
