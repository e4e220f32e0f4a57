package oauth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// The ways Authorize gets the operator's consent.
const (
	// FlowDevice: the operator opens a page on any device and types a
	// code (RFC 8628); Microsoft 365 allows it for mail, Google does not.
	FlowDevice = "device"
	// FlowLoopback: the operator opens a link in a browser on this
	// machine (or with the port forwarded, ssh -L), and the provider
	// redirects back to a listener on loopback (RFC 8252, with PKCE).
	FlowLoopback = "loopback"
)

// AuthorizeOptions are what Authorize needs.
type AuthorizeOptions struct {
	// Provider is the provider's endpoints and the scopes to ask for.
	Provider Provider
	// ClientID and ClientSecret are the judge's registration.
	ClientID, ClientSecret string
	// Flow is FlowDevice or FlowLoopback; "" takes the provider's.
	Flow string
	// LoginHint, when set, is the mail account to consent as.
	LoginHint string
	// RefreshTokenFile is where the refresh token goes (mode 0600).
	RefreshTokenFile string
	// Listen is the loopback address of FlowLoopback's listener; default
	// 127.0.0.1:0 (a free port).
	Listen string
	// Out is where the operator is told what to do.
	Out io.Writer
	// HTTPClient calls the provider; default one with a 30 s timeout.
	HTTPClient *http.Client
	// Ready, when set, is called with the address the operator is to
	// open (for tests, which play the operator).
	Ready func(url string)
}

// Authorize walks the operator through consenting to the judge's use of
// the mail account, and writes the refresh token it gets to
// RefreshTokenFile. It never prints a token.
func Authorize(ctx context.Context, o AuthorizeOptions) error {
	if o.ClientID == "" || o.RefreshTokenFile == "" || o.Provider.TokenURL == "" {
		return errors.New("oauth2: authorize: client_id, refresh_token_file and token_url are needed")
	}
	if o.Flow == "" {
		o.Flow = o.Provider.Flow
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, o.HTTPClient)
	cfg := &oauth2.Config{ClientID: o.ClientID, ClientSecret: o.ClientSecret, Scopes: o.Provider.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: o.Provider.AuthURL, DeviceAuthURL: o.Provider.DeviceURL, TokenURL: o.Provider.TokenURL, AuthStyle: oauth2.AuthStyleInParams}}
	var tok *oauth2.Token
	var err error
	switch o.Flow {
	case FlowDevice:
		tok, err = device(ctx, cfg, o)
	case FlowLoopback:
		tok, err = loopback(ctx, cfg, o)
	default:
		return fmt.Errorf("oauth2: authorize: flow %q is neither %q nor %q", o.Flow, FlowDevice, FlowLoopback)
	}
	if err != nil {
		return err
	}
	if tok.RefreshToken == "" {
		return errors.New("oauth2: authorize: the provider granted no refresh token: ask for offline access (Microsoft: the offline_access scope; Google: it is asked for), or revoke the app's access in the account and run this again")
	}
	if err := WriteRefreshToken(o.RefreshTokenFile, tok.RefreshToken); err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "The refresh token is in %s (mode 0600). Run 'umpire check' to try it.\n", o.RefreshTokenFile)
	return nil
}

// device is the device code flow (RFC 8628).
func device(ctx context.Context, cfg *oauth2.Config, o AuthorizeOptions) (*oauth2.Token, error) {
	if cfg.Endpoint.DeviceAuthURL == "" {
		return nil, errors.New("oauth2: authorize: the provider has no device authorization endpoint: use --flow loopback")
	}
	da, err := cfg.DeviceAuth(ctx)
	if err != nil {
		return nil, fmt.Errorf("oauth2: authorize: device authorization at %s: %w", cfg.Endpoint.DeviceAuthURL, endpointError(err))
	}
	fmt.Fprintf(o.Out, "On any device, open\n\n    %s\n\nand enter the code %s", da.VerificationURI, da.UserCode)
	if o.LoginHint != "" {
		fmt.Fprintf(o.Out, ", then sign in as %s", o.LoginHint)
	}
	fmt.Fprintf(o.Out, ". Waiting for you (until %s)...\n", da.Expiry.Format("15:04"))
	if o.Ready != nil {
		o.Ready(da.VerificationURI + "#" + da.UserCode)
	}
	tok, err := cfg.DeviceAccessToken(ctx, da)
	if err != nil {
		return nil, fmt.Errorf("oauth2: authorize: %w", endpointError(err))
	}
	return tok, nil
}

// loopback is the authorization code flow with PKCE, redirected to a
// listener on loopback (RFC 8252 section 7.3).
func loopback(ctx context.Context, cfg *oauth2.Config, o AuthorizeOptions) (*oauth2.Token, error) {
	if cfg.Endpoint.AuthURL == "" {
		return nil, errors.New("oauth2: authorize: the provider has no authorization endpoint: use --flow device")
	}
	listen := o.Listen
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("oauth2: authorize: %w", err)
	}
	defer ln.Close()
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		return nil, fmt.Errorf("oauth2: authorize: %s is not a loopback address", listen)
	}
	cfg.RedirectURL = "http://" + ln.Addr().String() + "/"
	b := make([]byte, 16)
	rand.Read(b)
	state := hex.EncodeToString(b)
	verifier := oauth2.GenerateVerifier()
	opts := []oauth2.AuthCodeOption{oauth2.AccessTypeOffline, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("prompt", "consent")}
	if o.LoginHint != "" {
		opts = append(opts, oauth2.SetAuthURLParam("login_hint", o.LoginHint))
	}
	u := cfg.AuthCodeURL(state, opts...)
	fmt.Fprintf(o.Out, "Open this address in a browser on this machine (from another one: ssh -L %d:%s first):\n\n    %s\n\nWaiting for the provider to send you back to %s ...\n",
		ln.Addr().(*net.TCPAddr).Port, ln.Addr(), u, cfg.RedirectURL)
	type result struct {
		code string
		err  error
	}
	got := make(chan result, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("state") != state {
			http.Error(w, "this is not the answer to the request umpire made", http.StatusBadRequest)
			return
		}
		var res result
		switch {
		case q.Get("error") != "":
			res.err = fmt.Errorf("oauth2: authorize: the provider says %s: %s", q.Get("error"), q.Get("error_description"))
			fmt.Fprintf(w, "umpire was not authorized: %s. Go back to the terminal.", html.EscapeString(q.Get("error")))
		case q.Get("code") == "":
			http.Error(w, "no code", http.StatusBadRequest)
			return
		default:
			res.code = q.Get("code")
			fmt.Fprint(w, "umpire is authorized. You can close this page and go back to the terminal.")
		}
		select {
		case got <- res:
		default:
		}
	})}
	go srv.Serve(ln)
	defer srv.Close()
	if o.Ready != nil {
		o.Ready(u)
	}
	var res result
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res = <-got:
	}
	if res.err != nil {
		return nil, res.err
	}
	tok, err := cfg.Exchange(ctx, res.code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, fmt.Errorf("oauth2: authorize: exchanging the code at %s: %w", cfg.Endpoint.TokenURL, endpointError(err))
	}
	return tok, nil
}

// endpointError is err with the provider's error code and description
// only (a RetrieveError's body is left out).
func endpointError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.ErrorCode != "" {
		return fmt.Errorf("%s: %s", re.ErrorCode, strings.Map(printable, re.ErrorDescription))
	}
	return err
}
