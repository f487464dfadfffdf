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
	"net/http/pprof"
	"net/netip"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/lagoon-games/lagoon/ai"
	"github.com/lagoon-games/lagoon/internal/cluster"
	"github.com/lagoon-games/lagoon/internal/server"
	"github.com/lagoon-games/lagoon/internal/store"
	"github.com/lagoon-games/lagoon/internal/store/postgres"
	"github.com/lagoon-games/lagoon/web"
)

// shutdownGrace bounds how long a shutdown waits for requests under way.
const shutdownGrace = 10 * time.Second

// newBots returns what makes the bot of a level of a hosted game for a
// seat. A bot searches on one core: the server bounds the bots thinking at
// once (-bot-workers), and that bound is a bound on cores only if each bot
// keeps to one. At a table with people a bot acts at a person's pace where
// its game has one (Laguna), so that a turn timer binds it as it binds
// them.
func newBots() server.BotFactory {
	return func(gameID, level string, withPeople bool) (server.Bot, error) {
		h, err := hostedByID(gameID)
		if err != nil {
			return nil, err
		}
		return ai.NewWith(h.bots(), level, ai.Options{Seed: rand.Uint64(), Workers: 1, Paced: withPeople})
	}
}

// levels returns the levels of a hosted game's bots, easiest first.
func levels(gameID string) []string {
	h, err := hostedByID(gameID)
	if err != nil {
		return nil
	}
	return h.bots().Levels()
}

