package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigOAuth: each mistake in an [imap] section with auth = "oauth2"
// is refused when the configuration is read, naming the setting.
func TestConfigOAuth(t *testing.T) {
	good := "auth = \"oauth2\"\ntoken_url = \"https://oauth2.googleapis.com/token\"\nclient_id = \"id\"\nclient_secret_file = \"c\"\nrefresh_token_file = \"r\"\nusername = \"judge@example.org\"\n"
	for _, c := range []struct{ name, section, want string }{
		{"good", good, ""},
		{"loopback http", strings.Replace(good, "https://oauth2.googleapis.com/token", "http://127.0.0.1:8080/token", 1), ""},
		{"unknown auth", "auth = \"kerberos\"\n", `imap.auth "kerberos" is neither "password" nor "oauth2"`},
		{"missing", "auth = \"oauth2\"\nclient_id = \"id\"\n", `auth = "oauth2" needs imap.token_url, imap.refresh_token_file, imap.username`},
		{"with a password", good + "password_file = \"p\"\n", "remove password and password_file"},
		{"plain http", strings.Replace(good, "https://", "http://", 1), "must be https://"},
		{"mechanism", good + "mechanism = \"plain\"\n", `imap.mechanism "plain" is neither "xoauth2" nor "oauthbearer"`},
		{"oauth settings without oauth2", "token_url = \"https://x/token\"\n", `go with auth = "oauth2"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "umpire.toml")
			os.WriteFile(path, []byte("[imap]\naddress = \"imap.example.org:993\"\n"+c.section), 0o600)
			_, err := LoadConfig(path)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}
