package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/game"
	"github.com/lagoon-games/lagoon/internal/server"
	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/web"
)

// shutdownGrace bounds how long a shutdown waits for requests under way.
const shutdownGrace = 10 * time.Second

// servedGames returns the games lagoon serve hosts: the tools' games, the
// first the default.
func servedGames() (*game.Registry, error) {
	return game.NewRegistry(toolGames...)
}

// newBots returns what makes the bot of a level of a game for a seat. A
// bot searches on one core: the server bounds the bots thinking at once
// (-bot-workers), and that bound is a bound on cores only if each bot keeps
// to one.
func newBots(games *game.Registry) server.BotFactory {
	return func(gameID, level string) (server.Bot, error) {
		rules, err := games.Get(gameID)
		if err != nil {
			return nil, err
		}
		return ai.NewWith(rules, level, ai.Options{Seed: rand.Uint64(), Workers: 1})
	}
}

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: lagoon serve [flags]\n\nServes the games: the web page, the API (docs/api.md) and live play (docs/protocol.md).\n\nFlags:")
		fs.PrintDefaults()
	}
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	data := fs.String("data", "./lagoon-data", "directory of the game database")
	rate := fs.Float64("rate", 20, "API requests a second allowed per client address, in bursts of twice as many (0: no limit)")
	botWorkers := fs.Int("bot-workers", 0, "how many bots may think at once (0: half the CPUs)")
	botDelay := fs.Duration("bot-delay", 400*time.Millisecond, "how long a bot waits before moving, so that people can follow")
	verbose := fs.Bool("v", false, "log every request")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lagoon serve: unexpected arguments %q\n", fs.Args())
		return 2
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logHandler := slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})
	log := slog.New(logHandler)
	if err := serve(*addr, *data, *rate, *botWorkers, *botDelay, log, stdout); err != nil {
		log.Error("lagoon serve", "err", err)
		return 1
	}
	return 0
}

// serve runs the server until SIGINT or SIGTERM, then shuts it down without
// losing a move: the listener stops, requests under way finish, and the
// store is closed only after the last move has been written.
func serve(addr, data string, rate float64, botWorkers int, botDelay time.Duration, log *slog.Logger, stdout io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The address first: a server started twice fails here, before it
	// loads any game (and the store's lock refuses a second server on the
	// same data at another address).
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	st, err := store.Open(data)
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("closing the store", "err", err)
		}
	}()
	if rate <= 0 {
		rate = -1
	}
	games, err := servedGames()
	if err != nil {
		return err
	}
	srv, err := server.New(ctx, server.Config{
		Games:      games,
		Store:      st,
		Static:     web.Files(),
		Bots:       newBots(games),
		Levels:     ai.Levels,
		BotWorkers: botWorkers,
		BotDelay:   botDelay,
		Rate:       rate,
		Burst:      int(2 * rate),
		Log:        log,
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	log.Info("serving", "addr", ln.Addr().String(), "data", data)
	fmt.Fprintf(stdout, "Lagoon is at http://%s\n", ln.Addr())

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	stop() // a second signal ends the process at once
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
