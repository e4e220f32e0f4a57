package message

import (
	"bytes"
	"encoding/base64"
	"flag"
	"fmt"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "regenerate testdata/corpus with the real gpg and ssh-keygen")

// corpusDir is the hostile corpus, shared with the intake tests.
const corpusDir = "../testdata/corpus"

// The order files of the corpus (protocol.md). Alice holds NATO with an
// OpenPGP key, Bob holds Serb with an SSH key; Mallory holds no seat.
const (
	aliceOrders = mailtest.CorpusOrders
	aliceStep6  = "game: club-kosovo-3\nstep: 6\nseat: NATO\nmove US-82AB 1609 1610 1711\nend\n"
	bobOrders   = "game: club-kosovo-3\nstep: 7\nseat: Serb\n# hold the line at Pristina\nmove VJ-52 1710 1810\nend\n"
	malOrders   = "game: club-kosovo-3\nstep: 7\nseat: NATO\nmove US-1AD 1708 1808\nend\n"
	judgeReport = "Report: club-kosovo-3 step 6\n\nThe step is adjudicated. Step 7 is open until Thursday 20:00.\n"
)

// corpusFile is one file of the corpus and its MANIFEST.tsv line.
type corpusFile struct {
	name, treatment, note string
	data                  []byte
}

// qp quoted-printable encodes b with CRLF line endings.
func qp(b []byte) string {
	var buf bytes.Buffer
	w := quotedprintable.NewWriter(&buf)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.String()
}

// corpusMaker holds the keys the signed corpus is made with.
type corpusMaker struct {
	t                   *testing.T
	g                   *gpgHome
	alice, mallory, ump string // OpenPGP fingerprints
	bob, malSSH         *sshKey
}

