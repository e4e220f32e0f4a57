package message

import (
	"flag"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"golang.org/x/text/encoding/charmap"
)

var updateClients = flag.Bool("update-clients", false, "regenerate testdata/clients with the real gpg and ssh-keygen")

// clientsDir is the corpus of real mail clients' messages, shared with the
// intake's table test (mail/intake/clients_test.go).
const clientsDir = "../testdata/clients"

// An orderFile of the clients corpus: the text the player writes, and
// what the judge must read from it.
type orderFile struct {
	text   string
	header string   // "game/step/seat"
	orders []string // the order lines as the judge reads them
}

// pcsOrders is a turn of the hosted 1995 game (docs/orders-pcs1995.md):
// an air script and an activation queue whose lines run past 72 and 78
// columns, as 1995 queues do.
var pcsOrders = orderFile{
	text: "game: balkan-95\nstep: 3\nseat: NATO\n" +
		"# turn 1, NATO: the Germans arrive next to Trieste, and the air script is the one we agreed\n" +
		"place DE-12P 1306\n" +
		"air US-F16 suppression if enemy patrol >= 2 else patrol\n" +
		"me UK-4AB 2816 attack 2915 bid 3 gs US-F117 advance   # the queue begins: an ME with ground support\n" +
		"move US-1-3ID 1912 2013 2014 2115 if US-1-3ID fresh else move US-1-3ID 1912 2013 skip\n" +
		"pa HR-5GB 3007 if 3007 enemy else skip\n" +
		"ask\nend\n",
	header: "balkan-95/3/NATO",
	orders: []string{
		"place DE-12P 1306",
		"air US-F16 suppression if enemy patrol >= 2 else patrol",
		"me UK-4AB 2816 attack 2915 bid 3 gs US-F117 advance",
		"move US-1-3ID 1912 2013 2014 2115 if US-1-3ID fresh else move US-1-3ID 1912 2013 skip",
		"pa HR-5GB 3007 if 3007 enemy else skip",
		"ask",
	},
}

// smsOrders are conditional orders of the hosted 1914 game
// (docs/orders-sms1914.md), the attack line 94 columns long.
var smsOrders = orderFile{
	text: "game: sms-1914\nstep: 2\nseat: Austria-Hungary\n" +
		"attack 43.40 with 9/VIII+21/VIII+13/VIII intense if odds>=3:1 mandated advance 21/VIII twohex\n" +
		"defend intense if odds<=2:1      # only when the odds are poor\n" +
		"move 9/VIII 20.12 21.12 else 20.12 20.13 nofm\n" +
		"end\n",
	header: "sms-1914/2/Austria-Hungary",
	orders: []string{
		"attack 43.40 with 9/VIII+21/VIII+13/VIII intense if odds>=3:1 mandated advance 21/VIII twohex",
		"defend intense if odds<=2:1",
		"move 9/VIII 20.12 21.12 else 20.12 20.13 nofm",
	},
}

// shortOrders keep every line under 78 columns, as a player writing in
// Gmail's plain text mode must.
var shortOrders = orderFile{
	text: "game: balkan-95\nstep: 3\nseat: NATO\n" +
		"place DE-12P 1306\n" +
		"air US-F16 suppression if enemy patrol >= 2 else patrol\n" +
		"pa HR-5GB 3007  if 3007 enemy else skip   # two blanks kept\n" +
		"end\n",
	header: "balkan-95/3/NATO",
	orders: []string{"place DE-12P 1306", "air US-F16 suppression if enemy patrol >= 2 else patrol", "pa HR-5GB 3007 if 3007 enemy else skip"},
}

// bobOrders1914 is bob's file for the SSH messages: the Serbian side.
var bobOrders1914 = orderFile{
	text: "game: sms-1914\nstep: 2\nseat: Serbia\n" +
		"defend intense if attacker   # hold the Drina line whatever the Austrians send across the river tonight\n" +
		"move I/Sum 31.22 32.22 else 31.22 31.23 nofm\n" +
		"end\n",
	header: "sms-1914/2/Serbia",
	orders: []string{"defend intense if attacker", "move I/Sum 31.22 32.22 else 31.22 31.23 nofm"},
}

// judgeReportText is the judge's report a reply quotes.
const judgeReportText = "Report: balkan-95 step 2\n\nThe step is adjudicated. Step 3 is open until Thursday 20:00 UTC.\nNext: NATO and Serbia, activation queues.\n-- \numpire\n"

