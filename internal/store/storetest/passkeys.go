package storetest

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/internal/players"
)

// This file checks the stores' passkeys, ceremonies and sign-ins
// (players.PasskeyStore; docs/players.md).

// newPasskey returns a passkey of player whose id is made of n.
func newPasskey(player string, n byte, at time.Time) players.Passkey {
	return players.Passkey{
		ID: []byte{n, 1, 2, 3, n}, Player: player, Name: "phone", PublicKey: []byte{0xa5, n, 9},
		SignCount: 7, Transports: []string{"internal", "hybrid"}, AAGUID: bytes.Repeat([]byte{n}, 16),
		Flags: 0x1d, Attestation: "none", Created: at, LastUsed: at,
	}
}

// passkeysRoundTrip: passkeys read back as written, after the store is
// opened again, by id and by player; a second passkey of the same id is
// refused, whoever adds it, as is one of no player; a player with a
// passkey is a guest no more; a sign-in's counter
// and flags are kept; only the player's own passkey is removed.
func passkeysRoundTrip(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	for i, name := range []string{"Ann", "Bea"} {
		p, sess := newPlayer([]string{"p1", "p2"}[i], name, byte(i+1))
		if err := s.CreatePlayer(ctx, p, sess); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	k1, k2 := newPasskey("p1", 1, at), newPasskey("p1", 2, at.Add(time.Minute))
	k2.Transports, k2.AAGUID = nil, []byte{}
	for _, k := range []players.Passkey{k1, k2} {
		if err := s.AddPasskey(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		k    players.Passkey
		want error
	}{
		{"the same id again", k1, players.ErrExists},
		{"the same id by another", func() players.Passkey { k := k1; k.Player = "p2"; return k }(), players.ErrExists},
		{"of no player", newPasskey("nobody", 3, at), players.ErrNotFound},
	} {
		if err := s.AddPasskey(ctx, tc.k); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	closeStore(t, s)
	s = h.Open(t)
	defer closeStore(t, s)
	got, p, err := s.Passkey(ctx, k1.ID)
	if err != nil || p.ID != "p1" || p.Guest || !reflect.DeepEqual(got, k1) {
		t.Errorf("Passkey: %+v of %+v, %v; want %+v", got, p, err, k1)
	}
	if _, _, err := s.Passkey(ctx, []byte("none")); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("a passkey not stored: %v, want ErrNotFound", err)
	}
	all, err := s.Passkeys(ctx, "p1")
	if err != nil || len(all) != 2 || !reflect.DeepEqual(all[0], k1) || !bytes.Equal(all[1].ID, k2.ID) || all[1].Transports != nil {
		t.Errorf("Passkeys: %+v, %v; want k1 then k2 (no transports)", all, err)
	}
	used := at.Add(time.Hour)
	if err := s.UsePasskey(ctx, k1.ID, 9, 0x05, used); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := s.Passkey(ctx, k1.ID); got.SignCount != 9 || got.Flags != 0x05 || !got.LastUsed.Equal(used) || !got.Created.Equal(at) {
		t.Errorf("after a sign-in: %+v", got)
	}
	if err := s.UsePasskey(ctx, []byte("none"), 1, 0, used); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("using a passkey not stored: %v, want ErrNotFound", err)
	}
	if err := s.RemovePasskey(ctx, "p2", k1.ID); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("another's passkey removed: %v, want ErrNotFound", err)
	}
	if err := s.RemovePasskey(ctx, "p1", k1.ID); err != nil {
		t.Fatal(err)
	}
	if all, err := s.Passkeys(ctx, "p1"); err != nil || len(all) != 1 || !bytes.Equal(all[0].ID, k2.ID) {
		t.Errorf("after the removal: %+v, %v; want k2 alone", all, err)
	}
}

// ceremoniesTaken: a ceremony's state is taken once, not after it
// expired, and a key is kept once.
func ceremoniesTaken(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	if err := s.PutCeremony(ctx, "a", []byte("state a"), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutCeremony(ctx, "a", []byte("again"), now.Add(time.Minute)); !errors.Is(err, players.ErrExists) {
		t.Errorf("a key kept twice: %v, want ErrExists", err)
	}
	if err := s.PutCeremony(ctx, "b", []byte("state b"), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, err := s.TakeCeremony(ctx, "a", now); err != nil || string(got) != "state a" {
		t.Errorf("taken: %q, %v", got, err)
	}
	for _, tc := range []struct {
		name string
		key  string
		at   time.Time
	}{{"taken again", "a", now}, {"never kept", "c", now}, {"expired", "b", now.Add(time.Minute)}, {"swept", "b", now}} {
		if got, err := s.TakeCeremony(ctx, tc.key, tc.at); !errors.Is(err, players.ErrNotFound) {
			t.Errorf("%s: %q, %v; want ErrNotFound", tc.name, got, err)
		}
	}
}

// signedIn: a sign-in stores its session, ends the device's former one
// and moves the guest's seats, all of them, to the kept player; a session
// of a hash stored, or of no player, is refused and nothing changes.
func signedIn(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer closeStore(t, s)
	guest, gs := newPlayer("g", "Guest 1234", 1)
	kept, ks := newPlayer("k", "Ann", 2)
	for _, p := range []struct {
		p players.Player
		s players.Session
	}{{guest, gs}, {kept, ks}} {
		if err := s.CreatePlayer(ctx, p.p, p.s); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	for _, id := range []string{"g1", "g2", "k1"} {
		if err := s.Create(ctx, NewGame(id)); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []struct {
		game   string
		seat   int
		player string
	}{{"g1", 0, "g"}, {"g2", 1, "g"}, {"k1", 0, "k"}} {
		if err := s.OwnSeat(ctx, o.game, o.seat, o.player, at); err != nil {
			t.Fatal(err)
		}
	}
	_, fresh := newPlayer("k", "Ann", 3)
	for _, tc := range []struct {
		name string
		s    players.Session
		want error
	}{
		{"a hash stored", ks, players.ErrExists},
		{"of no player", func() players.Session { x := fresh; x.Player = "nobody"; return x }(), players.ErrNotFound},
	} {
		if err := s.SignIn(ctx, tc.s, "g", gs.Hash); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, _, err := s.Session(ctx, gs.Hash); err != nil {
		t.Fatalf("a refused sign-in ended the guest's session: %v", err)
	}
	if err := s.SignIn(ctx, fresh, "g", gs.Hash); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Session(ctx, gs.Hash); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("the guest's session after the sign-in: %v, want ErrNotFound", err)
	}
	if _, p, err := s.Session(ctx, fresh.Hash); err != nil || p.ID != "k" {
		t.Errorf("the new session: of %+v, %v", p, err)
	}
	owned, err := s.OwnedSeats(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	var games []string
	for _, o := range owned {
		games = append(games, o.Game)
	}
	if !slices.Equal(games, []string{"g1", "g2", "k1"}) {
		t.Errorf("the kept player's games: %v, want g1 g2 k1", games)
	}
	if left, err := s.OwnedSeats(ctx, "g"); err != nil || len(left) != 0 {
		t.Errorf("the guest's seats left: %+v, %v", left, err)
	}
}
