//go:build integration

package daemon

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	umail "github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// soakSize is how big TestSoak runs.
type soakSize struct {
	games, burst, days int
	orders             int // orders mailed while each burst is adjudicated and sent
	retention          time.Duration
}

// The short soak runs in CI; UMPIRE_SOAK=long runs the full size of issue
// 19 (docs/operations.md, "Measured").
var (
	soakShort = soakSize{games: 1000, burst: 250, days: 3, orders: 100, retention: 24 * time.Hour}
	// soakRace is the short soak under the race detector (bash .ci/run),
	// which runs it several times slower.
	soakRace = soakSize{games: 300, burst: 100, days: 2, orders: 40, retention: 24 * time.Hour}
	soakMid  = soakSize{games: 2000, burst: 500, days: 20, orders: 100, retention: 3 * 24 * time.Hour}
	soakLong = soakSize{games: 20000, burst: 5000, days: 30, orders: 500, retention: 7 * 24 * time.Hour}
)

// soakStart is a Monday at midnight UTC: the simulated clock's start.
var soakStart = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)

// soakClock is the simulated clock every part of the judge reads.
type soakClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *soakClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *soakClock) set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// soakSMTP is the embedded SMTP server: it records every Message-ID it
// accepts with the wall time it accepted it.
type soakSMTP struct {
	mu   sync.Mutex
	got  map[string][]time.Time // Message-ID -> acceptance times
	kind map[string]string      // Message-ID -> "receipt", "report" or "other"
	irt  map[string]string      // In-Reply-To -> Message-ID
	srv  *smtp.Server
	addr string
}

func (s *soakSMTP) NewSession(*smtp.Conn) (smtp.Session, error) { return &soakSession{s: s}, nil }

type soakSession struct{ s *soakSMTP }

