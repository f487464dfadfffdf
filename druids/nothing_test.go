package druids

import (
	"slices"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// An action that would do nothing is not offered, nor a seed or a druid
// spent on one (docs/druids.md, "Decisions"): each case a state in which
// the site's action was offered and did nothing.
func TestNoActionForNothing(t *testing.T) {
	for _, c := range []struct {
		name  string
		world string
		druid []string
		seeds [3]uint8 // Elemeen, Vowelon, Deonin
		setup func(s *State)
		site  string
	}{
		{"Ancestral Garden with an empty supply", line("22A 1A 14A 21A"), []string{"1E@22A"}, [3]uint8{0, 0, 1},
			func(s *State) { s.acoSup[0] = 0 }, "22A"},
		{"Emilaphae with a seed of no site's energy", line("11A 14A 1A"), []string{"1E@11A"}, [3]uint8{0, 0, 1}, nil, "11A"},
		{"Seedspark Heart with a seed of no site's energy", line("23A 1A 14A"), []string{"1E@23A"}, [3]uint8{0, 0, 1}, nil, "23A"},
		{"Neem's Mirror with one druid on the seed's sites", line("20A 14A 21A 2A"), []string{"1E@20A"}, [3]uint8{0, 1, 0}, nil, "20A"},
		{"Terrapin Ancient with the seed's sites locked", line("1A 21A 14A"), []string{"1E@21A"}, [3]uint8{0, 0, 1}, nil, "21A"},
		{"Overlook Free House with no druid elsewhere", line("5A 14A 21A 1A"), []string{"1E@5A", "1A@5A"}, [3]uint8{}, nil, "5A"},
		{"Elixona with no exhausted druid but the invoker", line("19B 1A 14A 21A"), []string{"1E@19B", "1A@1A"}, [3]uint8{}, nil, "19B"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := pos(t, 2, c.world)
			put(t, s, c.druid...)
			s.seeds[0] = c.seeds
			if c.setup != nil {
				c.setup(s)
			}
			s.advance()
			refused(t, s, "use "+c.site)
		})
	}
}

// A seed is offered only of an energy for which the action then does
// something: Emilaphae with a Vowelon and a Deonin seed and no Deonin site
// takes the Vowelon one.
func TestNoSeedForNothing(t *testing.T) {
	s := pos(t, 2, line("11A 14A 1A"))
	put(t, s, "1E@11A")
	s.seeds[0] = [3]uint8{0, 1, 1}
	play(t, s, "use 11A", "1E@11A")
	legalIs(t, s, "seed V")
}

// Songbird of Paradise is not offered with no exhausted druid of any
// circle, and takes no more seeds than there are druids to refresh.
func TestSongbirdRefreshesSomething(t *testing.T) {
	s := pos(t, 2, line("18B 1A"))
	put(t, s, "1A@18B", "2A@1A")
	s.seeds[0] = [3]uint8{1, 1, 0}
	s.step = stepBegin
	s.advance()
	refused(t, s, "use 18B")

	s = pos(t, 2, line("18B 1A"))
	put(t, s, "1A@18B", "2a@1A")
	s.seeds[0] = [3]uint8{1, 1, 0}
	s.step = stepBegin
	s.advance()
	play(t, s, "use 18B", "seed E")
	legalIs(t, s, "2a@1A")
}

// River of Freedom begins with every druid on one site: Overlook Free
// House has nowhere to send its invoker.
func TestRiverOfFreedomStart(t *testing.T) {
	for seed := range uint64(20) {
		st, err := New(game.Setup{Players: 2, Seed: seed, Options: map[string]string{"start": "river"}})
		if err != nil {
			t.Fatal(err)
		}
		if legal := legalText(st); slices.Contains(legal, "use 5A") {
			t.Fatalf("seed %d: 5A offered at the start: %v\n%s", seed, legal, st)
		}
	}
}
