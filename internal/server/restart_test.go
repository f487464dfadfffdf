package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/lagoon-games/lagoon/internal/store"
)

// childEnv, when set, makes the test binary a server for TestRestart on the
// data directory it names, serving the listener it inherits as file 3.
const childEnv = "LAGOON_TEST_CHILD_SERVER"

var restartSeed = flag.Uint64("restartseed", 0, "the seed of TestRestart's kill points; 0 takes one from the clock")

func TestMain(m *testing.M) {
	if arg := os.Getenv(childEnv); arg != "" {
		os.Exit(runChild(arg))
	}
	os.Exit(m.Run())
}

// runChild serves until SIGTERM, then shuts down as lagoon serve does.
func runChild(dir string) int {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, err := store.Open(dir)
	if err != nil {
		log.Error("store", "err", err)
		return 1
	}
	s, err := New(context.Background(), Config{Games: testGames, Store: st, Bots: testBots, Levels: testLevelsOf, Rate: -1, MessageRate: -1, Log: log})
	if err != nil {
		log.Error("server", "err", err)
		return 1
	}
	ln, err := net.FileListener(os.NewFile(3, "listener"))
	if err != nil {
		log.Error("listener", "err", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	hs := &http.Server{Handler: s}
	go hs.Serve(ln)
	fmt.Println("serving")
	<-ctx.Done()
	hs.Shutdown(context.Background())
	s.Close()
	if err := st.Close(); err != nil {
		log.Error("closing the store", "err", err)
		return 1
	}
	return 0
}

// child is a server in a child process. The test holds the listening socket
// and hands it to each child, so that the address stays the server's across
// restarts: connections made while no child runs wait for the next one.
type child struct {
	t   *testing.T
	dir string
	ln  *os.File
	cmd *exec.Cmd
}

func (c *child) start() {
	c.t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+c.dir)
	cmd.ExtraFiles = []*os.File{c.ln}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "serving\n" {
		cmd.Process.Kill()
		cmd.Wait()
		c.t.Fatalf("the child server did not start: %q, %v", line, err)
	}
	go io.Copy(io.Discard, out)
	c.cmd = cmd
}

func (c *child) signal(sig os.Signal) {
	c.t.Helper()
	if err := c.cmd.Process.Signal(sig); err != nil {
		c.t.Fatal(err)
	}
	err := c.cmd.Wait()
	if sig == syscall.SIGTERM && err != nil {
		c.t.Errorf("the child server's shutdown: %v", err)
	}
}

// listen returns a loopback listener's address and its file, to hand to the
// children; both close when the test ends.
func listen(t *testing.T) (string, *os.File) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return ln.Addr().String(), f
}

// ackCounter counts the moves the players were acknowledged, and tells when
// there have been so many.
type ackCounter struct {
	mu      sync.Mutex
	n       int
	target  int
	reached chan struct{}
}

func (a *ackCounter) add() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	if a.reached != nil && a.n >= a.target {
		close(a.reached)
		a.reached = nil
	}
}

// at returns a channel closed once n moves have been acknowledged in all.
func (a *ackCounter) at(n int) <-chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	ch := make(chan struct{})
	if a.n >= n {
		close(ch)
	} else {
		a.target, a.reached = n, ch
	}
	return ch
}

// restartClient talks to a server that may die at any moment: every request
// is repeated until it gets an answer.
type restartClient struct {
	base string
	http *http.Client
	done <-chan struct{}
}

