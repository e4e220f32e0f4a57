package daemon

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	umail "github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
	"github.com/umpire-pbem/umpire/templates"
)

// corpusJudge is the mail intake as serve wires it, on a store that holds
// the corpus's games (mail/testdata/corpus/README.md): in club-kosovo-3
// alice (keys/alice.asc) holds NATO and bob (keys/bob.pub) Serb; in
// corpus-fake, whose game master is alice, alice holds A, bob B and dora
// (keys/dora.asc, expired) C. Eve (keys/eve.asc) is known and holds no
// seat.
func corpusJudge(t *testing.T) (*intake.Handler, *store.DB) {
	t.Helper()
	db := storetest.MustOpen(t)
	now := time.Date(2025, 3, 3, 19, 30, 0, 0, time.UTC)
	judge := &adjudicator.Judge{Games: games(), ChainLength: 64, Logger: slog.New(slog.DiscardHandler)}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		if err := tx.PutGame(store.Game{ID: "club-kosovo-3", Kind: "wbt", Status: "running", Step: 7}); err != nil {
			return err
		}
		fpr := map[string]string{}
		for who, file := range map[string]string{"alice": "alice.asc", "bob": "bob.pub", "dora": "dora.asc", "eve": "eve.asc"} {
			raw, err := os.ReadFile(filepath.Join(mailtest.CorpusDir(), "keys", file))
			if err != nil {
				return err
			}
			k, err := signature.ParseKey(raw)
			if err != nil {
				return err
			}
			fpr[who] = k.Fingerprint
			if err := tx.PutKey(store.Key{Fingerprint: k.Fingerprint, Kind: string(k.Kind), Public: raw, Address: who + "@players.test"}); err != nil {
				return err
			}
		}
		for seat, who := range map[string]string{"NATO": "alice", "Serb": "bob"} {
			if err := tx.PutSeat(store.Seat{Game: "club-kosovo-3", Name: seat, Holders: []store.Holder{{Key: fpr[who], From: now}}}); err != nil {
				return err
			}
		}
		file := "id = \"corpus-fake\"\ngame = \"fake\"\nscenario = \"trio\"\ngm = \"" + fpr["alice"] + "\"\n[schedule]\nevery = \"72h\"\n"
		f, err := adjudicator.ParseGameFile([]byte(file), judge.Games)
		if err != nil {
			return err
		}
		jt := tx.Judge(daemontest.JudgeAddress, now)
		if err := judge.Create(jt, f, []byte(file), now); err != nil {
			return err
		}
		for seat, who := range map[string]string{"A": "alice", "B": "bob", "C": "dora"} {
			if err := judge.Join(jt, "corpus-fake", seat, fpr[who]); err != nil {
				return err
			}
		}
		return judge.Start(jt, "corpus-fake", now)
	})
	return intake.New(intake.Config{Store: intakeStore{db}, Intake: &adjudicator.Intake{Judge: judge}, Address: daemontest.JudgeAddress,
		From: "umpire <" + daemontest.JudgeAddress + ">", Limits: message.DefaultLimits(), RepliesPerHour: 1000,
		Now: func() time.Time { return now }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}), db
}

// answers are the mails queued so far.
func answers(t *testing.T, db *store.DB) []store.Mail {
	t.Helper()
	var due []store.Mail
	storetest.MustView(t, db, func(tx *store.Tx) (err error) {
		due, err = tx.Due(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 100000)
		return err
	})
	// the start announcements of the judge's games are no answers
	return slices.DeleteFunc(due, isStartAnnouncement)
}

func mailText(t *testing.T, m store.Mail) string {
	var b store.MailBody
	if err := json.Unmarshal(m.Body, &b); err != nil {
		t.Fatal(err)
	}
	return b.Text
}

