package message

import (
	"strings"
	"testing"
)

// BenchmarkParse reads order mails in the charsets and forms players send:
// Outlook's Windows-1252 with curly quotes, the same bytes labelled
// ISO-8859-1, KOI8-R (converted through go-message's charset package) and
// an HTML-only mail (rendered to text for the reply). Run it with
//
//	go test -run '^$' -bench Parse ./mail/message
func BenchmarkParse(b *testing.B) {
	header := func(ct string) string {
		return "From: Olga <olga@players.test>\r\nTo: judge@umpire.test\r\nSubject: orders\r\n" +
			"Message-ID: <b1@players.test>\r\nMIME-Version: 1.0\r\nContent-Type: " + ct + "\r\n\r\n"
	}
	latin := strings.Repeat("attack 1708 from 1607 1709 with US-1AD US-3ID \x93now\x94 \x96 caf\xe9\r\n", 40)
	koi8 := strings.Repeat("\xf0\xd2\xc9\xcb\xc1\xda: attack 1708 from 1607 1709 with US-1AD US-3ID\r\n", 40)
	html := "<html><head><title>orders</title><style>p{margin:0}</style></head><body>" +
		strings.Repeat("<p class=\"order\">attack 1708 from 1607 &amp; 1709 with <b>US-1AD</b>&nbsp;US-3ID</p>\r\n", 40) +
		"</body></html>\r\n"
	for _, c := range []struct{ name, raw string }{
		{"windows-1252", header("text/plain; charset=windows-1252") + latin},
		{"iso-8859-1", header("text/plain; charset=iso-8859-1") + latin},
		{"koi8-r", header("text/plain; charset=koi8-r") + koi8},
		{"html-only", header("text/html; charset=utf-8") + html},
	} {
		b.Run(c.name, func(b *testing.B) {
			raw := []byte(c.raw)
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := Parse(raw, DefaultLimits()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
