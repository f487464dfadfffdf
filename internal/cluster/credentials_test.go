package cluster

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nkeys"

	"github.com/lagoon-games/lagoon/internal/cluster/natstest"
)

// connectCase is one attempt to join a NATS server: with what, and the
// words its error must have ("" for none).
type connectCase struct {
	name    string
	addr    func(url string) string // the address given, from the server's (itself when nil)
	cr      Credentials
	message string
	secrets []string // what the error must not show
}

// tryConnect runs the cases against the server at url.
func tryConnect(t *testing.T, url string, tests []connectCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := url
			if tt.addr != nil {
				addr = tt.addr(url)
			}
			c, err := Connect(addr, "a", Options{Prefix: testPrefix(), Log: quiet, Credentials: tt.cr})
			if tt.message == "" {
				if err != nil {
					t.Fatal(err)
				}
				// Connected is not enough: a message goes through.
				if _, err := c.nc.Request(c.subject("nobody"), nil, 2*time.Second); err == nil {
					t.Error("a request to nobody was answered")
				}
				if err := c.Close(); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				c.Close()
				t.Fatal("connected")
			}
			t.Log(err)
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("%q does not say %q", err, tt.message)
			}
			for _, s := range tt.secrets {
				if strings.Contains(err.Error(), s) {
					t.Errorf("%q shows %q", err, s)
				}
			}
		})
	}
}

// TestConnectCredentials: a NATS server that wants a user and password
// refuses a node without them or with wrong ones, from the address or the
// options, and the node says so at once rather than retry.
func TestConnectCredentials(t *testing.T) {
	srv := natstest.Own(t, "--user", "lagoon", "--pass", "right")
	inAddr := func(user string) func(string) string {
		return func(url string) string { return "nats://" + user + "@" + strings.TrimPrefix(url, "nats://") }
	}
	refused := "refused the node's credentials"
	tryConnect(t, srv.URL(), []connectCase{
		{name: "none", message: refused},
		{name: "wrong in the address", addr: inAddr("lagoon:wrong"), message: refused, secrets: []string{"wrong"}},
		{name: "right in the address", addr: inAddr("lagoon:right")},
		{name: "wrong in the options", cr: Credentials{User: "lagoon", Password: "wrong"}, message: refused, secrets: []string{"wrong"}},
		{name: "right in the options", cr: Credentials{User: "lagoon", Password: "right"}},
		{name: "a user without a password", cr: Credentials{User: "lagoon"}, message: "without a password"},
		{name: "a password without a user", cr: Credentials{Password: "right"}, message: "without a user", secrets: []string{"right"}},
		{name: "both the address and the options", addr: inAddr("lagoon:right"), cr: Credentials{User: "lagoon", Password: "right"}, message: "give one", secrets: []string{"right"}},
	})
}

// TestConnectToken: a NATS server that wants a token.
func TestConnectToken(t *testing.T) {
	srv := natstest.Own(t, "--auth", "s3cret-token")
	tryConnect(t, srv.URL(), []connectCase{
		{name: "none", message: "refused the node's credentials"},
		{name: "wrong", cr: Credentials{Token: "other-token"}, message: "refused the node's credentials", secrets: []string{"other-token"}},
		{name: "right", cr: Credentials{Token: "s3cret-token"}},
		{name: "a token and a user", cr: Credentials{Token: "s3cret-token", User: "u", Password: "p"}, message: "give one", secrets: []string{"s3cret-token"}},
	})
}

// TestConnectNkey: a NATS server that knows the node's user by its nkey.
func TestConnectNkey(t *testing.T) {
	dir := t.TempDir()
	seedFile := func(name string) (file, public string) {
		kp, err := nkeys.CreateUser()
		if err != nil {
			t.Fatal(err)
		}
		seed, err := kp.Seed()
		if err != nil {
			t.Fatal(err)
		}
		public, err = kp.PublicKey()
		if err != nil {
			t.Fatal(err)
		}
		file = filepath.Join(dir, name)
		writeFile(t, file, string(seed)+"\n")
		return file, public
	}
	known, public := seedFile("known.nk")
	stranger, _ := seedFile("stranger.nk")
	conf := filepath.Join(dir, "nats.conf")
	writeFile(t, conf, "authorization { users = [ { nkey: "+public+" } ] }\n")
	notASeed := filepath.Join(dir, "not-a-seed.nk")
	writeFile(t, notASeed, "hello\n")
	srv := natstest.Own(t, "-c", conf)
	tryConnect(t, srv.URL(), []connectCase{
		{name: "none", message: "refused the node's credentials"},
		{name: "a stranger's", cr: Credentials{NkeyFile: stranger}, message: "refused the node's credentials"},
		{name: "the node's", cr: Credentials{NkeyFile: known}},
		{name: "a missing file", cr: Credentials{NkeyFile: filepath.Join(dir, "missing.nk")}, message: "missing.nk"},
		{name: "not a seed", cr: Credentials{NkeyFile: notASeed}, message: "not-a-seed.nk"},
		{name: "a missing creds file", cr: Credentials{CredsFile: filepath.Join(dir, "missing.creds")}, message: "missing.creds"},
	})
}

