package adjudicator_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

var now = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

const (
	natoKey = "2B5E0F0A7C5D44A1B0E1D2C3B4A5968778695A4B"
	serbKey = "SHA256:kOYhnSlqvDpLnq5HcE0R9d3x0rV7n1b5oQ0m5gBqZ4U"
)

// newJudge makes a store with game club-kosovo-3 running step 7, NATO held
// by natoKey and Serb by serbKey.
func newJudge(t *testing.T) *store.DB {
	t.Helper()
	db := storetest.MustOpen(t)
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		if err := tx.PutGame(store.Game{ID: "club-kosovo-3", Kind: "wbt", Title: "Kosovo by mail", Status: "running", Step: 7}); err != nil {
			return err
		}
		for seat, key := range map[string]string{"NATO": natoKey, "Serb": serbKey} {
			if err := tx.PutSeat(store.Seat{Game: "club-kosovo-3", Name: seat, Holders: []store.Holder{{Key: key, From: now}}}); err != nil {
				return err
			}
		}
		return nil
	})
	return db
}

// handle runs intake on env in one transaction and returns the outcome and
// the mails it queued.
func handle(t *testing.T, db *store.DB, env *adjudicator.Envelope) (adjudicator.Outcome, []store.Mail) {
	t.Helper()
	var out adjudicator.Outcome
	var mails []store.Mail
	in := &adjudicator.Intake{}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		var err error
		before, _ := tx.Due(now.Add(time.Hour), 1000)
		out, err = in.Handle(context.Background(), tx.Judge("judge@umpire.test", now), env)
		if err != nil {
			return err
		}
		after, err := tx.Due(now.Add(time.Hour), 1000)
		mails = after[len(before):]
		return err
	})
	return out, mails
}

func text(t *testing.T, m store.Mail) string {
	t.Helper()
	var b store.MailBody
	if err := json.Unmarshal(m.Body, &b); err != nil {
		t.Fatal(err)
	}
	return b.Text
}

const natoOrders = `game: club-kosovo-3
step: 7
seat: NATO
# comments start with #
attack 1708 from 1607 1709 with US-1AD US-3ID
move US-82AB 1609 1610 1711   # a comment after an order
end
--
Sent from my phone
`

func signed(fp, content string) *adjudicator.Envelope {
	return &adjudicator.Envelope{MessageID: "m1@players.test", From: "alice@players.test", Subject: "orders", Received: now,
		Text: content, Signed: &adjudicator.Signature{Kind: "openpgp", Fingerprint: fp, Content: content, Signed: []byte(content)}}
}

func TestOrdersAccepted(t *testing.T) {
	db := newJudge(t)
	out, mails := handle(t, db, signed(natoKey, natoOrders))
	if out != adjudicator.Understood || len(mails) != 1 {
		t.Fatalf("outcome %v, %d mails", out, len(mails))
	}
	m := mails[0]
	body := text(t, m)
	digest := adjudicator.OrderDigest([]byte(natoOrders)).String()
	for _, want := range []string{"ACCEPTED: orders of seat NATO for step 7 of club-kosovo-3, version 1", digest,
		"attack 1708 from 1607 1709 with US-1AD US-3ID", "# line 5", "move US-82AB 1609 1610 1711", "# line 6", "openpgp key " + natoKey} {
		if !strings.Contains(body, want) {
			t.Errorf("receipt lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "Sent from my phone") || strings.Contains(body, "a comment") {
		t.Errorf("receipt echoes what follows 'end' or comments:\n%s", body)
	}
	if m.To[0] != "alice@players.test" || m.InReplyTo != "<m1@players.test>" || m.Kind != store.MailReceipt || !strings.Contains(m.Subject, "accepted") {
		t.Errorf("receipt mail = %+v", m)
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		vs, err := tx.OrderVersions("club-kosovo-3", 7, "NATO")
		if err != nil || len(vs) != 1 || vs[0].Digest.String() != digest || string(vs[0].Signed) != natoOrders {
			t.Errorf("stored versions = %+v, %v", vs, err)
		}
		return nil
	})

	// A newer file replaces it; both are kept.
	env := signed(natoKey, strings.Replace(natoOrders, "1711", "1712", 1))
	env.MessageID = "m2@players.test"
	_, mails = handle(t, db, env)
	if body := text(t, mails[0]); !strings.Contains(body, "version 2") || !strings.Contains(body, "replace version 1") {
		t.Errorf("second receipt:\n%s", body)
	}

	// The same file again (the player's mail program sent it twice): no
	// new version.
	env.MessageID = "m3@players.test"
	_, mails = handle(t, db, env)
	if body := text(t, mails[0]); !strings.Contains(body, "identical to version 2") {
		t.Errorf("resent newest file:\n%s", body)
	}
	// A copy of version 1 (someone replaying an old mail) cannot undo
	// version 2.
	replay := signed(natoKey, natoOrders)
	replay.MessageID = "evil@elsewhere.test"
	_, mails = handle(t, db, replay)
	if body := text(t, mails[0]); !strings.Contains(body, "NOT ACCEPTED") || !strings.Contains(body, "copy of version 1, which version 2 has replaced") {
		t.Errorf("replayed old file:\n%s", body)
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		if vs, _ := tx.OrderVersions("club-kosovo-3", 7, "NATO"); len(vs) != 2 {
			t.Errorf("%d versions stored, want 2", len(vs))
		}
		return nil
	})
}

