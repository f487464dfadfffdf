package passkeys_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/passkeys"
	"github.com/lagoon-games/lagoon/internal/passkeys/passkeystest"
	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
)

const origin = "https://lagoon.example"

var rp = passkeys.RP{ID: "lagoon.example", Origin: origin}

// fixture is a store with the players Ann (named) and a guest, a Service
// on a fake clock, and Ann's passkey in an authenticator.
type fixture struct {
	t    testing.TB
	st   *store.SQLite
	svc  *passkeys.Service
	now  time.Time
	ann  players.Player
	auth *passkeystest.Authenticator
}

func newFixture(t testing.TB) *fixture {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, st: st, now: time.Date(2026, 12, 8, 10, 0, 0, 0, time.UTC), auth: &passkeystest.Authenticator{}}
	f.svc = passkeys.New(st, func() time.Time { return f.now })
	f.ann = f.player("ann", "Ann", 1)
	options, err := f.svc.BeginAdd(context.Background(), rp, f.ann)
	if err != nil {
		t.Fatal(err)
	}
	answer, err := f.auth.Create(options, origin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.FinishAdd(context.Background(), rp, f.ann, "laptop", answer); err != nil {
		t.Fatalf("adding a passkey: %v", err)
	}
	return f
}

// player stores a player of id and name, with a session made of n.
func (f *fixture) player(id, name string, n byte) players.Player {
	p := players.Player{ID: id, Name: name, Guest: true, Created: f.now}
	hash := make([]byte, 32)
	hash[0] = n
	if err := f.st.CreatePlayer(context.Background(), p, players.Session{Hash: hash, Player: id, Created: f.now, LastSeen: f.now}); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// signInAnswer begins a sign-in and answers it with the fixture's key.
func (f *fixture) signInAnswer(origin string) []byte {
	options, err := f.svc.BeginSignIn(context.Background(), rp)
	if err != nil {
		f.t.Fatal(err)
	}
	answer, err := f.auth.Get(options, origin, f.auth.Keys[0])
	if err != nil {
		f.t.Fatal(err)
	}
	return answer
}

// edit returns answer with its response's field changed by fn.
func edit(t *testing.T, answer []byte, field string, fn func([]byte) []byte) []byte {
	var m map[string]any
	if err := json.Unmarshal(answer, &m); err != nil {
		t.Fatal(err)
	}
	resp := m["response"].(map[string]any)
	b, err := base64.RawURLEncoding.DecodeString(resp[field].(string))
	if err != nil {
		t.Fatal(err)
	}
	resp[field] = base64.RawURLEncoding.EncodeToString(fn(b))
	out, _ := json.Marshal(m)
	return out
}

func TestSignIn(t *testing.T) {
	f := newFixture(t)
	p, err := f.svc.FinishSignIn(context.Background(), rp, f.signInAnswer(origin))
	if err != nil || p.ID != "ann" {
		t.Fatalf("signed in as %+v, %v; want ann", p, err)
	}
	keys, err := f.st.Passkeys(context.Background(), "ann")
	if err != nil || len(keys) != 1 || keys[0].SignCount != 1 || keys[0].Name != "laptop" {
		t.Errorf("after a sign-in: %+v, %v; want the passkey at count 1", keys, err)
	}
	if got, _ := f.st.Player(context.Background(), "ann"); got.Guest {
		t.Errorf("a player with a passkey is still a guest")
	}
}

// TestSignInRefused: every bad answer to a sign-in is refused as such
// (passkeys.Refused), and leaves the passkey as it was.
func TestSignInRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(f *fixture) []byte
	}{
		{"forged signature", func(f *fixture) []byte {
			return edit(t, f.signInAnswer(origin), "signature", func(b []byte) []byte { b[len(b)-3] ^= 1; return b })
		}},
		{"forged authenticator data", func(f *fixture) []byte {
			return edit(t, f.signInAnswer(origin), "authenticatorData", func(b []byte) []byte { b[36] = 99; return b })
		}},
		{"replayed", func(f *fixture) []byte {
			answer := f.signInAnswer(origin)
			if _, err := f.svc.FinishSignIn(context.Background(), rp, answer); err != nil {
				t.Fatalf("the first use: %v", err)
			}
			return answer
		}},
		{"foreign origin", func(f *fixture) []byte { return f.signInAnswer("https://evil.example") }},
		{"for another relying party", func(f *fixture) []byte {
			options, _ := f.svc.BeginSignIn(context.Background(), passkeys.RP{ID: "evil.example", Origin: "https://evil.example"})
			answer, _ := f.auth.Get(options, origin, f.auth.Keys[0])
			return answer
		}},
		{"expired", func(f *fixture) []byte {
			answer := f.signInAnswer(origin)
			f.now = f.now.Add(passkeys.CeremonyTTL)
			return answer
		}},
		{"an add's challenge", func(f *fixture) []byte {
			options, _ := f.svc.BeginAdd(context.Background(), rp, f.ann)
			answer, _ := f.auth.Get(options, origin, f.auth.Keys[0])
			return answer
		}},
		{"counter gone back", func(f *fixture) []byte {
			if _, err := f.svc.FinishSignIn(context.Background(), rp, f.signInAnswer(origin)); err != nil {
				t.Fatalf("the first use: %v", err)
			}
			f.auth.Keys[0].Count = 0
			return f.signInAnswer(origin)
		}},
		{"an unknown passkey", func(f *fixture) []byte {
			other := &passkeystest.Authenticator{}
			options, _ := f.svc.BeginAdd(context.Background(), rp, f.ann)
			other.Create(options, origin)
			options, _ = f.svc.BeginSignIn(context.Background(), rp)
			answer, _ := other.Get(options, origin, other.Keys[0])
			return answer
		}},
		{"another player's handle", func(f *fixture) []byte {
			f.player("bea", "Bea", 2)
			f.auth.Keys[0].User = []byte("bea")
			return f.signInAnswer(origin)
		}},
		{"not JSON", func(f *fixture) []byte { f.signInAnswer(origin); return []byte(`{"id": 3`) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			answer := tc.answer(f)
			before, _ := f.st.Passkeys(context.Background(), "ann")
			_, err := f.svc.FinishSignIn(context.Background(), rp, answer)
			var no *passkeys.Refused
			if !errors.As(err, &no) {
				t.Fatalf("FinishSignIn: %v, want a refusal", err)
			}
			t.Logf("refused: %v", no.Reason)
			after, _ := f.st.Passkeys(context.Background(), "ann")
			if len(after) != len(before) || after[0].SignCount != before[0].SignCount || !after[0].LastUsed.Equal(before[0].LastUsed) {
				t.Errorf("a refused sign-in changed the passkey: %+v, was %+v", after, before)
			}
		})
	}
}

