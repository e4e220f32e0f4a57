package intake

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/signature"
)

// clientKeys are the keys of the clients corpus: alice (OpenPGP) and bob
// (SSH).
func clientKeys(t *testing.T) *signature.Keyring {
	t.Helper()
	r := &signature.Keyring{}
	for _, f := range []string{"alice.asc", "bob.pub"} {
		raw, err := os.ReadFile(filepath.Join(mailtest.ClientsDir(), "keys", f))
		if err != nil {
			t.Fatal(err)
		}
		k, err := signature.ParseKey(raw)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Add(k); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// TestClients reads every message of the clients corpus (Thunderbird,
// Apple Mail, Outlook, Gmail with Mailvelope, K-9 and FairEmail, Proton,
// mutt, ssh-keygen, replies) the way the inbox hands it over: parsed,
// its signature verified by the intake's own path, its order file read by
// adjudicator.ParseOrderFile. Each must give exactly the header and order
// lines its MANIFEST.tsv row says, with no problem; each message the judge
// cannot read must be refused, saying what the player can change.
func TestClients(t *testing.T) {
	h := New(Config{Address: "judge@umpire.test"})
	keys := clientKeys(t)
	now := time.Date(2025, 3, 3, 19, 30, 0, 0, time.UTC)
	msgs := mailtest.Clients(t)
	if len(msgs) < 19 {
		t.Fatalf("the corpus has %d messages, want at least 19", len(msgs))
	}
	for i, c := range msgs {
		t.Run(c.Name, func(t *testing.T) {
			m := mail.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), Raw: c.Raw, Size: int64(len(c.Raw))}
			env, _ := h.envelope(m, keys, now)
			switch c.Expect {
			case "orders":
				if env.Signed == nil {
					t.Fatalf("not read as a signed order file (%s): signature problem %q, unknown key %q, HTML only %v",
						c.Note, env.SignatureProblem, env.UnknownKey, env.HTMLOnly)
				}
				of, problems := adjudicator.ParseOrderFile(env.Signed.Content)
				if len(problems) != 0 {
					t.Errorf("problems %+v in\n%s", problems, env.Signed.Content)
				}
				if of.Game != c.Game || strconv.FormatUint(of.Step, 10) != c.Step || of.Seat != c.Seat {
					t.Errorf("header %s/%d/%s, want %s/%s/%s", of.Game, of.Step, of.Seat, c.Game, c.Step, c.Seat)
				}
				var got []string
				for _, o := range of.Orders {
					got = append(got, o.Text)
				}
				if strings.Join(got, "\n") != strings.Join(c.Orders, "\n") {
					t.Errorf("orders read:\n  %s\nwant:\n  %s\nfrom the signed text:\n%s", strings.Join(got, "\n  "), strings.Join(c.Orders, "\n  "), env.Signed.Content)
				}
			case "refused":
				if env.Signed != nil {
					t.Fatalf("read as signed (%s), want it refused", c.Note)
				}
				if env.SignatureProblem == "" && !env.HTMLOnly {
					t.Fatalf("not refused as HTML-only or for its signature (%s): %+v", c.Note, env)
				}
				client := adjudicator.ClientFor(env.Client)
				answer := env.SignatureProblem + " " + client.PlainText
				if !env.HTMLOnly {
					answer = env.SignatureProblem + " " + client.KeepText
				}
				if !strings.Contains(answer, c.Hint) {
					t.Errorf("the refusal %q does not say %q", answer, c.Hint)
				}
			}
		})
	}
}
