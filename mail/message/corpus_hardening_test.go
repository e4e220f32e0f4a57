package message

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// The corpus messages of issue 12: what hostile or unlucky mail does to a
// judge that hosts games. Alice is the game master of corpus-fake (the
// fake game, scenario trio: A alice, B bob, C dora); dora's key expired
// in 2020 and she renews it; eve revokes hers.

// corpusFakeOrders are dora's orders for corpus-fake.
const corpusFakeOrders = "game: corpus-fake\nstep: 1\nseat: C\nroll 1\nend\n"

// keyAttached is a mail with a text body and a public key (or a
// revocation certificate) attached as key.asc.
func keyAttached(header, text string, key []byte) []byte {
	const b = "=_key_4f1d"
	return mailtest.EML(header+"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\""+b+"\"\n",
		"--"+b+"\n"+mailtest.TextPart+text+"\n--"+b+"\n"+
			"Content-Type: application/pgp-keys; name=\"key.asc\"\nContent-Disposition: attachment; filename=\"key.asc\"\n\n"+
			string(key)+"\n--"+b+"--\n")
}

// hardening makes the files; it returns the keys the corpus keeps for
// dora and eve (as the judge has them: dora's expired, eve's not revoked).
func (c *corpusMaker) hardening(add adder) map[string][]byte {
	g := c.g
	alice := "Alice <alice@players.test>"
	sign := func(text string, extra ...string) string {
		return string(g.run([]byte(text), append(append([]string{}, extra...), "--local-user", c.alice, "--clearsign")...))
	}

	// The game master's process, and the same signed mail sent again.
	process := sign("process corpus-fake 1\n")
	add("command-process-gm.eml", "command-signed", "the game master of corpus-fake has step 1 adjudicated now (process GAME STEP, clear-signed)",
		mailtest.EML(mailtest.Envelope(alice, "process", "hx-g1@players.test")+mailtest.PlainHeader, process))
	add("replayed-command-process.eml", "replayed", "command-process-gm.eml's signed body again under a new Message-ID and Date: answered \"already done\", nothing changes",
		mailtest.EML(strings.Replace(mailtest.Envelope(alice, "process", "hx-g1-again@players.test"), "19:12:00", "23:40:00", 1)+mailtest.PlainHeader, process))
	add("command-process-old-form.eml", "command-refused", "\"process corpus-fake\" without the step: refused, saying what to write",
		mailtest.EML(mailtest.Envelope(alice, "process", "hx-g2@players.test")+mailtest.PlainHeader, sign("process corpus-fake\n")))
	add("command-create-runaway.eml", "command-refused", "create with turns = 1000000000 and every = 1ns: a game that would adjudicate 168 steps a second",
		mailtest.EML(mailtest.Envelope(alice, "create", "hx-g3@players.test")+mailtest.PlainHeader,
			sign("create\nid = \"runaway\"\ngame = \"fake\"\nscenario = \"duel\"\n[options]\nturns = \"1000000000\"\n[schedule]\nevery = \"1ns\"\n")))
	add("command-create-never.eml", "command-refused", "create with cron 0 0 30 2 * (30 February): no deadline ever",
		mailtest.EML(mailtest.Envelope(alice, "create", "hx-g4@players.test")+mailtest.PlainHeader,
			sign("create\nid = \"never\"\ngame = \"fake\"\nscenario = \"duel\"\n[schedule]\ncron = \"0 0 30 2 *\"\n")))
	add("command-create-bad-map.eml", "command-refused", "create a War by Television game whose map, given as text, is no map: refused at create",
		mailtest.EML(mailtest.Envelope(alice, "create", "hx-g5@players.test")+mailtest.PlainHeader,
			sign("create\nid = \"bad-map\"\ngame = \"wbt\"\nscenario = \"demo\"\n[options]\nmap = '''\nthis is no map\n'''\n[schedule]\nevery = \"72h\"\n")))
	add("command-forged-gm-help.eml", "command", "unsigned \"help\" whose From is the game master's address (anyone can forge it)",
		mailtest.EML(mailtest.Envelope(alice, "help", "hx-g6@players.test")+mailtest.PlainHeader, "help\n"))

	// Orders whose answers need care.
	add("orders-control-char-message-id.eml", "orders", "clear-signed orders whose Message-ID holds a control character (U+0001): the receipt goes, without the reference",
		mailtest.EML(strings.Replace(mailtest.Envelope(alice, "orders", "hx-a9@players.test"), "<hx-a9@", "<hx-a9\x01ctl@", 1)+mailtest.PlainHeader, sign(aliceOrders)))
	add("orders-refused-reply-to.eml", "orders", "orders for a step that is not open, with a Reply-To aimed at someone else: NOT accepted, and counted by the reply limit",
		mailtest.EML(mailtest.Envelope(alice, "orders", "hx-a10@players.test")+"Reply-To: victim@players.test\n"+mailtest.PlainHeader, sign(aliceStep6)))
	add("weak-signature-sha1.eml", "weak-signature", "alice's orders clear-signed with --digest-algo SHA1: a good signature with a hash that can be forged",
		mailtest.EML(mailtest.Envelope(alice, "orders", "hx-a11@players.test")+mailtest.PlainHeader, sign(aliceOrders, "--digest-algo", "SHA1")))

	// Dora's key was made in 2020 and expired a day later; she signed in
	// time, and renews it now.
	now := g.now
	g.now = "20200101T120000!"
	dora := g.genKeyExpiring("Dora <dora@players.test>", "ed25519", "sign", "1d")
	expiredOrders := string(g.run([]byte(corpusFakeOrders), "--local-user", dora, "--clearsign"))
	doraExpired := g.run(nil, "--armor", "--export", dora)
	g.now = now
	add("key-expired-orders.eml", "key-refused", "dora's orders, signed in 2020 by her key that expired a day later: refused, asking for the renewed key",
		mailtest.EML(mailtest.Envelope("Dora <dora@players.test>", "orders", "hx-d1@players.test")+mailtest.PlainHeader, expiredOrders))
	g.run(nil, "--quick-set-expire", dora, "0")
	renewed := g.run(nil, "--armor", "--export", dora)
	add("key-renewed-orders.eml", "key-renewed", "dora's orders signed with her renewed key (gpg --quick-set-expire), the renewed public key attached: merged, accepted",
		keyAttached(mailtest.Envelope("Dora <dora@players.test>", "orders", "hx-d2@players.test"),
			string(g.run([]byte(corpusFakeOrders), "--local-user", dora, "--clearsign")), renewed))

	// Eve signs orders, then revokes her key.
	eve := g.genKey("Eve <eve@players.test>", "ed25519", "sign")
	eveKey := g.run(nil, "--armor", "--export", eve)
	eveOrders := string(g.run([]byte("game: corpus-fake\nstep: 1\nseat: C\nmove C1 0505\nend\n"), "--local-user", eve, "--clearsign"))
	cert, err := os.ReadFile(filepath.Join(g.dir, "openpgp-revocs.d", eve+".rev"))
	if err != nil {
		c.t.Fatal(err)
	}
	g.run(bytes.Replace(cert, []byte(":-----BEGIN"), []byte("-----BEGIN"), 1), "--import")
	revoked := g.run(nil, "--armor", "--export", eve)
	add("key-revocation-cert.eml", "key-revoked", "eve's revocation certificate as gpg keeps it (openpgp-revocs.d, ':' before the armor), attached to an unsigned mail: honoured at once",
		keyAttached(mailtest.Envelope("Eve <eve@players.test>", "my key is lost", "hx-e1@players.test"), "I lost my laptop: my key is revoked.\n", cert))
	add("key-revoked-orders.eml", "key-refused", "orders eve signed before she revoked her key, sent again with the revoked key attached: refused",
		keyAttached(mailtest.Envelope("Eve <eve@players.test>", "orders", "hx-e2@players.test"), eveOrders, revoked))
	return map[string][]byte{"keys/dora.asc": doraExpired, "keys/eve.asc": eveKey}
}
