package mailtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The clients of an AuthServer: the judge, which gets tokens, and Dovecot,
// which introspects them (RFC 7662) as the resource server they are meant
// for.
const (
	OAuthClientID     = "umpire-judge"
	OAuthClientSecret = "judge-client-secret"
	// OAuthAudience is Dovecot's client id at the AuthServer: a token
	// issued for another audience is not active when Dovecot asks.
	OAuthAudience    = "dovecot-mail"
	oauthDovecotPass = "dovecot-introspection-secret"
)

// AuthServer is an OAuth 2.0 authorization server on loopback for the
// tests: a token endpoint that grants access tokens for refresh tokens
// (RFC 6749 section 6), and an introspection endpoint (RFC 7662) that
// Dovecot asks. A token is active while it has not expired, was not
// revoked, and was issued for the audience of the resource server that
// asks. It counts what it is asked.
type AuthServer struct {
	srv *http.Server
	url string

	mu sync.Mutex
	// lifetime is the life of the access tokens it grants.
	lifetime time.Duration
	// claim, when set, is the life the grants say (expires_in) instead of
	// the true one: a token that ends before its time, as a revoked one does.
	claim   time.Duration
	rotate  bool
	refresh map[string]*grant   // by refresh token
	access  map[string]*grant   // by access token
	codes   map[string]*pending // authorization codes and device codes, by code
	grants  int                 // access tokens granted
	refused int                 // token requests refused
	asked   int                 // introspections
}

// grant is what a token was issued for.
type grant struct {
	user, audience string
	token          string    // a refresh token just issued by a code, to be answered
	expiry         time.Time // zero: never (refresh tokens)
	revoked        bool
}