// serveFlags declares serve's flags into o; the collector's percentage
// and -v are returned apart, as the command reads them itself.
func serveFlags(o *serveOptions) (fs *flag.FlagSet, gcPercent *int, verbose *bool) {
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: lagoon serve [flags]\n\nServes the games: the web page, the API (docs/api.md) and live play (docs/protocol.md).\nThe limits are described in docs/api.md (Limits); a negative number turns one off.\n\nFlags:")
		fs.PrintDefaults()
	}
	conns, connsPerAddr := server.DefaultConnLimits()
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&o.data, "data", "./lagoon-data", "directory of the game database (SQLite)")
	fs.StringVar(&o.store, "store", "", "where the games are kept: a PostgreSQL database (postgres://user:password@host:5432/db) or, as -data, a data directory (default: -data's)")
	fs.Float64Var(&o.rate, "rate", 20, "API requests a second allowed per client address, in bursts of twice as many (0: no limit)")
	fs.IntVar(&o.cfg.BotWorkers, "bot-workers", 0, "how many bots may think at once (0: half the CPUs)")
	fs.DurationVar(&o.cfg.BotDelay, "bot-delay", 400*time.Millisecond, "how long a bot waits before its turn, so that people can follow (its next decisions in the turn wait a quarter of it, four at most)")
	fs.Func("host", "a host name (or address) the server answers for besides loopback ones, as people type it in their browser; repeat or separate by commas", func(v string) error {
		for h := range strings.SplitSeq(v, ",") {
			if h = strings.TrimSpace(h); h != "" {
				o.cfg.Hosts = append(o.cfg.Hosts, h)
			}
		}
		return nil
	})
	fs.Func("trusted-proxy", "a load balancer in front of the server, as a CIDR prefix (10.0.0.0/24) or an address: a request from it is the client's named in X-Forwarded-For, for the limits per address; repeat or separate by commas (docs/operations.md)", func(v string) error {
		for p := range strings.SplitSeq(v, ",") {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			prefix, err := parseTrustedProxy(p)
			if err != nil {
				return err
			}
			o.cfg.TrustedProxies = append(o.cfg.TrustedProxies, prefix)
		}
		return nil
	})
	fs.IntVar(&o.maxConns, "max-conns", conns, "connections open at once, in all (default: three quarters of the process's open-file limit)")
	fs.IntVar(&o.maxConnsPerAddr, "max-conns-per-addr", connsPerAddr, "connections open at once from one client address")
	fs.IntVar(&o.cfg.MaxGames, "max-games", 5000, "games in progress, in all")
	fs.IntVar(&o.cfg.MaxGamesPerAddr, "max-games-per-addr", 50, "games in progress created from one client address (an IPv6 address's /64)")
	fs.IntVar(&o.cfg.MaxGamesShare, "max-games-share", 1, "the most of -max-games, in percent, that one client address (an IPv6 address's /64) may have in progress")
	fs.IntVar(&o.cfg.MaxMoves, "max-moves", 10000, "moves after which a game its rules have not ended ends, nobody winning (-1: no bound)")
	fs.IntVar(&o.cfg.MaxBotGamesPerAddr, "max-bot-games-per-addr", 4, "games of bots alone in progress created from one client address (an IPv6 address's /64)")
	fs.DurationVar(&o.cfg.OpenExpiry, "open-expiry", time.Hour, "a game with a seat nobody has taken is given up after this long without a change")
	fs.DurationVar(&o.cfg.IdleExpiry, "idle-expiry", 7*24*time.Hour, "a game in progress is given up after this long without a move or a change of seats")
	fs.DurationVar(&o.cfg.HeaderTimeout, "header-timeout", 10*time.Second, "time a client has to send a request's headers")
	fs.DurationVar(&o.cfg.BodyTimeout, "body-timeout", 10*time.Second, "time a client has to send a request's body")
	fs.DurationVar(&o.cfg.IdleTimeout, "idle-timeout", time.Minute, "a kept-alive connection with no request is closed after this long")
	fs.DurationVar(&o.cfg.HelloTimeout, "hello-timeout", 10*time.Second, "time a WebSocket has to say hello")
	fs.StringVar(&o.nats, "nats", "", "NATS server (nats://host:4222) that makes this server one node of a cluster with the others on it; needs a postgres:// -store shared by them all (docs/cluster.md)")
	fs.StringVar(&o.node, "node", "", "this node's name in the cluster, unique among its nodes: letters, digits, - and _ (default: the host name)")
	fs.StringVar(&o.natsPrefix, "nats-prefix", "lagoon", "the first part of the cluster's NATS subjects: clusters sharing one NATS server need different ones")
	fs.StringVar(&o.natsUser, "nats-user", "", "the NATS user the node connects as, with -nats-password-file (docs/operations.md, NATS)")
	fs.StringVar(&o.natsPasswordFile, "nats-password-file", "", "a file holding -nats-user's password (a file, so that the password is not in the command line, which any user of the machine can read)")
	fs.StringVar(&o.natsTokenFile, "nats-token-file", "", "a file holding the NATS server's token")
	fs.StringVar(&o.natsCreds.NkeyFile, "nats-nkey", "", "a file holding the nkey seed (SU...) of the NATS user the node connects as")
	fs.StringVar(&o.natsCreds.CredsFile, "nats-creds", "", "a NATS creds file (a user's JWT and seed) the node connects with")
	fs.StringVar(&o.natsCreds.CAFile, "nats-ca", "", "a PEM file of the certificates that sign the NATS server's: the node then speaks TLS to NATS and trusts no other server")
	fs.StringVar(&o.natsCreds.CertFile, "nats-cert", "", "the node's own TLS certificate (PEM), for a NATS server that asks its clients for one; with -nats-key")
	fs.StringVar(&o.natsCreds.KeyFile, "nats-key", "", "the key of -nats-cert (PEM)")
	fs.StringVar(&o.metrics, "metrics", "", "address to serve /metrics on, in the Prometheus text format (e.g. 127.0.0.1:9090; default: none)")
	gcPercent = fs.Int("gc-percent", defaultGCPercent, "how far the heap may grow past what is live before the Go collector runs, in per cent (GOGC; the GOGC environment variable, when set, wins over the default but not over this flag)")
	verbose = fs.Bool("v", false, "log every request")
	return fs, gcPercent, verbose
}