func (x *soakSession) Mail(string, *smtp.MailOptions) error { return nil }
func (x *soakSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (x *soakSession) Reset()                               {}
func (x *soakSession) Logout() error                        { return nil }
func (x *soakSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	at := time.Now()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	id, irt := msg.Header.Get("Message-ID"), msg.Header.Get("In-Reply-To")
	kind := "other"
	switch {
	case strings.Contains(string(raw), "image/png"):
		kind = "report"
	case irt != "":
		kind = "receipt"
	}
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	x.s.got[id] = append(x.s.got[id], at)
	x.s.kind[id] = kind
	if irt != "" {
		x.s.irt[irt] = id
	}
	return nil
}

func startSoakSMTP(t *testing.T) *soakSMTP {
	s := &soakSMTP{got: map[string][]time.Time{}, kind: map[string]string{}, irt: map[string]string{}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.srv = smtp.NewServer(s)
	s.srv.Domain, s.srv.AllowInsecureAuth = "localhost", true
	s.srv.MaxMessageBytes = 8 << 20
	s.addr = l.Addr().String()
	go s.srv.Serve(l)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// TestSoak runs the judge on a simulated clock over many days with many
// games on mixed schedules, a quarter of them closing every evening in the
// same minute. Orders arrive through the intake path (mail/intake, SSH
// signatures checked) while each burst is adjudicated, rendered and sent.
// It checks that every order got one receipt and every mail went out
// exactly once, that each receipt of an order taken during a burst was
// sent before the burst's last report and within 2 s of its intake, that
// each burst drew each distinct picture once, that the outbox holds only
// the retention's mail, that a pruned mail's record is small, and that
// past the retention the store grows only by the games' history and those
// records; it logs the figures. The judge's hourly prune runs on the
// simulated clock. UMPIRE_SOAK=mid runs 2,000 games for 20 days with a
// 3-day retention; UMPIRE_SOAK=long 20,000 games for 30 days with bursts
// of 5,000 and a 7-day retention.
func TestSoak(t *testing.T) {
	t.Parallel()
	size := soakShort
	if raceEnabled {
		size = soakRace
	}
	switch os.Getenv("UMPIRE_SOAK") {
	case "long":
		size = soakLong
	case "mid":
		size = soakMid
	}
	if size != soakLong && size != soakMid && testing.Short() {
		t.Skip("the soak is not short")
	}
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("no ssh-keygen")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock := &soakClock{now: soakStart}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var root uint64
	judge := &adjudicator.Judge{Games: games(), Logger: quiet, ChainLength: 64, NewRoot: func() (dice.Hash, error) {
		root++
		return sha256.Sum256(binary.BigEndian.AppendUint64(nil, root)), nil
	}}
	path := filepath.Join(t.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{Due: judge.Due})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	// Players: a club of 8 SSH keys, each seated in many games.
	keys := soakKeys(t, 8)
	const from = "umpire <" + daemontest.JudgeAddress + ">"
	created := soakGames(t, db, judge, keys, size)
	start := soakDay(t, ctx, db)

	srv := startSoakSMTP(t)
	reports, err := templates.NewReports("")
	if err != nil {
		t.Fatal(err)
	}
	q := &queue{db: db, from: from, reports: reports, log: quiet, now: clock.Now, wake: make(chan struct{}, 1)}
	out, err := umail.NewOutbox(umail.OutboxConfig{Server: umail.Server{Address: srv.addr, Security: umail.Insecure},
		Now: clock.Now, Logger: quiet, Interval: 50 * time.Millisecond}, q)
	if err != nil {
		t.Fatal(err)
	}
	q.rendered = func() { out.PokeLane(umail.LaneReports) }
	poke := func() { out.Poke(); q.Wake() }
	sched := &scheduler{db: db, judge: judge, from: from, now: clock.Now, log: quiet, poke: poke, interval: time.Minute, wake: make(chan struct{}, 1)}
	h := intake.New(intake.Config{Store: intakeStore{db}, Intake: &adjudicator.Intake{Logger: quiet, Judge: judge}, Address: daemontest.JudgeAddress,
		From: from, Now: clock.Now, Logger: quiet, Poke: poke, RepliesPerHour: 1 << 20})
	var wg sync.WaitGroup
	for _, run := range []func(context.Context) error{out.Run, q.Run} {
		wg.Add(1)
		go func() { defer wg.Done(); run(ctx) }()
	}
	defer wg.Wait()
	defer cancel()

	var (
		pruned     int         // mails pruned
		lastPrune  = soakStart // when the soak last pruned, as the judge does every hour
		sentByDay  []int       // mails sent each day
		sentBefore = -created  // mails the server accepted before the day (the games' creation mail counts on the first)
		days       []soakSpace
		intaken    = map[string]time.Time{} // order Message-ID -> wall time its intake committed
		burstOrder = map[string]bool{}      // taken while a burst was sent
		steps      int
		worstWait  time.Duration
		sizes      []int64
		drawn0     = reports.Drawn()
	)
	uid := uint32(0)
	take := func(raws [][]byte, during bool) {
		ms := make([]umail.Message, len(raws))
		for i, raw := range raws {
			uid++
			ms[i] = umail.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: raw, Size: int64(len(raw))}
		}
		if _, err := h.HandleBatch(ctx, ms); err != nil {
			t.Errorf("intake: %v", err)
		}
		at := time.Now()
		for _, raw := range raws {
			id := strings.Trim(daemontest.HeaderOf(raw, "Message-ID"), "<>")
			intaken[id], burstOrder[id] = at, during
		}
	}
	// drain waits until every queue is empty.
	drain := func(what string) time.Duration {
		t0 := time.Now()
		for {
			var st store.OutboxStats
			db.View(ctx, func(tx *store.Tx) (err error) { st, err = tx.OutboxStats(); return err })
			if st.Lanes[store.LaneAnswers].Queued+st.Lanes[store.LaneReports].Queued == 0 {
				return time.Since(t0)
			}
			if time.Since(t0) > 10*time.Minute {
				t.Fatalf("%s: the outbox did not drain in 10 minutes: %+v", what, st)
			}
			poke()
			time.Sleep(20 * time.Millisecond)
		}
	}
	end := soakStart.Add(time.Duration(size.days) * 24 * time.Hour)
	for day := soakStart; day.Before(end); day = day.Add(24 * time.Hour) {
		// Through the day: every minute something is due, the scheduler
		// ticks; at 20:00 the burst.
		burstAt := day.Add(20 * time.Hour)
		for now := day; now.Before(day.Add(24 * time.Hour)); {
			clock.set(now)
			if now.Equal(burstAt) {
				steps += soakBurst(t, ctx, db, sched, srv, keys, size, take, intaken, &worstWait, drain, reports)
			} else if _, err := sched.pass(ctx); err != nil {
				t.Fatal(err)
			}
			if now.Sub(lastPrune) >= time.Hour {
				// As the judge does: prune every hour.
				n, err := prune(ctx, db, now, size.retention)
				if err != nil {
					t.Fatal(err)
				}
				pruned, lastPrune = pruned+n, now.Truncate(time.Hour)
			}
			var next time.Time
			db.View(ctx, func(tx *store.Tx) (err error) { _, next, err = tx.DueGames(now, 1); return err })
			switch {
			case next.IsZero() || next.After(burstAt) && now.Before(burstAt):
				next = burstAt
			case !next.After(now):
				next = now.Add(time.Minute)
			}
			if !now.Before(burstAt) && (next.IsZero() || !next.Before(day.Add(24*time.Hour))) {
				next = day.Add(24 * time.Hour)
			}
			now = next.Truncate(time.Minute)
			if !now.After(clock.Now()) {
				now = clock.Now().Add(time.Minute)
			}
		}
		drain("end of day")
		clock.set(day.Add(24 * time.Hour))
		n, err := prune(ctx, db, clock.Now(), size.retention)
		if err != nil {
			t.Fatal(err)
		}
		pruned += n
		srv.mu.Lock()
		accepted := len(srv.got)
		srv.mu.Unlock()
		sentByDay = append(sentByDay, accepted-sentBefore)
		sentBefore = accepted
		day := soakDay(t, ctx, db)
		days = append(days, day)
		sizes = append(sizes, day.size)
		t.Logf("soak: day %d: %.1f MB: mail %.1f MB (outbox %d mails, records of %d pruned), games %.1f MB, free %.1f MB; %s",
			len(days), mbOf(day.size), mbOf(day.mail), day.outbox, pruned, mbOf(day.games), mbOf(day.free), spaceLine(day.space))
		// The outbox holds only what was sent within the retention (the
		// retention's days, today included): older mail is a record.
		window := 0
		for _, n := range sentByDay[max(0, len(sentByDay)-int(size.retention/(24*time.Hour))):] {
			window += n
		}
		if day.outbox > window {
			t.Errorf("day %d: the outbox holds %d mails, more than the %d sent within the retention", len(days), day.outbox, window)
		}
	}
	drain("end")

	// Nothing lost or doubled: every mail the store sent was accepted
	// once, every order got its receipt.
	srv.mu.Lock()
	defer srv.mu.Unlock()
	var sent, queued, reportsSent int
	err = db.View(ctx, func(tx *store.Tx) error {
		for id := uint64(1); ; id++ {
			m, err := tx.Mail(id)
			if err != nil {
				break
			}
			switch m.State {
			case store.MailSent:
				if id <= uint64(created) {
					continue // the games' creation mail, marked sent by soakGames
				}
				sent++
				if n := len(srv.got[m.MessageID]); n != 1 {
					t.Errorf("mail %d (%s) was accepted %d times", id, m.Subject, n)
				}
				if m.Kind == store.MailReport {
					reportsSent++
				}
			default:
				queued++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if queued > 0 || sent != len(srv.got) {
		t.Errorf("%d mails sent by the store, %d accepted by the server, %d not sent", sent, len(srv.got), queued)
	}
	for id := range intaken {
		if srv.irt["<"+id+">"] == "" {
			t.Errorf("order %s got no receipt", id)
		}
	}
	drawn := reports.Drawn() - drawn0
	t.Logf("soak: %d games (%d in each burst), %d simulated days: %d steps adjudicated in bursts, %d mails sent (%d reports), %d pictures drawn, %d orders taken",
		size.games, size.burst, size.days, steps, sent, reportsSent, drawn, len(intaken))
	t.Logf("soak: the slowest receipt of an order taken during a burst was sent %v after its intake", worstWait.Round(time.Millisecond))
	t.Logf("soak: store size at the end of each day, MB: %v", mb(sizes))
	last := days[len(days)-1]
	if steps := last.steps - start.steps; steps > 0 {
		t.Logf("soak: the games' history grew by %.1f MB for %d steps: %d bytes of pages a step", mbOf(last.games-start.games), steps, (last.games-start.games)/int64(steps))
	}
	if pruned > 0 {
		// What stays of a pruned mail is a small record.
		records := last.records - start.records
		t.Logf("soak: %d mails pruned, their records take %.1f MB: %d bytes a mail", pruned, mbOf(records), records/int64(pruned))
		if per := records / int64(pruned); per > 150 {
			t.Errorf("the record of a pruned mail takes %d bytes of pages; want at most 150", per)
		}
	}
	if r := int(size.retention / (24 * time.Hour)); r >= 3 && size.days > r+2 {
		// Past the retention the store grows only by what is kept for
		// good: the games' history (steps, orders, events, dice) and the
		// records of pruned mail, both logged above. The rest (the
		// retention's mail, the free pages, everything else) stays within
		// half again of what it was the day the retention was reached;
		// it varies with the weekday's mail.
		rest := func(d soakSpace) int64 { return d.size - d.games - d.records }
		if at := days[r]; rest(last) > rest(at)*3/2 {
			t.Errorf("besides the games' history and the mail records, the store grew from %.1f MB on day %d to %.1f MB on day %d: the retention does not bound it",
				mbOf(rest(at)), r+1, mbOf(rest(last)), len(days))
		}
		t.Logf("soak: besides the games' history and the mail records, the store took %.1f MB on day %d and %.1f MB on day %d",
			mbOf(rest(days[r])), r+1, mbOf(rest(last)), len(days))
	}
}

// soakSpace is where the store's room goes at the end of a day.
type soakSpace struct {
	size, mail, records, games, free int64
	outbox, steps                    int // mails in the outbox, steps adjudicated in every game
	space                            []store.BucketSpace
}

// mailBuckets are the buckets of the outbox and what serves it.
var mailBuckets = map[string]bool{"outbox": true, "queue": true, "queue-reports": true, "rendered": true, "pictures": true,
	"picture-refs": true, "done": true, "held": true, "outbox-ids": true, "mail-records": true}

func soakDay(t *testing.T, ctx context.Context, db *store.DB) soakSpace {
	t.Helper()
	space, free, err := db.Space(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d := soakSpace{size: db.Size(), free: free, space: space}
	for _, b := range space {
		switch {
		case b.Name == "games":
			d.games = b.Pages
		case mailBuckets[b.Name]:
			d.mail += b.Pages
		}
		switch b.Name {
		case "outbox":
			d.outbox = b.Keys
		case "mail-records", "outbox-ids":
			d.records += b.Pages
		}
	}
	err = db.View(ctx, func(tx *store.Tx) error {
		gs, err := tx.Games()
		for _, g := range gs {
			d.steps += int(g.Step)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mbOf(n int64) float64 { return float64(n) / (1 << 20) }

// spaceLine lists the largest buckets: name, MB of pages (MB of data).
func spaceLine(space []store.BucketSpace) string {
	var parts []string
	for _, b := range space[:min(len(space), 5)] {
		parts = append(parts, fmt.Sprintf("%s %.1f (%.1f)", b.Name, mbOf(b.Pages), mbOf(b.Used)))
	}
	return strings.Join(parts, ", ")
}

func mb(sizes []int64) []string {
	out := make([]string, len(sizes))
	for i, s := range sizes {
		out[i] = fmt.Sprintf("%.1f", float64(s)/(1<<20))
	}
	return out
}

// soakBurst runs the burst at the clock's time: the scheduler adjudicates
// every burst game in the background while orders for the other games come
// in through intake; it checks and returns what the burst did.
func soakBurst(t *testing.T, ctx context.Context, db *store.DB, sched *scheduler, srv *soakSMTP, keys []soakKey, size soakSize,
	take func([][]byte, bool), intaken map[string]time.Time, worst *time.Duration, drain func(string) time.Duration, reports *templates.Reports) int {
	t.Helper()
	now := sched.now()
	var due []string
	db.View(ctx, func(tx *store.Tx) (err error) { due, _, err = tx.DueGames(now, 0); return err })
	// Orders for games outside the burst, signed before it.
	raws := soakOrders(t, ctx, db, keys, size.orders, now)
	srv.mu.Lock()
	before := len(srv.got)
	srv.mu.Unlock()
	drawn0 := reports.Drawn()
	t0 := time.Now()
	passDone := make(chan time.Duration, 1)
	go func() {
		if _, err := sched.pass(ctx); err != nil {
			t.Error(err)
		}
		passDone <- time.Since(t0)
	}()
	// The orders arrive in small batches while the burst is adjudicated
	// and its reports rendered and sent.
	var ids []string
	for i := 0; i < len(raws); i += 10 {
		time.Sleep(50 * time.Millisecond)
		batch := raws[i:min(i+10, len(raws))]
		take(batch, true)
		for _, raw := range batch {
			ids = append(ids, daemontest.HeaderOf(raw, "Message-ID"))
		}
	}
	ticked := <-passDone
	drained := drain("burst")
	took := time.Since(t0)
	srv.mu.Lock()
	defer srv.mu.Unlock()
	var lastReport time.Time
	for id, kind := range srv.kind {
		if kind == "report" && srv.got[id][0].After(t0) && srv.got[id][0].After(lastReport) {
			lastReport = srv.got[id][0]
		}
	}
	for _, id := range ids {
		rid := srv.irt[id]
		if rid == "" {
			t.Errorf("burst: order %s got no receipt", id)
			continue
		}
		sentAt := srv.got[rid][0]
		if !lastReport.IsZero() && sentAt.After(lastReport) {
			t.Errorf("burst: the receipt of %s was sent after the burst's last report", id)
		}
		// The receipt's wait: from its order's intake (the batch
		// commit) to the server's acceptance.
		wait := sentAt.Sub(intaken[strings.Trim(id, "<>")])
		*worst = max(*worst, wait)
		if wait > 2*time.Second {
			t.Errorf("burst: the receipt of %s was sent %v after its intake, more than 2 s", id, wait.Round(time.Millisecond))
		}
	}
	mails := len(srv.got) - before
	drawn := reports.Drawn() - drawn0
	t.Logf("burst at %s: %d games due; adjudicated in %v; %d mails sent in %v (%.0f/s), %d pictures drawn",
		now.Format("Mon 2 Jan 15:04"), len(due), ticked.Round(time.Millisecond), mails, took.Round(time.Millisecond),
		float64(mails)/took.Seconds(), drawn)
	t.Logf("burst: the outbox drained %v after the scheduler's pass", drained.Round(time.Millisecond))
	if int(drawn) > len(due) {
		t.Errorf("burst: %d pictures drawn for %d games' steps: each distinct picture is drawn once", drawn, len(due))
	}
	return len(due)
}

// soakKey is a player's SSH key.
type soakKey struct {
	file, fp, addr string
	pub            []byte
}

func soakKeys(t *testing.T, n int) []soakKey {
	t.Helper()
	dir := t.TempDir()
	keys := make([]soakKey, n)
	for i := range keys {
		f := filepath.Join(dir, fmt.Sprintf("p%d", i))
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", f).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v %s", err, out)
		}
		pub, err := os.ReadFile(f + ".pub")
		if err != nil {
			t.Fatal(err)
		}
		fp, err := sigParseKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = soakKey{file: f, fp: fp, addr: fmt.Sprintf("p%d@players.test", i), pub: pub}
	}
	return keys
}

// soakGames creates the games, running from the clock's start: the first
// size.burst close every day at 20:00 UTC (the burst), the others every 24,
// 48 or 72 hours or on a weekly cron in a time zone, created through the
// first day, all with a reminder 2 hours before.
func soakGames(t *testing.T, db *store.DB, j *adjudicator.Judge, keys []soakKey, size soakSize) int {
	t.Helper()
	err := db.Update(context.Background(), func(tx *store.Tx) error {
		for i, k := range keys {
			gm := i == 0
			_ = gm
			if err := tx.PutKey(store.Key{Fingerprint: k.fp, Kind: "ssh", Public: k.pub, Address: k.addr, Added: soakStart}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	schedules := []string{`every = "24h"`, `every = "48h"`, `every = "72h"`, `cron = "CRON_TZ=Europe/Belgrade 0 21 * * MON,THU"`}
	const perTx = 500
	for first := 0; first < size.games; first += perTx {
		err := db.Update(context.Background(), func(stx *store.Tx) error {
			for i := first; i < min(first+perTx, size.games); i++ {
				created := soakStart.Add(time.Duration(i%(20*60)) * time.Minute)
				sched := `cron = "0 20 * * *"`
				if i >= size.burst {
					sched = schedules[i%len(schedules)]
				}
				id := fmt.Sprintf("soak-%05d", i)
				text := fmt.Sprintf("id = %q\ngame = \"fake\"\nscenario = \"duel\"\ngm = %q\n[options]\nturns = \"99\"\n[schedule]\n%s\nreminders = [\"2h\"]\n",
					id, keys[0].fp, sched)
				f, err := adjudicator.ParseGameFile([]byte(text), j.Games)
				if err != nil {
					return err
				}
				tx := stx.Judge(daemontest.JudgeAddress, created)
				if err := j.Create(tx, f, []byte(text), created); err != nil {
					return fmt.Errorf("game %s: %w", id, err)
				}
				for s, seat := range f.Seats {
					if err := j.Join(tx, id, seat, keys[1+(i+s)%(len(keys)-1)].fp); err != nil {
						return err
					}
				}
				if err := j.Start(tx, id, created); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// The games' creation mail (to the game master and the seats) is not
	// what the soak measures.
	created := 0
	err = db.Update(context.Background(), func(tx *store.Tx) error {
		due, err := tx.Due(soakStart.Add(100*24*time.Hour), 0)
		created = len(due)
		for _, m := range due {
			if err := tx.MarkSent(m.ID, soakStart); err != nil {
				return err
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return created
}

// soakOrders signs n order files, each for the open step of a game outside
// the burst by the seat's own key, and returns them as mails.
func soakOrders(t *testing.T, ctx context.Context, db *store.DB, keys []soakKey, n int, now time.Time) [][]byte {
	t.Helper()
	dir := t.TempDir()
	type order struct {
		file string
		key  soakKey
	}
	var orders []order
	err := db.View(ctx, func(tx *store.Tx) error {
		gs, err := tx.Games()
		if err != nil {
			return err
		}
		for i := len(gs) - 1; i >= 0 && len(orders) < n; i-- {
			g := gs[i]
			if g.Status != adjudicator.Running || !strings.HasPrefix(g.ID, "soak-") {
				continue
			}
			st, err := tx.Step(g.ID, g.Step)
			if err != nil || st.Status != "open" || !st.Deadline.After(now.Add(time.Hour)) || len(st.Owing) == 0 {
				continue
			}
			seat, err := tx.Seat(g.ID, st.Owing[0])
			if err != nil {
				return err
			}
			h, _ := seat.Holder()
			k := keys[slices.IndexFunc(keys, func(k soakKey) bool { return k.fp == h.Key })]
			f := filepath.Join(dir, fmt.Sprintf("%s-%d.txt", g.ID, g.Step))
			text := fmt.Sprintf("game: %s\nstep: %d\nseat: %s\nroll 2\nend\n", g.ID, g.Step, seat.Name)
			if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
				return err
			}
			orders = append(orders, order{f, k})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string][]string{}
	for _, o := range orders {
		byKey[o.key.file] = append(byKey[o.key.file], o.file)
	}
	for key, files := range byKey {
		if out, err := exec.Command("ssh-keygen", append([]string{"-Y", "sign", "-f", key, "-n", "umpire"}, files...)...).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen -Y sign: %v %s", err, out)
		}
	}
	raws := make([][]byte, len(orders))
	for i, o := range orders {
		text, _ := os.ReadFile(o.file)
		sig, _ := os.ReadFile(o.file + ".sig")
		id := fmt.Sprintf("%s-%d@players.test", filepath.Base(o.file), now.Unix())
		raws[i] = []byte(daemontest.Header(o.key.addr, id, "orders") + "Content-Type: text/plain; charset=utf-8\r\n\r\n" + daemontest.CRLF(string(text)+string(sig)))
	}
	return raws
}
