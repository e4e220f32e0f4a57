package message

import (
	"strings"
	"testing"
)

// TestUserAgent: the mail program a message names, from User-Agent or
// else X-Mailer, decoded and made safe to quote; nothing when it names
// none.
func TestUserAgent(t *testing.T) {
	for _, c := range []struct{ name, header, want string }{
		{"thunderbird", "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0\r\n",
			"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0"},
		{"x-mailer only", "X-Mailer: Apple Mail (2.3826.400.131.1.6)\r\n", "Apple Mail (2.3826.400.131.1.6)"},
		{"user-agent first", "X-Mailer: Microsoft Outlook 16.0\r\nUser-Agent: Mutt/2.2.12 (2023-09-09)\r\n", "Mutt/2.2.12 (2023-09-09)"},
		{"folded", "User-Agent: NeoMutt/20231103\r\n  (Debian)\r\n", "NeoMutt/20231103 (Debian)"},
		{"encoded word", "X-Mailer: =?UTF-8?Q?Pers=C3=B6nlich?=\r\n", "Persönlich"},
		{"control characters", "User-Agent: K-9\x07Mail\r\n", "K-9 Mail"},
		{"none", "", ""},
		{"long", "User-Agent: " + strings.Repeat("x", 5000) + "\r\n", strings.Repeat("x", maxUserAgent)},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := "From: a@players.test\r\nMessage-ID: <ua@players.test>\r\n" + c.header + "Content-Type: text/plain\r\n\r\nhelp\r\n"
			m, err := Parse([]byte(raw), DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if m.UserAgent != c.want {
				t.Errorf("UserAgent = %q, want %q", m.UserAgent, c.want)
			}
		})
	}
}
