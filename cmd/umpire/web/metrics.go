package web

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// OutboxStats tells how much mail waits to be sent: the judge's outbox as
// it is today (issue 19 reworks it; this is all /metrics needs of it).
type OutboxStats interface {
	// Outbox returns the number of mails queued and not yet sent, and when
	// the oldest of them was queued (zero when none is).
	Outbox(ctx context.Context) (depth int, oldest time.Time, err error)
}

// Metrics are the judge's figures in the Prometheus text format
// (docs/web.md, "Metrics"): what the daemon counts as it works, and the
// outbox as it stands when scraped. The daemon's parts call its methods;
// a nil *Metrics counts nothing.
type Metrics struct {
	reg          *prometheus.Registry
	mailsTaken   *prometheus.CounterVec
	mailsSent    *prometheus.CounterVec
	steps        prometheus.Counter
	adjudication prometheus.Histogram
	render       *prometheus.HistogramVec
	verify       *prometheus.CounterVec
	requests     *prometheus.CounterVec
}

// NewMetrics returns the metrics, reading the outbox from outbox (nil: no
// outbox figures) with now as the clock.
func NewMetrics(outbox OutboxStats, now func() time.Time, log *slog.Logger) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.mailsTaken = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "umpire_mails_taken_total",
		Help: "Messages taken from the mailbox and answered, by where they were filed (processed, rejected, or quarantined: set aside for the operator).",
	}, []string{"disposition"})
	m.mailsSent = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "umpire_mails_sent_total",
		Help: "Mails the judge sent, by kind (receipt, report, reminder, error, announcement).",
	}, []string{"kind"})
	m.steps = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "umpire_steps_adjudicated_total",
		Help: "Game steps adjudicated.",
	})
	m.adjudication = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "umpire_adjudication_duration_seconds",
		Help:    "Time the rules took to adjudicate one step.",
		Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10),
	})
	m.render = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "umpire_render_duration_seconds",
		Help:    "Time to render: a mailed report with its map picture (report), a web page (page), a map as SVG (svg).",
		Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10),
	}, []string{"what"})
	m.verify = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "umpire_verify_failures_total",
		Help: "Checks that failed: signatures of incoming mail that did not verify (signature) or were made by a key the judge does not know (unknown_key).",
	}, []string{"what"})
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "umpire_http_requests_total",
		Help: "Requests to the web pages, by status class (2xx, 3xx, 4xx, 5xx).",
	}, []string{"class"})
	for _, l := range []string{"processed", "rejected", "quarantined"} {
		m.mailsTaken.WithLabelValues(l)
	}
	for _, l := range []string{"receipt", "report", "reminder", "error", "announcement"} {
		m.mailsSent.WithLabelValues(l)
	}
	for _, l := range []string{"report", "page", "svg"} {
		m.render.WithLabelValues(l)
	}
	for _, l := range []string{"signature", "unknown_key"} {
		m.verify.WithLabelValues(l)
	}
	m.reg.MustRegister(m.mailsTaken, m.mailsSent, m.steps, m.adjudication, m.render, m.verify, m.requests,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if outbox != nil {
		m.reg.MustRegister(&outboxCollector{stats: outbox, now: now, log: log})
	}
	return m
}

// Runaways publishes how many computations the judge abandoned while they
// still ran, because they ran out of their budget (adjudicator.Budget):
// each may still hold a core or memory until the judge restarts.
func (m *Metrics) Runaways(count func() int64) {
	if m != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "umpire_runaway_computations",
			Help: "Computations abandoned at their budget's limit since the judge started; they may still run until it restarts.",
		}, func() float64 { return float64(count()) }))
	}
}

// MailTaken counts a message taken from the mailbox, filed as disposition.
func (m *Metrics) MailTaken(disposition string) {
	if m != nil {
		m.mailsTaken.WithLabelValues(disposition).Inc()
	}
}

// MailSent counts a mail of kind sent.
func (m *Metrics) MailSent(kind string) {
	if m != nil {
		m.mailsSent.WithLabelValues(kind).Inc()
	}
}

// Adjudicated counts a step adjudicated in d.
func (m *Metrics) Adjudicated(d time.Duration) {
	if m != nil {
		m.steps.Inc()
		m.adjudication.Observe(d.Seconds())
	}
}

// Rendered records a rendering of what ("report", "page", "svg") that took
// d.
func (m *Metrics) Rendered(what string, d time.Duration) {
	if m != nil {
		m.render.WithLabelValues(what).Observe(d.Seconds())
	}
}

// VerifyFailed counts a check that failed: "signature" (a signature of
// incoming mail that did not verify) or "unknown_key" (made by a key the
// judge does not know).
func (m *Metrics) VerifyFailed(what string) {
	if m != nil {
		m.verify.WithLabelValues(what).Inc()
	}
}

func (m *Metrics) request(status int) {
	if m != nil {
		m.requests.WithLabelValues(string(rune('0'+status/100)) + "xx").Inc()
	}
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// outboxCollector reads the outbox when scraped.
type outboxCollector struct {
	stats OutboxStats
	now   func() time.Time
	log   *slog.Logger
}

var (
	outboxDepth = prometheus.NewDesc("umpire_outbox_depth", "Mails queued and not yet sent.", nil, nil)
	outboxAge   = prometheus.NewDesc("umpire_outbox_oldest_age_seconds", "How long the oldest mail not yet sent has waited (0 when none waits).", nil, nil)
)

func (c *outboxCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- outboxDepth
	ch <- outboxAge
}

func (c *outboxCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	depth, oldest, err := c.stats.Outbox(ctx)
	if err != nil {
		c.log.Error("metrics: read the outbox", "err", err)
		ch <- prometheus.NewInvalidMetric(outboxDepth, err)
		return
	}
	age := 0.0
	if depth > 0 && !oldest.IsZero() {
		age = max(c.now().Sub(oldest).Seconds(), 0)
	}
	ch <- prometheus.MustNewConstMetric(outboxDepth, prometheus.GaugeValue, float64(depth))
	ch <- prometheus.MustNewConstMetric(outboxAge, prometheus.GaugeValue, age)
}