// TestAddRefused: a passkey is added only by a named player, for this
// site, to the player who began, once.
func TestAddRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(f *fixture) error
	}{
		{"a guest's name", func(f *fixture) error {
			_, err := f.svc.BeginAdd(context.Background(), rp, f.player("g", "Guest 1234", 2))
			return err
		}},
		{"foreign origin", func(f *fixture) error {
			options, _ := f.svc.BeginAdd(context.Background(), rp, f.ann)
			answer, _ := f.auth.Create(options, "https://evil.example")
			_, err := f.svc.FinishAdd(context.Background(), rp, f.ann, "", answer)
			return err
		}},
		{"begun by another", func(f *fixture) error {
			bea := f.player("bea", "Bea", 2)
			options, _ := f.svc.BeginAdd(context.Background(), rp, bea)
			answer, _ := f.auth.Create(options, origin)
			_, err := f.svc.FinishAdd(context.Background(), rp, f.ann, "", answer)
			return err
		}},
		{"replayed", func(f *fixture) error {
			options, _ := f.svc.BeginAdd(context.Background(), rp, f.ann)
			answer, _ := f.auth.Create(options, origin)
			if _, err := f.svc.FinishAdd(context.Background(), rp, f.ann, "", answer); err != nil {
				t.Fatalf("the first add: %v", err)
			}
			_, err := f.svc.FinishAdd(context.Background(), rp, f.ann, "", answer)
			return err
		}},
		{"a name too long", func(f *fixture) error {
			options, _ := f.svc.BeginAdd(context.Background(), rp, f.ann)
			answer, _ := f.auth.Create(options, origin)
			_, err := f.svc.FinishAdd(context.Background(), rp, f.ann, string(make([]byte, players.MaxPasskeyName+1)), answer)
			return err
		}},
		{"an IP address for a host", func(f *fixture) error {
			_, err := f.svc.BeginAdd(context.Background(), passkeys.RPOf("127.0.0.1:8080", false), f.ann)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			before, _ := f.st.Passkeys(context.Background(), "ann")
			err := tc.run(f)
			var no *passkeys.Refused
			if !errors.As(err, &no) {
				t.Fatalf("%v, want a refusal", err)
			}
			t.Logf("refused: %v", no.Reason)
			after, _ := f.st.Passkeys(context.Background(), "ann")
			if tc.name != "replayed" && len(after) != len(before) {
				t.Errorf("a refused add changed the passkeys: %d, were %d", len(after), len(before))
			}
		})
	}
}

func TestRPOf(t *testing.T) {
	for _, tc := range []struct {
		host string
		tls  bool
		want passkeys.RP
	}{
		{"lagoon.example", true, passkeys.RP{ID: "lagoon.example", Origin: "https://lagoon.example"}},
		{"localhost:8080", false, passkeys.RP{ID: "localhost", Origin: "http://localhost:8080"}},
		{"[::1]:8080", false, passkeys.RP{ID: "::1", Origin: "http://[::1]:8080"}},
	} {
		if got := passkeys.RPOf(tc.host, tc.tls); got != tc.want {
			t.Errorf("RPOf(%q, %v) = %+v, want %+v", tc.host, tc.tls, got, tc.want)
		}
	}
}

// FuzzFinish: whatever a browser sends as an answer, a step refuses it as
// bad input (passkeys.Refused), or takes it, and fails no other way.
func FuzzFinish(f *testing.F) {
	fx := newFixture(f)
	f.Add(fx.signInAnswer(origin))
	f.Add([]byte(`{"id":"AA","rawId":"AA","type":"public-key","response":{}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, answer []byte) {
		var no *passkeys.Refused
		if _, err := fx.svc.FinishSignIn(context.Background(), rp, answer); err != nil && !errors.As(err, &no) {
			t.Errorf("FinishSignIn: %v, neither a refusal nor a sign-in", err)
		}
		if _, err := fx.svc.FinishAdd(context.Background(), rp, fx.ann, "", answer); err != nil && !errors.As(err, &no) {
			t.Errorf("FinishAdd: %v, neither a refusal nor an add", err)
		}
	})
}
