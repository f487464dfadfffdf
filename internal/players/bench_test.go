package players_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store/postgres"
	"github.com/lagoon-games/lagoon/internal/store/postgres/pgtest"
)

// BenchmarkResolve measures a request's session check (Service.Resolve):
// without a cookie; with one whose session the node has cached (every
// request but one a session in CacheTTL); and with one read from the
// store (the first request of a session on a node, or one a CacheTTL
// after the last), on SQLite and, with LAGOON_POSTGRES, on PostgreSQL.
// docs/performance.md has the figures.
func BenchmarkResolve(b *testing.B) {
	bench := func(b *testing.B, st players.Store, fresh bool) {
		clk := &clock{now: testNow}
		cfg := players.Config{Store: st, Now: clk.Now, Log: slog.New(slog.DiscardHandler)}
		svc := players.New(cfg)
		w := httptest.NewRecorder()
		svc.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, err := players.Ensure(w, r); err != nil {
				b.Fatal(err)
			}
		})).ServeHTTP(w, httptest.NewRequest("GET", "/api/me", nil))
		cookie := sessionCookie(w)
		r := httptest.NewRequest("GET", "/api/games/x", nil)
		r.AddCookie(cookie)
		b.ReportAllocs()
		for b.Loop() {
			if fresh {
				svc = players.New(cfg)
			}
			if _, ok := players.FromContext(svc.Resolve(w, r).Context()).Player(); !ok {
				b.Fatal("the session let nothing in")
			}
		}
	}
	b.Run("no-cookie", func(b *testing.B) {
		svc, _, _ := setup(b)
		r := httptest.NewRequest("GET", "/api/games/x", nil)
		w := httptest.NewRecorder()
		b.ReportAllocs()
		for b.Loop() {
			svc.Resolve(w, r)
		}
	})
	b.Run("cached", func(b *testing.B) {
		_, st, _ := setup(b)
		bench(b, st, false)
	})
	b.Run("sqlite", func(b *testing.B) {
		_, st, _ := setup(b)
		bench(b, st, true)
	})
	b.Run("postgres", func(b *testing.B) {
		if os.Getenv("LAGOON_POSTGRES") == "" {
			b.Skip("LAGOON_POSTGRES is not set")
		}
		st, err := postgres.Open(context.Background(), pgtest.URL(b))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		bench(b, st, true)
	})
}