// NewAuthServer starts an AuthServer on loopback, granting access tokens
// that live an hour, and stops it at the test's end.
func NewAuthServer(t testing.TB) *AuthServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := &AuthServer{url: "http://" + ln.Addr().String(), lifetime: time.Hour,
		refresh: map[string]*grant{}, access: map[string]*grant{}, codes: map[string]*pending{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", a.token)
	mux.HandleFunc("POST /introspect", a.introspect)
	mux.HandleFunc("GET /authorize", a.authorize)
	mux.HandleFunc("POST /device", a.device)
	a.srv = &http.Server{Handler: mux, ReadHeaderTimeout: ioTimeout}
	go a.srv.Serve(ln)
	t.Cleanup(func() { a.srv.Shutdown(context.Background()) })
	return a
}

// pending is an authorization code or a device code, not yet exchanged.
type pending struct {
	user, challenge, redirect string
	userCode                  string // a device code's; approved when user is set
}

// AuthURL is the authorization endpoint: it stands for the provider's
// consent page, and consents at once as its login_hint (RFC 6749 section
// 4.1, with PKCE of RFC 7636).
func (a *AuthServer) AuthURL() string { return a.url + "/authorize" }

// DeviceURL is the device authorization endpoint (RFC 8628).
func (a *AuthServer) DeviceURL() string { return a.url + "/device" }

// ApproveDevice stands for the operator who opened the verification page
// and typed userCode, signing in as user.
func (a *AuthServer) ApproveDevice(userCode, user string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, p := range a.codes {
		if p.userCode == userCode {
			p.user = user
			return true
		}
	}
	return false
}

func (a *AuthServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != OAuthClientID || q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("login_hint") == "" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	a.mu.Lock()
	code := "code-" + secret()
	a.codes[code] = &pending{user: q.Get("login_hint"), challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri")}
	a.mu.Unlock()
	http.Redirect(w, r, q.Get("redirect_uri")+"?code="+code+"&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
}

func (a *AuthServer) device(w http.ResponseWriter, r *http.Request) {
	if r.PostFormValue("client_id") != OAuthClientID {
		http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
		return
	}
	a.mu.Lock()
	code, userCode := "dev-"+secret(), strings.ToUpper(secret()[:8])
	a.codes[code] = &pending{userCode: userCode}
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"device_code": code, "user_code": userCode,
		"verification_uri": a.url + "/verify", "expires_in": 600, "interval": 1})
}

// TokenURL is the token endpoint.
func (a *AuthServer) TokenURL() string { return a.url + "/token" }

// IntrospectionURL is the introspection endpoint.
func (a *AuthServer) IntrospectionURL() string { return a.url + "/introspect" }

// SetLifetime sets the life of the access tokens granted from now on.
func (a *AuthServer) SetLifetime(d time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.lifetime = d
}

// SetClaimedLifetime has the grants say their tokens live d (0: the
// truth), while they end after the lifetime set: the judge then presents
// tokens it believes good that the server finds expired.
func (a *AuthServer) SetClaimedLifetime(d time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.claim = d
}

// SetRotate has each refresh grant a new refresh token too, and revoke
// the old one (as Microsoft's and others' endpoints may).
func (a *AuthServer) SetRotate(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.rotate = on
}

// RefreshToken issues a refresh token for user, whose access tokens are
// meant for audience.
func (a *AuthServer) RefreshToken(user, audience string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	rt := "rt-" + secret()
	a.refresh[rt] = &grant{user: user, audience: audience}
	return rt
}

// issueRefresh issues a refresh token for user, for Dovecot, and returns
// its grant holding it.
func (a *AuthServer) issueRefresh(user string) *grant {
	rt := "rt-" + secret()
	g := &grant{user: user, audience: OAuthAudience, token: rt}
	a.refresh[rt] = g
	return g
}

// RevokeAll revokes every token issued for user: refresh and access.
func (a *AuthServer) RevokeAll(user string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range []map[string]*grant{a.refresh, a.access} {
		for _, g := range m {
			if g.user == user {
				g.revoked = true
			}
		}
	}
}

// RevokeAccess revokes the access tokens issued for user; its refresh
// tokens stay good.
func (a *AuthServer) RevokeAccess(user string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, g := range a.access {
		if g.user == user {
			g.revoked = true
		}
	}
}

// Counts says how many access tokens the token endpoint granted, how many
// refresh requests it refused, and how often Dovecot introspected.
func (a *AuthServer) Counts() (grants, refused, introspections int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.grants, a.refused, a.asked
}

// Tokens are every token the server issued, for tests that look for them
// where they must not be (a log).
func (a *AuthServer) Tokens() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var all []string
	for _, m := range []map[string]*grant{a.refresh, a.access} {
		for t := range m {
			all = append(all, t)
		}
	}
	return all
}

