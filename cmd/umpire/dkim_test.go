//go:build integration

package main

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// TestDKIMSeatByRealMail: a game whose file says identity = "dkim", by
// real mail. Bob has no key: his provider (the real OpenSMTPD with
// filter-dkimsign) signs what he sends, and the judge looks its key up on
// a DNS server on loopback through its configured resolver. His join
// takes seat B, his orders are accepted with a receipt, bound into the
// step's dice and listed in its report; his status shows the seat held
// by DKIM without his address. His orders forged (no signature), re-signed
// by a forwarder's domain, altered on the way, or under an l=-limited
// signature are each refused, saying what was wrong and where to read how
// to sign with a key.
func TestDKIMSeatByRealMail(t *testing.T) {
	keys := make([]*rsa.PrivateKey, 2)
	for i := range keys {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = k
	}
	provider := mailtest.DKIMSigner{Domain: "players.test", Selector: "mail", Key: keys[0],
		Headers: []string{"From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"}}
	forwarder := mailtest.DKIMSigner{Domain: "lists.test", Selector: "list", Key: keys[1], Headers: provider.Headers}
	names := mailtest.StartDNS(t, map[string]string{
		"mail._domainkey.players.test": mailtest.DKIMRecord(keys[0]),
		"list._domainkey.lists.test":   mailtest.DKIMRecord(keys[1]),
	})
	st := mailtest.RealDKIM(t, provider, forwarder)
	c := newClub(t, st, fmt.Sprintf("[dkim]\nresolver = %q\n", names.Addr()))
	n := 0
	// bobMail is a plain text mail from bob, as his mail program writes it.
	bobMail := func(body string) []byte {
		n++
		return c.mail("bob", fmt.Sprintf("<dkim%d.%d@players.test>", n, time.Now().UnixNano()), "orders", "", body, false)
	}
	viaProvider := func(to string, body string) {
		st.SubmitSigned(t, 0, "bob@players.test", []string{to}, bobMail(body))
	}

	game := strings.Replace(clubGame, "[options]", "identity = \"dkim\"\n[options]", 1)
	c.send("grace", c.signed("grace", "create\n"+game, true, ""))
	c.serve()
	c.send("alice", c.signed("alice", "join club-1 A\n", true, ""))
	viaProvider(daemontest.JudgeAddress, "join club-1 B\n")
	c.pending++
	c.serve()
	if c.countFlat("bob", "The mail address bob@players.test (by DKIM, without a key) now holds seat B of club-1") != 1 {
		t.Fatalf("bob's join by DKIM was not answered as done; bob has:\n%s", strings.Join(c.inbox("bob", 0), "\n----\n"))
	}
	c.send("grace", c.signed("grace", "start club-1\n", false, ""))
	c.serve()
	if c.count("bob", "The game master started club-1") != 1 {
		t.Fatalf("bob's address had no start announcement:\n%s", strings.Join(c.inbox("bob", 0), "\n----\n"))
	}

	// The refusals, each a message the judge has not seen before.
	orders := "game: club-1\nstep: 1\nseat: B\nroll 2\nend\n"
	c.send("bob", bobMail(orders)) // forged: no signature at all
	st.SubmitSigned(t, 1, "bob@players.test", []string{daemontest.JudgeAddress}, bobMail(orders))
	c.pending++
	// Bob's provider signs a copy to himself; a server on the way alters it.
	viaProvider("bob@players.test", orders+"# to the judge\n")
	own := st.WaitFor(t, "bob@players.test", "pw", "INBOX", len(c.inbox("bob", 0))+1, 15*time.Second)
	signed := mailtest.Resendable(own[len(own)-1])
	c.send("bob", bytes.Replace(signed, []byte("roll 2"), []byte("roll 3"), 1))
	limited, err := mailtest.SignDKIMLength(bobMail(orders), provider, len("game: club-1\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	c.send("bob", bytes.Replace(limited, []byte("end\r\n"), []byte("end\r\n\r\nmove B1 0101\r\n"), 1))
	c.serve()
	for _, want := range []string{
		"it carries no DKIM signature",
		"it is signed by lists.test (DKIM d=lists.test), not by players.test",
		"its body was changed after players.test signed it",
		"the DKIM signature of players.test covers only the first 14 bytes of the body (l=14)",
	} {
		if c.count("bob", "Your message does not count: "+want, "Nothing was accepted", "docs/signing.md") != 1 {
			t.Errorf("no refusal saying %q and pointing to docs/signing.md; bob has:\n%s", want, strings.Join(c.inbox("bob", 0), "\n----\n"))
		}
	}
	if got := c.count("bob", "ACCEPTED"); got != 0 {
		t.Fatalf("%d of bob's refused orders were accepted", got)
	}

	// His orders as his provider signs them count, as a key's would.
	viaProvider(daemontest.JudgeAddress, orders)
	c.pending++
	c.send("alice", c.signed("alice", "game: club-1\nstep: 1\nseat: A\nroll 1\nend\n", false, ""))
	c.serve()
	if c.count("bob", "ACCEPTED: orders of seat B for step 1 of club-1, version 1",
		"Sent from bob@players.test, signed by its mail provider (DKIM), not by a key.", "Order file digest") != 1 {
		t.Fatalf("bob's orders by DKIM were not accepted with a receipt; bob has:\n%s", strings.Join(c.inbox("bob", 0), "\n----\n"))
	}
	c.settle()
	if c.count("bob", "your orders: version 1") != 1 {
		t.Errorf("bob's report of step 1 does not list his orders as used; bob has:\n%s", strings.Join(c.inbox("bob", 0), "\n----\n"))
	}
	if c.count("alice", "B: sent for step 1, version 1, by DKIM (a mail address, no key)") != 1 {
		t.Errorf("alice's report of step 1 does not say seat B's orders were signed by DKIM; alice has:\n%s", strings.Join(c.inbox("alice", 0), "\n----\n"))
	}
	// The public log says it too: the game export marks the order file.
	code, out, errOut := c.run("game", "export", "club-1")
	if code != exitOK {
		t.Fatalf("game export: exit %d: %s", code, errOut)
	}
	x, err := adjudicator.ReadGameExport(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range x.Orders {
		if want := map[string]string{"A": "", "B": "dkim"}[o.Seat]; o.Identity != want || (want == "dkim" && string(o.Signed) != daemontest.CRLF(orders)) {
			t.Errorf("exported orders of seat %s: identity %q, signed %q; want identity %q (and bob's mail body)", o.Seat, o.Identity, o.Signed, want)
		}
	}
	// Anyone may ask how the seats are held: by DKIM, without the address.
	c.send("alice", c.mail("alice", fmt.Sprintf("<st.%d@players.test>", time.Now().UnixNano()), "status club-1", "", "", false))
	c.serve()
	status := strings.Join(c.inbox("alice", 0), "\n")
	if !strings.Contains(status, "held by a mail address (dkim:…@players.test, by DKIM, without a key)") {
		t.Errorf("status does not say seat B is held by DKIM:\n%s", status)
	}
}
