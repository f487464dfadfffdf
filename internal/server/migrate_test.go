package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lagoon-games/lagoon/bluelagoon"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/store"
)

// TestMigratedGames opens a copy of a database written before the game
// contract (internal/store/testdata/v0: every game Blue Lagoon's, its
// board, first seat and clock in columns of their own) and plays its games
// to the end: the boards and first seats are the games' options, the clocks
// a bank that goes on from where it was, a stand-in still plays for the
// person whose time ran out, open seats are taken, and the finished game is
// in the lobby with its record.
func TestMigratedGames(t *testing.T) {
	v0 := filepath.Join("..", "store", "testdata", "v0")
	db, err := os.ReadFile(filepath.Join(v0, "lagoon.db"))
	if err != nil {
		t.Fatal(err)
	}
	var tokens map[string]map[int]string
	if b, err := os.ReadFile(filepath.Join(v0, "tokens.json")); err != nil || json.Unmarshal(b, &tokens) != nil {
		t.Fatalf("tokens.json: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lagoon.db"), db, 0o644); err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		b := startBubble(t, st, nil)
		defer func() { b.s.Close() }()

		status, body := b.do("GET", "/api/lobby", "", nil)
		if status != 200 {
			t.Fatalf("lobby: %d %s", status, body)
		}
		lobby := decode[map[string][]summaryView](t, body)
		if len(lobby["open"]) != 2 || len(lobby["playing"]) != 3 || len(lobby["finished"]) != 1 {
			t.Fatalf("lobby: %d open, %d playing, %d finished; want 2, 3, 1", len(lobby["open"]), len(lobby["playing"]), len(lobby["finished"]))
		}
		ids := map[string]string{}
		for _, list := range lobby {
			for _, s := range list {
				ids[s.Seats[0].Name] = s.ID
				if s.Game != "bluelagoon" || s.GameName != "Blue Lagoon" || len(s.Options) != 2 {
					t.Errorf("%s in the lobby: %+v", s.Seats[0].Name, s)
				}
			}
		}

		// The finished game: its summary, its view and its record.
		fin := lobby["finished"][0]
		g := b.get(fin.ID)
		if fin.Seats[0].Name != "Finished A" || fin.Options["board"] != "sides" || fin.Options["first"] != "0" || fin.ToMove != game.NoSeat ||
			!slices.Equal(fin.Winners, g.State.Standing.Winners) || !slices.Equal(fin.Scores, g.State.Standing.Scores) || len(fin.Winners) == 0 {
			t.Errorf("the finished game in the lobby: %+v; its standing %+v", fin, g.State.Standing)
		}
		if !g.State.Over || len(g.Moves) != 42 || g.State.View.Result == nil || len(phaseEnds(t, g.Moves)) == 0 {
			t.Errorf("the finished game: over %v, %d moves, result %+v", g.State.Over, len(g.Moves), g.State.View.Result)
		}
		checkRecord(t, b, fin.ID)

		// The game with clocks goes on from the banks stored at shutdown.
		clocked := ids["Clocked Ann"]
		g = b.get(clocked)
		if g.Options["board"] != "standard" || g.Options["first"] != "1" || g.Time == nil || g.Time.Kind != "bank" ||
			g.Time.InitialMS != 60000 || g.Time.IncrementMS != 2000 || !g.Time.Started {
			t.Errorf("the clocked game: options %v, time %+v", g.Options, g.Time)
		}
		if cl := g.State.Clocks; len(cl) != 2 || cl[0] != (clockView{RemainingMS: 61500}) || cl[1] != (clockView{RemainingMS: 43500, Running: true}) || g.State.ToMove != 1 {
			t.Errorf("the clocked game's clocks: %+v, %d to move", cl, g.State.ToMove)
		}
		if g.Moves[0].Seat != 1 {
			t.Errorf("the clocked game's first move by seat %d, want 1, its first seat", g.Moves[0].Seat)
		}

		// Ann's stand-in plays once her grace is over; the bot answers,
		// and she has her grace again.
		standin := ids["Standin Ann"]
		g = b.get(standin)
		if !g.Seats[0].StandIn || g.State.Clocks[0] != (clockView{RemainingMS: 3000, Running: true}) {
			t.Errorf("Ann, in her grace: %+v, clocks %+v", g.Seats[0], g.State.Clocks)
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if g = b.get(standin); g.State.Version != 8 || g.State.Clocks[0] != (clockView{RemainingMS: 5000, Running: true}) || !g.Seats[0].StandIn {
			t.Errorf("after Ann's grace: version %d, clocks %+v, %+v", g.State.Version, g.State.Clocks, g.Seats[0])
		}

		// The uploaded board is the game's option, in the notation.
		custom := ids["Custom Cy"]
		g = b.get(custom)
		board, err := bluelagoon.ParseBoard(g.Options["board"])
		if err != nil || !strings.HasPrefix(g.Options["board"], "a 13 2; c 0 E; i 6 ") || g.Options["first"] != "2" || g.Moves[0].Seat != 2 {
			t.Fatalf("the custom game: options %v, %v", g.Options, err)
		}
		if tb := decode[struct {
			Notation string `json:"notation"`
		}](t, g.Table); tb.Notation != board.String() {
			t.Errorf("the custom game's table: %s", g.Table)
		}

		// The game past the exploration phase shows its end, and its
		// record is no secret any more.
		settle := ids["Settle Ann"]
		if g = b.get(settle); g.State.Standing.Phase != "settlement" || len(phaseEnds(t, g.Moves)) != 1 {
			t.Errorf("the game past the exploration phase: %s, phase ends at %v", g.State.Standing.Phase, phaseEnds(t, g.Moves))
		}
		if status, _ := b.do("GET", "/api/games/"+settle+"/record", "", nil); status != 200 {
			t.Errorf("its record: %d", status)
		}

		// Every game is played to its end: the open seats are taken, the
		// people play, the bots answer.
		for name, id := range ids {
			g := b.get(id)
			for i, seat := range g.Seats {
				if seat.Kind != "open" {
					continue
				}
				status, body := b.do("POST", "/api/games/"+id+"/join", "", map[string]any{"seat": i, "name": "Late"})
				if status != 200 {
					t.Fatalf("%s: joining seat %d: %d %s", name, i, status, body)
				}
				if tokens[id] == nil {
					tokens[id] = map[int]string{}
				}
				tokens[id][i] = decode[struct {
					Token string `json:"token"`
				}](t, body).Token
			}
			for {
				synctest.Wait()
				g := b.get(id)
				if g.State.Over {
					break
				}
				p := g.State.ToMove
				if g.Seats[p].Kind == "bot" {
					t.Fatalf("%s: the bot of seat %d does not move at version %d", name, p, g.State.Version)
				}
				token := tokens[id][p]
				move := g.State.View.Legal[g.State.Version%len(g.State.View.Legal)]
				if status, body := b.do("POST", "/api/games/"+id+"/moves", token, map[string]any{"version": g.State.Version, "move": move}); status != 200 {
					t.Fatalf("%s: %s at %d: %d %s", name, move, g.State.Version, status, body)
				}
			}
			checkRecord(t, b, id)
		}
		for name, id := range ids {
			sg, err := st.Game(context.Background(), id)
			if err != nil || !sg.Over || sg.Game != "bluelagoon" {
				t.Errorf("%s stored: %+v, %v", name, sg, err)
			}
		}
		if status, body := b.do("GET", "/api/lobby", "", nil); status != 200 || len(decode[map[string][]summaryView](t, body)["finished"]) != 6 {
			t.Errorf("the lobby at the end: %d %s", status, body)
		}
	})
}

// checkRecord checks that a finished game's record replays to the state
// the server shows.
func checkRecord(t *testing.T, b bubbleServer, id string) {
	t.Helper()
	status, body := b.do("GET", "/api/games/"+id+"/record", "", nil)
	if status != 200 {
		t.Fatalf("record of %s: %d %s", id, status, body)
	}
	rec := decode[game.Record](t, body)
	end, err := rec.Replay(bluelagoon.Rules, -1)
	if err != nil || !end.Over() {
		t.Fatalf("the record of %s replays to %v, %v", id, end, err)
	}
	status, text := b.do("GET", "/api/games/"+id+"/state", "", nil)
	if status != 200 || string(text) != end.String()+"\n" {
		t.Errorf("the state of %s: %d %s; the record's %s", id, status, text, end)
	}
	if g := b.get(id); !slices.Equal(g.State.Standing.Winners, end.Standing().Winners) {
		t.Errorf("the winners of %s: %v; the record's %v", id, g.State.Standing.Winners, end.Standing().Winners)
	}
}
