//go:build integration

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// oauthSections are the [imap] and [smtp] sections of a judge that logs
// in to st's Dovecot (IMAP, and its submission server) as
// daemontest.JudgeAddress by OAuth 2.0, with access tokens from tokenURL;
// the client secret and the refresh token are in the files client.secret
// and refresh.token beside the configuration. imapExtra is more of
// [imap]'s settings.
func oauthSections(st *mailtest.OAuthStack, tokenURL, imapExtra string) string {
	section := func(name, addr, extra string) string {
		return "[" + name + "]\naddress = \"" + addr + "\"\nsecurity = \"none\"\nusername = \"" + daemontest.JudgeAddress + "\"\n" +
			"auth = \"oauth2\"\ntoken_url = \"" + tokenURL + "\"\nclient_id = \"" + mailtest.OAuthClientID + "\"\n" +
			"client_secret_file = \"client.secret\"\nrefresh_token_file = \"refresh.token\"\n" + extra
	}
	return section("imap", st.IMAPAddr(), imapExtra) + section("smtp", st.SubmissionAddr(), "")
}

// TestServeOAuth: umpire serve, as the operator runs it, logs in to the
// real Dovecot by OAuth 2.0 for IMAP and SMTP (its oauth2 passdb
// introspecting the tokens at the test's authorization server, which
// grants tokens that live 4 s and rotates the refresh token with each
// grant). Alice's mail, signed with the real gpg, gets its receipt through
// Dovecot's submission server; then every token granted until then
// expires, and Bob's mail, signed with the real ssh-keygen, is read and
// answered with refreshed tokens. The log names each refresh and never
// holds a token, no login is refused, the refresh token file holds the
// rotated token with mode 0600, and SIGTERM stops serve with status 0.
func TestServeOAuth(t *testing.T) {
	t.Parallel()
	const life = 4 * time.Second
	auth := mailtest.NewAuthServer(t)
	auth.SetLifetime(life)
	auth.SetRotate(true)
	st := mailtest.RealOAuth(t, auth)
	tb := newTable(t, st) // the judge's account keeps a password, for the test's own looks
	rtFile := filepath.Join(tb.dir, "refresh.token")
	first := auth.RefreshToken(daemontest.JudgeAddress, mailtest.OAuthAudience)
	// As the operator may have left it: readable by the group.
	if err := os.WriteFile(rtFile, []byte(first+"\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tb.dir, "client.secret"), []byte(mailtest.OAuthClientSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	conf := "store = \"umpire.db\"\naddress = \"" + daemontest.JudgeAddress + "\"\n" + oauthSections(st, auth.TokenURL(), "poll = \"200ms\"\n")
	if err := os.WriteFile(tb.config, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}

	logPath := filepath.Join(tb.dir, "serve.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	serveLog := func() string { b, _ := os.ReadFile(logPath); return string(b) }
	cmd := exec.Command(daemontest.UmpireBinary(t), "serve", "--config", tb.config)
	cmd.Dir = tb.dir
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("serve's log:\n%s", serveLog())
		}
	}()

	st.Submit(t, "alice@players.test", []string{daemontest.JudgeAddress},
		tb.clearsigned("a1@players.test", daemontest.Orders("NATO", "move US-82AB 1609 1610 1711")))
	alice := st.WaitFor(t, "alice@players.test", "pw", "INBOX", 1, 60*time.Second)[0]
	if !bytes.Contains(alice, []byte("ACCEPTED: orders of seat NATO for step 7 of club-kosovo-3")) {
		t.Errorf("alice's receipt:\n%s", alice)
	}
	// Every token granted so far ends within life of now: wait until they
	// have, and then some, so that what follows logs in by refreshed
	// tokens only (Dovecot asks the authorization server at each login,
	// which says an expired token is not active).
	grantsBefore, _, _ := auth.Counts()
	time.Sleep(life + time.Second)

	st.Submit(t, "bob@players.test", []string{daemontest.JudgeAddress},
		tb.sshAttached("b1@players.test", daemontest.Orders("Serb", "move SRB-252 1810 1709")))
	bob := st.WaitFor(t, "bob@players.test", "pw", "INBOX", 1, 60*time.Second)[0]
	if !bytes.Contains(bob, []byte("ACCEPTED: orders of seat Serb for step 7 of club-kosovo-3")) {
		t.Errorf("bob's receipt:\n%s", bob)
	}
	if grants, refused, _ := auth.Counts(); grants <= grantsBefore || refused != 0 {
		t.Errorf("%d tokens granted before the first ones expired, %d in all, %d refreshes refused", grantsBefore, grants, refused)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err = <-done:
		stopped = true
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not stop within a minute of SIGTERM")
	}
	log := serveLog()
	if err != nil {
		t.Errorf("serve stopped by SIGTERM: %v, want exit status 0", err)
	}
	if !strings.Contains(log, "msg=stopped") {
		t.Error("serve stopped without logging that it stopped")
	}

	// What the operator reads: each refresh, with the file the rotated
	// refresh token went to; no login refused, no token.
	grants, _, _ := auth.Counts()
	refreshed := strings.Count(log, `msg="oauth2 access token refreshed" token_url=`+auth.TokenURL())
	if refreshed != grants || refreshed < 2 || strings.Count(log, "refresh_token_rotated_to="+rtFile) != refreshed {
		t.Errorf("the log names %d refreshes (%d with the rotated refresh token's file), the endpoint granted %d",
			refreshed, strings.Count(log, "refresh_token_rotated_to="+rtFile), grants)
	}
	for _, bad := range []string{"refused the OAuth 2.0 access token", "level=ERROR", "reconnecting"} {
		if strings.Contains(log, bad) {
			t.Errorf("the log says %q", bad)
		}
	}
	if strings.Contains(st.DovecotLog(), "oauth2 failed") {
		t.Error("Dovecot refused a token")
	}
	for _, tok := range append(auth.Tokens(), mailtest.OAuthClientSecret) {
		if strings.Contains(log, tok) {
			t.Errorf("the log holds the token or secret %.6s…", tok)
		}
	}

	// The refresh token file holds the last rotated token, 0600: the judge
	// logs in by it after a restart (the earlier ones are revoked).
	b, err := os.ReadFile(rtFile)
	fi, serr := os.Stat(rtFile)
	if err != nil || serr != nil || strings.TrimSpace(string(b)) == first || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the refresh token file after rotations: still the first token %v, mode %v, %v %v",
			strings.TrimSpace(string(b)) == first, fi.Mode().Perm(), err, serr)
	}
	if out, err := exec.Command(daemontest.UmpireBinary(t), "check", "--config", tb.config).CombinedOutput(); err != nil {
		t.Errorf("umpire check after serve stopped: %v\n%s", err, out)
	}
}