// TestCorpusTreatments feeds every message of the hostile corpus to the
// judge as the inbox would, and checks each gets the documented treatment:
// the folder it goes to, and the answer (or silence) it gets.
func TestCorpusTreatments(t *testing.T) {
	t.Parallel()
	j, db := corpusJudge(t)
	corpus := mailtest.Corpus(t)
	type want struct {
		disp     umail.Disposition
		answer   string // text the answer holds; "" = no answer at all
		kind     store.MailKind
		oneOfAns []string
	}
	treatments := map[string]want{
		"orders":            {umail.Processed, "Order file digest", store.MailReceipt, nil},
		"unsigned":          {umail.Rejected, "", store.MailError, []string{"is not signed", "encrypted"}},
		"bad-signature":     {umail.Rejected, "does not verify", store.MailError, nil},
		"unknown-key":       {umail.Rejected, "which the judge does not know", store.MailError, nil},
		"plain-text-please": {umail.Rejected, "only an HTML part", store.MailError, nil},
		"too-large":         {umail.Rejected, "", store.MailError, []string{"too large for the judge", "the judge reads messages of up to"}},
		"malformed":         {umail.Rejected, "", store.MailError, []string{"could not be read", "too large", "nested"}},
		"ignore-automatic":  {umail.Processed, "", "", nil},
		"bounce":            {umail.Processed, "", "", nil},
		"command":           {umail.Processed, "", "any", []string{"Sign it with any of", "Games on this judge", "club-kosovo-3", "There is no game"}},
		"command-refused":   {umail.Processed, "", store.MailError, []string{"was not done", "was not created"}},
		"replayed":          {umail.Processed, "This signed command was already carried out on", store.MailError, nil},
		"weak-signature":    {umail.Rejected, "uses SHA-1, which can be forged", store.MailError, nil},
		"key-renewed":       {umail.Processed, "The judge took the update of your key", store.MailReceipt, []string{"ACCEPTED"}},
		"key-revoked":       {umail.Rejected, "is now revoked", store.MailError, nil},
		"key-refused":       {umail.Rejected, "the judge cannot accept the signature", store.MailError, []string{"has expired", "has been revoked"}},
		"command-signed":    {umail.Processed, "", "any", nil},
	}
	counts := map[string]int{}
	for i, c := range corpus {
		t.Run(c.Name, func(t *testing.T) {
			w, ok := treatments[c.Treatment]
			if !ok {
				t.Fatalf("unknown treatment %q", c.Treatment)
			}
			m := umail.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), Raw: c.Raw, Size: int64(len(c.Raw))}
			if m.Size > j.Limits().MaxMessage { // the inbox hands over the header only
				end := strings.Index(string(c.Raw), "\r\n\r\n")
				m.Raw, m.Truncated = c.Raw[:end+4], true
			}
			before := len(answers(t, db))
			d, err := j.Handle(t.Context(), m)
			if err != nil {
				t.Fatalf("Handle: %v", err)
			}
			got := answers(t, db)[before:]
			if d != w.disp {
				t.Errorf("went to %s, want %s (%s)", intake.DispositionName(d), intake.DispositionName(w.disp), c.Note)
			}
			// Every answer can be composed: no header copied from a
			// hostile mail spoils it.
			q := &queue{db: db, from: "umpire <" + daemontest.JudgeAddress + ">"}
			for _, a := range got {
				if _, err := q.compose(a, nil, templates.Picture{}); err != nil {
					t.Errorf("the answer %q cannot be composed: %v", a.Subject, err)
				}
			}
			if c.Treatment == "command-signed" {
				// The game master's command is announced to every seat and
				// to the game master; the step's report follows.
				text := ""
				for _, a := range got {
					text += mailText(t, a)
				}
				if len(got) < 6 || !strings.Contains(text, "The game master had step 1 of corpus-fake adjudicated now") || !strings.Contains(text, "step 1 (turn-1) adjudicated") {
					t.Errorf("%d mails for the game master's process:\n%s", len(got), text)
				}
				counts[c.Treatment]++
				return
			}
			if w.kind == "" {
				if len(got) != 0 {
					t.Errorf("answered automatic mail (%s): %q", c.Note, got[0].Subject)
				}
				return
			}
			if len(got) == 0 && c.Treatment == "malformed" && !hasAddress(c.Raw) {
				return // nobody to answer: kept in the rejected folder
			}
			if len(got) != 1 {
				t.Fatalf("%d answers, want 1 (%s)", len(got), c.Note)
			}
			text := mailText(t, got[0])
			if (w.kind != "any" && got[0].Kind != w.kind) || (w.answer != "" && !strings.Contains(text, w.answer)) {
				t.Errorf("answer %s %q lacks %q:\n%s", got[0].Kind, got[0].Subject, w.answer, text)
			}
			if w.oneOfAns != nil && !containsAny(text, w.oneOfAns) {
				t.Errorf("answer lacks any of %q:\n%s", w.oneOfAns, text)
			}
			if c.Name == "orders-refused-reply-to.eml" && (got[0].To[0] != "victim@players.test" || !strings.Contains(text, "NOT ACCEPTED")) {
				t.Errorf("the refusal went to %v:\n%s", got[0].To, text)
			}
			counts[c.Treatment]++
		})
	}
	// Bounces were recorded against the judge's mail, not answered.
	storetest.MustView(t, db, func(tx *store.Tx) error {
		bs, err := tx.Bounces()
		if err != nil || len(bs) == 0 {
			t.Errorf("bounces recorded: %d, %v", len(bs), err)
		}
		return nil
	})
	// The same messages again (a crash before the folder move): the same
	// folders, no second answer, nothing applied twice.
	before := len(answers(t, db))
	for i, c := range corpus {
		m := umail.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), Raw: c.Raw, Size: int64(len(c.Raw))}
		if m.Size > j.Limits().MaxMessage {
			end := strings.Index(string(c.Raw), "\r\n\r\n")
			m.Raw, m.Truncated = c.Raw[:end+4], true
		}
		d, err := j.Handle(t.Context(), m)
		if err != nil || d != treatments[c.Treatment].disp {
			t.Errorf("%s handled again: %s, %v", c.Name, intake.DispositionName(d), err)
		}
	}
	if after := len(answers(t, db)); after != before {
		t.Errorf("handling the corpus again queued %d more answers", after-before)
	}
	t.Logf("answered by treatment: %v", counts)
}

