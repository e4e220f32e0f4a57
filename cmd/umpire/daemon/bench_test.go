//go:build integration

package daemon

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	umail "github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/store"
)

// BenchmarkIntake measures the judge taking 1,000 signed order mails from
// the real Dovecot's INBOX: fetched, parsed, signature verified against the
// stored keys, committed with their receipts queued, and moved to the
// processed folder. It prints mails per second and the ratio to plain
// go-imap FETCHes of the same 1,000 messages, both as one FETCH of all of
// them (intake/fetch) and as one FETCH per message (intake/fetch-each), the
// way a simple client takes its mail (target: >= 50 mails/s; docs/mail.md
// gives what it measured, and why the ratios move with the machine's load).
// Run it with
//
//	go test -run '^$' -bench Intake -benchtime 3x ./cmd/umpire
func BenchmarkIntake(b *testing.B) {
	const n = 1000
	st := mailtest.Real(b)
	st.AddUser(b, daemontest.JudgeAddress, daemontest.JudgePassword)
	mails := sshSignedMails(b, n)

	var took, fetch, fetchEach time.Duration
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		db, err := store.Open(filepath.Join(dir, "umpire.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		seatBob(b, db, mails.key)
		c := imapLogin(b, st)
		appendAll(b, c, "INBOX", mails.raw)
		j := intake.New(intake.Config{Store: intakeStore{db}, Intake: &adjudicator.Intake{}, Address: daemontest.JudgeAddress,
			From: daemontest.JudgeAddress, Limits: message.DefaultLimits(), RepliesPerHour: 1 << 20, Now: time.Now,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		in, err := umail.NewInbox(umail.InboxConfig{Server: umail.Server{Address: st.IMAPAddr(), Security: umail.Insecure,
			Username: daemontest.JudgeAddress, Password: daemontest.JudgePassword}, Processed: "processed"}, j, j)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if err := in.Once(context.Background()); err != nil {
			b.Fatal(err)
		}
		took += time.Since(start)
		b.StopTimer()

		// The same messages, fetched plainly: the floor for any judge.
		start = time.Now()
		if _, err := c.Select("processed", nil).Wait(); err != nil {
			b.Fatal(err)
		}
		got, err := c.Fetch(imap.UIDSet{imap.UIDRange{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true,
			BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
		if err != nil || len(got) != n {
			b.Fatalf("plain fetch: %d messages, %v", len(got), err)
		}
		fetch += time.Since(start)
		start = time.Now()
		for _, m := range got {
			one, err := c.Fetch(imap.UIDSetNum(m.UID), &imap.FetchOptions{UID: true,
				BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
			if err != nil || len(one) != 1 {
				b.Fatalf("fetch of uid %d: %v", m.UID, err)
			}
		}
		fetchEach += time.Since(start)
		var queued int
		db.View(context.Background(), func(tx *store.Tx) error {
			due, err := tx.Due(time.Now().Add(time.Hour), 2*n)
			queued = len(due)
			return err
		})
		if queued != n {
			b.Fatalf("%d receipts queued for %d mails", queued, n)
		}
		// Empty the folders for the next round.
		for _, f := range []string{"processed", "rejected"} {
			c.Delete(f).Wait()
		}
		c.Logout().Wait()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/took.Seconds(), "mails/s")
	b.ReportMetric(float64(n*b.N)/fetch.Seconds(), "fetch-mails/s")
	b.ReportMetric(took.Seconds()/fetch.Seconds(), "intake/fetch")
	b.ReportMetric(took.Seconds()/fetchEach.Seconds(), "intake/fetch-each")
}

type signedMails struct {
	raw [][]byte
	key []byte // bob's public key line
}

// sshSignedMails makes n distinct order files for seat Serb, signed in one
// ssh-keygen run, and wraps each as bob's mail with the signature inline.
func sshSignedMails(tb testing.TB, n int) signedMails {
	tb.Helper()
	dir := tb.TempDir()
	key := filepath.Join(dir, "bob")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
		tb.Fatalf("ssh-keygen: %v %s", err, out)
	}
	files := make([]string, n)
	for i := range files {
		files[i] = filepath.Join(dir, fmt.Sprintf("orders%04d.txt", i))
		text := daemontest.Orders("Serb", fmt.Sprintf("# version %d", i), fmt.Sprintf("move VJ-52 17%02d 1810", i%100))
		if err := os.WriteFile(files[i], []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	if out, err := exec.Command("ssh-keygen", append([]string{"-Y", "sign", "-f", key, "-n", "umpire"}, files...)...).CombinedOutput(); err != nil {
		tb.Fatalf("ssh-keygen -Y sign: %v %s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		tb.Fatal(err)
	}
	out := signedMails{key: pub}
	for i, f := range files {
		text, _ := os.ReadFile(f)
		sig, _ := os.ReadFile(f + ".sig")
		body := string(text) + string(sig)
		out.raw = append(out.raw, []byte(daemontest.Header("bob@players.test", fmt.Sprintf("bench%d@players.test", i), "orders")+
			"Content-Type: text/plain; charset=utf-8\r\n\r\n"+daemontest.CRLF(body)))
	}
	return out
}

func seatBob(tb testing.TB, db *store.DB, pub []byte) {
	tb.Helper()
	k, err := sigParseKey(pub)
	if err != nil {
		tb.Fatal(err)
	}
	err = db.Update(context.Background(), func(tx *store.Tx) error {
		if err := tx.PutGame(store.Game{ID: "club-kosovo-3", Kind: "wbt", Status: "running", Step: 7}); err != nil {
			return err
		}
		if err := tx.PutKey(store.Key{Fingerprint: k, Kind: "ssh", Public: pub}); err != nil {
			return err
		}
		return tx.PutSeat(store.Seat{Game: "club-kosovo-3", Name: "Serb", Holders: []store.Holder{{Key: k}}})
	})
	if err != nil {
		tb.Fatal(err)
	}
}

func imapLogin(tb testing.TB, st mailtest.Stack) *imapclient.Client {
	tb.Helper()
	c, err := imapclient.DialInsecure(st.IMAPAddr(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.Login(daemontest.JudgeAddress, daemontest.JudgePassword).Wait(); err != nil {
		tb.Fatal(err)
	}
	return c
}

func appendAll(tb testing.TB, c *imapclient.Client, folder string, msgs [][]byte) {
	tb.Helper()
	for _, m := range msgs {
		cmd := c.Append(folder, int64(len(m)), nil)
		if _, err := io.Copy(cmd, bytes.NewReader(m)); err != nil {
			tb.Fatal(err)
		}
		if err := cmd.Close(); err != nil {
			tb.Fatal(err)
		}
		if _, err := cmd.Wait(); err != nil {
			tb.Fatal(err)
		}
	}
}

func sigParseKey(pub []byte) (string, error) {
	k, err := signature.ParseKey(pub)
	return k.Fingerprint, err
}
