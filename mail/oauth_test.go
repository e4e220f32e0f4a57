//go:build integration

package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/oauth"
)

// oauthJudge is the judge's mail account logged in to by token: its
// refresh token file, the source it gives, and the servers.
type oauthJudge struct {
	st   *mailtest.OAuthStack
	auth *mailtest.AuthServer
	file string
}

// source is a token source over the judge's refresh token file, refreshing
// early before expiry.
func (j *oauthJudge) source(t *testing.T, early time.Duration) *oauth.Source {
	t.Helper()
	src, err := oauth.NewSource(oauth.Config{TokenURL: j.auth.TokenURL(), ClientID: mailtest.OAuthClientID,
		ClientSecret: mailtest.OAuthClientSecret, RefreshTokenFile: j.file, Early: early})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// grant writes a new refresh token of the judge's, for audience, to its
// file.
func (j *oauthJudge) grant(t *testing.T, audience string) {
	t.Helper()
	if err := oauth.WriteRefreshToken(j.file, j.auth.RefreshToken(judgeAddr, audience)); err != nil {
		t.Fatal(err)
	}
}

func (j *oauthJudge) imap(src *oauth.Source, mech string) Server {
	return Server{Address: j.st.IMAPAddr(), Security: Insecure, Username: judgeAddr, OAuth: src, Mechanism: mech, Timeout: 5 * time.Second}
}

func (j *oauthJudge) smtp(src *oauth.Source, mech string) Server {
	return Server{Address: j.st.SubmissionAddr(), Security: Insecure, Username: judgeAddr, OAuth: src, Mechanism: mech, Timeout: 5 * time.Second}
}

// TestOAuthRealDovecot logs the judge in to the real Dovecot, configured
// for OAuth 2.0 (its oauth2 passdb introspecting tokens at an
// authorization server the test runs), over IMAP and over Dovecot's
// submission server: with XOAUTH2 and OAUTHBEARER, through a refresh in
// the middle of an IMAP session, and refused, with a clear log line and
// few attempts, when its token has expired, was revoked or was meant for
// another server.
func TestOAuthRealDovecot(t *testing.T) {
	auth := mailtest.NewAuthServer(t)
	st := mailtest.RealOAuth(t, auth)
	st.AddUser(t, judgeAddr, judgePass) // the test's own looks, by password
	j := &oauthJudge{st: st, auth: auth, file: filepath.Join(t.TempDir(), "refresh.token")}
	j.grant(t, mailtest.OAuthAudience)
	mailNo := 0

	for _, mech := range []string{"xoauth2", "oauthbearer", ""} {
		t.Run("login "+mech, func(t *testing.T) {
			src := j.source(t, time.Minute)
			mailNo++
			deliver(t, st, mailNo, 1, "orders")
			h := newMemHandler()
			in, err := NewInbox(InboxConfig{Server: j.imap(src, mech)}, h, h)
			if err != nil {
				t.Fatal(err)
			}
			err = in.Once(context.Background())
			if _, ok := h.consumed[fmt.Sprintf("<m%d@players.test>", mailNo)]; err != nil || !ok {
				t.Fatalf("imap by %q: %v, the order mail handled: %v", mech, err, ok)
			}
			// A mail to the judge itself, submitted by token: it arrives.
			before := st.Count(t, judgeAddr, judgePass, "INBOX")
			raw := fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nMessage-ID: <sub-%s@umpire.test>\r\nSubject: by token\r\n\r\nsent by %q\r\n", judgeAddr, judgeAddr, mech, mech)
			if err := SendTest(context.Background(), OutboxConfig{Server: j.smtp(src, mech)}, judgeAddr, judgeAddr, raw); err != nil {
				t.Fatalf("smtp by %q: %v", mech, err)
			}
			st.WaitFor(t, judgeAddr, judgePass, "INBOX", before+1, 20*time.Second)
			if g, _, _ := auth.Counts(); g == 0 {
				t.Error("no token was granted")
			}
			if want := map[string]string{"xoauth2": "method=XOAUTH2", "oauthbearer": "method=OAUTHBEARER", "": "method=OAUTHBEARER"}[mech]; !strings.Contains(st.DovecotLog(), want) {
				t.Errorf("Dovecot's log has no %s login", want)
			}
		})
	}

	t.Run("refresh mid-session", func(t *testing.T) {
		// Tokens that live 4 s, refreshed 2 s before they expire: the
		// inbox's one IDLE session (poll far off) is renewed with a fresh
		// token before each expires, and takes the mail that comes
		// meanwhile.
		auth.SetLifetime(4 * time.Second)
		defer auth.SetLifetime(time.Hour)
		src := j.source(t, 2*time.Second)
		h := newMemHandler()
		log := &lockedLog{}
		in, err := NewInbox(InboxConfig{Server: j.imap(src, ""), Poll: time.Minute, Logger: slog.New(slog.NewTextHandler(log, nil)),
			Reconnect: Backoff{Base: 100 * time.Millisecond, Max: time.Second}}, h, h)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- in.Run(ctx) }()
		start := time.Now()
		for i := range 3 {
			mailNo++
			st.Submit(t, fmt.Sprintf("p%d@players.test", mailNo), []string{judgeAddr}, orderMail(mailNo, "orders"))
			waitCount(t, h, i+1)
			time.Sleep(3 * time.Second)
		}
		cancel()
		<-done
		took := time.Since(start)
		if n := src.Refreshes(); n < int(took/(2*time.Second))-1 {
			t.Errorf("%d refreshes in %v of tokens that live 4 s", n, took.Round(time.Second))
		}
		if renewed := strings.Count(log.String(), "imap session renewed"); renewed < 2 {
			t.Errorf("the session was renewed %d times in %v:\n%s", renewed, took.Round(time.Second), log)
		}
		if strings.Contains(log.String(), "reconnecting") || strings.Contains(st.DovecotLog(), "oauth2 failed") {
			t.Errorf("a login failed around a refresh:\n%s", log)
		}
		checkNoTokens(t, auth, log.String())
	})

	// Each refusal: the inbox runs 4 s with a back-off of 0.1 s doubling
	// to 1 s; it logs why, and tries some seven times (a storm would be
	// hundreds).
	refused := func(t *testing.T, src *oauth.Source, want ...string) {
		t.Helper()
		h := newMemHandler()
		log := &lockedLog{}
		in, err := NewInbox(InboxConfig{Server: j.imap(src, ""), Logger: slog.New(slog.NewTextHandler(log, nil)),
			Reconnect: Backoff{Base: 100 * time.Millisecond, Max: time.Second}}, h, h)
		if err != nil {
			t.Fatal(err)
		}
		g0, r0, i0 := auth.Counts()
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
		defer cancel()
		in.Run(ctx)
		g1, r1, i1 := auth.Counts()
		attempts := strings.Count(log.String(), "imap session ended, reconnecting")
		tokenCalls, logins := g1-g0+r1-r0, i1-i0
		t.Logf("in 4 s: %d attempts logged, %d calls to the token endpoint, %d logins introspected", attempts, tokenCalls, logins)
		if attempts < 2 || attempts > 9 || tokenCalls > attempts+1 || logins > attempts+1 {
			t.Errorf("%d attempts, %d token requests, %d logins in 4 s: want a few, backing off", attempts, tokenCalls, logins)
		}
		for _, w := range want {
			if !strings.Contains(log.String(), w) {
				t.Errorf("the log does not say %q:\n%s", w, log)
			}
		}
		checkNoTokens(t, auth, log.String())
	}
	t.Run("expired", func(t *testing.T) {
		// The endpoint says an hour and the token ends after a second:
		// refused each time it is presented late. The judge forgets a
		// refused token, so the next attempt refreshes.
		auth.SetLifetime(time.Second)
		auth.SetClaimedLifetime(time.Hour)
		defer func() { auth.SetLifetime(time.Hour); auth.SetClaimedLifetime(0) }()
		src := j.source(t, time.Minute)
		if _, err := src.Token(context.Background()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		// The first login presents the expired token and is refused; the
		// next refreshes, and logs in in time.
		h := newMemHandler()
		in, err := NewInbox(InboxConfig{Server: j.imap(src, "")}, h, h)
		if err != nil {
			t.Fatal(err)
		}
		err = in.Once(context.Background())
		if !errors.Is(err, oauth.ErrRefused) || !strings.Contains(err.Error(), "SASL OAUTHBEARER, status invalid_token") {
			t.Errorf("an expired token: %v", err)
		}
		if err := in.Once(context.Background()); err != nil {
			t.Errorf("after an expired token was refused, the next login did not refresh it: %v", err)
		}
	})
	t.Run("revoked", func(t *testing.T) {
		src := j.source(t, time.Minute)
		auth.RevokeAll(judgeAddr)
		defer j.grant(t, mailtest.OAuthAudience)
		refused(t, src, "invalid_grant", "umpire mail authorize")
	})
	t.Run("revoked access token", func(t *testing.T) {
		// Only the access token is revoked: refused once, then refreshed.
		src := j.source(t, time.Minute)
		if _, err := src.Token(context.Background()); err != nil {
			t.Fatal(err)
		}
		auth.RevokeAccess(judgeAddr)
		h := newMemHandler()
		in, err := NewInbox(InboxConfig{Server: j.imap(src, "xoauth2")}, h, h)
		if err != nil {
			t.Fatal(err)
		}
		if err := in.Once(context.Background()); !errors.Is(err, oauth.ErrRefused) {
			t.Errorf("a revoked access token: %v", err)
		}
		if err := in.Once(context.Background()); err != nil {
			t.Errorf("the login after a revoked access token: %v", err)
		}
	})
	t.Run("wrong audience", func(t *testing.T) {
		j.grant(t, "another-api")
		defer j.grant(t, mailtest.OAuthAudience)
		refused(t, j.source(t, time.Minute), "refused the OAuth 2.0 access token (expired, revoked, or not meant for this server)", "SASL OAUTHBEARER")
	})
	t.Run("rotated refresh token kept 0600", func(t *testing.T) {
		auth.SetRotate(true)
		defer auth.SetRotate(false)
		src := j.source(t, time.Minute)
		before, _ := os.ReadFile(j.file)
		if err := SendTest(context.Background(), OutboxConfig{Server: j.smtp(src, "")}, judgeAddr, judgeAddr,
			[]byte("From: judge@umpire.test\r\nTo: judge@umpire.test\r\nSubject: rotated\r\n\r\nx\r\n")); err != nil {
			t.Fatal(err)
		}
		after, _ := os.ReadFile(j.file)
		fi, err := os.Stat(j.file)
		if err != nil || string(after) == string(before) || fi.Mode().Perm() != 0o600 {
			t.Errorf("the rotated refresh token: changed %v, mode %v, %v", string(after) != string(before), fi.Mode().Perm(), err)
		}
		// The file's new token works for a new source; the old is revoked.
		if _, err := j.source(t, time.Minute).Token(context.Background()); err != nil {
			t.Errorf("the rotated refresh token from the file: %v", err)
		}
	})
}

// waitCount waits until h handled n messages.
func waitCount(t *testing.T, h *memHandler, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for h.count() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d messages handled, want %d", h.count(), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkNoTokens fails the test when log holds a token auth issued.
func checkNoTokens(t *testing.T, auth *mailtest.AuthServer, log string) {
	t.Helper()
	for _, tok := range auth.Tokens() {
		if strings.Contains(log, tok) {
			t.Errorf("the log holds a token")
			return
		}
	}
}
