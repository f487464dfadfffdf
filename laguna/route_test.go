package laguna

import (
	"testing"

	"github.com/lagoon-games/lagoon/game"
)

func TestRouteOnOpenWater(t *testing.T) {
	s := position(t, testBoard(t, nil), options{}, "H f16 RY....")
	moves, cost, ok := s.Route(Volcano, DefaultRouteCosts)
	// The nearest docking places, h14 and i15, are four steps away.
	if !ok || len(moves) != 4 || cost != 4*DefaultRouteCosts.Step {
		t.Fatalf("route %v cost %d %v", movesText(moves), cost, ok)
	}
	for _, m := range moves {
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if s.docked(0) != Volcano {
		t.Fatalf("the route ends at %s, not docked", s)
	}
	if moves, cost, ok := s.Route(Volcano, DefaultRouteCosts); !ok || len(moves) != 0 || cost != 0 {
		t.Fatal("docked already, the route is not empty")
	}
}

// TestRouteWhileExchanging: a raft exchanging with an island, an arrow its
// unload uncovered showing, is docked there: the route there is empty.
func TestRouteWhileExchanging(t *testing.T) {
	b := testBoard(t, map[string]byte{"f4": '<'})
	s := position(t, b, options{}, "H f3 RYGB..", far)
	s.makeRoomOnA()
	mustPlay(t, s, "unload 4")
	if moves, cost, ok := s.Route(0, DefaultRouteCosts); !ok || len(moves) != 0 || cost != 0 {
		t.Fatalf("exchanging at island A, the route there is %v", movesText(moves))
	}
}

func TestRouteCoversAReefAndFollowsArrows(t *testing.T) {
	// A reef shows under hole 3 (h16): a pearl must cover it first.
	b := testBoard(t, map[string]byte{"h16": '#'})
	s := position(t, b, options{}, "H f16 RY....")
	moves, _, ok := s.Route(Volcano, DefaultRouteCosts)
	if !ok || len(moves) == 0 || moves[0] < mShift || moves[0] >= mLoad {
		t.Fatalf("route %v", movesText(moves))
	}
	for _, m := range moves {
		if err := s.Play(m); err != nil {
			t.Fatalf("%s: %v", MoveText(m), err)
		}
	}
	if s.docked(0) != Volcano {
		t.Fatal("not docked at the end")
	}
}

// TestRoutesEverywhere plays solo games at random on the original boards
// and asks, now and then, for a route to every place: the checker proved
// every place reachable, so the route exists; played, it docks there.
func TestRoutesEverywhere(t *testing.T) {
	for _, board := range BoardNames() {
		s, _ := newGame(1, options{Board: BoardByName(board)}, 5)
		r := newRand(5)
		for step := 0; step < 400; step++ {
			legal := s.AppendLegal(nil)
			if err := s.Play(legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
			if s.Over() {
				break
			}
			if step%40 != 0 || s.phase != phPlay || s.rafts[0].aboard() < MinAboard {
				continue
			}
			for place := range NumIslands + 1 {
				moves, _, ok := s.Route(place, DefaultRouteCosts)
				if !ok {
					t.Fatalf("%s: no route to %s from %s", board, PlaceName(place), s)
				}
				c := *s
				for _, m := range moves {
					if err := c.Play(m); err != nil {
						t.Fatalf("%s: route %v to %s: %s: %v", board, movesText(moves), PlaceName(place), MoveText(m), err)
					}
				}
				if c.docked(0) != place {
					t.Fatalf("%s: the route to %s ends at %s", board, PlaceName(place), &c)
				}
			}
		}
	}
}

func movesText(moves []game.Move) []string {
	var out []string
	for _, m := range moves {
		out = append(out, MoveText(m))
	}
	return out
}
