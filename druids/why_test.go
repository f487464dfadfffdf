package druids

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

// The view says why the menu does not offer an action: each basic action,
// each site a druid cannot unravel, each site's action.
func TestUnavailableReasons(t *testing.T) {
	for _, c := range []struct {
		name   string
		world  string
		druids []string
		setup  func(s *State)
		move   string
		site   string
		reason string
	}{
		{"explore with the marker spent", line("1A 14A 21A"), []string{"1E@21A"}, func(s *State) { s.marker[0] = true },
			"explore", "", "your player marker is spent: one explore a turn"},
		{"explore with the bag empty", line("1A 14A 21A"), []string{"1E@21A"}, func(s *State) { s.bag = 0 },
			"explore", "", whyBagEmpty},
		{"an Eldrid's action with the Eldrid exhausted", line("1A 14A 21A"), []string{"1e@14A", "1A@14A"}, nil,
			"use 14A", "", "your Eldrid is exhausted"},
		{"a druid's move on a locked site", line("1A 2B 21A"), []string{"1A@2B"}, nil,
			"use 2B", "", "your refreshed druids stand only on locked sites"},
		{"summon with the supply empty", line("1A 14A 21A"), []string{"1E@21A"}, func(s *State) { s.acoSup[0] = 0 },
			"summon", "", whySupplyEmpty},
		{"unravel without the energy", line("1A 14A 21A"), []string{"1E@21A"}, nil,
			"unravel", "21A", "Terrapin Ancient needs 3 Vowelon: you have 0 Vowelon sites and 0 Vowelon seeds"},
		{"unravel with a site and a seed", line("1A 14A 21A"), []string{"1E@21A", "1A@14A"}, func(s *State) { s.seeds[0][Vowelon] = 1 },
			"unravel", "21A", "Terrapin Ancient needs 3 Vowelon: you have 1 Vowelon site and 1 Vowelon seed"},
		{"unravel a locked site", line("1A 14A 21A"), []string{"1E@14A"}, nil,
			"unravel", "14A", "Eye of the Forest is locked: the world would split"},
		{"unravel the only haven", line("1A 14A 21A"), []string{"1E@1A"}, nil,
			"unravel", "1A", "Gruu's Refuge is the only haven: the world keeps one"},
		{"a site with no druid of yours", line("1A 14A 21A"), []string{"1E@1A"}, nil,
			"use 21A", "", "no druid of yours stands here"},
		{"an Eldrid's action without the Eldrid", line("1A 14A 21A"), []string{"1A@14A"}, nil,
			"use 14A", "", "your Eldrid is in your supply"},
		{"once a turn, used", line("20A 14A 21A 2A"), []string{"1E@20A"}, func(s *State) { s.seeds[0][Vowelon] = 1; s.markUsed(siteNum(t, "20A")) },
			"use 20A", "", "used this turn: once a turn"},
		{"a seed for nothing", line("11A 14A 1A"), []string{"1E@11A"}, func(s *State) { s.seeds[0][Deonin] = 1 },
			"use 11A", "", "no seed you have would make it act now"},
		{"no seed at all", line("11A 14A 1A"), []string{"1E@11A"}, nil,
			"use 11A", "", "you have no seed to give up"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := pos(t, 2, c.world)
			put(t, s, c.druids...)
			if c.setup != nil {
				c.setup(s)
			}
			s.advance()
			v := s.View(game.Viewer{}).(StateView)
			i := slices.IndexFunc(v.Unavailable, func(u UnavailableView) bool { return u.Move == c.move && u.Site == c.site })
			if i < 0 {
				t.Fatalf("no reason for %s %s among %+v (legal %v)", c.move, c.site, v.Unavailable, v.Legal)
			}
			if got := v.Unavailable[i].Reason; got != c.reason {
				t.Errorf("%s %s: %q, want %q", c.move, c.site, got, c.reason)
			}
		})
	}
}

// siteNum is a site's number by its id.
func siteNum(t *testing.T, id string) int {
	t.Helper()
	n, err := ParseSiteID(id)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// At every menu of random games each basic action is offered or has a
// reason, no action offered has one, and every reason says something.
func TestUnavailableCoversTheMenu(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 30))
	menus := 0
	for g := range 20 {
		s, err := New(game.Setup{Players: 2 + g%3, Seed: uint64(g)})
		if err != nil {
			t.Fatal(err)
		}
		for moves := 0; !s.Over() && moves < 3000; moves++ {
			v := s.View(game.Viewer{}).(StateView)
			if v.Step == "action" && len(v.Resolving) == 0 {
				menus++
				for _, u := range v.Unavailable {
					if u.Reason == "" || u.Site == "" && slices.Contains(v.Legal, u.Move) {
						t.Fatalf("%+v with legal %v\n%s", u, v.Legal, s)
					}
				}
				for _, basic := range []string{"move", "summon", "explore", "unravel"} {
					if !slices.Contains(v.Legal, basic) && !slices.ContainsFunc(v.Unavailable, func(u UnavailableView) bool { return u.Move == basic && u.Site == "" }) {
						t.Fatalf("%s neither offered nor explained: %+v\n%s", basic, v.Unavailable, s)
					}
				}
			} else if len(v.Unavailable) != 0 {
				t.Fatalf("reasons outside the menu: %+v", v.Unavailable)
			}
			legal := s.AppendLegal(nil)
			if err := s.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if menus < 100 {
		t.Errorf("only %d menus seen", menus)
	}
}

// A space is named by the sites next to it and where it lies from each,
// in the order of the directions; the site being moved is not its own
// neighbour.
func TestBesideNamesASpace(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	space := func(q, r int) game.Move { return vSpace | game.Move(cellAt(q, r)) }
	for _, c := range []struct {
		q, r int
		want []BesideView
	}{
		{13, 16, []BesideView{{"21A", "east"}}},
		{11, 15, []BesideView{{"14A", "north-west"}, {"1A", "north-east"}}},
		{9, 17, []BesideView{{"1A", "south-west"}}},
	} {
		if got := s.beside(space(c.q, c.r)); !slices.Equal(got, c.want) {
			t.Errorf("%d,%d: %v, want %v", c.q, c.r, got, c.want)
		}
	}
	if got := s.beside(mDone); got != nil {
		t.Errorf("done is beside %v", got)
	}
	s.stack[0] = newFrame(progMove, 0)
	s.stack[0].t = int8(siteNum(t, "21A") / 2)
	s.depth = 1
	if got := s.beside(space(12, 15)); !slices.Equal(got, []BesideView{{"14A", "north-east"}}) {
		t.Errorf("beside the moving 21A: %v", got)
	}
}

// AJ's unravel says its seeds as counted: "1 seed", "2 seeds".
func TestAJStepSeedsCounted(t *testing.T) {
	s := pos(t, 2, line("1A 14A 21A"))
	for _, c := range []struct {
		seeds int
		want  string
	}{{0, "giving up 0 seeds"}, {1, "giving up 1 seed"}, {2, "giving up 2 seeds"}} {
		s.ajEvents = 0
		s.ajLog(evUnravel, siteNum(t, "21A")/2, c.seeds)
		if got := s.ajSteps(); len(got) != 1 || !strings.HasSuffix(got[0], c.want) {
			t.Errorf("%d seeds: %q, want it to end %q", c.seeds, got, c.want)
		}
	}
}