func (rc *restartClient) do(method, path, token string, body any) (int, []byte, error) {
	for {
		select {
		case <-rc.done:
			return 0, nil, errors.New("test over")
		default:
		}
		var r io.Reader
		if body != nil {
			r = strings.NewReader(string(mustJSON(body)))
		}
		req, _ := http.NewRequest(method, rc.base+path, r)
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := rc.http.Do(req)
		if err == nil {
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil && resp.StatusCode != http.StatusServiceUnavailable {
				return resp.StatusCode, b, nil
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// player plays the human seats of a game to its end over HTTP and returns
// the moves it was acknowledged, by version, counting each in acks.
func (rc *restartClient) player(id string, tokens map[int]string, seed uint64, acks *ackCounter) (map[int]string, error) {
	rng := rand.New(rand.NewPCG(seed, 1))
	acked := make(map[int]string)
	for {
		status, body, err := rc.do("GET", "/api/games/"+id, "", nil)
		if err != nil {
			return acked, err
		}
		if status != 200 {
			return acked, fmt.Errorf("get %s: %d %s", id, status, body)
		}
		var g struct {
			State aState[json.RawMessage] `json:"state"`
		}
		if err := json.Unmarshal(body, &g); err != nil {
			return acked, err
		}
		if g.State.Over {
			return acked, nil
		}
		token, ours := tokens[g.State.ToMove]
		if !ours {
			time.Sleep(time.Millisecond)
			continue
		}
		// The legal moves are in the seat's own view (the tiny game's are
		// for the seat to move only).
		status, body, err = rc.do("GET", "/api/games/"+id, token, nil)
		if err != nil {
			return acked, err
		}
		var mine struct {
			State aState[struct {
				Legal []string `json:"legal"`
			}] `json:"state"`
		}
		if err := json.Unmarshal(body, &mine); err != nil || status != 200 {
			return acked, fmt.Errorf("get %s as seat %d: %d %s", id, g.State.ToMove, status, body)
		}
		if mine.State.Version != g.State.Version {
			continue
		}
		legal := mine.State.View.Legal
		m := legal[rng.IntN(len(legal))]
		time.Sleep(time.Duration(rng.IntN(4)) * time.Millisecond) // thinking
		status, body, err = rc.do("POST", "/api/games/"+id+"/moves", token, map[string]any{"version": g.State.Version, "move": m})
		if err != nil {
			return acked, err
		}
		if status != 200 {
			return acked, fmt.Errorf("move %s at %d in %s: %d %s", m, g.State.Version, id, status, body)
		}
		var r moveResponse
		json.Unmarshal(body, &r)
		if r.Version != g.State.Version+1 {
			return acked, fmt.Errorf("move %s at %d in %s acknowledged at version %d", m, g.State.Version, id, r.Version)
		}
		acked[r.Version] = m
		acks.add()
	}
}

// watcher follows a game over WebSocket, reconnecting with the last version
// it saw, and returns every move it was told of, by version, once the game
// is over.
func (rc *restartClient) watcher(id string) (map[int]string, error) {
	seen := make(map[int]string)
	last := -1
	url := "ws" + strings.TrimPrefix(rc.base, "http") + "/api/games/" + id + "/ws"
	for {
		select {
		case <-rc.done:
			return seen, errors.New("test over")
		default:
		}
		over, err := func() (bool, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, _, err := websocket.Dial(ctx, url, nil)
			if err != nil {
				time.Sleep(5 * time.Millisecond)
				return false, nil
			}
			defer c.CloseNow()
			c.SetReadLimit(1 << 20)
			if err := c.Write(ctx, websocket.MessageText, mustJSON(map[string]any{"type": "hello", "version": last})); err != nil {
				return false, nil
			}
			for {
				_, data, err := c.Read(ctx)
				if err != nil {
					return false, nil
				}
				var m message
				if err := json.Unmarshal(data, &m); err != nil {
					return false, err
				}
				switch m.Type {
				case "snapshot":
					var g struct {
						gameView
						State aState[json.RawMessage] `json:"state"`
					}
					if err := json.Unmarshal(m.Game, &g); err != nil {
						return false, err
					}
					for _, mv := range g.Moves {
						if prev, ok := seen[mv.Version]; ok && prev != mv.Move {
							return false, fmt.Errorf("%s: version %d was %s, the snapshot says %s", id, mv.Version, prev, mv.Move)
						}
						seen[mv.Version] = mv.Move
					}
					last = g.State.Version
					if g.State.Over {
						return true, nil
					}
				case "move":
					if m.Version != last+1 {
						return false, fmt.Errorf("%s: event for version %d after version %d", id, m.Version, last)
					}
					seen[m.Version], last = m.Move, m.Version
				case "game_over":
					return true, nil
				}
			}
		}()
		if err != nil || over {
			return seen, err
		}
	}
}

// TestRestart runs the server in a child process, plays games against it
// over HTTP and WebSocket, kills it with SIGKILL after random numbers of
// acknowledged moves and starts it again on the same data, and checks every
// game move by move against what the clients were acknowledged and told.
func TestRestart(t *testing.T) {
	games, kills := 6, 6
	if testing.Short() || raceEnabled {
		games, kills = 4, 3
	}
	// Each kill comes after 10 to 40 more acknowledged moves, at most 240 in
	// all, while the games go on for over 300 (a game of Blue Lagoon lasts
	// 100 moves or more, half of them a bot's in one game of three; the
	// last game is the tiny game's, some 40 moves, its hands hidden).
	const minGap, maxGap = 10, 40
	seed := *restartSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("kill points seeded with %d (-restartseed=%d repeats them)", seed, seed)
	addr, ln := listen(t)
	c := &child{t: t, dir: t.TempDir(), ln: ln}
	c.start()
	done := make(chan struct{})
	rc := &restartClient{base: "http://" + addr, http: &http.Client{Timeout: 10 * time.Second}, done: done}
	defer close(done)
	acks := new(ackCounter)

	type result struct {
		id           string
		acked, seen  map[int]string
		playErr, err error
	}
	results := make([]result, games)
	var wg sync.WaitGroup
	for i := range games {
		seats := []map[string]any{{"kind": "human"}, {"kind": "human"}}
		if i%3 == 2 {
			seats[1] = map[string]any{"kind": "bot", "level": "easy"}
		}
		req := map[string]any{"seats": seats, "seed": i}
		if i == games-1 {
			req["game"], req["options"] = "tiny", map[string]any{"hand": "4"}
		}
		status, body, err := rc.do("POST", "/api/games", "", req)
		if err != nil || status != http.StatusCreated {
			t.Fatalf("create: %d %s %v", status, body, err)
		}
		cr := decode[createResponse](t, body)
		tokens := make(map[int]string)
		for _, l := range cr.Seats {
			tokens[l.Seat] = l.Token
		}
		results[i].id = cr.ID
		wg.Go(func() { results[i].acked, results[i].playErr = rc.player(cr.ID, tokens, uint64(i), acks) })
		wg.Go(func() { results[i].seen, results[i].err = rc.watcher(cr.ID) })
	}

	rng := rand.New(rand.NewPCG(seed, 2))
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	killAt := 0
	for k := range kills {
		killAt += minGap + rng.IntN(maxGap-minGap+1)
		select {
		case <-acks.at(killAt):
		case <-finished:
			t.Fatalf("the games were over before kill %d, at %d acknowledged moves; make them longer", k+1, killAt)
		}
		c.signal(syscall.SIGKILL)
		c.start()
	}
	select {
	case <-finished:
	case <-time.After(2 * time.Minute):
		t.Fatal("the games did not finish")
	}
	c.signal(syscall.SIGTERM)

	st, err := store.Open(c.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, r := range results {
		if r.playErr != nil || r.err != nil {
			t.Errorf("game %s: player: %v; watcher: %v", r.id, r.playErr, r.err)
			continue
		}
		g, err := st.Game(context.Background(), r.id)
		if err != nil {
			t.Fatal(err)
		}
		if !g.Over {
			t.Errorf("game %s is not over after %d moves", r.id, len(g.Moves))
		}
		if len(r.seen) != len(g.Moves) {
			t.Errorf("game %s: the watcher saw %d moves, %d are stored", r.id, len(r.seen), len(g.Moves))
		}
		for v, m := range r.acked {
			if v > len(g.Moves) || g.Moves[v-1].Move != m {
				t.Errorf("game %s: move %d was acknowledged as %s but is not stored", r.id, v, m)
			}
		}
		for v, m := range r.seen {
			if v > len(g.Moves) || g.Moves[v-1].Move != m {
				t.Errorf("game %s: move %d was broadcast as %s but is not stored", r.id, v, m)
			}
		}
		if end := replay(t, g); !end.Over() {
			t.Errorf("game %s: the stored moves do not finish the game", r.id)
		}
	}
}