// clientMaker makes the clients corpus with real keys.
type clientMaker struct {
	t     *testing.T
	g     *gpgHome
	alice string // OpenPGP fingerprint
	bob   *sshKey
	rows  []clientRow
	files map[string][]byte
}

// clientRow is one message and its MANIFEST.tsv line.
type clientRow struct {
	name, expect, what, note string
}

// add records a message the judge must read to of's orders.
func (c *clientMaker) add(name, note string, of orderFile, raw []byte) {
	c.files[name] = raw
	c.rows = append(c.rows, clientRow{name, "orders", of.header + " " + strings.Join(of.orders, " | "), note})
}

// refuse records a message the judge must refuse with an answer that
// contains hint.
func (c *clientMaker) refuse(name, note, hint string, raw []byte) {
	c.files[name] = raw
	c.rows = append(c.rows, clientRow{name, "refused", hint, note})
}

func TestGenerateClients(t *testing.T) {
	if !*updateClients {
		t.Skip("regenerate with: go test ./mail/message -run TestGenerateClients -update-clients")
	}
	needTools(t)
	g := newGPG(t)
	g.now = "20250303T181000!"
	c := &clientMaker{t: t, g: g, alice: g.genKey("Alice <alice@players.test>", "ed25519", "sign"),
		bob: newSSHKey(t, "bob@players.test"), files: map[string][]byte{}}
	c.thunderbird()
	c.apple()
	c.outlook()
	c.gmail()
	c.android()
	c.proton()
	c.mutt()
	c.terminal()
	c.replies()

	old, _ := filepath.Glob(filepath.Join(clientsDir, "*.eml"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(clientsDir, "keys"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.files["keys/alice.asc"] = g.run(nil, "--armor", "--export", c.alice)
	c.files["keys/bob.pub"] = c.bob.public()
	for name, data := range c.files {
		if err := os.WriteFile(filepath.Join(clientsDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var m strings.Builder
	for _, r := range c.rows {
		fmt.Fprintf(&m, "%s\t%s\t%s\t%s\n", r.name, r.expect, r.what, r.note)
	}
	if err := os.WriteFile(filepath.Join(clientsDir, "MANIFEST.tsv"), []byte(m.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d messages to %s", len(c.rows), clientsDir)
}

// flow encodes text as format=flowed (RFC 3676) the way a mail program
// does: lines longer than width are broken after a space (the space stays
// at the end of the line, and with delSp one more is added), lines that
// begin with a space, "From " or ">" outside a quote are space-stuffed,
// trailing blanks of hard lines are dropped, and quoted lines keep their
// "> " marks on every piece.
func flow(text string, width int, delSp bool) string {
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		prefix := ""
		if strings.HasPrefix(line, ">") {
			d := len(line) - len(strings.TrimLeft(line, ">"))
			prefix = strings.Repeat(">", d) + " "
			line = strings.TrimPrefix(line[d:], " ")
		}
		if line != "-- " {
			line = strings.TrimRight(line, " ")
		}
		if line == "" && prefix != "" {
			out.WriteString(strings.TrimSuffix(prefix, " ") + "\n") // an empty quoted line is no soft break
			continue
		}
		for {
			if len(prefix)+len(line) <= width {
				out.WriteString(prefix + stuff(prefix, line) + "\n")
				break
			}
			i := strings.LastIndexByte(line[:width-len(prefix)], ' ')
			if i <= 0 {
				out.WriteString(prefix + stuff(prefix, line) + "\n")
				break
			}
			for i+1 < len(line) && line[i+1] == ' ' {
				i++
			}
			piece := line[:i+1]
			if delSp {
				piece += " "
			}
			out.WriteString(prefix + stuff(prefix, piece) + "\n")
			line = line[i+1:]
		}
	}
	return out.String()
}

// stuff space-stuffs one line of flowed text.
func stuff(prefix, s string) string {
	if strings.HasPrefix(s, " ") || strings.HasPrefix(s, "From ") || (prefix == "" && strings.HasPrefix(s, ">")) {
		return " " + s
	}
	return s
}

// hardWrap breaks lines longer than width at their last blank, as Gmail's
// plain text mode does (the blank is dropped).
func hardWrap(text string, width int) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for len(line) > width {
			i := strings.LastIndexByte(line[:width+1], ' ')
			if i <= 0 {
				break
			}
			out = append(out, line[:i])
			line = line[i+1:]
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// gmailHTML writes text as Gmail's rich text editor does: a <div> per
// line, <div><br></div> for an empty one, runs of blanks as "&nbsp; "
// pairs when nbsp is set (plain blanks, which a browser collapses, when
// not).
func gmailHTML(text string, nbsp bool) string {
	var b strings.Builder
	b.WriteString(`<div dir="ltr">`)
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if line == "" {
			b.WriteString("<div><br></div>")
			continue
		}
		l := html.EscapeString(line)
		if nbsp {
			l = nbspRuns(l)
		}
		b.WriteString("<div>" + l + "</div>")
	}
	b.WriteString("</div>\n")
	return b.String()
}

// nbspRuns writes each run of two or more blanks as Gmail's editor does,
// "&nbsp;" and " " in turn, so that no two collapsible blanks meet.
func nbspRuns(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j-i >= 2 {
			for k := 0; k < j-i; k++ {
				b.WriteString(map[bool]string{true: "&nbsp;", false: " "}[k%2 == 0])
			}
			i = j
			continue
		}
		if j > i {
			b.WriteByte(' ')
			i = j
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// clientHeader is the envelope of a message from a client: from, subject,
// Message-ID, and the client's own header lines.
func clientHeader(from, subject, id, extra string) string {
	return mailtest.Envelope(from, subject, id) + extra
}

// multipartSigned wraps the signed part (MIME header and body, LF endings)
// in multipart/signed as RFC 3156 says, signing its CRLF form with alice's
// key; the signature part's header is the client's own.
func (c *clientMaker) multipartSigned(hdr, boundary, preamble, part, sigHeader string) []byte {
	signed := mailtest.CRLF(part)
	sig := c.g.detachSign(c.alice, []byte(signed), true)
	body := preamble + "--" + boundary + "\n" + signed + "\n--" + boundary + "\n" + sigHeader + "\n" + string(sig) + "\n--" + boundary + "--\n"
	return mailtest.EML(hdr+"MIME-Version: 1.0\nContent-Type: multipart/signed; micalg="+c.g.micalg(sig)+";\n protocol=\"application/pgp-signature\";\n boundary=\""+boundary+"\"\n", body)
}

// keyAttachment is the public key part Thunderbird attaches
// ("OpenPGP_0x<key id>.asc", quoted-printable).
func (c *clientMaker) keyAttachment(boundary string) string {
	name := "OpenPGP_0x" + c.alice[len(c.alice)-16:] + ".asc"
	key := c.g.run(nil, "--armor", "--export", c.alice)
	return "--" + boundary + "\nContent-Type: application/pgp-keys; name=\"" + name + "\"\nContent-Disposition: attachment; filename=\"" + name +
		"\"\nContent-Description: OpenPGP public key\nContent-Transfer-Encoding: quoted-printable\n\n" + strings.ReplaceAll(qp(key), "\r\n", "\n") + "\n"
}

const (
	alice  = "Alice <alice@players.test>"
	bob    = "Bob <bob@players.test>"
	tbUA   = "User-Agent: Mozilla Thunderbird\n"
	tbSig  = "Content-Type: application/pgp-signature; name=\"OpenPGP_signature.asc\"\nContent-Description: OpenPGP digital signature\nContent-Disposition: attachment; filename=\"OpenPGP_signature.asc\"\n"
	tbPre  = "This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\n"
	gmail  = "CAJx7rK0Vbq3@mail.gmail.com"
	appleX = "X-Mailer: Apple Mail (2.3774.600.62)\n"
)

func (c *clientMaker) thunderbird() {
	// PGP/MIME, plain text flowed, the key attached: Thunderbird 128 with
	// its built-in OpenPGP, mailnews.send_plaintext_flowed and
	// mailnews.wraplength 72 at their defaults.
	const mb, ob = "------------mix0TbQ8", "------------sigTb2Kx"
	part := "Content-Type: multipart/mixed; boundary=\"" + mb + "\"; protected-headers=\"v1\"\n" +
		"From: " + alice + "\nTo: Umpire <judge@umpire.test>\nSubject: balkan-95 turn 1\nMessage-ID: <tb1@players.test>\n\n" +
		"--" + mb + "\nContent-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: base64\n\n" +
		mailtest.Base64([]byte(mailtest.CRLF(flow(pcsOrders.text, 72, false))), 72) + "\n" + c.keyAttachment(mb) + "--" + mb + "--\n"
	c.add("thunderbird-pgpmime-flowed.eml", "Thunderbird 128, built-in OpenPGP, Digitally Sign (PGP/MIME), plain text format=flowed wrapped at 72, text part base64 (Thunderbird forces it in a signed message), key attached as OpenPGP_0x….asc",
		pcsOrders, c.multipartSigned(clientHeader(alice, "balkan-95 turn 1", "tb1@players.test", tbUA), ob, tbPre, part, tbSig))

	// The orders clear-signed with gpg and pasted into a plain text
	// message that Thunderbird sends format=flowed: the long lines come
	// out soft-wrapped (the failure that opened issue 30).
	cs := string(c.g.clearsign(c.alice, []byte(pcsOrders.text)))
	c.add("thunderbird-inline-flowed.eml", "Thunderbird 128, gpg --clearsign output pasted into a plain text message, sent format=flowed (DelSp=no) wrapped at 72",
		pcsOrders, mailtest.EML(clientHeader(alice, "orders", "tb2@players.test", tbUA)+"MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n",
			flow(cs, 72, false)))

	// HTML compose: PGP/MIME over multipart/alternative (flowed text and
	// its HTML twin), the key attached.
	const ab = "------------altTb7Wq"
	htmlTwin := "<html><head><meta http-equiv=\"content-type\" content=\"text/html; charset=UTF-8\"></head><body><pre>" + html.EscapeString(smsOrders.text) + "</pre></body></html>\n"
	part = "Content-Type: multipart/mixed; boundary=\"" + mb + "\"; protected-headers=\"v1\"\n" +
		"From: " + alice + "\nTo: Umpire <judge@umpire.test>\nSubject: 1914 step 2\n\n" +
		"--" + mb + "\nContent-Type: multipart/alternative; boundary=\"" + ab + "\"\n\n" +
		"--" + ab + "\nContent-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n\n" + flow(smsOrders.text, 72, false) + "\n" +
		"--" + ab + "\nContent-Type: text/html; charset=UTF-8\nContent-Transfer-Encoding: 7bit\n\n" + htmlTwin + "\n--" + ab + "--\n\n" +
		c.keyAttachment(mb) + "--" + mb + "--\n"
	c.add("thunderbird-alternative-pgpmime.eml", "Thunderbird 128, HTML compose (Send Format: both): PGP/MIME over multipart/alternative, flowed text and HTML twin, key attached",
		smsOrders, c.multipartSigned(clientHeader(alice, "1914 step 2", "tb3@players.test", tbUA), ob, tbPre, part, tbSig))
}

func (c *clientMaker) apple() {
	// Apple Mail 16 with GPG Suite 2023 (GPGMail): PGP/MIME, plain text
	// format=flowed; delsp=yes, quoted-printable.
	const b = "Apple-Mail=_3F0C9A1E-7B2D-4F61-9C55-0D1E2A3B4C5D"
	part := "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/plain;\n\tcharset=utf-8;\n\tdelsp=yes;\n\tformat=flowed\n\n" +
		strings.ReplaceAll(qp([]byte(mailtest.CRLF(flow(smsOrders.text, 76, true)))), "\r\n", "\n") + "\n"
	sig := "Content-Transfer-Encoding: 7bit\nContent-Disposition: attachment;\n\tfilename=signature.asc\nContent-Type: application/pgp-signature;\n\tname=signature.asc\nContent-Description: Message signed with OpenPGP\n"
	c.add("apple-mail-pgpmime-delsp.eml", "Apple Mail 16 + GPG Suite (GPGMail): PGP/MIME, text/plain format=flowed; delsp=yes, quoted-printable",
		smsOrders, c.multipartSigned(clientHeader(alice, "1914 step 2", "5E1A2B3C-apple@players.test", appleX), b, "", part, sig))
}

func (c *clientMaker) outlook() {
	// Outlook 2021 with Gpg4win's GpgOL: PGP/MIME over
	// multipart/alternative, windows-1252 quoted-printable text with CRLF,
	// an HTML twin, an Outlook signature block and a disclaimer.
	text := strings.Replace(pcsOrders.text, "end\n", "", 1) + "\n-- \nAlice Example | Operations\nACME Logistics GmbH\n\n" +
		"This e\u2011mail and any attachments are confidential. If you are not the intended recipient, \u201cplease\u201d delete it.\n"
	cp, err := charmap.Windows1252.NewEncoder().String(strings.ReplaceAll(text, "\u2011", "-"))
	if err != nil {
		c.t.Fatal(err)
	}
	const ab = "_000_AM0PR07MB1234ABCDEFamsprd07prod_"
	htmlTwin := "<html><body><p class=MsoNormal>" + strings.ReplaceAll(html.EscapeString(text), "\n", "<o:p></o:p></p>\n<p class=MsoNormal>") + "</p></body></html>"
	part := "Content-Type: multipart/alternative; boundary=\"" + ab + "\"\n\n" +
		"--" + ab + "\nContent-Type: text/plain; charset=\"windows-1252\"\nContent-Transfer-Encoding: quoted-printable\n\n" + strings.ReplaceAll(qp([]byte(mailtest.CRLF(cp))), "\r\n", "\n") + "\n" +
		"--" + ab + "\nContent-Type: text/html; charset=\"utf-8\"\nContent-Transfer-Encoding: quoted-printable\n\n" + strings.ReplaceAll(qp([]byte(htmlTwin)), "\r\n", "\n") + "\n--" + ab + "--\n"
	sig := "Content-Type: application/pgp-signature; name=\"signature.asc\"\nContent-Description: OpenPGP digital signature\nContent-Disposition: attachment; filename=\"signature.asc\"\n"
	extra := "X-Mailer: Microsoft Outlook 16.0\nThread-Index: AdmNx0b6o2V1f3JqQ7e4mS9QxYqLrw==\nContent-Language: en-gb\n"
	c.add("outlook-gpgol-pgpmime.eml", "Outlook 2021 + Gpg4win GpgOL: PGP/MIME over multipart/alternative, windows-1252 quoted-printable with CRLF, HTML twin, a \"-- \" signature block and a corporate disclaimer after the orders (no end line)",
		pcsOrders, c.multipartSigned(clientHeader(alice, "balkan-95 turn 1", "AM0PR07MB1234@eurprd07.prod.outlook.com", extra), "=-gpgol-sig-7d1c2b", "This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\n", part, sig))
}

func (c *clientMaker) gmail() {
	gm := "Content-Type: text/html; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n"
	cs := string(c.g.clearsign(c.alice, []byte(shortOrders.text)))
	c.add("gmail-mailvelope-html.eml", "Gmail web, rich text mode, Mailvelope 5 sign-only: the clear-signed block inside an HTML-only body, a <div> per line, runs of blanks as &nbsp; and blank in turn",
		shortOrders, mailtest.EML(clientHeader(alice, "orders", gmail, "MIME-Version: 1.0\n")+gm, strings.ReplaceAll(qp([]byte(gmailHTML(cs, true))), "\r\n", "\n")))
	c.refuse("gmail-mailvelope-html-collapsed.eml", "Gmail web, HTML-only, the clear-signed block pasted with plain double blanks, which the displayed text collapses: cannot verify",
		"Plain text mode", mailtest.EML(clientHeader(alice, "orders", "CAJx7rK0Vbq4@mail.gmail.com", "MIME-Version: 1.0\n")+gm, strings.ReplaceAll(qp([]byte(gmailHTML(cs, false))), "\r\n", "\n")))

	plain := "MIME-Version: 1.0\nContent-Type: text/plain; charset=\"UTF-8\"\n"
	c.add("gmail-plain-mailvelope.eml", "Gmail web, Plain text mode (hard-wraps at 78), Mailvelope sign-only over lines all under 78 columns",
		shortOrders, mailtest.EML(clientHeader(alice, "orders", "CAJx7rK0Vbq5@mail.gmail.com", "")+plain, hardWrap(cs, 78)))
	long := string(c.g.clearsign(c.alice, []byte(pcsOrders.text)))
	c.refuse("gmail-plain-wrapped.eml", "Gmail web, Plain text mode: a 1995 queue line over 78 columns signed with Mailvelope, then hard-wrapped at 78 by Gmail: cannot be read, never joined",
		"cut off by your mail program", mailtest.EML(clientHeader(alice, "orders", "CAJx7rK0Vbq6@mail.gmail.com", "")+plain, hardWrap(long, 78)))
}

func (c *clientMaker) android() {
	// K-9 Mail 6.8 with OpenKeychain: PGP/MIME, quoted-printable plain text.
	k9 := "User-Agent: K-9 Mail for Android\n"
	part := "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n" + strings.ReplaceAll(qp([]byte(mailtest.CRLF(smsOrders.text))), "\r\n", "\n") + "\n"
	sig := "Content-Type: application/pgp-signature; name=\"signature.asc\"\nContent-Transfer-Encoding: 7bit\n"
	c.add("k9-openkeychain-pgpmime.eml", "K-9 Mail 6.8 + OpenKeychain 6: PGP/MIME, text/plain quoted-printable",
		smsOrders, c.multipartSigned(clientHeader(alice, "1914", "k9-1@players.test", k9), "----K9MIMESIG7F2A", "", part, sig))

	// FairEmail 1.2 with OpenKeychain, sign inline, "Send plain text as
	// format=flowed" on: the phone's flowed text, 8bit.
	cs := string(c.g.clearsign(c.alice, []byte(pcsOrders.text)))
	c.add("fairemail-inline-flowed.eml", "FairEmail 1.2 + OpenKeychain, inline signing, format=flowed on (phone plain text wrapped at 76), 8bit",
		pcsOrders, mailtest.EML(clientHeader(alice, "orders", "fe-1@players.test", "")+"MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 8bit\n",
			flow(cs, 76, false)))
}

func (c *clientMaker) proton() {
	// Proton Mail web: PGP/MIME with the sender's public key attached.
	const mb = "---------------------0a1b2c3d4e5f"
	key := c.g.run(nil, "--armor", "--export", c.alice)
	keyName := "publickey - alice@players.test - 0x" + c.alice[len(c.alice)-8:] + ".asc"
	part := "Content-Type: multipart/mixed;boundary=" + mb + "\n\n" +
		"--" + mb + "\nContent-Type: text/plain;charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n" + strings.ReplaceAll(qp([]byte(mailtest.CRLF(pcsOrders.text))), "\r\n", "\n") + "\n" +
		"--" + mb + "\nContent-Type: application/pgp-keys; filename=\"" + keyName + "\"; name=\"" + keyName + "\"\nContent-Transfer-Encoding: base64\nContent-Disposition: attachment; filename=\"" + keyName + "\"; name=\"" + keyName + "\"\n\n" +
		mailtest.Base64(key, 76) + "--" + mb + "--\n"
	sig := "Content-Type: application/pgp-signature; name=\"signature.asc\"\nContent-Description: OpenPGP digital signature\nContent-Disposition: attachment; filename=\"signature.asc\"\n"
	c.add("proton-pgpmime-key.eml", "Proton Mail web: Sign external messages and Attach public key on, PGP/MIME over multipart/mixed with publickey - … .asc",
		pcsOrders, c.multipartSigned(clientHeader(alice, "orders", "AbC123xyz@proton.me", "X-Pm-Origin: internal\nX-Pm-Content-Encryption: end-to-end\n"), "---------------------sig9f8e7d", "This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\n", part, sig))
}

func (c *clientMaker) mutt() {
	// mutt 2.2, traditional inline (pgp_autoinline): the whole body is
	// signed, the ~/.signature too, its "-- " dash-escaped as "- -- ".
	mutt := "User-Agent: Mutt/2.2.12 (2023-09-09)\n"
	body := string(c.g.clearsign(c.alice, []byte(strings.Replace(smsOrders.text, "end\n", "", 1)+"\n-- \nAlice, who plays the Habsburgs\n")))
	c.add("mutt-inline.eml", "mutt 2.2 with pgp_autoinline: traditional inline clear-signing of the whole body, signature block dash-escaped (- -- ), us-ascii, Content-Disposition inline",
		smsOrders, mailtest.EML(clientHeader(alice, "1914", "mutt-1@players.test", mutt)+"MIME-Version: 1.0\nContent-Type: text/plain; charset=us-ascii\nContent-Disposition: inline\n", body))
	part := "Content-Type: text/plain; charset=us-ascii\nContent-Disposition: inline\n\n" + pcsOrders.text
	sig := "Content-Type: application/pgp-signature; name=\"signature.asc\"\nContent-Description: signature\n"
	c.add("mutt-pgpmime.eml", "mutt 2.2, PGP/MIME (crypt_autosign), text/plain us-ascii inline, lines kept as written (no wrapping)",
		pcsOrders, c.multipartSigned(clientHeader(alice, "orders", "mutt-2@players.test", mutt), "kRvGcZ3QxYlq7Hn2", "", part, sig))
}

func (c *clientMaker) terminal() {
	sig := c.bob.sign([]byte(bobOrders1914.text))
	c.add("terminal-ssh-inline.eml", "terminal: ssh-keygen -Y sign -n umpire orders.txt, then cat orders.txt orders.txt.sig pasted into a plain text mail (mutt, no wrapping)",
		bobOrders1914, mailtest.EML(clientHeader(bob, "orders", "ssh-1@players.test", "User-Agent: Mutt/2.2.12\n")+mailtest.PlainHeader, bobOrders1914.text+string(sig)))
	c.add("terminal-ssh-detached.eml", "terminal: orders.txt and orders.txt.sig (ssh-keygen -Y sign) attached side by side",
		bobOrders1914, mailtest.Detached(clientHeader(bob, "orders", "ssh-2@players.test", ""), "Orders attached.\n", []byte(bobOrders1914.text), "orders.txt.sig", "application/octet-stream", "7bit", sig))
}

func (c *clientMaker) replies() {
	quote := "> " + strings.ReplaceAll(strings.TrimSuffix(judgeReportText, "\n"), "\n", "\n> ") + "\n"
	// Thunderbird's reply: the quoted report above, the orders below
	// (bottom-posting), PGP/MIME, flowed.
	body := "On 03/03/2025 19:00, Umpire wrote:\n" + quote + "\n" + pcsOrders.text
	part := "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n\n" + flow(body, 72, false)
	c.add("reply-bottom-thunderbird.eml", "Thunderbird 128 reply to the judge's report: the quoted report and its attribution above the orders, PGP/MIME, flowed",
		pcsOrders, c.multipartSigned(clientHeader(alice, "Re: Report: balkan-95 step 2", "tb-re@players.test", tbUA+"In-Reply-To: <umpire-out-2@umpire.test>\nReferences: <umpire-out-2@umpire.test>\n"),
			"------------sigRe9", tbPre, part, tbSig))

	// K-9's reply: the orders above (top-posting, no end line), the
	// attribution and the quoted report below, PGP/MIME.
	body = strings.Replace(smsOrders.text, "end\n", "", 1) + "\nOn March 3, 2025 7:00:00 PM UTC, Umpire <judge@umpire.test> wrote:\n" + quote
	part = "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n" + strings.ReplaceAll(qp([]byte(mailtest.CRLF(body))), "\r\n", "\n") + "\n"
	c.add("reply-top-k9.eml", "K-9 Mail 6.8 + OpenKeychain reply, top-posting (K-9's default): orders above without an end line, attribution and quoted report below, PGP/MIME",
		smsOrders, c.multipartSigned(clientHeader(alice, "Re: Report: balkan-95 step 2", "k9-re@players.test", "User-Agent: K-9 Mail for Android\nIn-Reply-To: <umpire-out-2@umpire.test>\n"),
			"----K9MIMESIGRE", "", part, "Content-Type: application/pgp-signature; name=\"signature.asc\"\n"))

	// Gmail's reply in plain text mode, top-posting, clear-signed orders
	// above the quoted report.
	cs := string(c.g.clearsign(c.alice, []byte(shortOrders.text)))
	body = cs + "\nOn Mon, Mar 3, 2025 at 7:00 PM Umpire <judge@umpire.test> wrote:\n\n" + quote
	c.add("reply-top-gmail-plain.eml", "Gmail web reply in Plain text mode, top-posting: Mailvelope-signed orders above, the quoted report below",
		shortOrders, mailtest.EML(clientHeader(alice, "Re: Report: balkan-95 step 2", "CAJx7rK0Vbq7@mail.gmail.com", "In-Reply-To: <umpire-out-2@umpire.test>\n")+
			"MIME-Version: 1.0\nContent-Type: text/plain; charset=\"UTF-8\"\n", hardWrap(body, 78)))
}