// TestConnectTLS: a NATS server with a certificate of the test's own CA,
// and then one that asks the node for its own certificate too.
func TestConnectTLS(t *testing.T) {
	dir := t.TempDir()
	ca := natstest.NewCA(t, dir)
	serverCert, serverKey := ca.Issue(t, "server", true)
	nodeCert, nodeKey := ca.Issue(t, "node", false)
	other := natstest.NewCA(t, filepath.Join(dir, "other"))
	strangerCert, strangerKey := other.Issue(t, "stranger", false)

	srv := natstest.Own(t, "--tls", "--tlscert", serverCert, "--tlskey", serverKey)
	tryConnect(t, srv.URL(), []connectCase{
		{name: "the CA", cr: Credentials{CAFile: ca.File}},
		{name: "another CA", cr: Credentials{CAFile: other.File}, message: "shows a TLS certificate that the node's CA does not sign"},
		{name: "no CA", message: "shows a TLS certificate that the node's CA does not sign"},
		{name: "a CA file that is not one", cr: Credentials{CAFile: serverKey}, message: "NATS CA file"},
		{name: "a certificate without its key", cr: Credentials{CAFile: ca.File, CertFile: nodeCert}, message: "both its certificate and its key"},
	})

	verify := natstest.Own(t, "--tlsverify", "--tlscert", serverCert, "--tlskey", serverKey, "--tlscacert", ca.File)
	tryConnect(t, verify.URL(), []connectCase{
		{name: "the node's certificate", cr: Credentials{CAFile: ca.File, CertFile: nodeCert, KeyFile: nodeKey}},
		{name: "no certificate", cr: Credentials{CAFile: ca.File}, message: "refused the node's TLS certificate"},
		{name: "a stranger's certificate", cr: Credentials{CAFile: ca.File, CertFile: strangerCert, KeyFile: strangerKey}, message: "refused the node's TLS certificate"},
	})

	plain := natstest.Own(t)
	tryConnect(t, plain.URL(), []connectCase{
		{name: "TLS wanted of a server without it", cr: Credentials{CAFile: ca.File}, message: "does not speak TLS"},
	})
}

func writeFile(t *testing.T, file, text string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestConnectCreds: a NATS server run with an operator and an account
// (NATS's JWTs, made here), and a node with a creds file of a user of that
// account, or of a user the account never signed.
func TestConnectCreds(t *testing.T) {
	dir := t.TempDir()
	operator, account := newKeys(t, nkeys.CreateOperator), newKeys(t, nkeys.CreateAccount)
	opPub, acPub := publicKey(t, operator), publicKey(t, account)
	conf := filepath.Join(dir, "nats.conf")
	writeFile(t, conf, fmt.Sprintf("operator: %s\nresolver: MEMORY\nresolver_preload: { %s: %s }\n",
		signJWT(t, operator, opPub, map[string]any{"type": "operator", "version": 2}),
		acPub, signJWT(t, operator, acPub, map[string]any{"type": "account", "version": 2,
			"limits": map[string]any{"subs": -1, "data": -1, "payload": -1, "imports": -1, "exports": -1, "wildcards": true, "conn": -1, "leaf": -1}})))
	creds := func(name string, signer nkeys.KeyPair) string {
		user := newKeys(t, nkeys.CreateUser)
		jwt := signJWT(t, signer, publicKey(t, user), map[string]any{"type": "user", "version": 2, "pub": map[string]any{}, "sub": map[string]any{},
			"subs": -1, "data": -1, "payload": -1})
		seed, err := user.Seed()
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, name)
		writeFile(t, file, "-----BEGIN NATS USER JWT-----\n"+jwt+"\n------END NATS USER JWT------\n\n"+
			"-----BEGIN USER NKEY SEED-----\n"+string(seed)+"\n------END USER NKEY SEED------\n")
		return file
	}
	seed, err := newKeys(t, nkeys.CreateUser).Seed()
	if err != nil {
		t.Fatal(err)
	}
	nkeyFile := filepath.Join(dir, "user.nk")
	writeFile(t, nkeyFile, string(seed))
	srv := natstest.Own(t, "-c", conf)
	tryConnect(t, srv.URL(), []connectCase{
		{name: "none", message: "refused the node's credentials"},
		{name: "a user of the account", cr: Credentials{CredsFile: creds("user.creds", account)}},
		{name: "a user nobody signed", cr: Credentials{CredsFile: creds("stranger.creds", newKeys(t, nkeys.CreateAccount))}, message: "refused the node's credentials"},
		{name: "a creds file and an nkey", cr: Credentials{CredsFile: creds("both.creds", account), NkeyFile: nkeyFile}, message: "give one"},
	})
}

func newKeys(t *testing.T, create func() (nkeys.KeyPair, error)) nkeys.KeyPair {
	t.Helper()
	kp, err := create()
	if err != nil {
		t.Fatal(err)
	}
	return kp
}

func publicKey(t *testing.T, kp nkeys.KeyPair) string {
	t.Helper()
	pub, err := kp.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

// signJWT makes a NATS JWT of claims nats about subject, signed by
// issuer: the header, the claims and the signature, each base64url.
func signJWT(t *testing.T, issuer nkeys.KeyPair, subject string, nats map[string]any) string {
	t.Helper()
	enc := base64.RawURLEncoding
	claims := mustJSON(t, map[string]any{"jti": rand.Text(), "iat": time.Now().Unix(), "iss": publicKey(t, issuer), "sub": subject, "name": subject[:8], "nats": nats})
	signed := enc.EncodeToString([]byte(`{"typ":"JWT","alg":"ed25519-nkey"}`)) + "." + enc.EncodeToString(claims)
	sig, err := issuer.Sign([]byte(signed))
	if err != nil {
		t.Fatal(err)
	}
	return signed + "." + enc.EncodeToString(sig)
}
