package mailtest

import (
	"bytes"
	"fmt"
	"html"
	"mime/quotedprintable"
	"strings"

	"golang.org/x/text/encoding/charmap"
)

// ClientSigner is a player's keys as their signing tools use them: gpg (or
// a mail program's built-in OpenPGP) and ssh-keygen. Each function runs
// the real tool; the clients corpus (mail/message's TestGenerateClients)
// and cmd/umpire's TestClientsByRealMail give their own.
type ClientSigner struct {
	// ClearSign is gpg --clearsign over the text.
	ClearSign func(text []byte) []byte
	// DetachSign is gpg --detach-sign --armor over the bytes.
	DetachSign func(data []byte) []byte
	// Micalg is the RFC 3156 micalg of a detached signature ("pgp-sha256").
	Micalg func(sig []byte) string
	// PublicKey is the armored OpenPGP public key (gpg --armor --export),
	// Fingerprint its fingerprint in hex.
	PublicKey   []byte
	Fingerprint string
	// SSHSign is ssh-keygen -Y sign -n umpire over the file's content.
	SSHSign func(content []byte) []byte
}

// OrdersKind names one of a ClientMail's order files.
type OrdersKind int

// The order files a client shape is built over.
const (
	// Long1995 is a 1995 activation queue whose lines run past 72 and 78
	// columns.
	Long1995 OrdersKind = iota
	// Long1914 is a 1914 file of conditional orders with lines past 78
	// columns.
	Long1914
	// ShortLines keeps every line under 78 columns, with a run of two
	// blanks inside a line, as a player writing in Gmail's plain text mode
	// must.
	ShortLines
	// SSHFile is the file a terminal user signs with ssh-keygen.
	SSHFile
)

// ClientOrders are the order files a set of client shapes carries, each
// as the player writes it (LF line endings, ending in "end").
type ClientOrders struct {
	Long1995, Long1914, Short, SSH string
}

// Text is the order file of kind k.
func (o ClientOrders) Text(k OrdersKind) string {
	switch k {
	case Long1995:
		return o.Long1995
	case Long1914:
		return o.Long1914
	case ShortLines:
		return o.Short
	}
	return o.SSH
}

// ClientMail is what a client shape needs to write a player's mail: the
// order files, the player's keys and the addresses.
type ClientMail struct {
	Orders ClientOrders
	Signer ClientSigner
	// From is the OpenPGP player ("Alice <alice@players.test>"), SSHFrom
	// the terminal user who signs with ssh-keygen; To is the judge
	// ("Umpire <judge@umpire.test>").
	From, SSHFrom, To string
	// Header writes a message's first header fields, with LF endings: the
	// corpus gives Envelope (the header as the judge's mailbox holds it),
	// a test that submits the mail gives what the client itself writes.
	Header func(from, subject, id string) string
	// Report is the judge's report a reply quotes.
	Report string
}

// ClientShape is one way a mail program shapes and signs an order file:
// structure, header fields, Content-Type parameters, transfer encodings,
// line endings, wrapping and signature placement
// (mail/testdata/clients/README.md says where each is documented).
type ClientShape struct {
	// Name is the corpus file the shape made ("mutt-inline.eml").
	Name string
	// Note is the client, version and settings modelled.
	Note string
	// Uses is the order file the shape carries.
	Uses OrdersKind
	// Refused, when set, is what the judge's refusal of the message must
	// say: the judge cannot read it and must answer with how to fix it.
	Refused string
	build   func(m ClientMail, text string) []byte
}

// Mail writes the shape's message for m: the order file it uses, shaped
// and signed as the client does.
func (s ClientShape) Mail(m ClientMail) []byte { return s.build(m, m.Orders.Text(s.Uses)) }