// hasAddress reports whether a raw message names a sender anywhere in
// a From or Return-Path line.
func hasAddress(raw []byte) bool {
	for _, l := range strings.Split(string(raw), "\n") {
		l = strings.ToLower(l)
		if (strings.HasPrefix(l, "from:") || strings.HasPrefix(l, "return-path:")) && strings.Contains(l, "@") {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// TestKeyUpdateHoldsForTheBatch: a revocation holds at once, also for the
// mail read in the same batch after it. Orders eve signed before she
// revoked her key, arriving right after her revocation certificate, are
// refused; on their own, before it, the signature still counts (they are
// refused only because eve holds no seat).
func TestKeyUpdateHoldsForTheBatch(t *testing.T) {
	var cert, signed []byte
	for _, c := range mailtest.Corpus(t) {
		switch c.Name {
		case "key-revocation-cert.eml":
			cert = c.Raw
		case "key-revoked-orders.eml":
			m, err := message.Parse(c.Raw, message.DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			signed = m.RawText
		}
	}
	orders := mailtest.EML(mailtest.Envelope("Eve <eve@players.test>", "orders", "late-orders@players.test")+mailtest.PlainHeader, string(signed))
	msg := func(uid uint32, raw []byte) umail.Message {
		return umail.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: raw, Size: int64(len(raw))}
	}

	j, db := corpusJudge(t)
	ds, err := j.HandleBatch(t.Context(), []umail.Message{msg(1, orders)})
	if err != nil || ds[0] != umail.Processed || !strings.Contains(mailText(t, answers(t, db)[0]), "NOT ACCEPTED") {
		t.Fatalf("eve's orders before the revocation: %v %v", ds, err)
	}

	j, db = corpusJudge(t)
	ds, err = j.HandleBatch(t.Context(), []umail.Message{msg(1, cert), msg(2, orders)})
	if err != nil {
		t.Fatal(err)
	}
	got := answers(t, db)
	if len(got) != 2 || ds[1] != umail.Rejected || !strings.Contains(mailText(t, got[1]), "has been revoked") {
		t.Errorf("orders by a key revoked earlier in the batch: %v, %d answers", ds, len(got))
	}
}
