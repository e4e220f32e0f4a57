package bu

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/store"
)

// hostGame creates game id in the store with every seat held and starts
// it.
func hostGame(tb testing.TB, db *store.DB, judge *adjudicator.Judge, id, scenario string, options map[string]string, now time.Time) {
	tb.Helper()
	var file strings.Builder
	fmt.Fprintf(&file, "id = %q\ngame = \"bu\"\nscenario = %q\ngm = \"GMKEY\"\n[options]\n", id, scenario)
	for k, v := range options {
		fmt.Fprintf(&file, "%s = '''\n%s'''\n", k, v)
	}
	file.WriteString("[schedule]\nevery = \"48h\"\n")
	f, err := adjudicator.ParseGameFile([]byte(file.String()), judge.Games)
	if err != nil {
		tb.Fatal(err)
	}
	seats, _ := Game.Seats(scenario)
	err = db.Update(context.Background(), func(stx *store.Tx) error {
		tx := stx.Judge("judge@umpire.test", now)
		if err := judge.Create(tx, f, []byte(file.String()), now); err != nil {
			return err
		}
		if err := tx.PutKey(adjudicator.Key{Fingerprint: "GMKEY", Kind: "openpgp", Address: "gm@players.test"}, nil); err != nil {
			return err
		}
		for _, seat := range seats {
			key := "KEY-" + seat
			if err := tx.PutKey(adjudicator.Key{Fingerprint: key, Kind: "ssh", Address: strings.ToLower(seat) + "@players.test"}, nil); err != nil {
				return err
			}
			if err := judge.Join(tx, id, seat, key); err != nil {
				return err
			}
		}
		return judge.Start(tx, id, now)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// sendOrders delivers seat's order lines for step k through intake.
func sendOrders(tb testing.TB, db *store.DB, intake *adjudicator.Intake, id string, k uint64, seat string, lines []string, now time.Time) {
	tb.Helper()
	text := fmt.Sprintf("game: %s\nstep: %d\nseat: %s\n%s\nend\n", id, k, seat, strings.Join(lines, "\n"))
	env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%s-%d-%s@players.test", id, k, seat), From: strings.ToLower(seat) + "@players.test",
		Received: now, Text: text, Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: "KEY-" + seat, Content: text, Signed: []byte(text)}}
	err := db.Update(context.Background(), func(tx *store.Tx) error {
		_, err := intake.Handle(context.Background(), tx.Judge("judge@umpire.test", now), env)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// playStored plays game id to its end with the bots' orders through
// intake (each step adjudicated when its seats are all ready); it returns
// the steps played.
func playStored(tb testing.TB, db *store.DB, judge *adjudicator.Judge, id string, now time.Time) int {
	tb.Helper()
	intake := &adjudicator.Intake{Judge: judge}
	for steps := 0; steps < 500; steps++ {
		var st adjudicator.StepRecord
		over := false
		err := db.View(context.Background(), func(tx *store.Tx) error {
			jt := tx.Judge("judge@umpire.test", now)
			g, err := jt.Game(id)
			if err != nil {
				return err
			}
			over = g.Status == adjudicator.Ended
			st, err = jt.Step(id, g.Step)
			return err
		})
		if err != nil {
			tb.Fatal(err)
		}
		if over {
			return steps
		}
		for _, seat := range st.Owing {
			lines, err := Game.(adjudicator.Bot).Bot(st.State, seat)
			if err != nil {
				tb.Fatal(err)
			}
			sendOrders(tb, db, intake, id, st.Number, seat, lines, now)
		}
	}
	tb.Fatalf("game %s did not end in 500 steps", id)
	return 0
}

// TestWholeGamesVerify plays whole games, three seats and two, to their end
// (four turns, unless a side reaches Intervention Level 3 or surrenders
// first) through the judge on a real bbolt file, then checks the dice log:
// it verifies; every deck draw of each turn reached (the turn-1 shuffles,
// the Late War rebuild of turn 3, the later draws) is re-derived, the deals
// of each finished turn having been revealed when their cards were all
// played; and the exported game replays step by step.
func TestWholeGamesVerify(t *testing.T) {
	t.Parallel()
	for _, scenario := range []string{"three", "two"} {
		t.Run(scenario, func(t *testing.T) {
			db, err := store.Open(t.TempDir()+"/umpire.db", store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			judge := &adjudicator.Judge{Games: adjudicator.NewRegistry(Game)}
			now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
			hostGame(t, db, judge, "whole", scenario, nil, now)
			steps := playStored(t, db, judge, "whole", now)
			var log strings.Builder
			var exp *adjudicator.GameExport
			err = db.View(context.Background(), func(tx *store.Tx) error {
				jt := tx.Judge("judge@umpire.test", now)
				if _, err := jt.WriteDiceLog("whole", &log); err != nil {
					return err
				}
				exp, err = judge.ExportGame(jt, "whole")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			r, err := dice.VerifyStream(strings.NewReader(log.String()), dice.VerifyOptions{})
			if err != nil || !r.OK() {
				t.Fatalf("verify: %v %+v", err, r)
			}
			x, err := dice.ParseExport([]byte(log.String()))
			if err != nil {
				t.Fatal(err)
			}
			decks, rebuilt, turns := 0, false, map[string]bool{}
			for _, rec := range x.Records {
				if rec.Type != dice.TypeDraw || !strings.HasPrefix(rec.Draw.Stream, "deck-") {
					continue
				}
				decks++
				if rec.Draw.Values == nil {
					t.Errorf("deck draw %d (%s) has no values after the end", rec.Draw.Seq, rec.Draw.Purpose)
				}
				for turn := 1; turn <= 4; turn++ {
					if strings.Contains(rec.Draw.Purpose, fmt.Sprintf("turn %d draw", turn)) {
						turns[fmt.Sprint(turn)] = true
						rebuilt = rebuilt || turn == 3
					}
				}
			}
			// The game may end before its fourth turn (a side at
			// Intervention Level 3, 12.4; a surrender, 12.5): every turn
			// it reached has its draw, and every turn it finished its
			// reveals.
			var last struct {
				Turn   int    `json:"turn"`
				Over   bool   `json:"over"`
				Reason string `json:"reason"`
			}
			if err := json.Unmarshal(exp.Steps[len(exp.Steps)-1].State, &last); err != nil || !last.Over {
				t.Fatalf("the last state: %v, over %v", err, last.Over)
			}
			if len(turns) != last.Turn || last.Turn >= 3 && !rebuilt {
				t.Errorf("deck draws of turns %v: want the draws of turns 1 to %d, turn 3's after the rebuild", turns, last.Turn)
			}
			seats, _ := Game.Seats(scenario)
			if finished := min(last.Turn, 4) - 1; len(x.Revealed) < finished*len(seats) {
				t.Errorf("%d reveals: want each deck's keys published at the end of turns 1 to %d", len(x.Revealed), finished)
			}
			t.Logf("%s: the game ended in turn %d: %s", scenario, last.Turn, last.Reason)
			if n, err := judge.ReplayExport(exp); err != nil {
				t.Errorf("replay after %d steps: %v", n, err)
			}
			t.Logf("%s: %d steps, %d deck draws, %d draws, %d reveals", scenario, steps, decks, r.Draws, len(x.Revealed))
		})
	}
}
