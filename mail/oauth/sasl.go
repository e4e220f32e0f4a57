package oauth

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/emersion/go-sasl"
)

// The SASL mechanisms that carry an OAuth 2.0 access token.
const (
	// XOAUTH2 is Google's and Microsoft's mechanism.
	XOAUTH2 = "XOAUTH2"
	// OAUTHBEARER is RFC 7628's (Gmail, Dovecot, Yahoo; not Microsoft).
	OAUTHBEARER = sasl.OAuthBearer
)

// Mechanism picks the mechanism to log in with: want when it is set (the
// configuration's "xoauth2" or "oauthbearer"), else OAUTHBEARER when the
// server offers it, else XOAUTH2 (Microsoft offers XOAUTH2 alone; a server
// that names neither may still take XOAUTH2).
func Mechanism(want string, offered []string) string {
	if want != "" {
		return strings.ToUpper(want)
	}
	if slices.ContainsFunc(offered, func(m string) bool { return strings.EqualFold(m, OAUTHBEARER) }) {
		return OAUTHBEARER
	}
	return XOAUTH2
}

// NewClient returns the SASL client of mechanism mech (XOAUTH2 or
// OAUTHBEARER) logging in as user with token. host and port are the
// server's, which OAUTHBEARER names. Its Refusal, after a failed login,
// is what the server said of the token.
func NewClient(mech, user, token, host string, port int) *Client {
	return &Client{mech: mech, user: user, token: token, host: host, port: port}
}

// Client is a SASL client carrying an access token. When the server
// refuses the token it sends a challenge (a JSON error) and waits for an
// answer before it fails the login: Client answers as RFC 7628 says
// (OAUTHBEARER: %x01; XOAUTH2: an empty line), so that the command ends
// with the server's own refusal, and keeps the challenge's status.
type Client struct {
	mech, user, token, host string
	port                    int
	// Refusal is the server's challenge after it refused the token; nil
	// until then.
	Refusal *Refusal
}

// Start implements sasl.Client.
func (c *Client) Start() (string, []byte, error) {
	switch c.mech {
	case OAUTHBEARER:
		return sasl.NewOAuthBearerClient(&sasl.OAuthBearerOptions{Username: c.user, Token: c.token, Host: c.host, Port: c.port}).Start()
	case XOAUTH2:
		return XOAUTH2, []byte("user=" + c.user + "\x01auth=Bearer " + c.token + "\x01\x01"), nil
	}
	return "", nil, fmt.Errorf("oauth2: unknown SASL mechanism %q: use %q or %q", c.mech, "xoauth2", "oauthbearer")
}

// Next implements sasl.Client.
func (c *Client) Next(challenge []byte) ([]byte, error) {
	c.Refusal = ParseRefusal(challenge)
	if c.mech == OAUTHBEARER {
		return []byte{0x01}, nil
	}
	return []byte{}, nil
}

// Refusal is the JSON a server sends when it refuses a token (RFC 7628
// section 3.2.2; Google's XOAUTH2 says the same).
type Refusal struct {
	Status string `json:"status"` // such as "invalid_token", or Google's "400"
	Scope  string `json:"scope"`
}

// ParseRefusal reads a server's challenge after a refused token; one it
// cannot read gives a Refusal with no status.
func ParseRefusal(challenge []byte) *Refusal {
	var r Refusal
	if err := json.Unmarshal(challenge, &r); err != nil {
		return &Refusal{}
	}
	r.Status = strings.Map(printable, r.Status)
	r.Scope = strings.Map(printable, r.Scope)
	return &r
}

// printable drops what a log line should not carry from text a server
// chose.
func printable(r rune) rune {
	if r < 0x20 || r == 0x7f {
		return -1
	}
	return r
}

// String says the refusal for a log line.
func (r *Refusal) String() string {
	if r == nil || r.Status == "" {
		return "no reason given"
	}
	s := "status " + r.Status
	if r.Scope != "" {
		s += ", scope " + r.Scope
	}
	return s
}
