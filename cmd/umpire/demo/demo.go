package demo

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	gomessage "github.com/emersion/go-message"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/mail/devmail"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// Config is what the demo is told.
type Config struct {
	// Dir is the folder for the demo's mail, store and log ("": a new
	// temporary folder).
	Dir string
	// Turns is how many steps to play, at most.
	Turns int
	// Web is the loopback address of the game's web page, or "off".
	Web string
	// Serve keeps the web page up after the story until ctx ends.
	Serve  bool
	Stdout io.Writer
	Now    func() time.Time
	Logger *slog.Logger
	// Games is the games the judge hosts.
	Games adjudicator.Registry
}

// ErrUnverified is returned when the demo's own dice log did not verify (what went wrong
// is printed).
var ErrUnverified = errors.New("the demo's dice log does not verify")

// demoGames are the games the demo can play, the first one hosted wins.
var demoGames = []struct{ kind, scenario string }{{"perrote", "demo"}, {"fake", "duel"}}

// Run plays the demonstration (umpire demo): a game master and two players
// with new keys play a game by mail with the judge, on mail servers of its
// own on loopback, and the story is told to c.Stdout.
func Run(ctx context.Context, c Config) error {
	turns := c.Turns
	if turns == 0 {
		turns = 50 // the end comes first
	}
	dir := c.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "umpire-demo-")
		if err != nil {
			return err
		}
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "umpire.db")); err == nil {
		return usagef("--dir %s already holds a demo: give a new folder", dir)
	}
	start := time.Now()
	w := c.Stdout
	reg := c.Games
	kind, scenario := "", ""
	for _, g := range demoGames {
		if _, err := reg.Get(g.kind); err == nil {
			kind, scenario = g.kind, g.scenario
			break
		}
	}
	rules, err := reg.Get(kind)
	if err != nil {
		return err
	}
	seats, err := rules.Seats(scenario)
	if err != nil {
		return err
	}
	if len(seats) != 2 {
		return fmt.Errorf("demo: scenario %s of %s has %d seats, want 2", scenario, kind, len(seats))
	}

	// The mail servers, on loopback, with the judge's account and the
	// players'.
	const judge = "judge@umpire.test"
	srv, err := devmail.Start(ctx, devmail.Config{Domains: []string{"umpire.test", "players.test"},
		Accounts: map[string]string{judge: randomPassword()}, Logger: quiet()})
	if err != nil {
		return fmt.Errorf("demo mail servers: %w", err)
	}
	defer srv.Close()
	pw, _ := srv.Password(judge)
	cfg := daemon.DefaultConfig()
	cfg.Games, cfg.Now, cfg.Logger = reg, c.Now, quiet() // the daemon's log would drown the story
	cfg.Store, cfg.Address = filepath.Join(dir, "umpire.db"), judge
	cfg.IMAP.Address, cfg.IMAP.Security, cfg.IMAP.Username, cfg.IMAP.Password = srv.IMAPAddr(), "none", judge, pw
	cfg.SMTP.Address, cfg.SMTP.Security, cfg.SMTP.Username, cfg.SMTP.Password = srv.SMTPAddr(), "none", judge, pw
	if c.Web != "off" && c.Web != "" {
		host, _, err := net.SplitHostPort(c.Web)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			return usagef("--web %s: the demo serves on a loopback address only, such as 127.0.0.1:8080", c.Web)
		}
		cfg.Web = &daemon.WebConfig{Address: c.Web}
	}
	db, err := cfg.Open()
	if err != nil {
		return err
	}
	defer db.Close()
	d, err := daemon.New(ctx, cfg, db)
	if err != nil {
		return err
	}
	defer d.Close()
	pages := d.WebURL()
	webCtx, stopWeb := context.WithCancel(ctx)
	webDone := make(chan struct{})
	go func() {
		defer close(webDone)
		if err := d.ServeWeb(webCtx); err != nil {
			c.Logger.Error("demo web pages", "err", err)
		}
	}()
	defer func() { stopWeb(); <-webDone }()
	t := &Table{Now: c.Now, DB: db, Judge: d, Address: judge, Out: filepath.Join(dir, "mail"),
		Submit: func(ctx context.Context, from string, raw []byte) error {
			return devmail.Submit(ctx, srv.SMTPAddr(), "mta.players.test", from, []string{judge}, raw)
		},
		Fetch: func(ctx context.Context, addr string) ([][]byte, error) {
			p, ok := srv.Password(addr)
			if !ok {
				return nil, nil
			}
			return devmail.Fetch(ctx, srv.IMAPAddr(), addr, p, "INBOX")
		}}

	now := c.Now()
	gm, err := NewPGPPlayer("Grace", "gm@players.test", now)
	if err != nil {
		return err
	}
	p1, err := NewPGPPlayer("Olga", strings.ToLower(seats[0])+"@players.test", now)
	if err != nil {
		return err
	}
	p2, err := NewSSHPlayer("Sam", strings.ToLower(seats[1])+"@players.test")
	if err != nil {
		return err
	}
	p1.Seat, p2.Seat = seats[0], seats[1]
	for _, p := range []*Player{gm, p1, p2} {
		if err := srv.AddAccount(p.Addr, randomPassword()); err != nil {
			return err
		}
	}
	everyone := []*Player{gm, p1, p2}
	fmt.Fprintf(w, "umpire demo: a game of %s played by mail, on mail servers of its own.\n\n", rules.Title())
	fmt.Fprintf(w, "  IMAP %s and SMTP %s on loopback; the judge is %s.\n", srv.IMAPAddr(), srv.SMTPAddr(), judge)
	for _, p := range everyone {
		role := "game master"
		if p.Seat != "" {
			role = "seat " + p.Seat
		}
		fmt.Fprintf(w, "  %-20s %-22s %-12s signs with %s\n", p.Name, p.Addr, role, p.Kind())
	}
	if pages != "" {
		fmt.Fprintf(w, "  The game's web page: %sgames/demo-1/ (loopback)\n", pages)
	}
	fmt.Fprintln(w)

	game := "demo-1"
	if err := t.Send(ctx, gm, "create", fmt.Sprintf("create\nid = %q\ngame = %q\nscenario = %q\n[schedule]\nevery = \"72h\"\n", game, kind, scenario)); err != nil {
		return err
	}
	setup := map[*Player][][]byte{}
	gather := func(got map[*Player][][]byte) {
		for p, ms := range got {
			setup[p] = append(setup[p], ms...)
		}
	}
	got, err := t.Round(ctx, everyone...)
	if err != nil {
		return err
	}
	gather(got)
	for _, p := range []*Player{p1, p2} {
		if err := t.Send(ctx, p, "join", fmt.Sprintf("join %s %s\n", game, p.Seat)); err != nil {
			return err
		}
	}
	if got, err = t.Round(ctx, everyone...); err != nil {
		return err
	}
	gather(got)
	if err := t.Send(ctx, gm, "start", "start "+game+"\n"); err != nil {
		return err
	}
	if got, err = t.Round(ctx, everyone...); err != nil {
		return err
	}
	gather(got)
	st, _, err := t.State(ctx, game)
	if err != nil {
		return fmt.Errorf("the game did not start: %w (see the mail under %s)", err, t.Out)
	}
	fmt.Fprintf(w, "1. The game master created %s, the players joined with their keys attached, and\n   the game started: step %d (%s) is open. The mail:\n", game, st.Number, st.Phase)
	whoGotWhat(w, everyone, setup)

	bot, ok := rules.(adjudicator.Bot)
	if !ok {
		return fmt.Errorf("demo: %s has no scripted player", kind)
	}
	played := 0
	for turn := 1; turn <= turns; turn++ {
		st, over, err := t.State(ctx, game)
		if err != nil {
			return err
		}
		if over {
			break
		}
		for _, p := range []*Player{p1, p2} {
			if len(st.Owing) > 0 && !contains(st.Owing, p.Seat) {
				continue
			}
			lines, err := bot.Bot(st.State, p.Seat)
			if err != nil {
				return fmt.Errorf("demo: %s's orders: %w", p.Seat, err)
			}
			text := fmt.Sprintf("game: %s\nstep: %d\nseat: %s\n%s\nend\n", game, st.Number, p.Seat, strings.Join(lines, "\n"))
			if err := t.Send(ctx, p, fmt.Sprintf("orders step %d", st.Number), text); err != nil {
				return err
			}
		}
		got, err := t.Round(ctx, everyone...)
		if err != nil {
			return err
		}
		after, _, err := t.State(ctx, game)
		if err != nil {
			return err
		}
		if after.Number == st.Number {
			return fmt.Errorf("demo: step %d was not adjudicated (see the mail under %s)", st.Number, t.Out)
		}
		played++
		fmt.Fprintf(w, "%d. Step %d (%s): both players mailed signed orders; the judge answered each with a\n   receipt, adjudicated the step and mailed everyone its report:\n", turn+1, st.Number, st.Phase)
		whoGotWhat(w, everyone, got)
	}
	if last, over, err := t.State(ctx, game); err == nil && over {
		why := "the game is over"
		if e, ok := rules.(adjudicator.Ending); ok {
			if _, w, over := e.Ending(last.State); over {
				why = w
			}
		}
		fmt.Fprintf(w, "\n   The game is over after step %d.\n   %s\n\n", last.Number-1, why)
	}

	// The public log, verified; a forgery, caught; the game replayed.
	var buf bytes.Buffer
	var steps int
	err = db.View(ctx, func(tx *store.Tx) (err error) {
		if _, err = tx.WriteDiceLog(game, &buf); err != nil {
			return err
		}
		j := &adjudicator.Judge{Games: reg, Logger: quiet()}
		steps, err = j.Replay(tx.Judge(judge, c.Now()), game)
		return err
	})
	if err != nil {
		return fmt.Errorf("demo: export and replay: %w", err)
	}
	logPath := filepath.Join(dir, game+"-log.json")
	if err := os.WriteFile(logPath, buf.Bytes(), 0o644); err != nil {
		return err
	}
	res, err := dice.VerifyStream(bytes.NewReader(buf.Bytes()), dice.VerifyOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d. The public dice log is exported to %s; umpire verify checks it:\n", played+2, logPath)
	templates.WriteVerification(&indent{w: w}, logPath, res, nil)
	if !res.OK() {
		return ErrUnverified
	}
	forged, err := dice.ParseExport(buf.Bytes())
	if err != nil {
		return err
	}
	forgedPath := filepath.Join(dir, game+"-forged.json")
	if i := firstOpen(forged.Records); i >= 0 {
		d := forged.Records[i].Draw
		d.Values[0] = forgedValue(d.Spec, d.Values[0])
		var fb bytes.Buffer
		n := 0
		_, err := dice.WriteExport(&fb, forged.SealedRoot, forged.Revealed, func() (*dice.Record, error) {
			if n == len(forged.Records) {
				return nil, nil
			}
			n++
			return &forged.Records[n-1], nil
		})
		if err != nil {
			return err
		}
		if err := os.WriteFile(forgedPath, fb.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(w, "\n   A forger changes draw #%d (%s) to %d in %s:\n", d.Seq, d.Purpose, d.Values[0], forgedPath)
		fres, err := dice.VerifyStream(bytes.NewReader(fb.Bytes()), dice.VerifyOptions{})
		if err != nil {
			return err
		}
		templates.WriteVerification(&indent{w: w}, forgedPath, fres, nil)
	}
	fmt.Fprintf(w, "\n   umpire replay re-ran the %s from the signed orders: every state and die the same.\n\n", plural(steps, "step"))

	fmt.Fprintf(w, "Done in %.1f s. Everything is under %s:\n", time.Since(start).Seconds(), dir)
	for _, p := range everyone {
		fmt.Fprintf(w, "  %-28s %s received (.eml, .txt, .html, .png)\n", filepath.Join(t.Out, p.Dir())+"/", plural(len(p.Received), "mail"))
	}
	fmt.Fprintf(w, "  %-28s the public dice log\n", logPath)
	fmt.Fprintf(w, "\nTry:\n  go run ./cmd/umpire verify %s\n  go run ./cmd/umpire render %s --store %s --seat %s\n", logPath, game, cfg.Store, p2.Seat)
	if pages != "" {
		if c.Serve {
			fmt.Fprintf(w, "\nThe game's web page, with its dice verified in your browser, is up until you press Ctrl-C:\n  %sgames/%s/\n", pages, game)
			<-ctx.Done()
			return nil
		}
		fmt.Fprintf(w, "\nThe game's web page was served at %sgames/%s/ while the demo ran (umpire demo --serve keeps it up).\n", pages, game)
	}
	return nil
}

// firstOpen is the index of the first open draw with values, or -1.
func firstOpen(recs []dice.Record) int {
	for i, r := range recs {
		if r.Type == dice.TypeDraw && !r.Draw.Sealed() && len(r.Draw.Values) > 0 {
			return i
		}
	}
	return -1
}

// forgedValue is another value the spec could have drawn.
func forgedValue(sp string, v int64) int64 {
	s, err := spec.Parse(sp)
	if err != nil || s.Faces < 2 {
		return v + 1
	}
	lo := int64(s.Base)
	if s.Kind != spec.KindDice {
		lo = 0
	}
	return lo + (v-lo+1)%int64(s.Faces)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func usagef(format string, args ...any) error {
	return daemon.UsageError{Err: fmt.Errorf(format, args...)}
}

func randomPassword() string {
	b := make([]byte, 9)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// plural returns "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(thing, "y"))
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// indent prefixes every line written through it with three spaces.
type indent struct {
	w       io.Writer
	midLine bool
}

func (i *indent) Write(p []byte) (int, error) {
	for _, l := range bytes.SplitAfter(p, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		if !i.midLine {
			l = append([]byte("   "), l...)
		}
		if _, err := i.w.Write(l); err != nil {
			return 0, err
		}
		i.midLine = l[len(l)-1] != '\n'
	}
	return len(p), nil
}

// quiet is a logger that drops everything.
func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// whoGotWhat writes, for each player, the mails of one round in the order
// they arrived: "Olga (seat Russia): her receipt (accepted), then the
// step 1 report".
func whoGotWhat(w io.Writer, players []*Player, got map[*Player][][]byte) {
	for _, p := range players {
		role := "game master"
		if p.Seat != "" {
			role = "seat " + p.Seat
		}
		var what []string
		for _, raw := range got[p] {
			what = append(what, mailLabel(raw))
		}
		if len(what) == 0 {
			what = []string{"nothing"}
		}
		line := fmt.Sprintf("     %-24s", p.Name+" ("+role+"):")
		for i, x := range what {
			if i < len(what)-1 {
				x += ", then"
			}
			if len(line)+1+len(x) > 88 && len(line) > 30 {
				fmt.Fprintln(w, line)
				line = strings.Repeat(" ", 29)
			}
			line += " " + x
		}
		fmt.Fprintln(w, line)
	}
}

// mailLabel names a mail by its subject: "receipt (accepted)", "the step 3
// report", "joined demo-1".
func mailLabel(raw []byte) string {
	e, err := gomessage.Read(bytes.NewReader(raw))
	if err != nil && e == nil {
		return "a mail"
	}
	subject := e.Header.Get("Subject")
	if dec, err := new(mime.WordDecoder).DecodeHeader(subject); err == nil {
		subject = dec
	}
	subject = strings.TrimPrefix(subject, "umpire: ")
	if i := strings.Index(subject, " (re:"); i > 0 {
		subject = subject[:i]
	}
	switch f := strings.Fields(subject); {
	case len(f) > 0 && f[0] == "receipt":
		_, verdict, _ := strings.Cut(subject, ": ")
		return "receipt (" + verdict + ")"
	case len(f) == 4 && f[1] == "step" && f[3] == "report":
		return "the step " + f[2] + " report"
	}
	return subject
}
