package server

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/lagoon-games/lagoon/internal/cluster"
)

// metrics are the server's figures in the Prometheus text format
// (Server.Metrics), each server its own registry.
type metrics struct {
	reg         *prometheus.Registry
	moves       *prometheus.HistogramVec // a move, from its arrival to its answer, by who made it
	botWait     *prometheus.HistogramVec // a bot move's wait for a worker, by kind of game and cost
	botThink    *prometheus.HistogramVec
	botsHurried prometheus.Counter
	refused     *prometheus.CounterVec // requests refused by a limit, by code
	takeBacks   prometheus.Counter
	// timeWarnings counts correspondence turns whose seat was warned
	// that 80% of its time is gone.
	timeWarnings prometheus.Counter
	forwards     *prometheus.CounterVec // commands forwarded to another node that failed, by kind
	resyncs      *prometheus.CounterVec // relayed games whose clients were told to reconnect, by reason
}

// forwardFailed counts a forwarded command's failure.
func (m *metrics) forwardFailed(k cluster.Kind) { m.forwards.WithLabelValues(string(k)).Inc() }

func newMetrics(s *Server) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	buckets := []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}
	m.moves = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "lagoon_move_seconds",
		Help: "Time from a move's arrival to its answer: checked, stored, applied and broadcast.", Buckets: buckets}, []string{"by"})
	m.botWait = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "lagoon_bot_wait_seconds",
		Help: "Time a bot move waited for a worker, by game: with a person (person) or of bots alone (bots); and by cost: a cheap level's (cheap) or not (expensive).", Buckets: buckets}, []string{"game", "cost"})
	m.botThink = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "lagoon_bot_think_seconds",
		Help: "Time a bot move held a worker, by game: with a person (person) or of bots alone (bots); and by cost: a cheap level's (cheap) or not (expensive).", Buckets: buckets}, []string{"game", "cost"})
	m.botsHurried = prometheus.NewCounter(prometheus.CounterOpts{Name: "lagoon_bots_hurried_total",
		Help: "Bot moves hurried so that a move that goes before them could think: of bots alone for a person's, an expensive one for a cheap one, or of an address with more moves in the pool for one with fewer."})
	m.refused = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lagoon_refused_total",
		Help: "Requests refused by a limit, by error code."}, []string{"code"})
	m.takeBacks = prometheus.NewCounter(prometheus.CounterOpts{Name: "lagoon_take_backs_total", Help: "Take-backs made."})
	m.timeWarnings = prometheus.NewCounter(prometheus.CounterOpts{Name: "lagoon_time_warnings_total", Help: "Correspondence turns warned that 80% of their time is gone."})
	m.forwards = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lagoon_forward_failures_total",
		Help: "Commands forwarded to a game's owner node that got no answer from it, by kind (docs/cluster.md)."}, []string{"kind"})
	m.resyncs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "lagoon_resyncs_total",
		Help: "Times the clients of a game relayed from another node were told to reconnect, by reason (docs/cluster.md)."}, []string{"reason"})
	refused := prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "lagoon_events_refused_total",
		Help: "Events of games relayed from other nodes that this node refused: not sent by the game's owner under its lease's epoch (docs/cluster.md)."},
		func() float64 {
			if s.node == nil {
				return 0
			}
			return float64(s.node.conn.Refused())
		})
	gauge := func(name, help string, f func(h healthView) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return f(s.health(time.Now())) })
	}
	m.reg.MustRegister(m.moves, m.botWait, m.botThink, m.botsHurried, m.refused, m.takeBacks, m.timeWarnings, m.forwards, m.resyncs, refused,
		gauge("lagoon_games_in_progress", "Games in progress.", func(h healthView) float64 { return float64(h.Games) }),
		gauge("lagoon_games_in_memory", "Games in memory, in progress or finished.", func(h healthView) float64 { return float64(h.InMemory) }),
		gauge("lagoon_connections_open", "Open TCP connections.", func(h healthView) float64 { return float64(h.Connections) }),
		gauge("lagoon_websockets_open", "Open WebSocket connections.", func(h healthView) float64 { return float64(h.WebSockets) }),
		gauge("lagoon_bot_queue", "Bot moves waiting for a worker.", func(h healthView) float64 { return float64(h.BotQueue) }),
		gauge("lagoon_bot_oldest_wait_seconds", "How long the oldest waiting bot move has waited.", func(h healthView) float64 { return float64(h.BotOldestMS) / 1000 }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// Metrics serves the server's figures in the Prometheus text format. It
// is not among the server's routes: lagoon serve serves it on an address
// of its own (-metrics), so that it is reachable only where the operator
// says.
func (s *Server) Metrics() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
}
