package intake

import (
	"bytes"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/message"
)

// FuzzVerifyDKIM: no message stops the DKIM check. It answers every input
// with an address or a problem, never both, and takes its tags and its
// body as the message has them: every tag read is one the header holds,
// and the body is a tail of the message.
func FuzzVerifyDKIM(f *testing.F) {
	good := dkimKeys()[0]
	signed := signDKIM(f, playerMail("alice@players.test", dkimOrders), "players.test", "mail", good, nil)
	f.Add(signed)
	f.Add(signDKIMLength(f, playerMail("alice@players.test", dkimOrders), "players.test", "mail", good, 10))
	f.Add(playerMail("alice@players.test", dkimOrders))
	f.Add([]byte("DKIM-Signature: v=1; d=; l=; ;;==; b\r\nFrom: a@b\r\n\r\n"))
	f.Add([]byte("DKIM-Signature:\n\n"))
	records := txtRecords{"mail._domainkey.players.test": dkimRecord(good)}
	d := &DKIM{LookupTXT: records.lookup}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if body := bodyOf(raw); !bytes.HasSuffix(raw, body) {
			t.Fatalf("body %q is not a tail of the message", body)
		}
		msg, err := message.Parse(raw, message.DefaultLimits())
		if err != nil {
			return
		}
		for _, v := range msg.Header["Dkim-Signature"] {
			for name, value := range dkimTags(v) {
				if !strings.Contains(v, name) || strings.ContainsAny(value, " \t\r\n") {
					t.Fatalf("tag %q=%q is not as %q has it", name, value, v)
				}
			}
		}
		sig, problem := d.verifyDKIM(raw, msg)
		if (sig == nil) == (problem == "") {
			t.Fatalf("signature %+v and problem %q: want exactly one", sig, problem)
		}
	})
}
