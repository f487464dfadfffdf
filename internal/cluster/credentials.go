package cluster

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/nats-io/nats.go"
)

// Credentials are how a node proves who it is to NATS, and how it checks
// that the server it reached is the cluster's, besides what its address
// may say (nats://user:password@host, tls://host). A NATS server that the
// nodes alone can reach is what keeps strangers from speaking in the
// cluster's name (docs/operations.md, NATS).
//
// Invariant, checked by Connect: at most one way of proving who the node
// is (a user with its password, a token, an nkey seed file or a creds
// file, or the address's own user), and CertFile and KeyFile given
// together or not at all. The zero value is none: a NATS server that asks
// nobody.
type Credentials struct {
	// User and Password are a user of the NATS server's.
	User, Password string
	// Token is the server's token.
	Token string
	// NkeyFile holds a user's nkey seed (SU...): the server knows the
	// user by its public key, and the seed never leaves the node.
	NkeyFile string
	// CredsFile is a user's JWT and seed, as nsc writes them, for a NATS
	// server run with an operator and its accounts.
	CredsFile string
	// CAFile holds the certificates, PEM, that sign the NATS server's:
	// the node then speaks TLS and accepts no other server.
	CAFile string
	// CertFile and KeyFile are the node's own certificate and key, PEM,
	// for a NATS server that asks its clients for one (verify).
	CertFile, KeyFile string
}

// natsOptions returns the nats.go options that present cr, or what is
// wrong with it; addr is the address it goes with, whose own user counts
// as a way of proving who the node is. A file is read here, so that a
// missing or unreadable one is said at once, not as a refusal by NATS.
// No error shows a password, a token or a key.
func (cr Credentials) natsOptions(addr string) ([]nats.Option, error) {
	var ways []string
	if addrHasUser(addr) {
		ways = append(ways, "the address's user")
	}
	var opts []nats.Option
	switch {
	case cr.User != "" && cr.Password == "":
		return nil, fmt.Errorf("cluster: NATS user %q without a password", cr.User)
	case cr.User == "" && cr.Password != "":
		return nil, errors.New("cluster: a NATS password without a user")
	case cr.User != "":
		ways = append(ways, "a user and password")
		opts = append(opts, nats.UserInfo(cr.User, cr.Password))
	}
	if cr.Token != "" {
		ways = append(ways, "a token")
		opts = append(opts, nats.Token(cr.Token))
	}
	if cr.NkeyFile != "" {
		ways = append(ways, "an nkey")
		o, err := nats.NkeyOptionFromSeed(cr.NkeyFile)
		if err != nil {
			// nats.go's message names the file, never the seed.
			return nil, fmt.Errorf("cluster: the NATS nkey seed file %s: %w", cr.NkeyFile, err)
		}
		opts = append(opts, o)
	}
	if cr.CredsFile != "" {
		ways = append(ways, "a creds file")
		// nats.go reads the file only when it connects, and its error
		// then reads as a refusal by the server: read it now.
		if err := readable("NATS creds file", cr.CredsFile); err != nil {
			return nil, err
		}
		opts = append(opts, nats.UserCredentials(cr.CredsFile))
	}
	if len(ways) > 1 {
		return nil, fmt.Errorf("cluster: NATS credentials given %d ways (%v): give one", len(ways), ways)
	}
	if cr.CAFile != "" {
		if err := check(nats.RootCAs(cr.CAFile)); err != nil {
			return nil, fmt.Errorf("cluster: the NATS CA file %s: %w", cr.CAFile, err)
		}
		opts = append(opts, nats.RootCAs(cr.CAFile))
	}
	switch {
	case (cr.CertFile == "") != (cr.KeyFile == ""):
		return nil, errors.New("cluster: a NATS client certificate needs both its certificate and its key file")
	case cr.CertFile != "":
		if err := check(nats.ClientCert(cr.CertFile, cr.KeyFile)); err != nil {
			return nil, fmt.Errorf("cluster: the NATS client certificate %s and key %s: %w", cr.CertFile, cr.KeyFile, err)
		}
		opts = append(opts, nats.ClientCert(cr.CertFile, cr.KeyFile))
	}
	return opts, nil
}

// check applies o to options of its own, which reads and parses the files
// it names: what is wrong with them is said before any connection.
func check(o nats.Option) error {
	var scratch nats.Options
	return o(&scratch)
}

// addrHasUser reports whether an address (a list, by commas) names a user
// or a token itself.
func addrHasUser(addr string) bool {
	for a := range strings.SplitSeq(addr, ",") {
		if u, err := url.Parse(strings.TrimSpace(a)); err == nil && u.User != nil {
			return true
		}
	}
	return false
}

// readable fails, naming the file, unless it can be read.
func readable(what, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("cluster: the %s: %w", what, err)
	}
	return f.Close()
}
