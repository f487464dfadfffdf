package web_test

// The browser tests drive Debian's Chromium, headless and kept off the
// network, against a real Lagoon server on a loopback port. They skip when no
// browser is installed, unless LAGOON_REQUIRE_BROWSER=1 (CI sets it).
// Screenshots of the main screens go to $LAGOON_ARTIFACTS (by default a
// temporary directory, removed afterwards); -update also writes the README's
// docs/screenshot.png.
//
// This file starts the browser and drives pages; lagoon_test.go runs the
// server and asks the engine what the pages should show; play_test.go holds
// the tests.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var update = flag.Bool("update", false, "write ../docs/screenshot.png from the browser tests")

// The browser shared by the tests: each test opens its pages in browser
// contexts of their own, with their own storage, like separate people.
var (
	browser     context.Context // nil when there is none
	browserErr  error
	artifactDir string
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir := os.Getenv("LAGOON_ARTIFACTS")
	if dir == "" {
		tmp, err := os.MkdirTemp("", "lagoon-artifacts-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	artifactDir = dir

	path := findBrowser()
	if path == "" {
		browserErr = errors.New("no Chromium or Chrome found (looked for chromium, chromium-browser, google-chrome); install Debian's chromium to run the browser tests")
		return m.Run()
	}
	profile, err := os.MkdirTemp("", "lagoon-chromium-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(profile)
	// Headless, and off the network: no sandbox (containers), no GPU, no
	// QUIC, no background or component updates, no sync, no first run.
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		chromedp.WindowSize(1400, 900),
	)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		browserErr = fmt.Errorf("starting %s: %w", path, err)
	} else {
		browser = ctx
	}
	return m.Run()
}

func findBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// needBrowser skips the test when there is no browser, or fails it when
// LAGOON_REQUIRE_BROWSER=1.
func needBrowser(t *testing.T) {
	t.Helper()
	if browser != nil {
		return
	}
	if os.Getenv("LAGOON_REQUIRE_BROWSER") == "1" {
		t.Fatalf("LAGOON_REQUIRE_BROWSER=1 but the browser tests cannot run: %v", browserErr)
	}
	t.Skipf("skipping the browser test: %v", browserErr)
}

// page is one browser tab in a browser context of its own.
type page struct {
	t    *testing.T
	ctx  context.Context
	name string

	mu     sync.Mutex
	errors []string
}

const (
	desktopWidth, desktopHeight = 1400, 900
	waitLimit                   = 30 * time.Second
)

// newPage opens a tab in a browser context of its own: a browser of its own,
// with its own storage.
func newPage(t *testing.T, name string, width, height int64) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	return openTab(ctx, cancel, t, name, width, height)
}

// newTab opens another tab of p's browser, sharing its local storage.
func (p *page) newTab(name string) *page {
	p.t.Helper()
	ctx, cancel := chromedp.NewContext(p.ctx)
	return openTab(ctx, cancel, p.t, name, desktopWidth, desktopHeight)
}

func openTab(ctx context.Context, cancel context.CancelFunc, t *testing.T, name string, width, height int64) *page {
	t.Helper()
	p := &page{t: t, ctx: ctx, name: name}
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			text := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				text = d.Exception.Description
			}
			p.mu.Lock()
			p.errors = append(p.errors, text)
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		cancel()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errors {
			t.Errorf("%s: JavaScript error: %s", name, e)
		}
	})
	p.do(chromedp.EmulateViewport(width, height))
	return p
}

func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v", p.name, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](p *page, js string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.t.Fatalf("%s: evaluating %s: %v", p.name, js, err)
	}
	return v
}

// waitFor waits until a JavaScript expression is true.
func (p *page) waitFor(js, what string) {
	p.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !eval[bool](p, "!!("+js+")") {
		if time.Now().After(deadline) {
			p.screenshot("timeout-" + p.name)
			p.t.Fatalf("%s: waited %v for %s (%s)", p.name, waitLimit, what, js)
		}
		time.Sleep(15 * time.Millisecond)
	}
}

// within reports whether js holds within d.
func (p *page) within(d time.Duration, js string) bool {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for !eval[bool](p, "!!("+js+")") {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(15 * time.Millisecond)
	}
	return true
}

func (p *page) navigate(url string) {
	p.t.Helper()
	p.do(chromedp.Navigate(url))
}

