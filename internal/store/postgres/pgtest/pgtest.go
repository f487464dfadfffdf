// Package pgtest gives a test a PostgreSQL schema of its own, on the
// server that LAGOON_POSTGRES names, so that tests run in parallel and a
// rerun starts clean.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// URL returns the address of a new, empty schema on the server of
// LAGOON_POSTGRES (a postgres:// URL), which is dropped when t ends. Without
// LAGOON_POSTGRES the test is skipped, with a message, unless
// LAGOON_REQUIRE_POSTGRES=1 (as in CI), which fails it instead.
func URL(t testing.TB) string {
	t.Helper()
	server := os.Getenv("LAGOON_POSTGRES")
	if server == "" {
		const why = "LAGOON_POSTGRES is not set: the tests of the PostgreSQL store need a server, e.g. LAGOON_POSTGRES=postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
		if os.Getenv("LAGOON_REQUIRE_POSTGRES") == "1" {
			t.Fatal(why + " (LAGOON_REQUIRE_POSTGRES=1 forbids skipping)")
		}
		t.Skip(why)
	}
	b := make([]byte, 8)
	rand.Read(b)
	schema := "lagoon_test_" + hex.EncodeToString(b)
	Exec(t, server, `CREATE SCHEMA `+schema)
	t.Cleanup(func() { dropSchema(t, server, schema) })
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("LAGOON_POSTGRES: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// dropSchema drops a test's schema, trying again while PostgreSQL picks
// the drop as a deadlock's victim: a node process the test killed (kill
// -9) leaves its server session running until the server notices, and
// that session's locks can meet the drop's (SQLSTATE 40P01, seen once in
// TestCluster's cleanup).
func dropSchema(t testing.TB, server, schema string) {
	t.Helper()
	drop, conn := `DROP SCHEMA `+schema+` CASCADE`, Conn(t, server)
	for attempt := 1; ; attempt++ {
		err := conn.Exec(t, drop)
		var pe *pgconn.PgError
		if err != nil && attempt < 10 && errors.As(err, &pe) && pe.Code == "40P01" {
			time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
}

// Exec runs statement on the database at address, as a hand would,
// beside any store; its placeholders are ? (each becomes $1, $2...).
func Exec(t testing.TB, address, statement string, args ...any) {
	t.Helper()
	if err := Conn(t, address).Exec(t, statement, args...); err != nil {
		t.Fatal(err)
	}
}

// Beside is a connection to a database beside any store, as a hand would
// have, for many statements.
type Beside struct{ conn *pgx.Conn }

// Conn connects to the database at address, until t ends.
func Conn(t testing.TB, address string) *Beside {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return &Beside{conn}
}

// Exec runs statement, its placeholders ?.
func (b *Beside) Exec(t testing.TB, statement string, args ...any) error {
	if _, err := b.conn.Exec(context.Background(), Dollars(statement), args...); err != nil {
		return fmt.Errorf("%s: %w", statement, err)
	}
	return nil
}

// Query runs query, its placeholders ?, and returns its columns' names
// and its rows' values.
func (b *Beside) Query(t testing.TB, query string, args ...any) (cols []string, out [][]any) {
	t.Helper()
	rows, err := b.conn.Query(context.Background(), Dollars(query), args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for _, f := range rows.FieldDescriptions() {
		cols = append(cols, f.Name)
	}
	for rows.Next() {
		values, err := rows.Values()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, values)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return cols, out
}

// QueryInt returns the integer that query returns on the database at
// address.
func QueryInt(t testing.TB, address, query string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, address)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int64
	if err := conn.QueryRow(ctx, query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// Dollars turns a statement's ? placeholders into PostgreSQL's $1, $2...;
// the statements it is for hold no ? in their text.
func Dollars(statement string) string {
	var b strings.Builder
	n := 0
	for _, r := range statement {
		if r == '?' {
			n++
			b.WriteString("$")
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