// parseTrustedProxy parses a -trusted-proxy: a CIDR prefix, or an address
// alone for a prefix of that address only.
func parseTrustedProxy(v string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(v); err == nil {
		return p.Masked(), nil
	}
	if a, err := netip.ParseAddr(v); err == nil && a.Zone() == "" {
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	return netip.Prefix{}, fmt.Errorf("%q is neither a CIDR prefix (10.0.0.0/24, 2001:db8::/64) nor an address", v)
}

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o serveOptions
	fs, gcPercent, verbose := serveFlags(&o)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "gc-percent" })
	_, envSet := os.LookupEnv("GOGC")
	if percent, apply := collectorPercent(*gcPercent, given, envSet); apply {
		debug.SetGCPercent(percent)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lagoon serve: unexpected arguments %q\n", fs.Args())
		return 2
	}
	dataGiven := false
	fs.Visit(func(f *flag.Flag) { dataGiven = dataGiven || f.Name == "data" })
	if o.store != "" && dataGiven {
		fmt.Fprintln(stderr, "lagoon serve: -store and -data both say where the games are: give one")
		return 2
	}
	if o.store == "" {
		o.store = o.data
	}
	if err := o.checkCluster(); err != nil {
		fmt.Fprintf(stderr, "lagoon serve: %v\n", err)
		return 2
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logHandler := slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})
	log := slog.New(logHandler)
	if err := serve(o, log, stdout); err != nil {
		if errors.Is(err, store.ErrEmptied) || errors.Is(err, store.ErrUnreadable) || errors.Is(err, store.ErrLogDamaged) {
			// The games' database is lost or damaged: the way out is in
			// the message, which reads better as text than as a log field.
			fmt.Fprintf(stderr, "lagoon serve: %v\n", err)
			return 1
		}
		log.Error("lagoon serve", "err", err)
		return 1
	}
	return 0
}

// defaultGCPercent is the server's GOGC unless told otherwise. The live
// heap of a server is small (some 60 MB for 1,000 games) and most of what
// it allocates is garbage at once: a move's encodings, and above all the
// trees of bots' searches. At Go's default of 100 the collector ran often
// while a max bot searched, and each cycle's marking took a share of the
// cores from the people's moves, several times their p99 at 200
// (docs/performance.md, GOGC 200). The cost is memory: the heap may grow
// to three times what is live. GOMEMLIMIT bounds
// it where memory is short; the collector works harder as the heap nears
// that limit.
const defaultGCPercent = 200

// collectorPercent says which GOGC the server runs with: the flag's when
// it was given; else the environment's, which the runtime has read already
// (apply is false); else the flag's default.
func collectorPercent(flagValue int, given, envSet bool) (percent int, apply bool) {
	if !given && envSet {
		return 0, false
	}
	return flagValue, true
}

// checkCluster checks the cluster's flags: -nats needs the PostgreSQL
// store the nodes share (each node's own SQLite would make as many
// separate servers), and a node has a name, the host's by default.
func (o *serveOptions) checkCluster() error {
	if o.nats == "" {
		if o.node != "" {
			return errors.New("-node names a node of a cluster: it needs -nats")
		}
		if o.natsUser != "" || o.natsPasswordFile != "" || o.natsTokenFile != "" || o.natsCreds != (cluster.Credentials{}) {
			return errors.New("the -nats-... flags say how to reach a cluster's NATS: they need -nats")
		}
		return nil
	}
	if !isPostgres(o.store) {
		return errors.New("-nats makes a node of a cluster, whose nodes share their games: it needs -store postgres://...")
	}
	if o.node == "" {
		host, err := os.Hostname()
		if err != nil {
			return fmt.Errorf("-node not given, and the host has no name: %w", err)
		}
		o.node = host
	}
	o.natsCreds.User = o.natsUser
	var err error
	if o.natsCreds.Password, err = secretFile("-nats-password-file", o.natsPasswordFile); err != nil {
		return err
	}
	if o.natsCreds.Token, err = secretFile("-nats-token-file", o.natsTokenFile); err != nil {
		return err
	}
	return nil
}

// secretFile reads a password or a token from file ("" when none), without
// the line's end an editor leaves; an empty one is an error, not a secret
// of nothing. The error names the file, never what it holds.
func secretFile(flag, file string) (string, error) {
	if file == "" {
		return "", nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("%s: %w", flag, err)
	}
	secret := strings.TrimRight(string(b), "\r\n")
	if secret == "" {
		return "", fmt.Errorf("%s: %s is empty", flag, file)
	}
	return secret, nil
}

