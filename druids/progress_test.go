package druids

import "testing"

// TestProgress: what the bots' closing rules ask of a game, read from
// states in the notation: the tiles drawn, the Refresh step, an action
// being resolved, and the druids that stand where they could explore.
func TestProgress(t *testing.T) {
	const (
		start = "druids 2; first 0; active 0; step action; turns 0; ply 0; set 1-24; bag 1 3 4 5 6 8 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; world 2A@17,16 7A@16,16 9A@16,17; hand -; score1 -; score2 -; seeds1 0 0 0; seeds2 0 0 0; markers + +; druids1 E@2A A@2A; druids2 E@2A A@2A; used 0; unravels 0; refreshes 0; stack -; rng 7063673a33e5f32104b72646b12785a3bc030143"
		// Seat 1's druid and seat 2's acolyte stand on 6A, which has
		// six neighbours; seat 2's Eldrid is in the supply.
		closed = "druids 2; first 0; active 0; step refresh; turns 102; ply 399; set 1-24; bag 11; world 2A@17,16 3A@20,14 4A@19,12 6A@17,15 7A@16,16 8B@20,13 9A@19,14 10A@17,13 12A@19,15 14B@17,17 15A@21,13 16B@19,11 17B@18,14 18A@20,15 19B@18,15 20A@18,16 21A@16,15 22A@18,12 23B@17,14 24A@16,17; hand -; score1 1B 13A; score2 5B; seeds1 1 0 1; seeds2 0 2 8; markers + +; druids1 e@6A; druids2 E@supply a@6A; used 0; unravels 0; refreshes 0; stack -; rng 7063673af51076aca4343add1134a1919fc790b2"
		// The same, seat 1's druid refreshed and a basic move of it
		// under way, seat 2's Eldrid and two acolytes on 14B, on the
		// world's edge.
		moving = "druids 2; first 0; active 0; step action; turns 102; ply 399; set 1-24; bag 11; world 2A@17,16 3A@20,14 4A@19,12 6A@17,15 7A@16,16 8B@20,13 9A@19,14 10A@17,13 12A@19,15 14B@17,17 15A@21,13 16B@19,11 17B@18,14 18A@20,15 19B@18,15 20A@18,16 21A@16,15 22A@18,12 23B@17,14 24A@16,17; hand -; score1 1B 13A; score2 5B; seeds1 1 0 1; seeds2 0 2 8; markers + +; druids1 E@6A; druids2 E@14B a@6A A@14B a@14B; used 0; unravels 0; refreshes 0; stack 54:0:0:0:0:-1:-1:-1:-1:0:65535:65535; rng 7063673af51076aca4343add1134a1919fc790b2"
	)
	tests := []struct {
		name               string
		state              string
		drawn              int
		refresh, resolving bool
		open1, open2       int
	}{
		{"start", start, 0, false, false, 2, 2},
		{"closed in", closed, 20, true, false, 0, 0},
		{"moving", moving, 20, false, true, 0, 3},
	}
	for _, tt := range tests {
		s, err := ParseState(tt.state)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if s.Drawn() != tt.drawn || s.AtRefresh() != tt.refresh || s.Resolving() != tt.resolving ||
			s.OpenDruids(0) != tt.open1 || s.OpenDruids(1) != tt.open2 {
			t.Errorf("%s: drawn %d, at refresh %v, resolving %v, open %d and %d; want %d, %v, %v, %d and %d", tt.name,
				s.Drawn(), s.AtRefresh(), s.Resolving(), s.OpenDruids(0), s.OpenDruids(1),
				tt.drawn, tt.refresh, tt.resolving, tt.open1, tt.open2)
		}
	}
}
