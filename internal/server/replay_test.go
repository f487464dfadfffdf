package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/game/gametest"
)

// A playHook stops the next Play of a hookedTiny state, once armed, until
// the test releases it: a replay caught in the middle.
type playHook struct {
	armed            atomic.Bool
	entered, release chan struct{}
}

// hookedState is a state of Tiny whose Play waits on its hook when armed.
type hookedState struct {
	game.State
	hook *playHook
}

func (s *hookedState) Play(m game.Move) error {
	if s.hook.armed.CompareAndSwap(true, false) {
		s.hook.entered <- struct{}{}
		<-s.hook.release
	}
	return s.State.Play(m)
}

func (s *hookedState) Clone() game.State { return &hookedState{State: s.State.Clone(), hook: s.hook} }

func (s *hookedState) CopyFrom(src game.State) { s.State.CopyFrom(src.(*hookedState).State) }

// hookedTiny is Tiny, as game "hookedtiny", with its states' Play on h.
func hookedTiny(h *playHook) *game.Rules {
	r := *gametest.Tiny
	r.ID, r.Name = "hookedtiny", "Hooked Tiny"
	r.New = func(s game.Setup) (game.State, error) {
		st, err := gametest.Tiny.New(s)
		if err != nil {
			return nil, err
		}
		return &hookedState{State: st, hook: h}, nil
	}
	return &r
}

// TestReplayLeavesTheGameFree: a spectator's replay of the past does not
// hold the game's lock while it plays the moves, so the players move on:
// caught in the middle of its replay, the game's lock is free and a move
// is made; the replay then answers.
func TestReplayLeavesTheGameFree(t *testing.T) {
	h := &playHook{entered: make(chan struct{}), release: make(chan struct{})}
	ts := newTestServer(t, hosting(hookedTiny(h)))
	id, tokens := ts.humansOf("hookedtiny", 2, 1)
	playOne := func() {
		t.Helper()
		g := ts.getTiny(id, "", -1)
		p := g.State.ToMove
		ts.move(id, tokens[p], g.State.Version, ts.getTiny(id, tokens[p], -1).State.View.Legal[0])
	}
	playOne()
	playOne()
	ts.s.mu.Lock()
	g := ts.s.games[id]
	ts.s.mu.Unlock()

	h.armed.Store(true)
	answered := make(chan int)
	go func() {
		res, err := ts.http.Client().Get(ts.http.URL + "/api/games/" + id + "?at=1")
		if err != nil {
			answered <- 0
			return
		}
		res.Body.Close()
		answered <- res.StatusCode
	}()
	<-h.entered
	if !g.mu.TryLock() {
		close(h.release)
		<-answered
		t.Fatal("the replay of version 1 holds the game's lock while it plays the moves")
	}
	g.mu.Unlock()
	playOne()
	close(h.release)
	if status := <-answered; status != http.StatusOK {
		t.Errorf("the replay answered %d", status)
	}
}

// TestCheckpointsReplayExactly: with a checkpoint every three moves and
// take-backs that go back past some of them, every version of the game
// replays to the state a replay from its start gives, and the game keeps
// a checkpoint for each multiple of three it has reached.
func TestCheckpointsReplayExactly(t *testing.T) {
	defer func(every int) { checkpointEvery = every }(checkpointEvery)
	checkpointEvery = 3
	ts := newTestServer(t, nil)
	c := ts.create(map[string]any{"game": "tiny", "seed": 3,
		"seats": []map[string]any{{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "easy"}}})
	id, token := c.ID, c.Seats[0].Token
	ts.ok("POST", "/api/games/"+id+"/join", token, nil)
	for _, n := range []int{5, 2, 4} {
		ts.playTiny(id, token, 0, n)
		v := ts.getTiny(id, "", -1).State.Version
		if status, _, body := ts.takeBack(id, token, v, nil); status != http.StatusOK {
			t.Fatalf("take-back at %d: %d %s", v, status, body)
		}
	}
	ts.playTiny(id, token, 0, 3)

	ts.s.mu.Lock()
	g := ts.s.games[id]
	ts.s.mu.Unlock()
	g.mu.Lock()
	defer g.mu.Unlock()
	if got, want := len(g.checkpoints), len(g.moves)/checkpointEvery; got != want {
		t.Errorf("%d checkpoints at version %d, want %d", got, len(g.moves), want)
	}
	naive := g.start.Clone()
	game.ReseedAt(naive, g.reseeds, 0)
	for at := 0; at <= len(g.moves); at++ {
		if got, want := g.positionAt(at).String(), naive.String(); got != want {
			t.Errorf("version %d replays to\n%s\nfrom its checkpoint, and to\n%s\nfrom the start", at, got, want)
		}
		if at < len(g.moves) {
			if err := naive.Play(g.moves[at].move); err != nil {
				t.Fatal(err)
			}
			game.ReseedAt(naive, g.reseeds, at+1)
		}
	}
}

// TestPastViewsAsTheyWere: the game at each earlier version, as a
// replay asks for it, holds the moves and the state that the game held
// when it was at that version, each key once; with a checkpoint every
// three moves, so that most replays start from one.
func TestPastViewsAsTheyWere(t *testing.T) {
	defer func(every int) { checkpointEvery = every }(checkpointEvery)
	checkpointEvery = 3
	ts := newTestServer(t, nil)
	id, tokens := ts.humansOf("tiny", 2, 5)
	for _, token := range tokens {
		ts.ok("POST", "/api/games/"+id+"/join", token, nil)
	}
	keys := func(body []byte) map[string]json.RawMessage {
		t.Helper()
		dec := json.NewDecoder(bytes.NewReader(body))
		if _, err := dec.Token(); err != nil {
			t.Fatal(err)
		}
		out := map[string]json.RawMessage{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			if _, twice := out[k.(string)]; twice {
				t.Fatalf("the key %q twice in %s", k, body)
			}
			out[k.(string)] = v
		}
		return out
	}
	var then []map[string]json.RawMessage
	for {
		then = append(then, keys(ts.ok("GET", "/api/games/"+id, "", nil)))
		g := ts.getTiny(id, "", -1)
		if g.State.Over || g.State.Version == 40 {
			break
		}
		p := g.State.ToMove
		ts.move(id, tokens[p], g.State.Version, ts.getTiny(id, tokens[p], -1).State.View.Legal[0])
	}
	for at, was := range then[:len(then)-1] {
		now := keys(ts.ok("GET", fmt.Sprintf("/api/games/%s?at=%d", id, at), "", nil))
		for _, k := range []string{"moves", "state", "max_moves", "seed_chosen"} {
			var a, b any
			if err := errors.Join(json.Unmarshal(was[k], &a), json.Unmarshal(now[k], &b)); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("version %d: %s was\n%s\nand replays as\n%s", at, k, was[k], now[k])
			}
		}
	}
}
