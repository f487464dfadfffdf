package game_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

func TestCheckOptions(t *testing.T) {
	r := gametest.Tiny
	got, err := r.CheckOptions(map[string]string{"goal": "low"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"hand": "3", "goal": "low", "teams": "solo"}; !equalMaps(got, want) {
		t.Fatalf("options %v, want %v", got, want)
	}
	for _, tc := range []struct {
		opts map[string]string
		err  string
	}{
		{map[string]string{"hand": "5"}, `option hand: "5" is not a whole number from 2 to 4`},
		{map[string]string{"hand": "two"}, `option hand: "two" is not a whole number from 2 to 4`},
		{map[string]string{"goal": "middle"}, `option goal: "middle" is not one of high, low`},
		{map[string]string{"colour": "red"}, `option "colour": unknown; the options are hand, goal, teams`},
	} {
		if _, err := r.CheckOptions(tc.opts); err == nil || err.Error() != tc.err {
			t.Errorf("%v: error %v, want %q", tc.opts, err, tc.err)
		}
	}
	if _, err := r.NewGame(game.Setup{Players: 3, Options: map[string]string{"teams": "pairs"}}); err == nil || !strings.Contains(err.Error(), "pairs need 4 players") {
		t.Errorf("pairs with 3 players: %v", err)
	}
	if _, err := r.NewGame(game.Setup{Players: 1}); err == nil || err.Error() != "Tiny: 1 players; a game has 2 to 4" {
		t.Errorf("1 player: %v", err)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestRegistry(t *testing.T) {
	reg, err := game.NewRegistry(gametest.Tiny)
	if err != nil {
		t.Fatal(err)
	}
	if reg.Default() != gametest.Tiny || reg.Lookup("tiny") != gametest.Tiny || reg.Lookup("chess") != nil {
		t.Fatal("lookups")
	}
	if _, err := reg.Get("chess"); err == nil || err.Error() != `unknown game "chess"; the games are tiny` {
		t.Fatalf("Get: %v", err)
	}
	if !slices.Equal(reg.IDs(), []string{"tiny"}) {
		t.Fatalf("ids %v", reg.IDs())
	}
	bad := *gametest.Tiny
	bad.ID = "Tiny Game"
	twin := *gametest.Tiny
	noNew := *gametest.Tiny
	noNew.ID, noNew.New = "other", nil
	badDefault := *gametest.Tiny
	badDefault.ID = "other"
	badDefault.Options = []game.Option{{Key: "n", Kind: game.Number, Min: 1, Max: 3, Default: "0"}}
	for _, tc := range []struct {
		games []*game.Rules
		err   string
	}{
		{nil, "no games"},
		{[]*game.Rules{&bad}, "not lower-case letters and digits"},
		{[]*game.Rules{gametest.Tiny, &twin}, `two games with id "tiny"`},
		{[]*game.Rules{&noNew}, "lacks New or ParseState"},
		{[]*game.Rules{&badDefault}, "the default of option n"},
	} {
		if _, err := game.NewRegistry(tc.games...); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%d games: error %v, want one saying %q", len(tc.games), err, tc.err)
		}
	}
}

func TestCheckTime(t *testing.T) {
	r := gametest.Tiny
	for _, tc := range []struct {
		in   game.TimeRule
		want game.TimeRule
		err  string
	}{
		{game.TimeRule{}, game.TimeRule{Kind: game.NoTime}, ""},
		{game.TimeRule{Kind: game.Bank, Initial: time.Minute, Increment: time.Second, Turn: time.Hour}, game.TimeRule{Kind: game.Bank, Initial: time.Minute, Increment: time.Second}, ""},
		{game.TimeRule{Kind: game.TurnTimer, Turn: 30 * time.Second, Carry: true}, game.TimeRule{Kind: game.TurnTimer, Turn: 30 * time.Second, Carry: true}, ""},
		{game.TimeRule{Kind: game.Bank, Initial: time.Millisecond}, game.TimeRule{}, "the bank must be from 1s to 24h0m0s"},
		{game.TimeRule{Kind: game.TurnTimer, Turn: 25 * time.Hour}, game.TimeRule{}, "a turn's time must be from 1s to 24h0m0s"},
		{game.TimeRule{Kind: "hourglass"}, game.TimeRule{}, `does not keep time by "hourglass"`},
		{game.TimeRule{Kind: game.Correspondence, Turn: 3 * game.Day, Carry: true, Initial: time.Hour}, game.TimeRule{Kind: game.Correspondence, Turn: 3 * game.Day}, ""},
		{game.TimeRule{Kind: game.Correspondence, Turn: 14 * game.Day}, game.TimeRule{Kind: game.Correspondence, Turn: 14 * game.Day}, ""},
		{game.TimeRule{Kind: game.Correspondence, Turn: 4 * game.Day}, game.TimeRule{}, "a turn 1, 2, 3, 5, 7, 10 or 14 days, not 96h0m0s"},
		{game.TimeRule{Kind: game.Correspondence, Turn: game.Day + time.Second}, game.TimeRule{}, "1, 2, 3, 5, 7, 10 or 14 days"},
		{game.TimeRule{Kind: game.Correspondence}, game.TimeRule{}, "1, 2, 3, 5, 7, 10 or 14 days"},
		{game.TimeRule{Kind: game.Correspondence, Turn: 28 * game.Day}, game.TimeRule{}, "1, 2, 3, 5, 7, 10 or 14 days"},
	} {
		got, err := r.CheckTime(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v: error %v, want one saying %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%+v: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	noBank := *r
	noBank.Times = []game.TimeKind{game.TurnTimer}
	if _, err := noBank.CheckTime(game.TimeRule{Kind: game.Bank, Initial: time.Minute}); err == nil {
		t.Error("a bank accepted by a game that allows only a turn timer")
	}
}

// TestOptionPlayers: an option that applies to some player counts keeps
// its default at the others, and NewGame says so.
func TestOptionPlayers(t *testing.T) {
	r := *gametest.Tiny
	r.Options = slices.Clone(r.Options)
	r.Options[1].Players = []int{3, 4} // goal
	if _, err := r.NewGame(game.Setup{Players: 2, Options: map[string]string{"goal": "low"}}); err == nil || err.Error() != "Tiny: option goal: only with 3 or 4 players" {
		t.Errorf("goal low with 2 players: %v", err)
	}
	for _, c := range []game.Setup{{Players: 3, Options: map[string]string{"goal": "low"}}, {Players: 2, Options: map[string]string{"goal": "high"}}, {Players: 2}} {
		if _, err := r.NewGame(c); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	r.Options[1].Players = []int{5}
	if _, err := game.NewRegistry(&r); err == nil || !strings.Contains(err.Error(), "applies to 5 players") {
		t.Errorf("an option for 5 players of a game of 2 to 4 registered: %v", err)
	}
}

// TestTimeFor: a game's default time rule depends on the table, is checked,
// and is no time for a game without one.
func TestTimeFor(t *testing.T) {
	r := *gametest.Tiny
	if tr, err := r.TimeFor(2, nil); err != nil || tr != (game.TimeRule{Kind: game.NoTime}) {
		t.Errorf("Tiny's default time: %+v, %v", tr, err)
	}
	glass := game.TimeRule{Kind: game.TurnTimer, Turn: 30 * time.Second, Carry: true}
	r.DefaultTime = func(players int, opts map[string]string) game.TimeRule {
		if opts["goal"] == "low" {
			return game.TimeRule{}
		}
		return glass
	}
	if tr, err := r.TimeFor(2, map[string]string{"goal": "high"}); err != nil || tr != glass {
		t.Errorf("the glass: %+v, %v", tr, err)
	}
	if tr, err := r.TimeFor(2, map[string]string{"goal": "low"}); err != nil || tr.Kind != game.NoTime {
		t.Errorf("no time: %+v, %v", tr, err)
	}
	r.DefaultTime = func(int, map[string]string) game.TimeRule {
		return game.TimeRule{Kind: game.TurnTimer, Turn: time.Millisecond}
	}
	if _, err := game.NewRegistry(&r); err == nil || !strings.Contains(err.Error(), "default time") {
		t.Errorf("a default time out of bounds registered: %v", err)
	}
}

func TestRewards(t *testing.T) {
	for _, tc := range []struct {
		s    game.Standing
		want []float64
	}{
		{game.Standing{}, []float64{0, 0, 0}},
		{game.Standing{Winners: []int{1}}, []float64{0, 1, 0}},
		{game.Standing{Winners: []int{0, 2}}, []float64{0.5, 0, 0.5}},
		{game.Standing{Winners: []int{0, 2}, Teams: [][]int{{0, 2}, {1, 3}}}, []float64{1, 0, 1, 0}},
		{game.Standing{Winners: []int{0, 1, 2, 3}, Teams: [][]int{{0, 2}, {1, 3}}}, []float64{0.5, 0.5, 0.5, 0.5}},
	} {
		r := make([]float64, len(tc.want))
		r[0] = 7 // Rewards clears what was there
		tc.s.Rewards(r)
		if !slices.Equal(r, tc.want) {
			t.Errorf("%+v: rewards %v, want %v", tc.s, r, tc.want)
		}
	}
}

func TestRecord(t *testing.T) {
	st, err := gametest.Tiny.NewGame(game.Setup{Players: 2, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	rec := game.Record{Game: "tiny", Players: 2, Seed: 9}
	for !st.Over() {
		m := game.Legal(st)[0]
		rec.Moves = append(rec.Moves, st.MoveText(m))
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var back game.Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	replayed, err := back.Replay(gametest.Tiny, -1)
	if err != nil || replayed.String() != st.String() {
		t.Fatalf("replay: %v, %v", replayed, err)
	}
	half, err := back.Replay(gametest.Tiny, 2)
	if err != nil || half.Turn() > st.Turn() {
		t.Fatalf("replay of 2 moves: %v", err)
	}
	back.Moves[1] = "play 0"
	if _, err := back.Replay(gametest.Tiny, -1); err == nil || !strings.Contains(err.Error(), "replay: move 2:") {
		t.Fatalf("a bad move: %v", err)
	}
	back.Game = "chess"
	if _, err := back.Replay(gametest.Tiny, -1); err == nil || !strings.Contains(err.Error(), `of game "chess"`) {
		t.Fatalf("another game's record: %v", err)
	}
}

// TestRecordReseeds: a record's reseeds replay the draws a game made after
// its take-backs, and round-trip through JSON; a reseed out of order or
// beyond the moves is refused with its place.
func TestRecordReseeds(t *testing.T) {
	st, err := gametest.Tiny.NewGame(game.Setup{Players: 2, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	rec := game.Record{Game: "tiny", Players: 2, Seed: 9}
	for i := 0; !st.Over(); i++ {
		if i%3 == 1 {
			rs := game.Reseed{At: len(rec.Moves), Seed: uint64(i)}
			rs.Apply(st)
			rec.Reseeds = append(rec.Reseeds, rs)
		}
		m := game.Legal(st)[0]
		rec.Moves = append(rec.Moves, st.MoveText(m))
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var back game.Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	replayed, err := back.Replay(gametest.Tiny, -1)
	if err != nil || replayed.String() != st.String() {
		t.Fatalf("replay with reseeds: %v", err)
	}
	plain := back
	plain.Reseeds = nil
	if unseeded, err := plain.Replay(gametest.Tiny, -1); err == nil && unseeded.String() == st.String() {
		t.Fatal("the reseeds drew nothing: the replay without them ends alike")
	}
	for _, tc := range []struct {
		reseeds []game.Reseed
		err     string
	}{
		{[]game.Reseed{{At: -1}}, "reseed 1 is after move -1, not from 0 to"},
		{[]game.Reseed{{At: 4}, {At: 2}}, "reseed 2 is after move 2, not from 4 to"},
		{[]game.Reseed{{At: len(rec.Moves) + 1}}, "reseed 1 is after move"},
	} {
		bad := back
		bad.Reseeds = tc.reseeds
		if _, err := bad.Replay(gametest.Tiny, -1); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("reseeds %v: %v, want %q", tc.reseeds, err, tc.err)
		}
	}
}
