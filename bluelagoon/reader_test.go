package bluelagoon

import (
	"math/rand/v2"
	"testing"
)

// randomStates returns the states of a few random games on every built-in
// board.
func randomStates(t testing.TB) []string {
	var out []string
	r := rand.New(rand.NewPCG(3, 4))
	for _, name := range BoardNames() {
		b, _ := BoardByName(name)
		for players := MinPlayers; players <= MaxPlayers; players++ {
			g, err := newGame(b, players, r.Uint64(), 0)
			if err != nil {
				t.Fatal(err)
			}
			for k := 0; !g.Over(); k++ {
				if k%7 == 0 {
					out = append(out, g.String())
				}
				g.ApplyLegal(g.RandomMove(r))
			}
			out = append(out, g.String())
		}
	}
	return out
}

// A StateReader reads every state as ParseState does, whether it knows the
// board already or not, and says the same of a state that does not read.
func TestStateReader(t *testing.T) {
	var reader StateReader
	for _, s := range randomStates(t) {
		for range 2 { // the board unknown, then known
			got, err := reader.Read(s)
			want, werr := ParseState(s)
			if err != nil || werr != nil || got.String() != want.String() || got.Board() != want.Board() {
				t.Fatalf("%s: reader %v, %v; ParseState %v, %v", s, got, err, want, werr)
			}
		}
	}
	s := StandardBoard().String()
	for _, broken := range []string{
		s[:len(s)-1],
		s + " p 9 0 0 0 0 0 0 S; T;",
		s[:len(s)-3] + "x;",
	} {
		_, err := reader.Read(broken)
		_, werr := ParseState(broken)
		if err == nil || werr == nil || err.Error() != werr.Error() {
			t.Errorf("%q: reader %v, ParseState %v", broken, err, werr)
		}
	}
}

func FuzzStateReader(f *testing.F) {
	states := randomStates(f)
	for _, s := range states[:20] {
		f.Add(s)
	}
	var reader StateReader
	for _, s := range states {
		reader.Read(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := reader.Read(s)
		want, werr := ParseState(s)
		switch {
		case (err == nil) != (werr == nil):
			t.Fatalf("%q: reader %v, ParseState %v", s, err, werr)
		case err != nil && err.Error() != werr.Error():
			t.Fatalf("%q: reader %v, ParseState %v", s, err, werr)
		case err == nil && got.String() != want.String():
			t.Fatalf("%q: reader %s, ParseState %s", s, got, want)
		}
	})
}

// BenchmarkParseState reads states of random games on the standard board,
// each anew and with a StateReader that knows the board.
func BenchmarkParseState(b *testing.B) {
	var states []string
	for _, g := range benchPositions(b, benchCase{"standard", 2}, 2) {
		states = append(states, g.String())
	}
	b.Run("ParseState", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := ParseState(states[i%len(states)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("StateReader", func(b *testing.B) {
		var reader StateReader
		i := 0
		for b.Loop() {
			if _, err := reader.Read(states[i%len(states)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}
