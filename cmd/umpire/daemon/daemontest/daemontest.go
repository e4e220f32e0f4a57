// Package daemontest holds what the tests of the running judge
// (cmd/umpire/daemon) and of the umpire command share: the judge's mail
// account, mail made by hand, and the umpire binary.
package daemontest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
)

// JudgeAddress and JudgePassword are the judge's mail account in tests.
const JudgeAddress, JudgePassword = "judge@umpire.test", "judge-pw"

// Orders is an order file of seat in club-kosovo-3, step 7.
func Orders(seat string, lines ...string) string {
	return fmt.Sprintf("game: club-kosovo-3\nstep: 7\nseat: %s\n%s\nend\n", seat, strings.Join(lines, "\n"))
}

// Header is the header of a mail from from to the judge.
func Header(from, id, subject string) string {
	return fmt.Sprintf("From: %s\r\nTo: %s\r\nMessage-ID: <%s>\r\nSubject: %s\r\nDate: Sun, 22 Nov 2026 20:00:00 +0000\r\nMIME-Version: 1.0\r\n", from, JudgeAddress, id, subject)
}

// CRLF ends every line of s with CRLF.
func CRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// HeaderOf is the value of the header name of the mail raw.
func HeaderOf(raw []byte, name string) string {
	for _, l := range strings.Split(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n") {
		if l == "" {
			break
		}
		if v, ok := strings.CutPrefix(l, name+": "); ok {
			return v
		}
	}
	return ""
}

// Tail is the last n lines of s.
func Tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// LockedBuffer is a bytes.Buffer safe for concurrent writes.
type LockedBuffer struct {
	Mu sync.Mutex
	B  bytes.Buffer
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.Mu.Lock()
	defer l.Mu.Unlock()
	return l.B.Write(p)
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// UmpireBinary builds the umpire binary once per test run.
func UmpireBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "umpire-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "umpire")
		if out, err := exec.Command("go", "build", "-o", binPath, "github.com/umpire-pbem/umpire/cmd/umpire").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// HostGames creates the fake duels ids in the store at dbPath (games
// holds the fake game), with turns
// turns each, seats them and plays steps steps of each (all of them when
// steps is 0: the games end). Orders come through the judge's intake, as
// mail brings them.
func HostGames(t testing.TB, games adjudicator.Registry, dbPath string, now time.Time, turns, steps int, ids ...string) {
	t.Helper()
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	j := &adjudicator.Judge{Games: games}
	in := &adjudicator.Intake{Judge: j}
	for _, id := range ids {
		err := db.Update(context.Background(), func(tx *store.Tx) error {
			jt := tx.Judge(JudgeAddress, now)
			data := []byte(fmt.Sprintf("id = %q\ngame = \"fake\"\nscenario = \"duel\"\ntitle = \"Duel %s\"\n[options]\nturns = \"%d\"\n[schedule]\nevery = \"24h\"\n", id, id, turns))
			f, err := adjudicator.ParseGameFile(data, games)
			if err != nil {
				return err
			}
			if err := j.Create(jt, f, data, now); err != nil {
				return err
			}
			for _, seat := range []string{"A", "B"} {
				if err := jt.PutKey(adjudicator.Key{Fingerprint: "K" + seat, Kind: "ssh", Address: strings.ToLower(seat) + "@players.test"}, []byte("K"+seat)); err != nil {
					return err
				}
				if err := j.Join(jt, id, seat, "K"+seat); err != nil {
					return err
				}
			}
			if err := j.Start(jt, id, now); err != nil {
				return err
			}
			for played := 0; steps == 0 || played < steps; played++ {
				g, err := jt.Game(id)
				if err != nil {
					return err
				}
				if g.Status == adjudicator.Ended {
					return nil
				}
				for _, seat := range []string{"A", "B"} {
					text := fmt.Sprintf("game: %s\nstep: %d\nseat: %s\nroll 2\nend\n", id, g.Step, seat)
					env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%s-%d-%s", id, g.Step, seat), Received: now, Text: text,
						Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: "K" + seat, Content: text, Signed: []byte(text)}}
					if _, err := in.Handle(context.Background(), jt, env); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("game %s: %v", id, err)
		}
	}
}
