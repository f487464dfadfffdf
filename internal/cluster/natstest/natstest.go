// Package natstest gives a test the NATS server that LAGOON_NATS names,
// or skips it with a message where there is none.
package natstest

import (
	"os"
	"testing"
)

// URL returns LAGOON_NATS. Without it the test is skipped, with a
// message, unless LAGOON_REQUIRE_NATS=1 (as in CI), which fails it
// instead.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("LAGOON_NATS")
	if u == "" {
		if os.Getenv("LAGOON_REQUIRE_NATS") == "1" {
			t.Fatal("LAGOON_NATS is not set, and LAGOON_REQUIRE_NATS=1 says the NATS tests must run")
		}
		t.Skip("LAGOON_NATS is not set: start NATS (nats-server -js) and set LAGOON_NATS=nats://127.0.0.1:4222 to run the cluster tests")
	}
	return u
}
