package intake

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
)

const clientOrders = "game: club-kosovo-3\r\nstep: 7\r\nseat: NATO\r\nmove US-82AB 1609 1610 1711\r\nend\r\n"

// clientMail is an unsigned order file in the header and shape a mail
// program gives it: header lines (CRLF-ended), then the body.
func clientMail(header, body string) []byte {
	return []byte("From: Alice <alice@players.test>\r\nTo: judge@umpire.test\r\nSubject: orders\r\n" +
		"Date: Mon, 3 Mar 2025 19:30:00 +0100\r\nMIME-Version: 1.0\r\n" + header + "\r\n" + body)
}

// alternative is a multipart/alternative body with boundary b: the orders
// as text and as HTML.
func alternative(b string) string {
	return "--" + b + "\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n\r\n" + clientOrders +
		"--" + b + "\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n\r\n<div dir=\"ltr\">" +
		strings.ReplaceAll(clientOrders, "\r\n", "<br>") + "</div>\r\n--" + b + "--\r\n"
}

// TestMailClient: the section of docs/signing.md each mail program's
// message is sent to, from its User-Agent or X-Mailer, else from the
// marks it leaves; "" (the page's list) when nothing tells.
func TestMailClient(t *testing.T) {
	flowed := "Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n"
	for _, c := range []struct{ name, header, body, want string }{
		{"Thunderbird 128 on Linux", "Message-ID: <6a1f0c2e-8f3b-4c1e-9a77-2b1f0d9e4c11@players.test>\r\n" +
			"User-Agent: Mozilla Thunderbird\r\nContent-Language: en-US\r\n" + flowed, clientOrders, "thunderbird"},
		{"Thunderbird 115 on Windows", "Message-ID: <0b7e@players.test>\r\nUser-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:115.0) Gecko/20100101\r\n Thunderbird/115.16.1\r\n" + flowed, clientOrders, "thunderbird"},
		{"Betterbird", "Message-ID: <bb@players.test>\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Betterbird/128.5.0esr-bb17\r\n" + flowed, clientOrders, "thunderbird"},
		{"Thunderbird for Android", "Message-ID: <d5b2@players.test>\r\nUser-Agent: Thunderbird for Android\r\n" + flowed, clientOrders, "android"},
		{"K-9 Mail", "Message-ID: <k9@players.test>\r\nUser-Agent: K-9 Mail for Android\r\n" + flowed, clientOrders, "android"},
		{"Apple Mail on macOS", "Message-ID: <3F1C9A2E-77D4-4B8E-9C31-5A0E2D6F8B14@players.test>\r\nX-Mailer: Apple Mail (2.3826.400.131.1.6)\r\n" +
			"Content-Type: text/plain; charset=us-ascii; format=flowed; delsp=yes\r\nContent-Transfer-Encoding: quoted-printable\r\n", clientOrders, "apple-mail"},
		{"Mail on an iPhone", "Message-ID: <A1B2@players.test>\r\nX-Mailer: iPhone Mail (22B91)\r\nContent-Type: text/plain; charset=us-ascii\r\n", clientOrders, "apple-mail"},
		{"Apple Mail without X-Mailer", "Message-ID: <C0FFEE@players.test>\r\nContent-Type: multipart/alternative;\r\n\tboundary=\"Apple-Mail=_8E2C1F3A-0B6D-4E55-A3C9-7D1E2F4A6B8C\"\r\n",
			alternative("Apple-Mail=_8E2C1F3A-0B6D-4E55-A3C9-7D1E2F4A6B8C"), "apple-mail"},
		{"Outlook on Windows", "Message-ID: <000001db8c1e$2f4a5b60$8ddf1220$@players.test>\r\nX-Mailer: Microsoft Outlook 16.0\r\nThread-Index: AduMHi9KW2CN3xIgRy2Jm4z5Qz5Q1A==\r\n" +
			"Content-Language: de\r\nContent-Type: multipart/alternative;\r\n\tboundary=\"----=_NextPart_000_0001_01DB8C26.91A6C360\"\r\n",
			alternative("----=_NextPart_000_0001_01DB8C26.91A6C360"), "outlook"},
		{"Outlook for Mac", "Message-ID: <5E4D@players.test>\r\nUser-Agent: Microsoft-MacOutlook/16.89.24091630\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n", clientOrders, "outlook"},
		{"Outlook through Exchange Online", "Message-ID: <AM0PR07MB1234ABCD5678EF90@AM0PR07MB1234.eurprd07.prod.outlook.com>\r\n" +
			"Thread-Topic: orders\r\nThread-Index: AQHbjB4vSltgjd8SIEctiZuM+UM+UA==\r\nContent-Type: text/plain; charset=\"us-ascii\"\r\n", clientOrders, "outlook"},
		{"Gmail's web page", "Message-ID: <CAJx7p3Ukq9T1nV0hZyQ4m3Zr8bN6s2WcD5eF7gH8iJ0kL1mN2o@mail.gmail.com>\r\n" +
			"Content-Type: multipart/alternative; boundary=\"0000000000004b7e2c0629f1a3d5\"\r\n", alternative("0000000000004b7e2c0629f1a3d5"), "gmail"},
		{"Gmail by another address", "Message-ID: <own-id@players.test>\r\nContent-Type: multipart/alternative; boundary=\"000000000000a1b2c3d4e5f6a7b8\"\r\n",
			alternative("000000000000a1b2c3d4e5f6a7b8"), "gmail"},
		{"Proton Mail", "Message-ID: <Xk3uJ2mQ9pR1sT4vW7yZ0aB3cD6eF9gH2iJ5kL8mN1o=@proton.me>\r\nX-Pm-Message-Id: <Xk3u@proton.me>\r\nX-Pm-Origin: internal\r\n" +
			"X-Pm-Content-Encryption: end-to-end\r\nContent-Type: text/plain; charset=utf-8\r\n", clientOrders, "proton-mail"},
		{"Proton Mail, older address", "Message-ID: <abc=@protonmail.com>\r\nContent-Type: text/plain; charset=utf-8\r\n", clientOrders, "proton-mail"},
		{"mutt", "Message-ID: <Z8XnC4hBq2rT5vLw@players.test>\r\nUser-Agent: Mutt/2.2.13 (2024-03-09)\r\nContent-Type: text/plain; charset=us-ascii\r\nContent-Disposition: inline\r\n", clientOrders, "mutt"},
		{"NeoMutt", "Message-ID: <nm@players.test>\r\nUser-Agent: NeoMutt/20240425\r\nContent-Type: text/plain; charset=us-ascii\r\n", clientOrders, "mutt"},
		{"FairEmail names nothing", "Message-ID: <4b9d2c1e-7a3f-4e8b-9c1d-2e5f6a7b8c9d@players.test>\r\n" + flowed, clientOrders, ""},
		{"a script", "Message-ID: <script-1@players.test>\r\nContent-Type: text/plain\r\n", clientOrders, ""},
		{"a program of its own", "Message-ID: <x@mail.gmail.com>\r\nUser-Agent: Claws Mail 4.3.0 (GTK 3.24.43; x86_64-pc-linux-gnu)\r\nContent-Type: text/plain\r\n", clientOrders, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg, err := message.Parse(clientMail(c.header, c.body), message.DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			got := mailClient(msg)
			if got != c.want {
				t.Errorf("mailClient = %q, want %q (User-Agent %q)", got, c.want, msg.UserAgent)
			}
			if got != "" && !slices.ContainsFunc(adjudicator.MailClients(), func(m adjudicator.MailClient) bool { return m.Section == got }) {
				t.Errorf("%q is no section of %s", got, adjudicator.SigningPage)
			}
		})
	}
}

