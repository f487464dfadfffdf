package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/lagoon-games/lagoon/internal/store"
)

// runBackup takes a consistent copy of a data directory's games, beside the
// server that may be running on it.
func runBackup(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	data := fs.String("data", "./lagoon-data", "the data directory of the games (lagoon serve's -data)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), `usage: lagoon backup [-data DIR] FILE

Writes a consistent copy of the games of DIR to FILE, a new file, while
lagoon serve may be running on DIR: every move acknowledged before the
backup began is in the copy. To restore, stop the server (or start a new
one) with FILE as the lagoon.db of an empty data directory:

  mkdir restored && cp FILE restored/lagoon.db && lagoon serve -data restored

Flags:`)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if isPostgres(*data) {
		fmt.Fprintln(stderr, "lagoon backup: copies a data directory's SQLite database; back PostgreSQL up with its own tools (pg_dump), or copy its games into a data directory with lagoon store copy")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := store.Backup(ctx, *data, fs.Arg(0)); err != nil {
		fmt.Fprintf(stderr, "lagoon %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", *data, fs.Arg(0))
	return 0
}