func TestGenerateCorpus(t *testing.T) {
	if !*update {
		t.Skip("regenerate with: go test ./mail/message -run TestGenerateCorpus -update")
	}
	needTools(t)
	g := newGPG(t)
	g.now = "20250303T181000!" // the evening the corpus mail is sent
	c := &corpusMaker{
		t:       t,
		g:       g,
		alice:   g.genKey("Alice <alice@players.test>", "ed25519", "sign"),
		mallory: g.genKey("Mallory <mallory@players.test>", "ed25519", "sign"),
		ump:     g.genKey("Umpire <judge@umpire.test>", "default", "default"),
		bob:     newSSHKey(t, "bob@players.test"),
		malSSH:  newSSHKey(t, "mallory@players.test"),
	}
	files, more := c.files()

	old, _ := filepath.Glob(filepath.Join(corpusDir, "*.eml"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	keys := map[string][]byte{
		"keys/alice.asc":               g.run(nil, "--armor", "--export", c.alice),
		"keys/bob.pub":                 c.bob.public(),
		"keys/unknown/mallory.asc":     g.run(nil, "--armor", "--export", c.mallory),
		"keys/unknown/mallory-ssh.pub": c.malSSH.public(),
	}
	for name, data := range more {
		keys[name] = data
	}
	for name, data := range keys {
		path := filepath.Join(corpusDir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var manifest strings.Builder
	for _, f := range files {
		if !strings.HasPrefix(f.name, "GENERATED:") {
			if err := os.WriteFile(filepath.Join(corpusDir, f.name), f.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		fmt.Fprintf(&manifest, "%s\t%s\t%s\n", f.name, f.treatment, f.note)
	}
	for _, g := range mailtest.GeneratedCorpus() {
		fmt.Fprintf(&manifest, "%s\t%s\t%s\n", g.Name, g.Treatment, g.Note)
	}
	if err := os.WriteFile(filepath.Join(corpusDir, "MANIFEST.tsv"), []byte(manifest.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d files and the manifest to %s", len(files), corpusDir)
}

// files makes every committed corpus file, sorted by name, and the keys
// of the hardening files.
func (c *corpusMaker) files() ([]corpusFile, map[string][]byte) {
	var fs []corpusFile
	add := func(name, treatment, note string, data []byte) {
		fs = append(fs, corpusFile{name: name, treatment: treatment, note: note, data: data})
	}
	c.orders(add)
	c.badSignatures(add)
	c.unknownKeys(add)
	c.unsigned(add)
	c.htmlOnly(add)
	c.malformed(add)
	c.automatic(add)
	c.bounces(add)
	c.commands(add)
	keys := c.hardening(add)
	sort.Slice(fs, func(i, j int) bool { return fs[i].name < fs[j].name })
	return fs, keys
}

// adder records one corpus file.
type adder func(name, treatment, note string, data []byte)

// pgpMIME builds a PGP/MIME multipart/signed message (RFC 3156) the way
// Thunderbird and Mutt do: part is the signed MIME part (header and body)
// with CRLF endings; the signature is made over exactly those bytes.
func (c *corpusMaker) pgpMIME(header string, fpr string, part string, delimPad string) (msg []byte, signedPart []byte) {
	signedPart = []byte(mailtest.CRLF(part))
	sig := c.g.detachSign(fpr, signedPart, true)
	micalg := c.g.micalg(sig)
	const b = "------------sig7Qx2LbCQpM3n1oW"
	body := "This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\n" +
		"--" + b + delimPad + "\n" + string(signedPart) + "\n" +
		"--" + b + "\n" +
		"Content-Type: application/pgp-signature; name=\"OpenPGP_signature.asc\"\n" +
		"Content-Description: OpenPGP digital signature\n" +
		"Content-Disposition: attachment; filename=\"OpenPGP_signature.asc\"\n\n" +
		string(sig) + "\n--" + b + "--\n"
	header += "MIME-Version: 1.0\n" +
		"Content-Type: multipart/signed; micalg=" + micalg + ";\n protocol=\"application/pgp-signature\";\n boundary=\"" + b + "\"\n"
	return mailtest.EML(header, body), signedPart
}

func (c *corpusMaker) orders(add adder) {
	alice := "Alice <alice@players.test>"
	cs := string(c.g.clearsign(c.alice, []byte(aliceOrders)))

	add("orders-clearsigned.eml", "orders", "inline OpenPGP clear-signed orders (gpg --clearsign), text/plain 7bit",
		mailtest.EML(mailtest.Envelope(alice, "orders", "a1@players.test")+mailtest.PlainHeader+"User-Agent: Mutt/2.2.9\n", cs))

	msg, _ := c.pgpMIME(mailtest.Envelope(alice, "orders step 7", "a2@players.test"), c.alice,
		"Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 7bit\n\n"+aliceOrders, "")
	add("orders-pgpmime.eml", "orders", "PGP/MIME multipart/signed over a text/plain part (RFC 3156)", msg)

	inner := "Content-Type: multipart/mixed; boundary=\"------------inner0Kq7\"\n\n" +
		"This is a multi-part message in MIME format.\n" +
		"--------------inner0Kq7\n" + mailtest.TextPart + "Orders attached.\n\n" +
		"--------------inner0Kq7\n" +
		"Content-Type: text/plain; charset=UTF-8; name=\"orders.txt\"\n" +
		"Content-Disposition: attachment; filename=\"orders.txt\"\n" +
		"Content-Transfer-Encoding: base64\n\n" + mailtest.Base64([]byte(aliceOrders), 72) +
		"\n--------------inner0Kq7--\n"
	msg, _ = c.pgpMIME(mailtest.Envelope(alice, "orders step 7 (attached)", "a3@players.test")+"User-Agent: Thunderbird/128.5\n", c.alice, inner, "  \t")
	add("orders-pgpmime-attachment.eml", "orders", "PGP/MIME (Thunderbird style): the signed part is multipart/mixed holding orders.txt; first delimiter has trailing blanks", msg)

	msg, _ = c.pgpMIME(mailtest.Envelope(alice, "orders (stored with LF)", "a4@players.test"), c.alice,
		"Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable\n\n"+aliceOrders, "")
	add("orders-pgpmime-lf.eml", "orders", "PGP/MIME as a Maildir stores it, every line ending a bare LF: the part must be made CRLF again to verify",
		bytes.ReplaceAll(msg, []byte("\r\n"), []byte("\n")))

	asc := c.g.detachSign(c.alice, []byte(aliceOrders), true)
	add("orders-detached-asc.eml", "orders", "orders.txt attached with a detached armored signature orders.txt.asc",
		mailtest.Detached(mailtest.Envelope(alice, "orders", "a5@players.test"), "My orders are attached, signed.\n", []byte(aliceOrders),
			"orders.txt.asc", "application/pgp-signature", "7bit", asc))

	sig := c.g.detachSign(c.alice, []byte(aliceOrders), false)
	add("orders-detached-binary-sig.eml", "orders", "orders.txt attached with a binary detached signature orders.txt.sig (gpg --detach-sign), base64",
		mailtest.Detached(mailtest.Envelope(alice, "orders", "a6@players.test"), "Orders attached.\n", []byte(aliceOrders),
			"orders.txt.sig", "application/octet-stream", "base64", sig))

	bob := "Bob <bob@players.test>"
	sshSig := c.bob.sign([]byte(bobOrders))
	add("orders-ssh-inline.eml", "orders", "SSH signature inline: the body is cat orders.txt orders.txt.sig (ssh-keygen -Y sign -n umpire)",
		mailtest.EML(mailtest.Envelope(bob, "orders", "b1@players.test")+mailtest.PlainHeader, bobOrders+string(sshSig)))
	add("orders-ssh-attachment.eml", "orders", "orders.txt with an SSH signature attachment orders.txt.sig",
		mailtest.Detached(mailtest.Envelope(bob, "orders", "b2@players.test"), "Orders attached, signed with my SSH key.\n", []byte(bobOrders),
			"orders.txt.sig", "application/octet-stream", "7bit", sshSig))

	fwd := mailtest.EML(mailtest.Envelope("Alice Work <alice@work.players.test>", "orders", "a7-original@work.players.test")+mailtest.PlainHeader, cs)
	const fb = "------------fwd3Lz"
	add("orders-forwarded-rfc822.eml", "orders", "Alice forwards her signed mail from another account as a message/rfc822 attachment: the signed text is in Forwarded[0]",
		mailtest.EML(mailtest.Envelope(alice, "Fwd: orders", "a7@players.test")+"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\""+fb+"\"\n",
			"--"+fb+"\n"+mailtest.TextPart+"Sent this from work by mistake, forwarding.\n\n"+
				"--"+fb+"\nContent-Type: message/rfc822; name=\"orders.eml\"\nContent-Disposition: attachment; filename=\"orders.eml\"\n\n"+
				string(fwd)+"\n--"+fb+"--\n"))

	quoted := "> " + strings.ReplaceAll(strings.TrimRight(string(c.g.clearsign(c.ump, []byte(judgeReport))), "\n"), "\n", "\n> ") + "\n"
	add("orders-footer-quoted.eml", "orders", "clear-signed orders between a greeting, a signature footer and the judge's quoted (signed) report",
		mailtest.EML(mailtest.Envelope(alice, "Re: Report: club-kosovo-3 step 6", "a8@players.test")+"In-Reply-To: <umpire-out-6.abc@umpire.test>\nReferences: <umpire-out-6.abc@umpire.test>\n"+mailtest.PlainHeader,
			"Hi judge,\n\nhere are my orders for step 7.\n\n"+cs+"\n-- \nAlice\nSent from my phone\n\nOn Sun, 2 Mar 2025 at 20:00, Umpire <judge@umpire.test> wrote:\n"+quoted))

	cp := "game: club-kosovo-3\nstep: 7\nseat: NATO\n# \x93hold\x94 the bridge \x96 don\x92t retreat\nattack 1708 from 1607 1709 with US-1AD US-3ID\nend\n"
	cpSigned := c.g.clearsign(c.alice, []byte(cp))
	add("orders-cp1252-quotes.eml", "orders", "clear-signed over Windows-1252 bytes (curly quotes in a comment), sent as windows-1252 quoted-printable: RawText is what was signed",
		mailtest.EML(mailtest.Envelope(alice, "orders", "a9@players.test")+"MIME-Version: 1.0\nContent-Type: text/plain; charset=\"windows-1252\"\nContent-Transfer-Encoding: quoted-printable\nX-Mailer: Microsoft Outlook 16.0\n",
			qp(cpSigned)))

	enc := base64.StdEncoding.EncodeToString([]byte(mailtest.CRLF(cs)))
	var odd strings.Builder
	for i, n := 0, 0; i < len(enc); n++ {
		w := []int{60, 76, 13, 100, 4, 57}[n%6]
		if i+w > len(enc) {
			w = len(enc) - i
		}
		odd.WriteString(enc[i : i+w])
		switch n % 4 {
		case 1:
			odd.WriteString("   ") // trailing blanks
		case 2:
			odd.WriteString("\n") // an empty line
		}
		odd.WriteString("\n")
		i += w
	}
	add("orders-base64-oddities.eml", "orders", "clear-signed body in base64 with irregular line lengths, trailing blanks and empty lines",
		mailtest.EML(mailtest.Envelope(alice, "orders", "a10@players.test")+"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n", odd.String()))

	add("orders-bare-lf.eml", "orders", "clear-signed, every line ending a bare LF",
		bytes.ReplaceAll(mailtest.EML(mailtest.Envelope(alice, "orders", "a11@players.test")+mailtest.PlainHeader, cs), []byte("\r\n"), []byte("\n")))
	add("orders-bare-cr.eml", "orders", "clear-signed, every line ending a bare CR (classic Mac OS)",
		bytes.ReplaceAll(mailtest.EML(mailtest.Envelope(alice, "orders", "a12@players.test")+mailtest.PlainHeader, cs), []byte("\r\n"), []byte("\r")))

	utf := "game: club-kosovo-3\nstep: 7\nseat: NATO\n# Müller’s Brücke hält\nattack 1708 from 1607 1709 with US-1AD US-3ID\nend\n"
	add("orders-8bit-no-cte.eml", "orders", "clear-signed UTF-8 body with 8-bit bytes and no MIME headers at all (no Content-Type, no Content-Transfer-Encoding)",
		mailtest.EML(mailtest.Envelope(alice, "orders", "a13@players.test"), string(c.g.clearsign(c.alice, []byte(utf)))))

	add("orders-encoded-subject.eml", "orders", "clear-signed; RFC 2047 encoded subject (UTF-8 Q and ISO-8859-1 B words)",
		mailtest.EML(mailtest.Envelope(alice, "=?UTF-8?Q?Befehle_f=C3=BCr_Zug_7?= =?ISO-8859-1?B?LSBncvzfZQ==?=", "a14@players.test")+mailtest.PlainHeader, cs))

	add("orders-duplicate-message-id.eml", "orders", "clear-signed; two Message-ID headers (the first counts, a problem is noted)",
		mailtest.EML(mailtest.Envelope(alice, "orders", "a15@players.test")+"Message-ID: <a15-second@players.test>\n"+mailtest.PlainHeader, cs))

	noID := strings.Replace(mailtest.Envelope(alice, "orders", "x"), "Message-ID: <x>\n", "", 1)
	add("orders-missing-message-id.eml", "orders", "clear-signed; no Message-ID header", mailtest.EML(noID+mailtest.PlainHeader, cs))

	const ab = "000000000000a1b2c3d4e5f6"
	htmlCS := strings.ReplaceAll(strings.ReplaceAll(cs, "<", "&lt;"), "\n", "<br>\n")
	add("orders-html-alternative.eml", "orders", "multipart/alternative: clear-signed text/plain and its HTML rendering (Gmail style); text/plain is the body",
		mailtest.EML(mailtest.Envelope(alice, "orders", "a16@players.test")+"MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\""+ab+"\"\n",
			"--"+ab+"\nContent-Type: text/plain; charset=\"UTF-8\"\n\n"+cs+"\n--"+ab+"\nContent-Type: text/html; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n\n"+
				qp([]byte("<div dir=\"ltr\">"+htmlCS+"</div>"))+"\n--"+ab+"--\n"))
}

func (c *corpusMaker) badSignatures(add adder) {
	alice := "Alice <alice@players.test>"
	cs := string(c.g.clearsign(c.alice, []byte(aliceOrders)))
	i := strings.Index(cs, "-----BEGIN PGP SIGNATURE-----")
	forged := cs[:i] + string(forgeSignature(c.t, []byte(cs[i:])))
	add("bad-signature-forged.eml", "bad-signature", "clear-signed orders whose signature value was altered (armor checksum recomputed): a forgery",
		mailtest.EML(mailtest.Envelope(alice, "orders", "f1@players.test")+mailtest.PlainHeader, forged))

	add("bad-signature-changed-text.eml", "bad-signature", "clear-signed orders edited after signing (1708 became 1808)",
		mailtest.EML(mailtest.Envelope(alice, "orders", "f2@players.test")+mailtest.PlainHeader, strings.Replace(cs, "attack 1708", "attack 1808", 1)))

	asc := c.g.detachSign(c.alice, []byte(aliceStep6), true)
	add("bad-signature-different-text.eml", "bad-signature", "step 7 orders.txt attached with the detached signature of the step 6 orders: a valid signature over different text",
		mailtest.Detached(mailtest.Envelope(alice, "orders", "f3@players.test"), "Orders attached.\n", []byte(aliceOrders),
			"orders.txt.asc", "application/pgp-signature", "7bit", asc))

	bob := "Bob <bob@players.test>"
	sshSig := c.bob.sign([]byte(bobOrders))
	add("bad-signature-ssh-changed.eml", "bad-signature", "inline SSH-signed orders edited after signing",
		mailtest.EML(mailtest.Envelope(bob, "orders", "f4@players.test")+mailtest.PlainHeader, strings.Replace(bobOrders, "1810", "1811", 1)+string(sshSig)))

	msg, _ := c.pgpMIME(mailtest.Envelope(alice, "orders", "f5@players.test"), c.alice,
		"Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 7bit\n\n"+aliceOrders, "")
	add("bad-signature-pgpmime-altered.eml", "bad-signature", "PGP/MIME whose signed part was altered in transit (a unit changed)",
		bytes.Replace(msg, []byte("US-3ID"), []byte("US-4ID"), 1))
}

func (c *corpusMaker) unknownKeys(add adder) {
	mal := "Mallory <mallory@players.test>"
	add("unknown-key-clearsigned.eml", "unknown-key", "valid clear-signed orders by Mallory's OpenPGP key (keys/unknown/mallory.asc), which holds no seat",
		mailtest.EML(mailtest.Envelope(mal, "orders", "m1@players.test")+mailtest.PlainHeader, string(c.g.clearsign(c.mallory, []byte(malOrders)))))
	add("unknown-key-ssh.eml", "unknown-key", "valid inline SSH signature by Mallory's SSH key (keys/unknown/mallory-ssh.pub)",
		mailtest.EML(mailtest.Envelope(mal, "orders", "m2@players.test")+mailtest.PlainHeader, malOrders+string(c.malSSH.sign([]byte(malOrders)))))
	add("unknown-key-detached.eml", "unknown-key", "orders.txt with a valid detached .asc by Mallory's key",
		mailtest.Detached(mailtest.Envelope(mal, "orders", "m3@players.test"), "Orders.\n", []byte(malOrders),
			"orders.txt.asc", "application/pgp-signature", "7bit", c.g.detachSign(c.mallory, []byte(malOrders), true)))
}

func (c *corpusMaker) unsigned(add adder) {
	carol := "Carol <carol@players.test>"
	add("unsigned-plain.eml", "unsigned", "plain orders, no signature",
		mailtest.EML(mailtest.Envelope(carol, "orders", "u1@players.test")+mailtest.PlainHeader, aliceOrders))
	add("unsigned-empty-body.eml", "unsigned", "a header, the empty line, and an empty body",
		mailtest.EML(mailtest.Envelope(carol, "orders", "u2@players.test")+mailtest.PlainHeader, ""))
	add("unsigned-no-body.eml", "unsigned", "a header and nothing else: no empty line, no body",
		[]byte(mailtest.CRLF(mailtest.Envelope(carol, "orders", "u3@players.test"))))
	add("unsigned-no-separator.eml", "unsigned", "no empty line between the header and the text: the text starts at the first line that is not a header field",
		[]byte(mailtest.CRLF(mailtest.Envelope(carol, "orders", "u4@players.test")+"Hello judge, here are my orders.\n"+aliceOrders)))
	add("unsigned-latin1-as-utf8.eml", "unsigned", "ISO-8859-1 bytes (Grüße) labelled UTF-8: read as Windows-1252 with a problem noted",
		mailtest.EML(mailtest.Envelope(carol, "orders", "u5@players.test")+"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n",
			"Gr\xfc\xdfe aus M\xfcnchen,\n"+aliceOrders))
	add("unsigned-utf8-as-latin1.eml", "unsigned", "UTF-8 bytes (Grüße) labelled ISO-8859-1: read as UTF-8 with a problem noted",
		mailtest.EML(mailtest.Envelope(carol, "orders", "u6@players.test")+"MIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n",
			"Grüße aus München,\n"+aliceOrders))
	add("unsigned-unknown-charset.eml", "unsigned", "charset=x-klingon with 8-bit bytes: best effort with a problem noted",
		mailtest.EML(mailtest.Envelope(carol, "orders", "u7@players.test")+"MIME-Version: 1.0\nContent-Type: text/plain; charset=x-klingon\nContent-Transfer-Encoding: 8bit\n",
			"Qapla\xe2\x80\x99!\n"+aliceOrders))
	add("unsigned-nul-bytes.eml", "unsigned", "NUL bytes in the header and the body: removed from Text with a problem noted",
		mailtest.EML(mailtest.Envelope(carol, "orders\x00 step 7", "u8@players.test")+mailtest.PlainHeader, "game: club-kosovo-3\x00\nstep: 7\nseat: NATO\x00\x00\nend\n"))
	const tb = "=_trunc_91"
	full := mailtest.Base64([]byte(strings.Repeat(aliceOrders, 4)), 76)
	add("unsigned-truncated-base64.eml", "unsigned", "an orders.txt attachment whose base64 stops in the middle of a quantum, and the message stops before its closing boundary",
		mailtest.EML(mailtest.Envelope(carol, "orders", "u9@players.test")+"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\""+tb+"\"\n",
			"--"+tb+"\n"+mailtest.TextPart+"Orders attached.\n\n--"+tb+"\nContent-Type: text/plain; name=\"orders.txt\"\nContent-Disposition: attachment; filename=\"orders.txt\"\nContent-Transfer-Encoding: base64\n\n"+
				full[:len(full)/2+3]))
	add("unsigned-broken-encoded-words.eml", "unsigned", "RFC 2047 subject with an unterminated word, an unknown charset and bad base64; From name encoded in an unknown charset",
		mailtest.EML(mailtest.Envelope("=?x-unknown?Q?Car=F6l?= <carol@players.test>", "=?utf-8?q?Orders_f=C3=BC?= =?x-klingon?b?####?= =?utf-8?b?broken", "u10@players.test")+mailtest.PlainHeader, aliceOrders))
	add("unsigned-100k-subject.eml", "unsigned", "a 100 KB subject line, not folded: cut to 998 bytes with a problem noted",
		mailtest.EML(mailtest.Envelope(carol, "orders "+strings.Repeat("step seven ", 100<<10/11), "u11@players.test")+mailtest.PlainHeader, aliceOrders))
	add("unsigned-attachment-only.eml", "unsigned", "a single part that is an orders.txt attachment, unsigned: no body text",
		mailtest.EML(mailtest.Envelope(carol, "orders", "u12@players.test")+"MIME-Version: 1.0\nContent-Type: text/plain; charset=us-ascii; name=orders.txt\nContent-Disposition: attachment; filename=orders.txt\n", aliceOrders))

	encrypted := c.g.run([]byte(aliceOrders), "--armor", "--trust-model", "always", "--encrypt", "--recipient", c.ump)
	add("encrypted-pgp-message.eml", "unsigned", "orders encrypted to the judge (inline BEGIN PGP MESSAGE), not signed: reply that orders must be signed, not encrypted",
		mailtest.EML(mailtest.Envelope(carol, "orders", "u13@players.test")+mailtest.PlainHeader, string(encrypted)))
	const eb = "------------enc4Tt"
	add("encrypted-pgpmime.eml", "unsigned", "PGP/MIME multipart/encrypted (RFC 3156 section 4), not signed",
		mailtest.EML(mailtest.Envelope(carol, "orders", "u14@players.test")+"MIME-Version: 1.0\nContent-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=\""+eb+"\"\n",
			"This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)\n--"+eb+"\nContent-Type: application/pgp-encrypted\nContent-Description: PGP/MIME version identification\n\nVersion: 1\n\n--"+eb+
				"\nContent-Type: application/octet-stream; name=\"encrypted.asc\"\nContent-Description: OpenPGP encrypted message\nContent-Disposition: inline; filename=\"encrypted.asc\"\n\n"+string(encrypted)+"\n--"+eb+"--\n"))
}

func (c *corpusMaker) htmlOnly(add adder) {
	carol := "Carol <carol@players.test>"
	add("html-only.eml", "plain-text-please", "text/html only, the orders in paragraphs",
		mailtest.EML(mailtest.Envelope(carol, "orders", "h1@players.test")+"MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n",
			qp([]byte("<html><head><style>p{margin:0}</style></head><body><p>game: club-kosovo-3</p><p>step: 7</p><p>seat: NATO</p><p>attack 1708 from 1607 1709 with US-1AD&nbsp;US-3ID</p><p>end</p></body></html>"))))
	const rb = "rel_55aa"
	add("html-only-related.eml", "plain-text-please", "multipart/related: HTML with an inline image, no plain text",
		mailtest.EML(mailtest.Envelope(carol, "orders", "h2@players.test")+"MIME-Version: 1.0\nContent-Type: multipart/related; type=\"text/html\"; boundary=\""+rb+"\"\n",
			"--"+rb+"\nContent-Type: text/html; charset=utf-8\n\n<p>My orders: <b>attack 1708</b></p><img src=\"cid:logo@x\">\n--"+rb+
				"\nContent-Type: image/png\nContent-ID: <logo@x>\nContent-Transfer-Encoding: base64\n\niVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==\n--"+rb+"--\n"))
	const ab = "alt_only_html"
	add("html-only-alternative.eml", "plain-text-please", "multipart/alternative whose only alternative is text/html",
		mailtest.EML(mailtest.Envelope(carol, "orders", "h3@players.test")+"MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\""+ab+"\"\n",
			"--"+ab+"\nContent-Type: text/html; charset=windows-1252\n\n<div>move US-82AB 1609 \x96 1610</div>\n--"+ab+"--\n"))
}

func (c *corpusMaker) malformed(add adder) {
	junk := make([]byte, 1500)
	x := uint32(2463534242)
	for i := range junk {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		junk[i] = byte(x)
	}
	add("malformed-garbage.eml", "malformed", "1500 bytes of binary junk", junk)
	add("malformed-indented-first-line.eml", "malformed", "the first line is indented, so it cannot start a header",
		[]byte(mailtest.CRLF("  From: carol@players.test\nSubject: orders\n\n"+aliceOrders)))
	add("malformed-empty.eml", "malformed", "an empty file", []byte{})
	add("malformed-multipart-no-boundary.eml", "malformed", "multipart/mixed without a boundary parameter",
		mailtest.EML(mailtest.Envelope("Carol <carol@players.test>", "orders", "x1@players.test")+"MIME-Version: 1.0\nContent-Type: multipart/mixed\n", "--abc\n"+mailtest.TextPart+aliceOrders+"--abc--\n"))
	add("malformed-boundary-mismatch.eml", "malformed", "the boundary parameter does not match the delimiters used",
		mailtest.EML(mailtest.Envelope("Carol <carol@players.test>", "orders", "x2@players.test")+"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"declared\"\n", "--used\n"+mailtest.TextPart+aliceOrders+"--used--\n"))
}

func (c *corpusMaker) automatic(add adder) {
	to := "To: Umpire <judge@umpire.test>\nDate: Mon, 03 Mar 2025 19:15:00 +0100\n"
	re := "In-Reply-To: <umpire-out-7.abc@umpire.test>\nReferences: <umpire-out-7.abc@umpire.test>\n"
	add("auto-vacation-sieve.eml", "ignore-automatic", "Sieve vacation responder (RFC 5230): Auto-Submitted: auto-replied",
		mailtest.EML("Return-Path: <dave@players.test>\nFrom: Dave <dave@players.test>\n"+to+"Subject: Away: Report: club-kosovo-3 step 7\nMessage-ID: <v1@players.test>\nAuto-Submitted: auto-replied (vacation)\n"+re+mailtest.PlainHeader,
			"I am away until 17 March and will read your mail when I am back.\n"))
	add("auto-exchange-ooo.eml", "ignore-automatic", "Exchange out-of-office reply without Auto-Submitted: Exchange headers and an \"Automatic reply:\" subject",
		mailtest.EML("Return-Path: <erin@players.test>\nFrom: Erin <erin@players.test>\n"+to+"Subject: Automatic reply: Report: club-kosovo-3 step 7\nMessage-ID: <v2@players.test>\nX-MS-Exchange-Inbox-Rules-Loop: erin@players.test\nX-Auto-Response-Suppress: All\n"+re+mailtest.PlainHeader,
			"I am out of the office with limited access to email.\n"))
	add("auto-xautoreply.eml", "ignore-automatic", "autoresponder marked with X-Autoreply: yes",
		mailtest.EML("Return-Path: <frank@players.test>\nFrom: frank@players.test\n"+to+"Subject: Re: Report: club-kosovo-3 step 7\nMessage-ID: <v3@players.test>\nX-Autoreply: yes\n"+re+mailtest.PlainHeader,
			"Thank you for your message. This is an automatic reply.\n"))
	add("auto-xautorespond.eml", "ignore-automatic", "autoresponder marked with X-Autorespond",
		mailtest.EML("Return-Path: <gina@players.test>\nFrom: gina@players.test\n"+to+"Subject: Thanks for your mail\nMessage-ID: <v4@players.test>\nX-Autorespond: Thanks for your mail\n"+re+mailtest.PlainHeader,
			"Your mail has been received.\n"))
	add("auto-vacation-precedence-junk.eml", "ignore-automatic", "classic Unix vacation(1) reply: Precedence: junk, subject starting with \"away from my mail\"",
		mailtest.EML("Return-Path: <hank@players.test>\nFrom: hank@players.test (Hank)\n"+to+"Subject: away from my mail\nMessage-ID: <v5@players.test>\nPrecedence: junk\n",
			"I am on vacation until Monday.\n"))
	add("auto-precedence-bulk.eml", "ignore-automatic", "a newsletter with Precedence: bulk",
		mailtest.EML("Return-Path: <news@wargames.test>\nFrom: Wargame News <news@wargames.test>\n"+to+"Subject: New releases this month\nMessage-ID: <n1@wargames.test>\nPrecedence: bulk\n"+mailtest.PlainHeader,
			"This month: 1914 Serbien muss sterbien, second edition.\n"))
	add("auto-list-mail.eml", "ignore-automatic", "a mailing list post (List-Id, List-Unsubscribe, Precedence: list) quoting a report",
		mailtest.EML("Return-Path: <pbem-bounces@lists.wargames.test>\nFrom: Ivan <ivan@players.test>\n"+to+"Subject: [pbem] Re: Report: club-kosovo-3 step 7\nMessage-ID: <l1@players.test>\nList-Id: PBEM players <pbem.lists.wargames.test>\nList-Unsubscribe: <mailto:pbem-leave@lists.wargames.test>\nPrecedence: list\nSender: pbem-bounces@lists.wargames.test\n"+mailtest.PlainHeader,
			"status club-kosovo-3\n\nDid everybody get this report?\n"))
	own, err := Compose(Outgoing{
		From: "Umpire <judge@umpire.test>", To: []string{"judge@umpire.test"},
		Subject: "Receipt: club-kosovo-3 step 7 NATO", MessageID: "umpire-out-12.f00@umpire.test",
		Date: time.Date(2025, 3, 3, 19, 13, 0, 0, time.FixedZone("CET", 3600)),
		Text: "Orders received for club-kosovo-3 step 7, seat NATO.\n", Headers: map[string]string{"Auto-Submitted": ""},
	})
	if err != nil {
		c.t.Fatal(err)
	}
	add("auto-own-mail.eml", "ignore-automatic", "the judge's own receipt looped back (From judge@umpire.test), without Auto-Submitted",
		append([]byte("Return-Path: <judge@umpire.test>\r\n"), own...))
	add("auto-noreply-sender.eml", "ignore-automatic", "a notification from a no-reply address",
		mailtest.EML("Return-Path: <bounce-77@forum.wargames.test>\nFrom: Forum <no-reply@forum.wargames.test>\n"+to+"Subject: You have a new private message\nMessage-ID: <nr1@forum.wargames.test>\n"+mailtest.PlainHeader,
			"Someone sent you a private message.\n"))
	const mb = "mdn_7"
	add("auto-read-receipt.eml", "ignore-automatic", "a read receipt: multipart/report; report-type=disposition-notification (RFC 8098)",
		mailtest.EML("Return-Path: <judy@players.test>\nFrom: Judy <judy@players.test>\n"+to+"Subject: Read: Report: club-kosovo-3 step 7\nMessage-ID: <r1@players.test>\nMIME-Version: 1.0\nContent-Type: multipart/report; report-type=disposition-notification; boundary=\""+mb+"\"\n",
			"--"+mb+"\nContent-Type: text/plain\n\nYour message was displayed.\n\n--"+mb+"\nContent-Type: message/disposition-notification\n\nReporting-UA: players.test; Thunderbird\nFinal-Recipient: rfc822;judy@players.test\nOriginal-Message-ID: <umpire-out-7.abc@umpire.test>\nDisposition: manual-action/MDN-sent-manually; displayed\n\n--"+mb+"--\n"))
	add("auto-null-return-path.eml", "ignore-automatic", "a calendar notice with a person's From but the null Return-Path <>",
		mailtest.EML("Return-Path: <>\nFrom: Ken <ken@players.test>\n"+to+"Subject: Reminder: game night\nMessage-ID: <c1@players.test>\n"+mailtest.PlainHeader,
			"Game night is Thursday.\n"))
	add("auto-auto-generated.eml", "ignore-automatic", "cron output with Auto-Submitted: auto-generated",
		mailtest.EML("Return-Path: <root@host.players.test>\nFrom: Cron Daemon <root@host.players.test>\n"+to+"Subject: Cron <root@host> backup\nMessage-ID: <cr1@host.players.test>\nAuto-Submitted: auto-generated\nX-Cron-Env: <SHELL=/bin/sh>\n"+mailtest.PlainHeader,
			"backup done\n"))
}

func (c *corpusMaker) bounces(add adder) {
	const db = "4F2A1C0123.1741025600/mx.players.test"
	add("bounce-rfc3464.eml", "bounce", "Postfix RFC 3464 DSN for <umpire-out-7.abc@umpire.test> to bob, returning the headers (text/rfc822-headers)",
		mailtest.EML("Return-Path: <>\nFrom: MAILER-DAEMON@mx.players.test (Mail Delivery System)\nTo: judge@umpire.test\nSubject: Undelivered Mail Returned to Sender\nDate: Mon, 03 Mar 2025 20:00:05 +0100 (CET)\nMessage-Id: <20250303190005.4F2A1C0123@mx.players.test>\nAuto-Submitted: auto-replied\nMIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status;\n\tboundary=\""+db+"\"\n",
			"This is a MIME-encapsulated message.\n\n--"+db+"\nContent-Description: Notification\nContent-Type: text/plain; charset=us-ascii\n\n"+
				"This is the mail system at host mx.players.test.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.\n\n"+
				"<bob@players.test>: host mx.players.test[192.0.2.25] said: 550 5.1.1\n    <bob@players.test>: Recipient address rejected: User unknown\n\n"+
				"--"+db+"\nContent-Description: Delivery report\nContent-Type: message/delivery-status\n\n"+
				"Reporting-MTA: dns; mx.players.test\nX-Postfix-Queue-ID: 4F2A1C0123\nArrival-Date: Mon,  3 Mar 2025 20:00:01 +0100 (CET)\n\n"+
				"Final-Recipient: rfc822; bob@players.test\nOriginal-Recipient: rfc822;bob@players.test\nAction: failed\nStatus: 5.1.1\nRemote-MTA: dns; mx.players.test\n"+
				"Diagnostic-Code: smtp; 550 5.1.1 <bob@players.test>: Recipient address rejected:\n    User unknown in local recipient table\n\n"+
				"--"+db+"\nContent-Description: Undelivered Message Headers\nContent-Type: text/rfc822-headers\n\n"+
				"Return-Path: <judge@umpire.test>\nFrom: Umpire <judge@umpire.test>\nTo: bob@players.test\nSubject: Report: club-kosovo-3 step 7\nDate: Mon, 03 Mar 2025 20:00:00 +0100\nMessage-Id: <umpire-out-7.abc@umpire.test>\nAuto-Submitted: auto-replied\n\n"+
				"--"+db+"--\n"))

	orig, err := Compose(Outgoing{
		From: "Umpire <judge@umpire.test>", To: []string{"carol@players.test", "dan@players.test"},
		Subject: "Reminder: club-kosovo-3 step 7", MessageID: "umpire-out-8.def@umpire.test",
		Date: time.Date(2025, 3, 3, 20, 0, 0, 0, time.FixedZone("CET", 3600)),
		Text: "Orders for step 7 are due Thursday 20:00.\n",
	})
	if err != nil {
		c.t.Fatal(err)
	}
	const eb = "1741028400-eximdsn-1804289383"
	add("bounce-rfc3464-message-rfc822.eml", "bounce", "Exim RFC 3464 DSN for <umpire-out-8.def@umpire.test> with two recipients (one delayed, one failed) and the whole message returned (message/rfc822)",
		mailtest.EML("Return-Path: <>\nFrom: Mail Delivery System <Mailer-Daemon@relay.players.test>\nTo: judge@umpire.test\nSubject: Mail delivery failed: returning message to sender\nMessage-Id: <E1tpK2c-0004Xy-1Q@relay.players.test>\nDate: Mon, 03 Mar 2025 21:00:00 +0100\nAuto-Submitted: auto-replied\nX-Failed-Recipients: dan@players.test\nMIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary="+eb+"\n",
			"--"+eb+"\nContent-type: text/plain; charset=us-ascii\n\nThis message was created automatically by mail delivery software.\n\nA message that you sent could not be delivered to one or more of its\nrecipients. This is a permanent error. The following address(es) failed:\n\n  dan@players.test\n    mailbox is full\n\n"+
				"--"+eb+"\nContent-type: message/delivery-status\n\nReporting-MTA: dns; relay.players.test\n\n"+
				"Action: delayed\nFinal-Recipient: rfc822;carol@players.test\nStatus: 4.4.1\nWill-Retry-Until: Tue, 04 Mar 2025 21:00:00 +0100\n\n"+
				"Action: failed\nFinal-Recipient: rfc822;dan@players.test\nStatus: 5.2.2\nRemote-MTA: dns; mx.players.test\nDiagnostic-Code: smtp; 552 5.2.2 mailbox is full\n\n"+
				"--"+eb+"\nContent-type: message/rfc822\n\n"+string(orig)+"\n--"+eb+"--\n"))

	add("bounce-legacy-mailer-daemon.eml", "bounce", "an old qmail bounce from MAILER-DAEMON, free text with the returned message inline (Message-Id <umpire-out-9.def@umpire.test>)",
		mailtest.EML("From: MAILER-DAEMON@mail.players.test\nTo: judge@umpire.test\nSubject: failure notice\nDate: 3 Mar 2025 21:10:00 -0000\nMessage-ID: <20250303211000.31337.qmail@mail.players.test>\n",
			"Hi. This is the qmail-send program at mail.players.test.\nI'm afraid I wasn't able to deliver your message to the following addresses.\nThis is a permanent error; I've given up. Sorry it didn't work out.\n\n"+
				"<carol@players.test>:\nSorry, no mailbox here by that name. (#5.1.1)\n\n--- Below this line is a copy of the message.\n\n"+
				"Return-Path: <judge@umpire.test>\nReceived: (qmail 31335 invoked from network); 3 Mar 2025 21:09:59 -0000\nFrom: Umpire <judge@umpire.test>\nTo: carol@players.test\nSubject: Reminder: club-kosovo-3 step 7\nMessage-Id: <umpire-out-9.def@umpire.test>\nAuto-Submitted: auto-replied\n\nOrders for step 7 are due Thursday 20:00.\n"))
}

func (c *corpusMaker) commands(add adder) {
	carol := "Carol <carol@players.test>"
	add("command-help-subject.eml", "command", "\"help\" in the subject, empty body",
		mailtest.EML(mailtest.Envelope(carol, "help", "k1@players.test")+mailtest.PlainHeader, "\n"))
	add("command-status-body.eml", "command", "\"status club-kosovo-3\" in the body, no subject, a signature footer",
		mailtest.EML(strings.Replace(mailtest.Envelope(carol, "", "k2@players.test"), "Subject: \n", "", 1)+mailtest.PlainHeader, "status club-kosovo-3\n\n-- \nCarol\n"))
	const ab = "00000000000077e1"
	add("command-list-alternative.eml", "command", "\"list\" in a Gmail multipart/alternative mail",
		mailtest.EML(mailtest.Envelope(carol, "list", "k3@players.test")+"MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\""+ab+"\"\n",
			"--"+ab+"\nContent-Type: text/plain; charset=\"UTF-8\"\n\nlist\n\n--"+ab+"\nContent-Type: text/html; charset=\"UTF-8\"\n\n<div dir=\"ltr\">list</div>\n\n--"+ab+"--\n"))
	add("command-map-cp1252.eml", "command", "\"map club-kosovo-3\" from Outlook in Windows-1252 quoted-printable with curly quotes",
		mailtest.EML(mailtest.Envelope(carol, "map please", "k4@players.test")+"MIME-Version: 1.0\nContent-Type: text/plain; charset=\"Windows-1252\"\nContent-Transfer-Encoding: quoted-printable\nX-Mailer: Microsoft Outlook 16.0\n",
			qp([]byte("map club-kosovo-3\r\n\r\nThanks \x96 I\x92d like the \x93big\x94 map.\r\n"))))
	add("command-log-encoded-subject.eml", "command", "\"log club-kosovo-3\" as an RFC 2047 base64 encoded subject",
		mailtest.EML(mailtest.Envelope(carol, "=?utf-8?b?bG9nIGNsdWIta29zb3ZvLTM=?=", "k5@players.test")+mailtest.PlainHeader, ""))
}