// serveOptions are lagoon serve's flags.
type serveOptions struct {
	addr, data, metrics       string
	store                     string // -store, or -data's directory
	nats, node, natsPrefix    string // the cluster: -nats, -node, -nats-prefix
	natsUser                  string // -nats-user
	natsPasswordFile          string // -nats-password-file, read into natsCreds by checkCluster
	natsTokenFile             string // -nats-token-file, the same
	natsCreds                 cluster.Credentials
	rate                      float64
	maxConns, maxConnsPerAddr int
	cfg                       server.Config // the limits and the bots' settings
}

// serve runs the server until SIGINT or SIGTERM, then shuts it down without
// losing a move: the listener stops, requests under way finish, and the
// store is closed only after the last move has been written.
// config returns the server's configuration: the options', the hosted
// games and their bots, the store and the listener.
func (o serveOptions) config(st store.Store, ln *server.Listener, log *slog.Logger) (server.Config, error) {
	rate := o.rate
	if rate <= 0 {
		rate = -1
	}
	games, err := registry()
	if err != nil {
		return server.Config{}, err
	}
	cfg := o.cfg
	cfg.Games, cfg.Store, cfg.Static, cfg.Bots, cfg.Levels = games, st, web.Files(), newBots(), levels
	cfg.Rate, cfg.Burst, cfg.Log, cfg.Conns = rate, int(2*rate), log, ln
	// The name or address the server was told to listen on is its own.
	if host, _, err := net.SplitHostPort(o.addr); err == nil && host != "" {
		if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
			cfg.Hosts = append(cfg.Hosts, host)
		}
	}
	return cfg, nil
}

// serveMetrics serves the server's metrics and the profiles at addr, off
// the public port: the figures are for the operator, reached where the
// operator chooses (a loopback or private address), and a scrape is
// neither rate-limited nor counted as a client. The profiles too: an
// operator who can read the figures can ask where the time goes, under the
// load that made them. Like the public address it answers only for the
// server's own hosts (DNS rebinding).
func serveMetrics(addr string, srv *server.Server, stdout io.Writer) (*http.Server, error) {
	mln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", srv.Metrics())
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	ms := &http.Server{Handler: srv.OwnHostOnly(mux), ReadHeaderTimeout: 10 * time.Second}
	go ms.Serve(mln)
	fmt.Fprintf(stdout, "Metrics are at http://%s/metrics\n", mln.Addr())
	return ms, nil
}

func serve(o serveOptions, log *slog.Logger, stdout io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The address first: a server started twice fails here, before it
	// loads any game (and the store's lock refuses a second server on the
	// same data at another address).
	inner, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	ln := server.NewListener(inner, max(0, o.maxConns), max(0, o.maxConnsPerAddr), o.cfg.TrustedProxies, log)
	defer ln.Close()
	// NATS before the store: a node that cannot reach the others stops
	// before it touches the database.
	var cl *server.Cluster
	if o.nats != "" {
		gate := &server.Gate{}
		conn, err := cluster.Connect(o.nats, o.node, cluster.Options{Prefix: o.natsPrefix, Handler: gate.Handler, Counts: gate.Counts, Owner: gate.Owner, Log: log, Credentials: o.natsCreds})
		if err != nil {
			return err
		}
		defer conn.Close()
		cl = &server.Cluster{Conn: conn, Gate: gate}
	}
	st, err := openStore(ctx, o.store)
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("closing the store", "err", err)
		}
	}()
	cfg, err := o.config(st, ln, log)
	if err != nil {
		return err
	}
	if cl != nil {
		cl.Leases = st.(*postgres.Store)
		cfg.Cluster = cl
	}
	srv, err := server.New(ctx, cfg)
	if err != nil {
		return err
	}
	defer srv.Close()
	hs := srv.HTTPServer()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	log.Info("serving", "addr", ln.Addr().String(), "store", storeName(o.store), "node", o.node, "max_conns", o.maxConns, "max_conns_per_addr", o.maxConnsPerAddr)
	fmt.Fprintf(stdout, "Lagoon is at http://%s\n", ln.Addr())
	if o.metrics != "" {
		ms, err := serveMetrics(o.metrics, srv, stdout)
		if err != nil {
			return err
		}
		defer ms.Close()
	}

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