func (p *page) click(sel string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

func (p *page) key(keys string) {
	p.t.Helper()
	p.do(chromedp.KeyEvent(keys))
}

// clickSpace clicks the middle of a space of the board, as a person would.
func (p *page) clickSpace(at string) {
	p.t.Helper()
	xy := p.spaceMiddle(at)
	p.do(chromedp.MouseClickXY(xy[0], xy[1]))
}

// tapSpace taps the middle of a space with a finger.
func (p *page) tapSpace(at string) {
	p.t.Helper()
	xy := p.spaceMiddle(at)
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	for _, ev := range []input.DispatchTouchEventParams{
		{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: xy[0], Y: xy[1]}}},
		{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}},
	} {
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, ev); err != nil {
			p.t.Fatalf("%s: tapping %s: %v", p.name, at, err)
		}
	}
}

// spaceMiddle scrolls a space of the board into view and returns its
// middle on the screen.
func (p *page) spaceMiddle(at string) []float64 {
	p.t.Helper()
	return eval[[]float64](p, fmt.Sprintf(`(() => {
		const el = document.querySelector('.board .hit[data-at="%s"]');
		el.scrollIntoView({block: 'nearest', inline: 'nearest'});
		// Not under the sticky top bar.
		if (el.getBoundingClientRect().top < 80) window.scrollBy(0, el.getBoundingClientRect().top - 200);
		const r = el.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`, at))
}

