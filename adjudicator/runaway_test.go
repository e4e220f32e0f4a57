package adjudicator_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// TestScheduleCheck: a game file whose schedule would run away is refused
// at create, with a reason; sane schedules pass.
func TestScheduleCheck(t *testing.T) {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC) // a Monday
	for _, c := range []struct{ cron, every, want string }{
		{every: "1ns", want: "allows no less than 1h0m0s"},
		{every: "59m", want: "allows no less than"},
		{every: "9000h", want: "more than a year"},
		{cron: "* * * * *", want: "closes steps 1m0s apart"},
		{cron: "0,30 20 * * *", want: "closes steps 30m0s apart"},
		{cron: "0 20 * * MON", want: ""},
		{cron: "0 0 30 2 *", want: "names no time in the coming year"},
		{cron: "0 0 29 2 *", want: "names no time in the coming year"}, // next in 2028
		{cron: "CRON_TZ=Europe/Belgrade 0 20 * * MON,THU", want: ""},
		{cron: "@hourly", want: ""},
		{cron: "@daily", want: ""},
		{every: "1h", want: ""},
		{every: "48h", want: ""},
	} {
		s := adjudicator.Schedule{Cron: c.cron}
		if c.every != "" {
			if err := s.Every.UnmarshalText([]byte(c.every)); err != nil {
				t.Fatal(err)
			}
		}
		err := s.Check(now, adjudicator.DefaultMinInterval)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("cron %q every %q refused: %v", c.cron, c.every, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("cron %q every %q: got %v, want %q", c.cron, c.every, err, c.want)
		}
	}
}

// TestCreateRefusesRunaways: the two game files of the report, refused at
// create; and a fake game over the turns its rules allow.
func TestCreateRefusesRunaways(t *testing.T) {
	m := newMailJudge(t)
	for file, want := range map[string]string{
		"id = \"run-1\"\ngame = \"fake\"\nscenario = \"duel\"\n[options]\nturns = \"1000000000\"\n[schedule]\nevery = \"1ns\"\n": "allows no less than 1h0m0s",
		"id = \"run-2\"\ngame = \"fake\"\nscenario = \"duel\"\n[schedule]\ncron = \"0 0 30 2 *\"\n":                              "names no time in the coming year",
		"id = \"run-3\"\ngame = \"fake\"\nscenario = \"duel\"\n[options]\nturns = \"1000000000\"\n[schedule]\nevery = \"24h\"\n": "option turns \"1000000000\": want a whole number from 1 to 99",
	} {
		_, r := m.sign("GM", "gm@players.test", "create\n"+file)
		if !strings.Contains(r, "The game was not created") || !strings.Contains(r, want) {
			t.Errorf("create answer lacks %q:\n%s", want, r)
		}
	}
	m.view(func(tx adjudicator.Tx) {
		if gs, _ := tx.Games(); len(gs) != 0 {
			t.Errorf("games created: %v", gs)
		}
	})
}

// TestCreateRefusesHostileFiles: a game file any signed stranger may send
// is measured before it is decoded. Inline tables 4,000 deep in 16 kB once
// took 13 s and 1.85 GiB; 2,000 unknown nested keys once gave a refusal of
// every prefix, a megabyte mailed back. Each is refused in a few lines
// naming the line (BenchmarkDecode in adjudicator/datafile measures them).
func TestCreateRefusesHostileFiles(t *testing.T) {
	m := newMailJudge(t)
	head := "id = \"evil-1\"\ngame = \"fake\"\nscenario = \"duel\"\n[schedule]\nevery = \"24h\"\n"
	var unknown strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&unknown, "k%d = {a = {b = 1}}\n", i)
	}
	for _, tt := range []struct{ name, file, want string }{
		{"deep inline tables", head + "x = " + strings.Repeat("{a = ", 4000) + "1" + strings.Repeat("}", 4000) + "\n", "game file: line 6: nested more than 12 deep"},
		{"deep arrays", head + "x = " + strings.Repeat("[", 8000) + strings.Repeat("]", 8000) + "\n", "game file: line 6: nested more than 12 deep"},
		{"deep dotted keys", head + strings.Repeat("a.", 8000) + "b = 1\n", "game file: line 6: nested more than 12 deep"},
		{"unknown keys", unknown.String() + head, "game file: line 1: unknown setting k0 (also unknown: k1, k2, k3, k4 and 1995 more)"},
	} {
		_, r := m.sign("GM", "gm@players.test", "create\n"+tt.file)
		if !strings.Contains(r, "The game was not created") || !strings.Contains(r, tt.want) {
			t.Errorf("%s: the answer lacks %q:\n%.2000s", tt.name, tt.want, r)
		}
		if len(r) > 4000 {
			t.Errorf("%s: an answer of %d bytes", tt.name, len(r))
		}
	}
}