// TestEnvelopeNamesClient: the envelope of an unsigned order file written
// by Thunderbird carries the guess to the adjudicator, and a signed one's
// too, so that every answer about signing may use it.
func TestEnvelopeNamesClient(t *testing.T) {
	h := New(Config{Address: "judge@umpire.test"})
	raw := clientMail("Message-ID: <tb@players.test>\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0\r\n"+
		"Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n", clientOrders)
	env, _ := h.envelope(mail.Message{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: raw, Size: int64(len(raw))}, &signature.Keyring{}, time.Now())
	if env.Signed != nil || env.Client != "thunderbird" {
		t.Errorf("signed %v, client %q; want unsigned from thunderbird", env.Signed != nil, env.Client)
	}
}

// TestClientsGuessed: each message of the client corpus
// (mail/testdata/clients) is taken for the program that wrote it, so the
// answers name that program's section of docs/signing.md and its settings.
// FairEmail leaves no mark of its own and gets the page's list.
func TestClientsGuessed(t *testing.T) {
	want := map[string]string{"thunderbird": "thunderbird", "apple": "apple-mail", "outlook": "outlook", "gmail": "gmail",
		"k9": "android", "fairemail": "", "proton": "proton-mail", "mutt": "mutt"}
	n := 0
	for _, c := range mailtest.Clients(t) {
		section, ok := want[strings.SplitN(c.Name, "-", 2)[0]]
		if !ok {
			continue
		}
		n++
		msg, err := message.Parse(c.Raw, message.DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if got := mailClient(msg); got != section {
			t.Errorf("%s is taken for %q, want %q", c.Name, got, section)
		}
	}
	if n < 10 {
		t.Errorf("only %d corpus messages are named after their client", n)
	}
}
