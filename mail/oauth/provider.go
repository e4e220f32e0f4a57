package oauth

import (
	"net/url"
	"strings"
)

// Provider is an OAuth 2.0 provider's endpoints, the scopes a judge asks
// for, and the flow it takes by default.
type Provider struct {
	Name      string
	AuthURL   string // the authorization endpoint (FlowLoopback)
	DeviceURL string // the device authorization endpoint (FlowDevice)
	TokenURL  string
	Scopes    []string
	Flow      string
}

// The token endpoints of the providers ProviderFor knows.
const (
	GoogleTokenURL = "https://oauth2.googleapis.com/token"
	// MicrosoftTokenURL is Microsoft's, with TENANT the directory (its
	// id or domain, or "organizations").
	MicrosoftTokenURL = "https://login.microsoftonline.com/TENANT/oauth2/v2.0/token"
)

// ProviderFor is the provider whose token endpoint is tokenURL: Google
// (Gmail) and Microsoft (365, Outlook.com) are known; for another, the
// endpoints given (authURL, deviceURL) and scopes serve, any of which also
// overrides a known provider's.
func ProviderFor(tokenURL, authURL, deviceURL string, scopes []string) Provider {
	p := Provider{Name: "custom", TokenURL: tokenURL, Flow: FlowLoopback}
	u, _ := url.Parse(tokenURL)
	switch {
	case tokenURL == GoogleTokenURL:
		// Google's device flow does not grant the mail scope: its
		// "Desktop app" clients redirect to loopback.
		p = Provider{Name: "Google", AuthURL: "https://accounts.google.com/o/oauth2/v2/auth", TokenURL: tokenURL,
			Scopes: []string{"https://mail.google.com/"}, Flow: FlowLoopback}
	case u != nil && u.Host == "login.microsoftonline.com" && strings.HasSuffix(u.Path, "/oauth2/v2.0/token"):
		base := strings.TrimSuffix(tokenURL, "/token")
		p = Provider{Name: "Microsoft", AuthURL: base + "/authorize", DeviceURL: base + "/devicecode", TokenURL: tokenURL,
			Scopes: []string{"https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send", "offline_access"},
			Flow:   FlowDevice}
	}
	if authURL != "" {
		p.AuthURL = authURL
	}
	if deviceURL != "" {
		p.DeviceURL = deviceURL
		if authURL == "" && p.Name == "custom" {
			p.Flow = FlowDevice
		}
	}
	if len(scopes) > 0 {
		p.Scopes = scopes
	}
	return p
}