// The clients' own header lines and signature parts.
const (
	tbUA   = "User-Agent: Mozilla Thunderbird\n"
	tbSig  = "Content-Type: application/pgp-signature; name=\"OpenPGP_signature.asc\"\nContent-Description: OpenPGP digital signature\nContent-Disposition: attachment; filename=\"OpenPGP_signature.asc\"\n"
	tbPre  = "This is an OpenPGP/MIME signed message (RFC 4880 and 3156)\n"
	gmail  = "CAJx7rK0Vbq3@mail.gmail.com"
	appleX = "X-Mailer: Apple Mail (2.3774.600.62)\n"
	k9UA   = "User-Agent: K-9 Mail for Android\n"
	muttUA = "User-Agent: Mutt/2.2.12 (2023-09-09)\n"
	gmHTML = "Content-Type: text/html; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n"
	gmText = "MIME-Version: 1.0\nContent-Type: text/plain; charset=\"UTF-8\"\n"
)

// ClientShapes are the shapes of the clients corpus, in its MANIFEST.tsv
// order: Thunderbird, Apple Mail, Outlook, Gmail with Mailvelope, K-9 and
// FairEmail, Proton Mail, mutt, ssh-keygen in a terminal, and replies.
func ClientShapes() []ClientShape {
	return []ClientShape{
		{Name: "thunderbird-pgpmime-flowed.eml", Uses: Long1995, build: thunderbirdPGPMIME,
			Note: "Thunderbird 128, built-in OpenPGP, Digitally Sign (PGP/MIME), plain text format=flowed wrapped at 72, text part base64 (Thunderbird forces it in a signed message), key attached as OpenPGP_0x….asc"},
		{Name: "thunderbird-inline-flowed.eml", Uses: Long1995, build: thunderbirdInline,
			Note: "Thunderbird 128, gpg --clearsign output pasted into a plain text message, sent format=flowed (DelSp=no) wrapped at 72"},
		{Name: "thunderbird-alternative-pgpmime.eml", Uses: Long1914, build: thunderbirdAlternative,
			Note: "Thunderbird 128, HTML compose (Send Format: both): PGP/MIME over multipart/alternative, flowed text and HTML twin, key attached"},
		{Name: "apple-mail-pgpmime-delsp.eml", Uses: Long1914, build: appleMail,
			Note: "Apple Mail 16 + GPG Suite (GPGMail): PGP/MIME, text/plain format=flowed; delsp=yes, quoted-printable"},
		{Name: "outlook-gpgol-pgpmime.eml", Uses: Long1995, build: outlook,
			Note: "Outlook 2021 + Gpg4win GpgOL: PGP/MIME over multipart/alternative, windows-1252 quoted-printable with CRLF, HTML twin, a \"-- \" signature block and a corporate disclaimer after the orders (no end line)"},
		{Name: "gmail-mailvelope-html.eml", Uses: ShortLines, build: gmailHTMLMail(true, gmail),
			Note: "Gmail web, rich text mode, Mailvelope 5 sign-only: the clear-signed block inside an HTML-only body, a <div> per line, runs of blanks as &nbsp; and blank in turn"},
		{Name: "gmail-mailvelope-html-collapsed.eml", Uses: ShortLines, build: gmailHTMLMail(false, "CAJx7rK0Vbq4@mail.gmail.com"), Refused: "Plain text mode",
			Note: "Gmail web, HTML-only, the clear-signed block pasted with plain double blanks, which the displayed text collapses: cannot verify"},
		{Name: "gmail-plain-mailvelope.eml", Uses: ShortLines, build: gmailPlain("CAJx7rK0Vbq5@mail.gmail.com"),
			Note: "Gmail web, Plain text mode (hard-wraps at 78), Mailvelope sign-only over lines all under 78 columns"},
		{Name: "gmail-plain-wrapped.eml", Uses: Long1995, build: gmailPlain("CAJx7rK0Vbq6@mail.gmail.com"), Refused: "cut off by your mail program",
			Note: "Gmail web, Plain text mode: a 1995 queue line over 78 columns signed with Mailvelope, then hard-wrapped at 78 by Gmail: cannot be read, never joined"},
		{Name: "k9-openkeychain-pgpmime.eml", Uses: Long1914, build: k9,
			Note: "K-9 Mail 6.8 + OpenKeychain 6: PGP/MIME, text/plain quoted-printable"},
		{Name: "fairemail-inline-flowed.eml", Uses: Long1995, build: fairEmail,
			Note: "FairEmail 1.2 + OpenKeychain, inline signing, format=flowed on (phone plain text wrapped at 76), 8bit"},
		{Name: "proton-pgpmime-key.eml", Uses: Long1995, build: proton,
			Note: "Proton Mail web: Sign external messages and Attach public key on, PGP/MIME over multipart/mixed with publickey - … .asc"},
		{Name: "mutt-inline.eml", Uses: Long1914, build: muttInline,
			Note: "mutt 2.2 with pgp_autoinline: traditional inline clear-signing of the whole body, signature block dash-escaped (- -- ), us-ascii, Content-Disposition inline"},
		{Name: "mutt-pgpmime.eml", Uses: Long1995, build: muttPGPMIME,
			Note: "mutt 2.2, PGP/MIME (crypt_autosign), text/plain us-ascii inline, lines kept as written (no wrapping)"},
		{Name: "terminal-ssh-inline.eml", Uses: SSHFile, build: sshInline,
			Note: "terminal: ssh-keygen -Y sign -n umpire orders.txt, then cat orders.txt orders.txt.sig pasted into a plain text mail (mutt, no wrapping)"},
		{Name: "terminal-ssh-detached.eml", Uses: SSHFile, build: sshDetached,
			Note: "terminal: orders.txt and orders.txt.sig (ssh-keygen -Y sign) attached side by side"},
		{Name: "reply-bottom-thunderbird.eml", Uses: Long1995, build: replyBottomThunderbird,
			Note: "Thunderbird 128 reply to the judge's report: the quoted report and its attribution above the orders, PGP/MIME, flowed"},
		{Name: "reply-top-k9.eml", Uses: Long1914, build: replyTopK9,
			Note: "K-9 Mail 6.8 + OpenKeychain reply, top-posting (K-9's default): orders above without an end line, attribution and quoted report below, PGP/MIME"},
		{Name: "reply-top-gmail-plain.eml", Uses: ShortLines, build: replyTopGmail,
			Note: "Gmail web reply in Plain text mode, top-posting: Mailvelope-signed orders above, the quoted report below"},
	}
}