func TestOrdersRefusedForGameReasons(t *testing.T) {
	cases := []struct {
		name, key, content, want string
	}{
		{"wrong step", natoKey, strings.Replace(natoOrders, "step: 7", "step: 6", 1), "line 2: step 6 is not open: game club-kosovo-3 is taking orders for step 7"},
		{"seat held by another key", serbKey, natoOrders, "line 3: seat NATO of club-kosovo-3 is not held by the key that signed"},
		{"no such game", natoKey, strings.Replace(natoOrders, "club-kosovo-3", "club-kosovo-9", 1), `line 1: there is no game "club-kosovo-9"`},
		{"no such seat", natoKey, strings.Replace(natoOrders, "seat: NATO", "seat: KLA", 1), "its seats are NATO, Serb"},
		{"no header", natoKey, "attack 1708\nend\n", "does not say which game"},
		{"step not a number", natoKey, strings.Replace(natoOrders, "step: 7", "step: seven", 1), `line 2: step "seven" is not a step number`},
		{"header twice", natoKey, "seat: NATO\n" + natoOrders, `line 4: "seat" is given twice (first on line 1)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := newJudge(t)
			out, mails := handle(t, db, signed(c.key, c.content))
			if out != adjudicator.Understood || len(mails) != 1 {
				t.Fatalf("outcome %v, %d mails", out, len(mails))
			}
			if body := text(t, mails[0]); !strings.Contains(body, "NOT ACCEPTED") || !strings.Contains(body, c.want) {
				t.Errorf("receipt lacks %q:\n%s", c.want, body)
			}
			storetest.MustView(t, db, func(tx *store.Tx) error {
				if vs, _ := tx.LatestOrders("club-kosovo-3", 7); len(vs) != 0 {
					t.Errorf("refused orders were stored: %+v", vs)
				}
				return nil
			})
		})
	}
}

// TestSignedHTMLOnlyAccepted: an HTML-only message whose clear-signed
// block verified over the lines the HTML displays (Mailvelope in Gmail's
// rich text mode, issue 30) is read as any signed order file, not refused
// for its HTML.
func TestSignedHTMLOnlyAccepted(t *testing.T) {
	db := newJudge(t)
	e := signed(natoKey, natoOrders)
	e.HTMLOnly, e.Text, e.Client = true, "", "gmail"
	out, mails := handle(t, db, e)
	if out != adjudicator.Understood || len(mails) != 1 {
		t.Fatalf("outcome %v, %d mails", out, len(mails))
	}
	if body := text(t, mails[0]); !strings.Contains(body, "ACCEPTED: orders of seat NATO for step 7 of club-kosovo-3") {
		t.Errorf("the receipt does not accept the orders:\n%s", body)
	}
}

func TestMessagesRefused(t *testing.T) {
	base := func() *adjudicator.Envelope {
		return &adjudicator.Envelope{MessageID: "x@players.test", From: "bob@players.test", Subject: "my turn", Received: now, Text: natoOrders}
	}
	cases := []struct {
		name   string
		change func(e *adjudicator.Envelope)
		want   string
	}{
		{"unsigned", func(e *adjudicator.Envelope) {}, "not signed"},
		{"unknown key", func(e *adjudicator.Envelope) { e.UnknownKey = "SHA256:abc" }, "signed by key SHA256:abc, which the judge does not know"},
		{"bad signature", func(e *adjudicator.Envelope) { e.SignatureProblem = "the signed text was changed" }, "does not verify: the signed text was changed"},
		{"html only", func(e *adjudicator.Envelope) { e.HTMLOnly, e.Text = true, "" }, "only an HTML part"},
		// The answer names what the judge saw and the one setting that
		// fixes it for that client (issue 30).
		{"html only from gmail", func(e *adjudicator.Envelope) {
			e.HTMLOnly, e.Text = true, ""
			e.Client = "gmail"
		}, "HTML-only message from\nGmail's web client, and it reads plain text. Send as plain text: in Gmail, ⋮ (More options) → Plain text mode"},
		{"bad signature from outlook", func(e *adjudicator.Envelope) {
			e.SignatureProblem = "bad signature"
			e.Client = "outlook"
		}, "Outlook: sign with GpgOL's Sign button (Gpg4win)"},
		{"html only from gmail, signed block does not verify", func(e *adjudicator.Envelope) {
			e.HTMLOnly, e.Text, e.SignatureProblem = true, "", "bad signature"
			e.Client = "gmail"
		}, "HTML-only message from Gmail's web client whose signed text is not"},
		{"too large", func(e *adjudicator.Envelope) { e.TooLarge, e.Size, e.Limit = true, 10<<20, 2<<20 }, "10485760 bytes"},
		{"unreadable", func(e *adjudicator.Envelope) { e.Unreadable = "its MIME structure is nested too deep" }, "nested too deep"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := newJudge(t)
			e := base()
			c.change(e)
			out, mails := handle(t, db, e)
			if out != adjudicator.Refused || len(mails) != 1 {
				t.Fatalf("outcome %v, %d mails", out, len(mails))
			}
			if body := text(t, mails[0]); !strings.Contains(body, c.want) {
				t.Errorf("answer lacks %q:\n%s", c.want, body)
			}
			if mails[0].To[0] != "bob@players.test" || mails[0].InReplyTo != "<x@players.test>" {
				t.Errorf("answer addressed %v in reply to %q", mails[0].To, mails[0].InReplyTo)
			}
		})
	}
}

// TestUnsignedAnswerNamesClientSection: the answer to an unsigned order
// file sends the player to the section of docs/signing.md for the mail
// program the mail side recognised, and to the page's list when it
// recognised none; the terminal's ways stay in every answer.
func TestUnsignedAnswerNamesClientSection(t *testing.T) {
	for _, c := range []struct{ client, want, not string }{
		{"thunderbird", "Your mail seems to come from Thunderbird:\ndocs/signing.md#thunderbird says how to make a key,", ""},
		{"apple-mail", "from Apple Mail:\ndocs/signing.md#apple-mail says", ""},
		{"outlook", "from Outlook:\ndocs/signing.md#outlook says", ""},
		{"gmail", "from Gmail's web client:\ndocs/signing.md#gmail says", ""},
		{"android", "from your phone's mail app (K-9 Mail, Thunderbird for Android or FairEmail):\ndocs/signing.md#android says", ""},
		{"proton-mail", "from Proton Mail:\ndocs/signing.md#proton-mail says", ""},
		{"mutt", "from mutt:\ndocs/signing.md#mutt says", ""},
		{"", "docs/signing.md has a section for each mail program (Thunderbird, Apple Mail,", "seems to come from"},
		{"lotus-notes", "docs/signing.md has a section for each mail program", "#lotus-notes"},
	} {
		t.Run(c.client, func(t *testing.T) {
			db := newJudge(t)
			out, mails := handle(t, db, &adjudicator.Envelope{MessageID: "u@players.test", From: "bob@players.test", Subject: "orders",
				Received: now, Text: natoOrders, Client: c.client})
			if out != adjudicator.Refused || len(mails) != 1 {
				t.Fatalf("outcome %v, %d mails", out, len(mails))
			}
			body := text(t, mails[0])
			for _, w := range []string{"is not signed", c.want, "gpg --clearsign orders.txt", "ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n umpire orders.txt"} {
				if !strings.Contains(body, w) {
					t.Errorf("answer lacks %q:\n%s", w, body)
				}
			}
			if c.not != "" && strings.Contains(body, c.not) {
				t.Errorf("answer has %q:\n%s", c.not, body)
			}
		})
	}
}

func TestAutomaticMailNeverAnswered(t *testing.T) {
	db := newJudge(t)
	out, mails := handle(t, db, &adjudicator.Envelope{From: "alice@players.test", Automatic: "Auto-Submitted: auto-replied", Text: "I am on holiday"})
	if out != adjudicator.Understood || len(mails) != 0 {
		t.Errorf("auto-reply: outcome %v, %d mails queued", out, len(mails))
	}
}

func TestBounceRecorded(t *testing.T) {
	db := newJudge(t)
	var mid string
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		id, err := tx.Enqueue(store.Mail{To: []string{"gone@players.test"}, Subject: "report"})
		m, _ := tx.Mail(id)
		mid = m.MessageID
		return err
	})
	b := &adjudicator.Bounce{OriginalMessageID: strings.Trim(mid, "<>"), Action: "failed", Status: "5.1.1", Diagnostic: "user unknown", At: now}
	out, mails := handle(t, db, &adjudicator.Envelope{From: "MAILER-DAEMON@players.test", Automatic: "delivery status notification", Bounce: b})
	if out != adjudicator.Understood || len(mails) != 0 {
		t.Fatalf("bounce: outcome %v, %d mails", out, len(mails))
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		bs, err := tx.Bounces()
		if err != nil || len(bs) != 1 || bs[0].Recipient != "gone@players.test" || bs[0].MailID == 0 || bs[0].Status != "5.1.1" {
			t.Errorf("bounces = %+v, %v", bs, err)
		}
		return nil
	})
}

func TestReadOnlyCommands(t *testing.T) {
	cases := []struct{ subject, body, want string }{
		{"help", "", "Sign it with any of"},
		{"help", "", "or a terminal, one section each: docs/signing.md."},
		{"Re: help", "", "Sign it with any of"},
		{"", "\n\n  list\nthanks", "club-kosovo-3"},
		{"status club-kosovo-3", "", "NATO         held by key " + natoKey},
		{"status nowhere", "", `There is no game "nowhere"`},
		{"log club-kosovo-3", "", `Game "club-kosovo-3" has no dice log`},
		{"log nowhere", "", `There is no game "nowhere"`},
		{"map club-kosovo-3", "", "This judge draws no maps"}, // an intake without a judge
		{"map nowhere", "", `There is no game "nowhere"`},
	}
	for _, c := range cases {
		db := newJudge(t)
		out, mails := handle(t, db, &adjudicator.Envelope{MessageID: "c@players.test", From: "carol@players.test", Subject: c.subject, Text: c.body, Received: now})
		if out != adjudicator.Understood || len(mails) != 1 {
			t.Errorf("%q: outcome %v, %d mails", c.subject, out, len(mails))
			continue
		}
		if body := text(t, mails[0]); !strings.Contains(body, c.want) {
			t.Errorf("%q/%q: answer lacks %q:\n%s", c.subject, c.body, c.want, body)
		}
	}
}
