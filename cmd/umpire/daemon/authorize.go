package daemon

import (
	"context"
	"io"

	"github.com/umpire-pbem/umpire/mail/oauth"
)

// AuthorizeOptions are what "umpire mail authorize" is asked.
type AuthorizeOptions struct {
	// Config is the configuration file, as LoadConfig takes it; Section
	// is the mail section whose OAuth 2.0 settings are used ("imap",
	// the default, or "smtp").
	Config, Section string
	// Flow is "device" or "loopback" ("": the provider's); AuthURL and
	// DeviceURL are the endpoints of a provider umpire does not know;
	// Listen is the loopback redirect's address.
	Flow, AuthURL, DeviceURL, Listen string
	Out                              io.Writer
}

// Authorize runs "umpire mail authorize": the operator consents to the
// judge's use of the mail account of the section's username, and the
// refresh token goes to its refresh_token_file (docs/operations.md,
// "OAuth 2.0").
func Authorize(ctx context.Context, o AuthorizeOptions) error {
	cfg, err := LoadConfig(o.Config)
	if err != nil {
		return err
	}
	name := o.Section
	if name == "" {
		name = "imap"
	}
	if name != "imap" && name != "smtp" {
		return usagef("--section %q is neither imap nor smtp", name)
	}
	mb := cfg.mailBox(name)
	if mb.Auth != "oauth2" {
		return usagef(`config %s: [%s] has no auth = "oauth2": write its token_url, client_id, client_secret_file and refresh_token_file first (docs/operations.md, "OAuth 2.0")`, cfg.source, name)
	}
	secret, err := cfg.clientSecret(name)
	if err != nil {
		return err
	}
	p := oauth.ProviderFor(mb.TokenURL, o.AuthURL, o.DeviceURL, mb.Scopes)
	return oauth.Authorize(ctx, oauth.AuthorizeOptions{Provider: p, ClientID: mb.ClientID, ClientSecret: secret, Flow: o.Flow,
		LoginHint: mb.Username, RefreshTokenFile: cfg.relative(mb.RefreshTokenFile), Listen: o.Listen, Out: o.Out})
}
