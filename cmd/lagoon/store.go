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
	"strings"
	"time"

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
or a postgres:// URL (PostgreSQL), either way. Each game is read back from
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
	copied, there, err := copyGames(ctx, src, dst)
	fmt.Fprintf(out, "copied %d games from %s to %s; %d were there already\n", copied, storeName(from), storeName(to), there)
	return errors.Join(err, dst.Close())
}

// copyGames copies every game of src into dst, game by game: each is read
// from src (its checksums checked), imported into dst, read back from dst
// (checked again) and compared. A game dst has already is left as it is,
// counted in there if it is the same. The games that could not be copied,
// damaged in src or different in dst, are the error; the others are
// copied all the same.
func copyGames(ctx context.Context, src, dst store.Store) (copied, there int, _ error) {
	ids, err := src.IDs(ctx)
	if err != nil {
		return 0, 0, err
	}
	var failed []error
	for _, id := range ids {
		g, err := src.Game(ctx, id)
		if err != nil {
			failed = append(failed, fmt.Errorf("not copied: %w", err))
			continue
		}
		have, err := dst.Game(ctx, id)
		switch {
		case err == nil && reflect.DeepEqual(have, g):
			there++
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
	}
	if ctx.Err() != nil {
		failed = append(failed, ctx.Err())
	}
	return copied, there, errors.Join(failed...)
}
