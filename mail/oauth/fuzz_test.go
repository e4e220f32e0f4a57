package oauth_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/oauth"
)

// FuzzRefusal: any challenge a server sends after refusing a token is
// read without failing, and what it says carries no control character into
// a log line.
func FuzzRefusal(f *testing.F) {
	f.Add([]byte(`{"status":"invalid_token","scope":"mail"}`))
	f.Add([]byte(`{"status":"400","schemes":"Bearer","scope":"https://mail.google.com/"}`))
	f.Add([]byte("{\"status\":\"x\\n\\u0000y\"}"))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := oauth.ParseRefusal(b).String()
		if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Errorf("%q", s)
		}
	})
}
