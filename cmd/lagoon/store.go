package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/lagoon-games/lagoon/internal/players"
	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/postgres"
)

// This file holds where the games are kept (-store) and lagoon store copy,
// which copies them from one store to another.

// openTimeout bounds the opening of a PostgreSQL store: an address that
// does not answer is an error at start, not a server that hangs.
const openTimeout = 30 * time.Second

// isPostgres says address names a PostgreSQL database rather than a data
// directory.
func isPostgres(address string) bool {
	return strings.HasPrefix(address, "postgres://") || strings.HasPrefix(address, "postgresql://")
}

// openStore opens the store at address: a PostgreSQL database for a
// postgres:// URL, else the SQLite database of a data directory.
func openStore(ctx context.Context, address string) (store.Store, error) {
	if !isPostgres(address) {
		s, err := store.Open(address)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	ctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	s, err := postgres.Open(ctx, address)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// storeName names the store at address for a log or a message, without
// its password.
func storeName(address string) string {
	if !isPostgres(address) {
		return address
	}
	u, err := url.Parse(address)
	if err != nil {
		return "(a PostgreSQL address that does not parse)"
	}
	return u.Redacted()
}

// runStore runs lagoon store's subcommands: copy.
func runStore(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("store copy", flag.ContinueOnError)
	from := fs.String("from", "", "the store to copy from: a data directory or a postgres:// URL")
	to := fs.String("to", "", "the store to copy into: a data directory or a postgres:// URL")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: lagoon store copy -from STORE -to STORE

Copies every game of one store into another, each a data directory (SQLite)
or a postgres:// URL (PostgreSQL), either way, and then every player with
their sessions and the seats they hold. Each game is read back from
the target and compared with the source's, its checksums verified. A game
the target has already, the same, is left as it is, so a copy cut short is
run again; a different game of the same id is never overwritten (it is
reported, and the copy ends with status 1). No server may be writing the
source while it is copied: stop it first.

Flags:`)
		fs.PrintDefaults()
	}
	if len(args) == 0 || args[0] != "copy" {
		fs.Usage()
		return 2
	}
	if code, ok := parseFlags(fs, args[1:], stderr); !ok {
		return code
	}
	if fs.NArg() > 0 || *from == "" || *to == "" {
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := copyStores(ctx, *from, *to, stdout); err != nil {
		fmt.Fprintf(stderr, "lagoon store copy: %v\n", err)
		return 1
	}
	return 0
}

// copyStores opens the stores at from and to and copies from's games into
// to, reporting on out.
func copyStores(ctx context.Context, from, to string, out io.Writer) error {
	src, err := openStore(ctx, from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := openStore(ctx, to)
	if err != nil {
		return err
	}
	copied, there, left, err := copyGames(ctx, src, dst)
	fmt.Fprintf(out, "copied %d games from %s to %s; %d were there already\n", copied, storeName(from), storeName(to), there)
	// After the games: the seats players hold name them.
	pcopied, pthere, perr := copyPlayers(ctx, src, dst, left)
	fmt.Fprintf(out, "copied %d players from %s to %s; %d were there already\n", pcopied, storeName(from), storeName(to), pthere)
	return errors.Join(err, perr, dst.Close())
}

// copyPlayers copies every player of src into dst with their sessions and
// the seats they hold (docs/players.md), as copyGames copies games: a
// player dst has already, the same, is left as it is (but for the seats
// it lacks, so that a copy cut short is run again), one that differs is
// never overwritten, and the players that could not be copied are the
// error. A seat of a game left (not copied: damaged, or the target's game
// of its id is another) is not copied either.
func copyPlayers(ctx context.Context, src, dst store.Store, left map[string]bool) (copied, there int, _ error) {
	ids, err := src.PlayerIDs(ctx)
	if err != nil {
		return 0, 0, err
	}
	var failed []error
	for _, id := range ids {
		p, err := src.Player(ctx, id)
		if err != nil {
			failed = append(failed, fmt.Errorf("not copied: %w", err))
			continue
		}
		sessions, err := src.Sessions(ctx, id)
		if err != nil {
			failed = append(failed, fmt.Errorf("not copied: %w", err))
			continue
		}
		have, err := dst.Player(ctx, id)
		switch {
		case err == nil && have != p:
			failed = append(failed, fmt.Errorf("not copied: player %s: the target has a different player of that id, left as it is", id))
			continue
		case err == nil:
			there++
		case !errors.Is(err, players.ErrNotFound):
			failed = append(failed, fmt.Errorf("not copied: the target's: %w", err))
			continue
		default:
			if err := dst.ImportPlayer(ctx, p, sessions); err != nil {
				failed = append(failed, err)
				continue
			}
			copied++
		}
		if err := copySeats(ctx, src, dst, id, left); err != nil {
			failed = append(failed, err)
		}
	}
	if ctx.Err() != nil {
		failed = append(failed, ctx.Err())
	}
	return copied, there, errors.Join(failed...)
}

// copySeats records in dst the seats player holds in src that it does not
// hold in dst, but for those of the games left.
func copySeats(ctx context.Context, src, dst store.Store, player string, left map[string]bool) error {
	seats, err := src.OwnedSeats(ctx, player)
	if err != nil {
		return fmt.Errorf("seats not copied: %w", err)
	}
	held, err := dst.OwnedSeats(ctx, player)
	if err != nil {
		return fmt.Errorf("seats not copied: the target's: %w", err)
	}
	var failed []error
	for _, o := range seats {
		if left[o.Game] || slices.ContainsFunc(held, func(h store.OwnedSeat) bool { return h.Game == o.Game && h.Seat == o.Seat && h.At.Equal(o.At) }) {
			continue
		}
		if err := dst.OwnSeat(ctx, o.Game, o.Seat, player, o.At); err != nil {
			failed = append(failed, fmt.Errorf("player %s's seat not copied: %w", player, err))
		}
	}
	return errors.Join(failed...)
}

// copyGames copies every game of src into dst, game by game: each is read
// from src (its checksums checked), imported into dst, read back from dst
// (checked again) and compared. A game dst has already is left as it is,
// counted in there if it is the same. The games that could not be copied,
// damaged in src or different in dst, are the error, and left; the
// others are copied all the same.
func copyGames(ctx context.Context, src, dst store.Store) (copied, there int, left map[string]bool, _ error) {
	ids, err := src.IDs(ctx)
	if err != nil {
		return 0, 0, nil, err
	}
	var failed []error
	left = map[string]bool{}
	for _, id := range ids {
		left[id] = true
		g, err := src.Game(ctx, id)
		if err != nil {
			failed = append(failed, fmt.Errorf("not copied: %w", err))
			continue
		}
		have, err := dst.Game(ctx, id)
		switch {
		case err == nil && reflect.DeepEqual(have, g):
			there++
			delete(left, id)
			continue
		case err == nil:
			failed = append(failed, fmt.Errorf("not copied: game %s: the target has a different game of that id, left as it is", id))
			continue
		case !errors.Is(err, store.ErrNotFound):
			failed = append(failed, fmt.Errorf("not copied: the target's: %w", err))
			continue
		}
		if err := dst.Import(ctx, g); err != nil {
			failed = append(failed, err)
			continue
		}
		back, err := dst.Game(ctx, id)
		if err != nil {
			failed = append(failed, fmt.Errorf("copied, and reading it back: %w", err))
			continue
		}
		if !reflect.DeepEqual(back, g) {
			failed = append(failed, fmt.Errorf("game %s: copied, and it reads back otherwise than its source", id))
			continue
		}
		copied++
		delete(left, id)
	}
	if ctx.Err() != nil {
		failed = append(failed, ctx.Err())
	}
	return copied, there, left, errors.Join(failed...)
}
