package druids

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

func TestContract(t *testing.T) {
	gametest.Check(t, Rules,
		game.Setup{Players: 2, Seed: 1},
		game.Setup{Players: 3, Seed: 10, Options: map[string]string{"set": "advanced", "start": "river"}},
		game.Setup{Players: 4, Seed: 20, Options: map[string]string{"set": "beginner", "start": "gruu", "first": "2"}},
		game.Setup{Players: 2, Seed: 30, Options: map[string]string{"set": "all", "start": "paradise"}},
		game.Setup{Players: 2, Seed: 60, Options: map[string]string{"aj": "initiate"}},
		game.Setup{Players: 2, Seed: 70, Options: map[string]string{"aj": "legend", "set": "advanced", "start": "river"}},
		game.Setup{Players: 2, Seed: 80, Options: map[string]string{"aj": "eldrid", "aj_plays": "shrewd", "set": "all"}},
	)
}

func TestContractCustomOptions(t *testing.T) {
	gametest.Check(t, Rules,
		game.Setup{Players: 2, Seed: 40, Options: map[string]string{"set": "1-6,10-15", "start": "2B 14A 12B"}},
		game.Setup{Players: 3, Seed: 50, Options: map[string]string{"set": "4-9", "start": "random", "first": "1"}},
	)
}

// Bad options are refused with a reason that names the option.
func TestContractOptionErrors(t *testing.T) {
	for _, c := range []struct {
		players int
		opts    map[string]string
		want    string
	}{
		{2, map[string]string{"set": "1-5"}, "play set"},
		{2, map[string]string{"start": "1A 2A 21A"}, "start"},
		{2, map[string]string{"set": "beginner", "start": "1A 14A 24A"}, "not in the play set"},
		{2, map[string]string{"first": "2"}, "first"},
		{2, map[string]string{"set": "7-12"}, "no starting setup"},
		{5, nil, "players"},
		{1, nil, "players"},
		{2, map[string]string{"aj_plays": "shrewd"}, "no AJ"},
	} {
		_, err := Rules.NewGame(game.Setup{Players: c.players, Options: c.opts, Seed: 1})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d players %v: %v, want an error saying %q", c.players, c.opts, err, c.want)
		}
	}
}

// A record replays to the same state, and a state read from its notation
// plays on as the original does.
func TestRecordReplays(t *testing.T) {
	setup := game.Setup{Players: 3, Seed: 77, Options: map[string]string{"set": "advanced"}}
	st, err := Rules.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	rec := game.Record{Game: Rules.ID, Players: 3, Options: map[string]string{"set": "advanced", "start": "random", "first": "0"}, Seed: 77}
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; !st.Over(); i++ {
		legal := game.Legal(st)
		m := legal[rng.IntN(len(legal))]
		rec.Moves = append(rec.Moves, st.MoveText(m))
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
		if i == 150 {
			back, err := Rules.ParseState(st.String())
			if err != nil {
				t.Fatal(err)
			}
			st = back
		}
	}
	replayed, err := rec.Replay(Rules, -1)
	if err != nil {
		t.Fatal(err)
	}
	if replayed.String() != st.String() {
		t.Fatalf("replayed to\n%s\nnot\n%s", replayed, st)
	}
}

// The search's playout ends the game and leaves a state the rules reach;
// the prior puts stopping last.
func TestSearchKnowledge(t *testing.T) {
	st, err := newGame(config{Players: 3, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	st.Playout(rand.New(rand.NewPCG(1, 1)))
	if !st.Over() || len(st.Standing().Winners) == 0 {
		t.Fatalf("%s", st)
	}
	invariants(t, st)
	s := pos(t, 2, line("1A 14A"))
	if s.Prior(mUnravel) <= s.Prior(mExplore) || s.Prior(mExplore) <= s.Prior(mEnd) || s.Prior(mDone) >= 0 {
		t.Fatal("prior")
	}
}

// A search finds a later position again by the decisions made, Leads and
// Equal.
func TestReroot(t *testing.T) {
	st, _ := newGame(config{Players: 2, Set: mustSet("regular"), Start: [3]int{-1, -1, -1}, Seed: 8})
	rng := rand.New(rand.NewPCG(3, 3))
	a := st.Clone().(*State)
	var moves []game.Move
	for range 30 {
		legal := a.AppendLegal(nil)
		m := legal[rng.IntN(len(legal))]
		moves = append(moves, m)
		a.PlayLegal(m)
	}
	if a.Ply() != st.Ply()+30 || !st.Leads(moves[0], a) || a.Leads(moves[0], st) {
		t.Fatalf("ply %d, %d", a.Ply(), st.Ply())
	}
	b := st.Clone().(*State)
	for _, m := range moves {
		b.world() // caches differ: Equal ignores them
		if err := b.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if !a.Equal(b) || a.Equal(st) {
		t.Fatal("Equal")
	}
}
