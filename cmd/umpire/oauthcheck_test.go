//go:build integration

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// TestCheckOAuth: umpire check on a configuration that logs in to IMAP and
// SMTP with OAuth 2.0 (auth = "oauth2"), against the real Dovecot taking
// tokens from an authorization server the test runs: it passes, and each
// failure of the token (revoked, meant for another server, a client the
// provider does not know, an endpoint that is not there) gets its FAIL line
// and what to do.
func TestCheckOAuth(t *testing.T) {
	auth := mailtest.NewAuthServer(t)
	st := mailtest.RealOAuth(t, auth)
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("client.secret", mailtest.OAuthClientSecret+"\n")
	grant := func(audience string) {
		t.Helper()
		write("refresh.token", auth.RefreshToken(daemontest.JudgeAddress, audience)+"\n")
	}
	config := func(tokenURL string) string {
		return "store = \"umpire.db\"\naddress = \"" + daemontest.JudgeAddress + "\"\n" + oauthSections(st, tokenURL, "")
	}
	path := filepath.Join(dir, "umpire.toml")
	check := func(config string) (int, string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := run(t, "check", "--config", path)
		return code, out + errOut
	}

	grant(mailtest.OAuthAudience)
	code, out := check(config(auth.TokenURL()))
	if code != exitOK {
		t.Fatalf("by OAuth 2.0: exit %d:\n%s", code, out)
	}
	for _, want := range []string{
		"ok   imap.refresh_token_file " + filepath.Join(dir, "refresh.token") + " can be read",
		"ok   imap " + st.IMAPAddr() + ": logs in as " + daemontest.JudgeAddress + " with an OAuth 2.0 access token from " + auth.TokenURL(),
		"ok   smtp " + st.SubmissionAddr() + ": logs in as " + daemontest.JudgeAddress + " with an OAuth 2.0 access token",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	if g, _, _ := auth.Counts(); g != 1 {
		t.Errorf("%d tokens granted for one check: IMAP and SMTP share the refresh token file's source", g)
	}

	for _, c := range []struct {
		name   string
		setup  func() string // the configuration
		fail   string        // the FAIL line has it
		hint   string        // the line under it has it
		failed int
	}{
		{"revoked", func() string {
			grant(mailtest.OAuthAudience)
			auth.RevokeAll(daemontest.JudgeAddress)
			return config(auth.TokenURL())
		},
			"login as " + daemontest.JudgeAddress + " with OAuth 2.0 failed: oauth2: refreshing the access token at " + auth.TokenURL() + ": invalid_grant",
			"imap.refresh_token_file was revoked or has expired", 2},
		{"wrong audience", func() string { grant("another-api"); return config(auth.TokenURL()) },
			"the server refused the OAuth 2.0 access token (expired, revoked, or not meant for this server) (SASL OAUTHBEARER, status invalid_token",
			"must be granted to imap.username for the mail scopes", 2},
		{"unknown client", func() string {
			grant(mailtest.OAuthAudience)
			write("client.secret", "not-the-secret\n")
			return config(auth.TokenURL())
		}, "invalid_client", "check imap.client_id and imap.client_secret_file", 2},
		{"no endpoint", func() string {
			write("client.secret", mailtest.OAuthClientSecret+"\n")
			return config("http://127.0.0.1:1/token")
		}, "connection refused", "the token endpoint cannot be reached: check imap.token_url", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := check(c.setup())
			if code != exitFail || !strings.Contains(out, "FAIL imap "+st.IMAPAddr()+": ") || !strings.Contains(out, c.fail) || !strings.Contains(out, c.hint) {
				t.Errorf("exit %d, want %d, a FAIL line with %q and the hint %q:\n%s", code, exitFail, c.fail, c.hint, out)
			}
			if n := strings.Count(out, "FAIL "); n != c.failed {
				t.Errorf("%d FAIL lines, want %d (IMAP and SMTP):\n%s", n, c.failed, out)
			}
			for _, tok := range auth.Tokens() {
				if strings.Contains(out, tok) {
					t.Errorf("check printed a token")
				}
			}
		})
	}
	// A refresh token file missing: its own line, and no login tried.
	os.Remove(filepath.Join(dir, "refresh.token"))
	if code, out := check(config(auth.TokenURL())); code != exitFail || !strings.Contains(out, "FAIL imap.refresh_token_file") ||
		!strings.Contains(out, "skip imap: not tried") {
		t.Errorf("no refresh token file: exit %d:\n%s", code, out)
	}
}