// screenshot saves the visible page, scrolled to the top, as a test
// artifact, once the animations under way have ended.
func (p *page) screenshot(name string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`),
		chromedp.Evaluate[chromedp.Void](`Promise.all(document.getAnimations().filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity).map(a => a.finished.catch(() => null)))`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Errorf("%s: screenshot %s: %v", p.name, name, err)
		return ""
	}
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Errorf("%s: screenshot %s: %v", p.name, name, err)
		return ""
	}
	path := filepath.Join(artifactDir, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Error(err)
	}
	return path
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// view is what the game screen shows, read from its data attributes.
type view struct {
	Version int      `json:"version"`
	Turn    string   `json:"turn"` // you, wait, watch, over
	You     string   `json:"you"`
	Pending bool     `json:"pending"`
	Phase   string   `json:"phase"`
	Conn    string   `json:"conn"`
	Legal   []string `json:"legal"`
	Tokens  []string `json:"tokens"` // the legal spaces with a token
	Piece   string   `json:"piece"`  // the piece chosen
	Modal   string   `json:"modal"`
	Message string   `json:"message"`
	Pieces  int      `json:"pieces"`
}

const viewJS = `(() => {
	const g = document.querySelector('.game');
	if (!g || g.dataset.version === undefined) return null;
	const m = document.querySelector('.modal');
	const msg = document.querySelector('.message.show');
	return {
		version: Number(g.dataset.version), turn: g.dataset.turn, you: g.dataset.you,
		pending: g.dataset.pending === 'true', phase: g.dataset.phase, conn: g.dataset.conn || '',
		legal: [...document.querySelectorAll('.layer-highlights .legal')].map(e => e.dataset.at),
		tokens: [...document.querySelectorAll('.layer-highlights .legal')].map(e => e.dataset.at)
			.filter(at => document.querySelector('.layer-tokens .token[data-at="' + at + '"]')),
		piece: (document.querySelector('.piece-btn[aria-pressed=true]') || {dataset: {}}).dataset.piece || '',
		modal: m ? (m.classList.contains('phase-modal') ? 'phase' : m.classList.contains('winner-modal') ? 'winner' :
			m.classList.contains('join-modal') ? 'join' : 'other') : '',
		message: msg ? msg.textContent : '',
		pieces: document.querySelectorAll('.layer-pieces .piece:not(.leave)').length,
	};
})()`

func (p *page) view() view {
	p.t.Helper()
	return eval[view](p, viewJS)
}

func (p *page) waitGame() view {
	p.t.Helper()
	p.waitFor(`document.querySelector('.game[data-version]')`, "the game screen")
	return p.view()
}

// play makes the viewer's moves by clicking legal spaces until done says to
// stop, choosing with rng as a beginner would: now and then a village (with
// the V and S keys), more often a space with a token. It continues past the
// phase summary, and returns the last view.
//
// The last move of the exploration phase and its summary come as two
// messages: between them the page shows the settlement phase with no
// summary yet, and a click there would land on the summary's backdrop as it
// opens and close it. So once the phase turns, play waits for the summary
// before it does anything else.
func (p *page) play(rng *rand.Rand, done func(view) bool) view {
	p.t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	phase := ""
	for {
		v := p.view()
		if phase == "exploration" && v.Phase == "settlement" {
			p.waitFor(`document.querySelector('.phase-modal')`, "the summary of the exploration phase")
			v = p.view()
		}
		phase = v.Phase
		if done(v) {
			return v
		}
		if time.Now().After(deadline) {
			p.screenshot("stuck-" + p.name)
			p.t.Fatalf("%s: the game did not get on: %+v", p.name, v)
		}
		switch {
		case v.Modal == "phase":
			p.click(".phase-modal .btn-primary")
		case v.Modal == "" && v.Turn == "you" && !v.Pending && v.Conn == "open" && len(v.Legal) > 0:
			want := "settler"
			if v.Phase == "exploration" && rng.IntN(6) == 0 {
				want = "village"
			}
			if want != v.Piece {
				p.key(want[:1])
				if v = p.view(); v.Piece != want || len(v.Legal) == 0 {
					p.key("s")
					v = p.view()
				}
				if len(v.Legal) == 0 {
					continue
				}
			}
			choice := v.Legal
			if len(v.Tokens) > 0 && rng.IntN(3) > 0 {
				choice = v.Tokens
			}
			p.clickSpace(choice[rng.IntN(len(choice))])
			p.waitFor(fmt.Sprintf(`(() => { const g = document.querySelector('.game');
				return Number(g.dataset.version) > %d || document.querySelector('.message-error.show'); })()`, v.Version), "the move to be made")
		default:
			time.Sleep(15 * time.Millisecond)
		}
	}
}

// recordSockets makes the pages the tab opens from now on keep their
// WebSockets in window.testSockets and what they send in window.testSent,
// as {socket, data}: the index of the socket and the message. While
// window.testHold is true, the sockets they open go to a path the server
// refuses, so a page that lost its connection cannot get it back. A
// function in window.testOnMessage is called with the socket and each
// message it receives, decoded, before the page sees the message.
func (p *page) recordSockets() {
	p.t.Helper()
	const script = `(() => {
		const Base = window.WebSocket;
		window.testSockets = [];
		window.testSent = [];
		window.testHold = false;
		window.WebSocket = class extends Base {
			constructor(url, ...rest) {
				super(window.testHold ? location.origin.replace(/^http/, 'ws') + '/api/held' : url, ...rest);
				window.testSockets.push(this);
				this.addEventListener('message', ev => {
					if (window.testOnMessage) window.testOnMessage(this, JSON.parse(ev.data));
				});
			}
			send(data) {
				window.testSent.push({socket: window.testSockets.indexOf(this), data: String(data)});
				return super.send(data);
			}
		};
	})()`
	ctx, cancel := context.WithTimeout(p.ctx, waitLimit)
	defer cancel()
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
		p.t.Fatalf("%s: %v", p.name, err)
	}
}

// gameID returns the id of the game the page shows.
func (p *page) gameID() string {
	p.t.Helper()
	return eval[string](p, `document.querySelector('.game').dataset.game`)
}

// boardPosition reads the pieces and tokens drawn on the board, as
// "at seat piece" and "at token" lines, sorted.
func (p *page) boardPosition() (pieces, tokens []string) {
	p.t.Helper()
	pieces = eval[[]string](p, `[...document.querySelectorAll('.layer-pieces .piece:not(.leave)')].map(e => e.dataset.at + ' ' + e.dataset.seat + ' ' + e.dataset.piece)`)
	tokens = eval[[]string](p, `[...document.querySelectorAll('.layer-tokens .token:not(.taken)')].map(e => e.dataset.at + ' ' + e.dataset.token)`)
	slices.Sort(pieces)
	slices.Sort(tokens)
	return pieces, tokens
}

// sheet reads the score sheet: "phase row seat" -> the number shown.
func (p *page) sheet() map[string]int {
	p.t.Helper()
	cells := eval[[][]string](p, `[...document.querySelectorAll('.sheet td[data-row]')].map(td => [td.dataset.phase, td.dataset.row, td.dataset.seat, td.textContent])`)
	out := make(map[string]int)
	for _, c := range cells {
		n, err := strconv.Atoi(c[3])
		if err != nil {
			continue // a phase not played yet
		}
		out[c[0]+" "+c[1]+" "+c[2]] = n
	}
	return out
}