func secret() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// token is the token endpoint: grant_type=refresh_token, the client's
// credentials in the form (RFC 6749 section 2.3.1).
func (a *AuthServer) token(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	fail := func(status int, code string) {
		a.refused++
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"error": code})
	}
	if r.PostFormValue("client_id") != OAuthClientID || r.PostFormValue("client_secret") != OAuthClientSecret {
		fail(http.StatusUnauthorized, "invalid_client")
		return
	}
	var g *grant
	switch r.PostFormValue("grant_type") {
	case "refresh_token":
		g = a.refresh[r.PostFormValue("refresh_token")]
		if g == nil || g.revoked {
			fail(http.StatusBadRequest, "invalid_grant")
			return
		}
	case "authorization_code":
		code := r.PostFormValue("code")
		p := a.codes[code]
		sum := sha256.Sum256([]byte(r.PostFormValue("code_verifier")))
		if p == nil || p.userCode != "" || p.redirect != r.PostFormValue("redirect_uri") || base64.RawURLEncoding.EncodeToString(sum[:]) != p.challenge {
			fail(http.StatusBadRequest, "invalid_grant")
			return
		}
		delete(a.codes, code)
		g = a.issueRefresh(p.user)
	case "urn:ietf:params:oauth:grant-type:device_code":
		code := r.PostFormValue("device_code")
		p := a.codes[code]
		switch {
		case p == nil || p.userCode == "":
			fail(http.StatusBadRequest, "invalid_grant")
			return
		case p.user == "":
			fail(http.StatusBadRequest, "authorization_pending")
			return
		}
		delete(a.codes, code)
		g = a.issueRefresh(p.user)
	default:
		fail(http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	at := "at-" + secret()
	a.access[at] = &grant{user: g.user, audience: g.audience, expiry: time.Now().Add(a.lifetime)}
	a.grants++
	life := a.lifetime
	if a.claim > 0 {
		life = a.claim
	}
	answer := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": int(life / time.Second)}
	if g.token != "" {
		answer["refresh_token"] = g.token // newly issued
		g.token = ""
	} else if a.rotate {
		g.revoked = true
		nrt := "rt-" + secret()
		a.refresh[nrt] = &grant{user: g.user, audience: g.audience}
		answer["refresh_token"] = nrt
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(answer)
}

// introspect is the introspection endpoint, for Dovecot (HTTP basic
// authentication as OAuthAudience).
func (a *AuthServer) introspect(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	user, pass, ok := r.BasicAuth()
	if !ok || user != OAuthAudience || pass != oauthDovecotPass {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	a.asked++
	w.Header().Set("Content-Type", "application/json")
	g := a.access[r.PostFormValue("token")]
	if g == nil || g.revoked || time.Now().After(g.expiry) || g.audience != user {
		json.NewEncoder(w).Encode(map[string]any{"active": false})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"active": true, "username": g.user, "aud": g.audience,
		"exp": g.expiry.Unix(), "client_id": OAuthClientID, "token_type": "Bearer"})
}

// dovecotOAuth is Dovecot's oauth2 passdb: tokens introspected at an
// AuthServer, and a submission server relaying to OpenSMTPD.
type dovecotOAuth struct {
	IntrospectionURL string
	RelayPort        int // OpenSMTPD's
}

// write writes dovecot-oauth2.conf.ext under dir (Dovecot 2.3's oauth2
// passdb settings).
func (o *dovecotOAuth) write(dir string) error {
	u := o.IntrospectionURL
	if len(u) > len("http://") {
		u = "http://" + OAuthAudience + ":" + oauthDovecotPass + "@" + u[len("http://"):]
	}
	conf := "# Written by umpire's mailtest for one test run.\n" +
		"introspection_mode = post\n" +
		"introspection_url = " + u + "\n" +
		"force_introspection = yes\n" +
		"username_attribute = username\n" +
		"active_attribute = active\n" +
		"active_value = true\n"
	if err := os.WriteFile(filepath.Join(dir, "dovecot-oauth2.conf.ext"), []byte(conf), 0o644); err != nil {
		return fmt.Errorf("mailtest: dovecot oauth2: %w", err)
	}
	return nil
}

// OAuthStack is a real stack whose Dovecot also takes OAuth 2.0 access
// tokens (SASL XOAUTH2 and OAUTHBEARER, its oauth2 passdb introspecting
// them at an AuthServer), over IMAP and over its submission server, which
// relays to OpenSMTPD. Passwords still work, for the test's own looks.
type OAuthStack struct {
	*realStack
}

// RealOAuth is Real with Dovecot taking the tokens of auth.
func RealOAuth(t testing.TB, auth *AuthServer) *OAuthStack {
	t.Helper()
	checkSystem(t)
	if _, err := os.Stat(submissionBin); err != nil {
		unavailable(t, "Dovecot's submission server is not installed: apt-get install dovecot-submissiond (bash .ci/run does this)")
	}
	r, err := startReal(context.Background(), realOptions{oauth: &dovecotOAuth{IntrospectionURL: auth.IntrospectionURL()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			r.logTails(t)
		}
		if err := r.close(); err != nil {
			t.Error(err)
		}
	})
	return &OAuthStack{realStack: r}
}

// submissionBin is Dovecot's submission server.
const submissionBin = "/usr/lib/dovecot/submission"

// SubmissionAddr is Dovecot's submission server: it takes logins by token
// (and by password) and relays to the MTA.
func (s *OAuthStack) SubmissionAddr() string { return s.dovecot.submissionAddr() }

// DovecotLog is Dovecot's log so far.
func (s *OAuthStack) DovecotLog() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "dovecot.log"))
	return string(b)
}
