//go:build integration

package daemon

import (
	"strings"
	"testing"

	umail "github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
)

// TestKeyringFollowsTheStore: the intake keeps the keyring between batches
// and reads only what changed, yet each batch sees every key as stored
// when it starts. A key added (here by the operator) signs the very next
// batch's orders; a key revoked by a certificate mailed in one batch
// refuses the orders of the next; the whole keyring is read once, and
// again only after a known key changed.
func TestKeyringFollowsTheStore(t *testing.T) {
	j, db := corpusJudge(t)
	msg := func(uid uint32, raw []byte) umail.Message {
		return umail.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: raw, Size: int64(len(raw))}
	}
	batch := func(uid uint32, raw []byte) string {
		t.Helper()
		n := len(answers(t, db))
		if _, err := j.HandleBatch(t.Context(), []umail.Message{msg(uid, raw)}); err != nil {
			t.Fatal(err)
		}
		got := answers(t, db)
		if len(got) != n+1 {
			t.Fatalf("message %d: %d answers, want 1", uid, len(got)-n)
		}
		return mailText(t, got[n])
	}

	// A new key for bob's seat, not stored yet: its orders are not his.
	sm := sshSignedMails(t, 2)
	before := batch(1, sm.raw[0])
	const unknown = "which the judge does not know"
	if !strings.Contains(before, unknown) {
		t.Fatalf("orders signed by a key the judge does not know:\n%s", before)
	}
	reads := j.KeyringReads()
	seatBob(t, db, sm.key)
	after := batch(2, sm.raw[1])
	if strings.Contains(after, unknown) || strings.Contains(after, "NOT ACCEPTED") {
		t.Errorf("orders signed by the key added before the batch:\n%s", after)
	}
	if got := j.KeyringReads(); got != reads {
		t.Errorf("a key added: the whole keyring read %d times more", got-reads)
	}

	// eve revokes her key by mail; her orders in the next batch are refused
	// for it.
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
	batch(3, cert)
	orders := mailtest.EML(mailtest.Envelope("Eve <eve@players.test>", "orders", "after-revocation@players.test")+mailtest.PlainHeader, string(signed))
	if got := batch(4, orders); !strings.Contains(got, "has been revoked") {
		t.Errorf("orders by a key revoked in the batch before:\n%s", got)
	}
	if got := j.KeyringReads(); got != reads+1 {
		t.Errorf("after a known key changed: the whole keyring read %d times more, want once", got-reads)
	}
}
