package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/oauth"
)

// syncBuffer is standard output read by the test while the command writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMailAuthorize: 'umpire mail authorize' on a configuration with
// auth = "oauth2" tells the operator where to go and which code to type
// (the device flow), and when the operator has consented, the refresh
// token is in the section's refresh_token_file, mode 0600, and grants
// access tokens; the output holds no token.
func TestMailAuthorize(t *testing.T) {
	auth := mailtest.NewAuthServer(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "client.secret"), []byte(mailtest.OAuthClientSecret+"\n"), 0o600)
	config := filepath.Join(dir, "umpire.toml")
	os.WriteFile(config, []byte(`address = "judge@umpire.test"
[imap]
address = "127.0.0.1:993"
username = "judge@umpire.test"
auth = "oauth2"
token_url = "`+auth.TokenURL()+`"
client_id = "`+mailtest.OAuthClientID+`"
client_secret_file = "client.secret"
refresh_token_file = "refresh.token"
`), 0o600)
	out := &syncBuffer{}
	go func() {
		// The operator: reads the code and types it on the provider's page.
		re := regexp.MustCompile(`enter the code (\w+), then sign in as judge@umpire.test`)
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if m := re.FindStringSubmatch(out.String()); m != nil {
				auth.ApproveDevice(m[1], "judge@umpire.test")
				return
			}
		}
	}()
	code, _, errOut := runWith(t, func(m *Main) { m.Stdout = out }, "mail", "authorize", "--config", config, "--flow", "device", "--device-url", auth.DeviceURL())
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	file := filepath.Join(dir, "refresh.token")
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 || !strings.Contains(out.String(), "The refresh token is in "+file+" (mode 0600)") {
		t.Fatalf("the refresh token file: %v %v\n%s", err, fi, out)
	}
	src, err := oauth.NewSource(oauth.Config{TokenURL: auth.TokenURL(), ClientID: mailtest.OAuthClientID, ClientSecret: mailtest.OAuthClientSecret, RefreshTokenFile: file})
	if err == nil {
		_, err = src.Token(t.Context())
	}
	if err != nil {
		t.Errorf("the refresh token written: %v", err)
	}
	for _, tok := range auth.Tokens() {
		if strings.Contains(out.String()+errOut, tok) {
			t.Error("authorize printed a token")
		}
	}
	// Without auth = "oauth2" it says what to write first.
	code, _, errOut = run(t, "mail", "authorize", "--config", config, "--section", "smtp")
	if code != exitUsage || !strings.Contains(errOut, `[smtp] has no auth = "oauth2"`) {
		t.Errorf("the smtp section without oauth2: exit %d: %s", code, errOut)
	}
}