// oldGame is a game created before the judge checked schedules: its file
// is written into the store as it was.
func oldGame(t *testing.T, j *adjudicator.Judge, db *store.DB, schedule string, now time.Time) {
	t.Helper()
	file := "id = \"old-1\"\ngame = \"fake\"\nscenario = \"duel\"\ngm = \"GMKEY\"\n[options]\nturns = \"50\"\n[schedule]\n" + schedule + "\n"
	storetest.MustUpdate(t, db, func(stx *store.Tx) error {
		tx := stx.Judge("judge@umpire.test", now)
		good := strings.Replace(file, schedule, "every = \"48h\"", 1)
		f, err := adjudicator.ParseGameFile([]byte(good), j.Games)
		if err != nil {
			return err
		}
		if err := j.Create(tx, f, []byte(good), now); err != nil {
			return err
		}
		g, err := tx.Game("old-1")
		if err != nil {
			return err
		}
		g.File = []byte(file)
		if err := tx.PutGame(g); err != nil {
			return err
		}
		for _, k := range []adjudicator.Key{{Fingerprint: "GMKEY", Address: "gm@players.test"}, {Fingerprint: "KA", Address: "a@players.test"}, {Fingerprint: "KB", Address: "b@players.test"}} {
			if err := tx.PutKey(k, nil); err != nil {
				return err
			}
		}
		if err := j.Join(tx, "old-1", "A", "KA"); err != nil {
			return err
		}
		if err := j.Join(tx, "old-1", "B", "KB"); err != nil {
			return err
		}
		return j.Start(tx, "old-1", now)
	})
}

func testJudge() *adjudicator.Judge {
	n := byte(0)
	return &adjudicator.Judge{Games: adjudicator.NewRegistry(fake.Game), ChainLength: 256, Operator: "ops@umpire.test",
		NewRoot: func() (dice.Hash, error) { n++; return sha256.Sum256([]byte{n}), nil }}
}

// run ticks game old-1 at each time it is due, until it is due no more or
// until end, and returns the times its steps closed.
func run(t *testing.T, j *adjudicator.Judge, db *store.DB, now, end time.Time) []time.Time {
	t.Helper()
	var closes []time.Time
	for i := 0; i < 10000 && now.Before(end); i++ {
		var due time.Time
		var ok bool
		storetest.MustView(t, db, func(stx *store.Tx) (err error) {
			due, ok, err = j.Due(stx.Judge("", now), "old-1")
			return err
		})
		if !ok || due.After(end) {
			break
		}
		now = maxT(now, due)
		storetest.MustUpdate(t, db, func(stx *store.Tx) error {
			tx := stx.Judge("judge@umpire.test", now)
			before, err := tx.Game("old-1")
			if err != nil {
				return err
			}
			if _, err := j.Tick(context.Background(), tx, "old-1", now); err != nil {
				return err
			}
			after, err := tx.Game("old-1")
			for k := before.Step; err == nil && k < after.Step; k++ {
				closes = append(closes, now)
			}
			return err
		})
	}
	return closes
}