// QuotedPrintable encodes b as quoted-printable, with CRLF line endings.
func QuotedPrintable(b []byte) string {
	var buf bytes.Buffer
	w := quotedprintable.NewWriter(&buf)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.String()
}

// qpLF is b quoted-printable with LF line endings (EML makes them CRLF).
func qpLF(b []byte) string { return strings.ReplaceAll(QuotedPrintable(b), "\r\n", "\n") }

// Flow encodes text as format=flowed (RFC 3676) the way a mail program
// does: lines longer than width are broken after a space (the space stays
// at the end of the line, and with delSp one more is added), lines that
// begin with a space, "From " or ">" outside a quote are space-stuffed,
// trailing blanks of hard lines are dropped, and quoted lines keep their
// "> " marks on every piece.
func Flow(text string, width int, delSp bool) string {
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

// HardWrap breaks lines longer than width at their last blank, as Gmail's
// plain text mode does (the blank is dropped).
func HardWrap(text string, width int) string {
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

// GmailHTML writes text as Gmail's rich text editor does: a <div> per
// line, <div><br></div> for an empty one, runs of blanks as "&nbsp; "
// pairs when nbsp is set (plain blanks, which a browser collapses, when
// not).
func GmailHTML(text string, nbsp bool) string {
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
				if k%2 == 0 {
					b.WriteString("&nbsp;")
				} else {
					b.WriteByte(' ')
				}
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

// multipartSigned wraps the signed part (MIME header and body, LF endings)
// in multipart/signed as RFC 3156 says, signing its CRLF form with the
// player's OpenPGP key; the signature part's header is the client's own.
func multipartSigned(m ClientMail, hdr, boundary, preamble, part, sigHeader string) []byte {
	signed := CRLF(part)
	sig := m.Signer.DetachSign([]byte(signed))
	body := preamble + "--" + boundary + "\n" + signed + "\n--" + boundary + "\n" + sigHeader + "\n" + string(sig) + "\n--" + boundary + "--\n"
	return EML(hdr+"MIME-Version: 1.0\nContent-Type: multipart/signed; micalg="+m.Signer.Micalg(sig)+";\n protocol=\"application/pgp-signature\";\n boundary=\""+boundary+"\"\n", body)
}

// keyAttachment is the public key part Thunderbird attaches
// ("OpenPGP_0x<key id>.asc", quoted-printable).
func keyAttachment(m ClientMail, boundary string) string {
	fpr := m.Signer.Fingerprint
	name := "OpenPGP_0x" + fpr[len(fpr)-16:] + ".asc"
	return "--" + boundary + "\nContent-Type: application/pgp-keys; name=\"" + name + "\"\nContent-Disposition: attachment; filename=\"" + name +
		"\"\nContent-Description: OpenPGP public key\nContent-Transfer-Encoding: quoted-printable\n\n" + qpLF(m.Signer.PublicKey) + "\n"
}

// address is the mail address of a From value ("Alice <a@b>" gives a@b).
func address(from string) string {
	if i := strings.IndexByte(from, '<'); i >= 0 {
		return strings.Trim(from[i:], "<>")
	}
	return from
}

// withoutEnd is the order file without its "end" line, as a player who
// lets the mail's end close it writes it.
func withoutEnd(text string) string { return strings.Replace(text, "end\n", "", 1) }

// quoted is the judge's report as a reply quotes it ("> ").
func quoted(report string) string {
	return "> " + strings.ReplaceAll(strings.TrimSuffix(report, "\n"), "\n", "\n> ") + "\n"
}

const tbMixed, tbSigned = "------------mix0TbQ8", "------------sigTb2Kx"

// thunderbirdPGPMIME is Thunderbird 128 with its built-in OpenPGP:
// PGP/MIME, plain text flowed, the key attached, with
// mailnews.send_plaintext_flowed and mailnews.wraplength 72 at their
// defaults.
func thunderbirdPGPMIME(m ClientMail, text string) []byte {
	part := "Content-Type: multipart/mixed; boundary=\"" + tbMixed + "\"; protected-headers=\"v1\"\n" +
		"From: " + m.From + "\nTo: " + m.To + "\nSubject: balkan-95 turn 1\nMessage-ID: <tb1@players.test>\n\n" +
		"--" + tbMixed + "\nContent-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: base64\n\n" +
		Base64([]byte(CRLF(Flow(text, 72, false))), 72) + "\n" + keyAttachment(m, tbMixed) + "--" + tbMixed + "--\n"
	return multipartSigned(m, m.Header(m.From, "balkan-95 turn 1", "tb1@players.test")+tbUA, tbSigned, tbPre, part, tbSig)
}

// thunderbirdInline is the orders clear-signed with gpg and pasted into a
// plain text message that Thunderbird sends format=flowed: the long lines
// come out soft-wrapped (the failure that opened issue 30).
func thunderbirdInline(m ClientMail, text string) []byte {
	cs := string(m.Signer.ClearSign([]byte(text)))
	return EML(m.Header(m.From, "orders", "tb2@players.test")+tbUA+"MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n",
		Flow(cs, 72, false))
}

// thunderbirdAlternative is Thunderbird's HTML compose: PGP/MIME over
// multipart/alternative (flowed text and its HTML twin), the key attached.
func thunderbirdAlternative(m ClientMail, text string) []byte {
	const ab = "------------altTb7Wq"
	htmlTwin := "<html><head><meta http-equiv=\"content-type\" content=\"text/html; charset=UTF-8\"></head><body><pre>" + html.EscapeString(text) + "</pre></body></html>\n"
	part := "Content-Type: multipart/mixed; boundary=\"" + tbMixed + "\"; protected-headers=\"v1\"\n" +
		"From: " + m.From + "\nTo: " + m.To + "\nSubject: 1914 step 2\n\n" +
		"--" + tbMixed + "\nContent-Type: multipart/alternative; boundary=\"" + ab + "\"\n\n" +
		"--" + ab + "\nContent-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n\n" + Flow(text, 72, false) + "\n" +
		"--" + ab + "\nContent-Type: text/html; charset=UTF-8\nContent-Transfer-Encoding: 7bit\n\n" + htmlTwin + "\n--" + ab + "--\n\n" +
		keyAttachment(m, tbMixed) + "--" + tbMixed + "--\n"
	return multipartSigned(m, m.Header(m.From, "1914 step 2", "tb3@players.test")+tbUA, tbSigned, tbPre, part, tbSig)
}

// appleMail is Apple Mail 16 with GPG Suite 2023 (GPGMail): PGP/MIME,
// plain text format=flowed; delsp=yes, quoted-printable.
func appleMail(m ClientMail, text string) []byte {
	const b = "Apple-Mail=_3F0C9A1E-7B2D-4F61-9C55-0D1E2A3B4C5D"
	part := "Content-Transfer-Encoding: quoted-printable\nContent-Type: text/plain;\n\tcharset=utf-8;\n\tdelsp=yes;\n\tformat=flowed\n\n" +
		qpLF([]byte(CRLF(Flow(text, 76, true)))) + "\n"
	sig := "Content-Transfer-Encoding: 7bit\nContent-Disposition: attachment;\n\tfilename=signature.asc\nContent-Type: application/pgp-signature;\n\tname=signature.asc\nContent-Description: Message signed with OpenPGP\n"
	return multipartSigned(m, m.Header(m.From, "1914 step 2", "5E1A2B3C-apple@players.test")+appleX, b, "", part, sig)
}

// outlook is Outlook 2021 with Gpg4win's GpgOL: PGP/MIME over
// multipart/alternative, windows-1252 quoted-printable text with CRLF, an
// HTML twin, an Outlook signature block and a disclaimer.
func outlook(m ClientMail, text string) []byte {
	text = withoutEnd(text) + "\n-- \nAlice Example | Operations\nACME Logistics GmbH\n\n" +
		"This e\u2011mail and any attachments are confidential. If you are not the intended recipient, \u201cplease\u201d delete it.\n"
	cp, err := charmap.Windows1252.NewEncoder().String(strings.ReplaceAll(text, "\u2011", "-"))
	if err != nil {
		panic(fmt.Sprintf("mailtest: an Outlook order file Windows-1252 cannot hold: %v", err))
	}
	const ab = "_000_AM0PR07MB1234ABCDEFamsprd07prod_"
	htmlTwin := "<html><body><p class=MsoNormal>" + strings.ReplaceAll(html.EscapeString(text), "\n", "<o:p></o:p></p>\n<p class=MsoNormal>") + "</p></body></html>"
	part := "Content-Type: multipart/alternative; boundary=\"" + ab + "\"\n\n" +
		"--" + ab + "\nContent-Type: text/plain; charset=\"windows-1252\"\nContent-Transfer-Encoding: quoted-printable\n\n" + qpLF([]byte(CRLF(cp))) + "\n" +
		"--" + ab + "\nContent-Type: text/html; charset=\"utf-8\"\nContent-Transfer-Encoding: quoted-printable\n\n" + qpLF([]byte(htmlTwin)) + "\n--" + ab + "--\n"
	sig := "Content-Type: application/pgp-signature; name=\"signature.asc\"\nContent-Description: OpenPGP digital signature\nContent-Disposition: attachment; filename=\"signature.asc\"\n"
	extra := "X-Mailer: Microsoft Outlook 16.0\nThread-Index: AdmNx0b6o2V1f3JqQ7e4mS9QxYqLrw==\nContent-Language: en-gb\n"
	return multipartSigned(m, m.Header(m.From, "balkan-95 turn 1", "AM0PR07MB1234@eurprd07.prod.outlook.com")+extra, "=-gpgol-sig-7d1c2b", tbPre, part, sig)
}

// gmailHTMLMail is Gmail's rich text mode with Mailvelope sign-only: the
// clear-signed block in an HTML-only body, runs of blanks kept as &nbsp;
// (nbsp) or pasted as plain blanks, which the displayed text collapses.
func gmailHTMLMail(nbsp bool, id string) func(ClientMail, string) []byte {
	return func(m ClientMail, text string) []byte {
		cs := string(m.Signer.ClearSign([]byte(text)))
		return EML(m.Header(m.From, "orders", id)+"MIME-Version: 1.0\n"+gmHTML, qpLF([]byte(GmailHTML(cs, nbsp))))
	}
}

// gmailPlain is Gmail's plain text mode (hard-wrapped at 78, no
// format=flowed) with Mailvelope sign-only.
func gmailPlain(id string) func(ClientMail, string) []byte {
	return func(m ClientMail, text string) []byte {
		cs := string(m.Signer.ClearSign([]byte(text)))
		return EML(m.Header(m.From, "orders", id)+gmText, HardWrap(cs, 78))
	}
}

// k9 is K-9 Mail 6.8 with OpenKeychain: PGP/MIME, quoted-printable plain
// text.
func k9(m ClientMail, text string) []byte {
	part := "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n" + qpLF([]byte(CRLF(text))) + "\n"
	sig := "Content-Type: application/pgp-signature; name=\"signature.asc\"\nContent-Transfer-Encoding: 7bit\n"
	return multipartSigned(m, m.Header(m.From, "1914", "k9-1@players.test")+k9UA, "----K9MIMESIG7F2A", "", part, sig)
}

// fairEmail is FairEmail 1.2 with OpenKeychain, sign inline, "Send plain
// text as format=flowed" on: the phone's flowed text, 8bit.
func fairEmail(m ClientMail, text string) []byte {
	cs := string(m.Signer.ClearSign([]byte(text)))
	return EML(m.Header(m.From, "orders", "fe-1@players.test")+"MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 8bit\n",
		Flow(cs, 76, false))
}

// proton is Proton Mail web: PGP/MIME with the sender's public key
// attached.
func proton(m ClientMail, text string) []byte {
	const mb = "---------------------0a1b2c3d4e5f"
	fpr := m.Signer.Fingerprint
	keyName := "publickey - " + address(m.From) + " - 0x" + fpr[len(fpr)-8:] + ".asc"
	part := "Content-Type: multipart/mixed;boundary=" + mb + "\n\n" +
		"--" + mb + "\nContent-Type: text/plain;charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n" + qpLF([]byte(CRLF(text))) + "\n" +
		"--" + mb + "\nContent-Type: application/pgp-keys; filename=\"" + keyName + "\"; name=\"" + keyName + "\"\nContent-Transfer-Encoding: base64\nContent-Disposition: attachment; filename=\"" + keyName + "\"; name=\"" + keyName + "\"\n\n" +
		Base64(m.Signer.PublicKey, 76) + "--" + mb + "--\n"
	sig := "Content-Type: application/pgp-signature; name=\"signature.asc\"\nContent-Description: OpenPGP digital signature\nContent-Disposition: attachment; filename=\"signature.asc\"\n"
	return multipartSigned(m, m.Header(m.From, "orders", "AbC123xyz@proton.me")+"X-Pm-Origin: internal\nX-Pm-Content-Encryption: end-to-end\n", "---------------------sig9f8e7d", tbPre, part, sig)
}

// muttInline is mutt 2.2, traditional inline (pgp_autoinline): the whole
// body is signed, the ~/.signature too, its "-- " dash-escaped as "- -- ".
func muttInline(m ClientMail, text string) []byte {
	body := string(m.Signer.ClearSign([]byte(withoutEnd(text) + "\n-- \nAlice, who plays the Habsburgs\n")))
	return EML(m.Header(m.From, "1914", "mutt-1@players.test")+muttUA+"MIME-Version: 1.0\nContent-Type: text/plain; charset=us-ascii\nContent-Disposition: inline\n", body)
}

// muttPGPMIME is mutt 2.2 with crypt_autosign: PGP/MIME, the lines as
// written.
func muttPGPMIME(m ClientMail, text string) []byte {
	part := "Content-Type: text/plain; charset=us-ascii\nContent-Disposition: inline\n\n" + text
	sig := "Content-Type: application/pgp-signature; name=\"signature.asc\"\nContent-Description: signature\n"
	return multipartSigned(m, m.Header(m.From, "orders", "mutt-2@players.test")+muttUA, "kRvGcZ3QxYlq7Hn2", "", part, sig)
}

// sshInline is ssh-keygen -Y sign's output pasted below the file into a
// plain text mail (mutt, no wrapping).
func sshInline(m ClientMail, text string) []byte {
	sig := m.Signer.SSHSign([]byte(text))
	return EML(m.Header(m.SSHFrom, "orders", "ssh-1@players.test")+"User-Agent: Mutt/2.2.12\n"+PlainHeader, text+string(sig))
}

// sshDetached is orders.txt and orders.txt.sig attached side by side.
func sshDetached(m ClientMail, text string) []byte {
	sig := m.Signer.SSHSign([]byte(text))
	return Detached(m.Header(m.SSHFrom, "orders", "ssh-2@players.test"), "Orders attached.\n", []byte(text), "orders.txt.sig", "application/octet-stream", "7bit", sig)
}

// replyBottomThunderbird is Thunderbird's reply: the quoted report above,
// the orders below (bottom-posting), PGP/MIME, flowed.
func replyBottomThunderbird(m ClientMail, text string) []byte {
	body := "On 03/03/2025 19:00, Umpire wrote:\n" + quoted(m.Report) + "\n" + text
	part := "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n\n" + Flow(body, 72, false)
	return multipartSigned(m, m.Header(m.From, "Re: Report: balkan-95 step 2", "tb-re@players.test")+tbUA+"In-Reply-To: <umpire-out-2@umpire.test>\nReferences: <umpire-out-2@umpire.test>\n",
		"------------sigRe9", tbPre, part, tbSig)
}

// replyTopK9 is K-9's reply: the orders above (top-posting, no end line),
// the attribution and the quoted report below, PGP/MIME.
func replyTopK9(m ClientMail, text string) []byte {
	body := withoutEnd(text) + "\nOn March 3, 2025 7:00:00 PM UTC, " + m.To + " wrote:\n" + quoted(m.Report)
	part := "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n" + qpLF([]byte(CRLF(body))) + "\n"
	return multipartSigned(m, m.Header(m.From, "Re: Report: balkan-95 step 2", "k9-re@players.test")+k9UA+"In-Reply-To: <umpire-out-2@umpire.test>\n",
		"----K9MIMESIGRE", "", part, "Content-Type: application/pgp-signature; name=\"signature.asc\"\n")
}

// replyTopGmail is Gmail's reply in plain text mode, top-posting:
// clear-signed orders above the quoted report.
func replyTopGmail(m ClientMail, text string) []byte {
	cs := string(m.Signer.ClearSign([]byte(text)))
	body := cs + "\nOn Mon, Mar 3, 2025 at 7:00 PM " + m.To + " wrote:\n\n" + quoted(m.Report)
	return EML(m.Header(m.From, "Re: Report: balkan-95 step 2", "CAJx7rK0Vbq7@mail.gmail.com")+"In-Reply-To: <umpire-out-2@umpire.test>\n"+gmText, HardWrap(body, 78))
}