func maxT(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func mailsTo(t *testing.T, db *store.DB, addr string) []string {
	var out []string
	storetest.MustView(t, db, func(tx *store.Tx) error {
		due, err := tx.Due(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 100000)
		for _, m := range due {
			if m.To[0] == addr {
				out = append(out, m.Subject+"\n"+text(t, m))
			}
		}
		return err
	})
	return out
}

// TestRunawayOldGames: games whose files were accepted before the judge
// checked schedules. "every = 1ns" runs at the judge's minimum interval;
// a cron that never fires pauses the game after the step it was on, and
// the game master and the operator are told.
func TestRunawayOldGames(t *testing.T) {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	t.Run("every 1ns", func(t *testing.T) {
		j, db := testJudge(), storetest.MustOpen(t)
		oldGame(t, j, db, "every = \"1ns\"", now)
		closes := run(t, j, db, now, now.Add(5*time.Hour+time.Minute))
		if len(closes) != 5 {
			t.Errorf("%d steps in five hours, want 5: %v", len(closes), closes)
		}
	})
	t.Run("cron that never fires", func(t *testing.T) {
		j, db := testJudge(), storetest.MustOpen(t)
		oldGame(t, j, db, "cron = \"0 0 30 2 *\"", now)
		closes := run(t, j, db, now, now.Add(24*time.Hour))
		if len(closes) != 0 {
			t.Errorf("%d steps adjudicated without a deadline: %v", len(closes), closes)
		}
		storetest.MustView(t, db, func(stx *store.Tx) error {
			g, err := stx.Judge("", now).Game("old-1")
			if g.Status != adjudicator.Paused {
				t.Errorf("game is %s, want paused", g.Status)
			}
			return err
		})
		for _, who := range []string{"gm@players.test", "ops@umpire.test"} {
			if got := strings.Join(mailsTo(t, db, who), "\n"); !strings.Contains(got, "paused") || !strings.Contains(got, "names no deadline") {
				t.Errorf("%s was not told the game was paused:\n%s", who, got)
			}
		}
	})
}

// TestSafetyBrake: a game whose clock adjudicates more steps in an hour
// than the judge allows is paused, its game master and the operator are
// told, and after the game master resumes it the count starts again.
func TestSafetyBrake(t *testing.T) {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	j, db := testJudge(), storetest.MustOpen(t)
	j.MinInterval, j.StepsPerHour = time.Minute, 5
	oldGame(t, j, db, "every = \"1ns\"", now)
	closes := run(t, j, db, now, now.Add(time.Hour))
	if len(closes) != 5 {
		t.Fatalf("%d steps before the brake, want 5", len(closes))
	}
	var g adjudicator.Game
	storetest.MustView(t, db, func(stx *store.Tx) (err error) { g, err = stx.Judge("", now).Game("old-1"); return err })
	if g.Status != adjudicator.Paused {
		t.Fatalf("game is %s after 5 steps in 5 minutes", g.Status)
	}
	for _, who := range []string{"gm@players.test", "ops@umpire.test"} {
		if got := strings.Join(mailsTo(t, db, who), "\n"); !strings.Contains(got, "paused by the safety brake") || !strings.Contains(got, "adjudicated 5 steps in the last hour") {
			t.Errorf("%s was not told:\n%s", who, got)
		}
	}
	resumed := now.Add(10 * time.Minute)
	storetest.MustUpdate(t, db, func(stx *store.Tx) error {
		_, err := j.Resume(stx.Judge("judge@umpire.test", resumed), "old-1", resumed)
		return err
	})
	// The step the brake stopped was due: it goes at once, then one a
	// minute.
	if more := run(t, j, db, resumed, resumed.Add(3*time.Minute+time.Second)); len(more) != 4 {
		t.Errorf("%d steps in the 3 minutes after resume, want 4", len(more))
	}
}

// FuzzSchedule: no schedule a game file can give, with any grace, turns
// and reminders, makes the judge's clock adjudicate more than the brake's
// cap in any hour, nor steps closer than the minimum interval allows; and
// a file the judge accepts never stalls or crashes the clock.
func FuzzSchedule(f *testing.F) {
	for _, s := range []struct {
		cron, every, grace string
		turns              int
		excused            int
	}{
		{"", "1ns", "", 1000000000, 0},
		{"0 0 30 2 *", "", "", 5, 0},
		{"* * * * *", "", "", 5, 0},
		{"@hourly", "", "59m", 20, 3},
		{"0 * * * *", "", "30m", 10, 2},
		{"", "1h", "1h", 30, 5},
		{"CRON_TZ=Europe/Belgrade 30 1,3 * * *", "", "", 10, 0},
		{"0 20 * * MON,THU", "", "12h", 6, 1},
	} {
		f.Add(s.cron, s.every, s.grace, s.turns, s.excused)
	}
	f.Fuzz(func(t *testing.T, cron, every, grace string, turns, excused int) {
		file := fmt.Sprintf("id = \"fz\"\ngame = \"fake\"\nscenario = \"duel\"\ngm = \"GMKEY\"\n[options]\nturns = %q\n[schedule]\ncron = %q\nevery = %q\ngrace = %q\nexcused = %d\n",
			fmt.Sprint(turns), cron, every, grace, excused)
		if cron == "" {
			file = strings.Replace(file, "cron = \"\"\n", "", 1)
		}
		if every == "" {
			file = strings.Replace(file, "every = \"\"\n", "", 1)
		}
		checkClock(t, []byte(file))
	})
}

// FuzzGameFile: any game file the judge accepts, however odd, gives a clock
// that never runs away (checkClock).
func FuzzGameFile(f *testing.F) {
	f.Add([]byte(duel))
	f.Add([]byte("id = \"g\"\ngame = \"fake\"\nscenario = \"trio\"\n[options]\nturns = \"99\"\nno_orders = \"repeat\"\n[schedule]\ncron = \"@hourly\"\ngrace = \"59m\"\nexcused = 9\nreminders = [\"30m\", \"1ns\"]\nabsence_days = 3\n"))
	f.Add([]byte("id = \"g\"\ngame = \"fake\"\nscenario = \"duel\"\n[schedule]\nevery = \"1ns\"\n"))
	f.Fuzz(func(t *testing.T, file []byte) { checkClock(t, file) })
}

// checkClock creates the game file's game with two players, starts it and
// runs its clock for a week, ticking at every due time with no orders.
// However the file's schedule reads, no hour sees more steps adjudicated
// than the safety brake's cap (12), no three steps come within the
// judge's minimum interval (two may, when a grace period shifted one), the
// fake game never has more steps than its turns allow, and no tick fails.
func checkClock(t *testing.T, file []byte) {
	j := testJudge()
	gf, err := adjudicator.ParseGameFile(file, j.Games)
	if err != nil || gf.Game != "fake" || len(gf.Seats) > 4 {
		return
	}
	db := storetest.MustOpen(t)
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	id := gf.ID
	created := true
	storetest.MustUpdate(t, db, func(stx *store.Tx) error {
		tx := stx.Judge("judge@umpire.test", now)
		if err := j.Create(tx, gf, file, now); err != nil {
			created = false
			return nil
		}
		g, err := tx.Game(id)
		if err != nil {
			return err
		}
		g.GMKey = "GMKEY"
		if err := tx.PutGame(g); err != nil {
			return err
		}
		if err := tx.PutKey(adjudicator.Key{Fingerprint: "GMKEY", Address: "gm@players.test"}, nil); err != nil {
			return err
		}
		for _, seat := range gf.Seats {
			if err := tx.PutKey(adjudicator.Key{Fingerprint: "K" + seat, Address: seat + "@players.test"}, nil); err != nil {
				return err
			}
			if err := j.Join(tx, id, seat, "K"+seat); err != nil {
				return err
			}
		}
		if err := j.Start(tx, id, now); err != nil {
			created = false
		}
		return nil
	})
	if !created {
		return
	}
	var closes []time.Time
	end := now.Add(7 * 24 * time.Hour)
	for i := 0; i < 5000; i++ {
		var due time.Time
		var ok bool
		storetest.MustView(t, db, func(stx *store.Tx) (err error) {
			due, ok, err = j.Due(stx.Judge("", now), id)
			return err
		})
		if !ok || due.After(end) {
			break
		}
		now = maxT(now, due)
		storetest.MustUpdate(t, db, func(stx *store.Tx) error {
			tx := stx.Judge("judge@umpire.test", now)
			before, err := tx.Game(id)
			if err != nil {
				return err
			}
			if _, err := j.Tick(context.Background(), tx, id, now); err != nil {
				t.Fatalf("tick at %v: %v\n%s", now, err, file)
			}
			after, err := tx.Game(id)
			for k := before.Step; err == nil && k < after.Step; k++ {
				closes = append(closes, now)
			}
			return err
		})
	}
	for i := range closes {
		n := 0
		for _, c := range closes[i:] {
			if c.Sub(closes[i]) < time.Hour {
				n++
			}
		}
		if n > 12 {
			t.Fatalf("%d steps adjudicated in the hour from %v (brake cap 12):\n%s", n, closes[i], file)
		}
		if i >= 2 && closes[i].Sub(closes[i-2]) < adjudicator.DefaultMinInterval {
			t.Fatalf("three steps within %v: %v:\n%s", adjudicator.DefaultMinInterval, closes[i-2:i+1], file)
		}
	}
	if len(closes) > 2*fake.MaxTurns+2 {
		t.Fatalf("%d steps, more than the fake game's turns allow:\n%s", len(closes), file)
	}
}
