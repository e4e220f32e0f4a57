package daemon

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	umail "github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/oauth"
	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/store"
)

// CheckOptions are what "umpire check" is asked.
type CheckOptions struct {
	// Config is the configuration file, as LoadConfig takes it.
	Config string
	// Mail, when set, sends a test mail: to Mail, or to the configuration's
	// operator when Mail is "operator".
	Mail string
	// Out is where the lines go; Now is the clock.
	Out io.Writer
	Now func() time.Time
	// Timeout bounds each connection and command; default 20s.
	Timeout time.Duration
}

// MailOperator is CheckOptions.Mail for a test mail to the configuration's
// operator.
const MailOperator = "operator"

// checkLines prints the lines of a check: "ok   what", "warn what" or
// "FAIL what", the last two with an indented line saying what to change.
type checkLines struct {
	w      io.Writer
	failed int
}

func (l *checkLines) ok(format string, args ...any) {
	fmt.Fprintf(l.w, "ok   %s\n", fmt.Sprintf(format, args...))
}

func (l *checkLines) skip(format string, args ...any) {
	fmt.Fprintf(l.w, "skip %s\n", fmt.Sprintf(format, args...))
}

func (l *checkLines) warn(what, hint string) {
	fmt.Fprintf(l.w, "warn %s\n     %s\n", what, hint)
}

func (l *checkLines) fail(what, hint string) {
	l.failed++
	fmt.Fprintf(l.w, "FAIL %s\n     %s\n", what, hint)
}

// Check runs "umpire check": the configuration parses, its IMAP and SMTP
// servers answer as it says (TLS, certificate, login, folders, IDLE, size
// limits), its secret files can be read, the judge's key signs and
// verifies, the store can be opened and written, the web section can
// listen, and, when asked, a test mail goes out. It prints a line for each
// check and returns how many failed (warnings do not count).
func Check(ctx context.Context, o CheckOptions) int {
	l := &checkLines{w: o.Out}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Second
	}
	cfg, err := LoadConfig(o.Config)
	if err == nil {
		err = cfg.CheckMail()
	}
	if err != nil {
		l.fail("configuration", err.Error())
		return l.failed
	}
	l.ok("configuration %s parses", cfg.source)
	secrets := map[string]bool{}
	for _, name := range []string{"imap", "smtp"} {
		secrets[name] = cfg.checkSecrets(l, name)
	}
	if secrets["imap"] {
		cfg.checkIMAP(ctx, l, o.Timeout)
	} else {
		l.skip("imap: not tried until its secret files can be read")
	}
	if secrets["smtp"] {
		cfg.checkSMTP(ctx, l, o.Timeout)
	} else {
		l.skip("smtp: not tried until its secret files can be read")
	}
	running := cfg.checkStore(l, o.Now())
	cfg.checkLogFile(l)
	cfg.checkWeb(l, running)
	if o.Mail != "" {
		cfg.checkMail(ctx, l, o)
	}
	return l.failed
}

// checkSecrets checks the ca_file and password_file of the section name:
// they can be read, and a password file is not readable by every user. It
// reads them into the configuration, and says whether they could be read.
func (cfg *Config) checkSecrets(l *checkLines, name string) bool {
	mb := cfg.mailBox(name)
	for _, f := range []struct{ key, path string }{{"ca_file", mb.CAFile}, {"password_file", mb.PasswordFile},
		{"client_secret_file", mb.ClientSecretFile}, {"refresh_token_file", mb.RefreshTokenFile}} {
		if f.path == "" {
			continue
		}
		p := cfg.relative(f.path)
		what := fmt.Sprintf("%s.%s %s", name, f.key, p)
		_, err := os.ReadFile(p)
		st, serr := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			l.fail(what+" cannot be read: "+plainErr(err), fmt.Sprintf("write the file's path in %s.%s (a relative path is relative to %s)", name, f.key, cfg.dir))
			return false
		case err != nil || serr != nil:
			l.fail(what+" cannot be read: "+plainErr(errors.Join(err, serr)), fmt.Sprintf("make it a file readable by the user umpire runs as (uid %d): chown it to that user, chmod 600", os.Getuid()))
			return false
		case f.key == "password_file" && st.Mode().Perm()&0o004 != 0:
			l.warn(fmt.Sprintf("%s is readable by every user of this machine (mode %04o)", what, st.Mode().Perm()), "chmod 600 "+p+", owned by the user umpire runs as")
		case (f.key == "client_secret_file" || f.key == "refresh_token_file") && st.Mode().Perm()&0o077 != 0:
			l.warn(fmt.Sprintf("%s can be read by other users of this machine (mode %04o)", what, st.Mode().Perm()), "chmod 600 "+p+", owned by the user umpire runs as")
		case f.key == "refresh_token_file" && !writableFile(p):
			l.warn(what+" cannot be written by the user umpire runs as", "a provider that rotates refresh tokens (Microsoft 365) needs the judge to write the new one: give the file and its folder to that user")
		default:
			l.ok("%s can be read", what)
		}
	}
	if err := cfg.readSecrets(name); err != nil {
		l.fail(err.Error(), "fix the file it names")
		return false
	}
	return true
}

// writableFile says whether p can be opened for writing and its folder
// written (a rotated refresh token replaces the file by a rename).
func writableFile(p string) bool {
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	f.Close()
	return syscall.Access(filepath.Dir(p), 2) == nil
}

// plainErr is err's last word: "permission denied", "no such file or
// directory".
func plainErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// checkServer prints the lines of the steps a mail server check passed,
// and of the one that failed.
func (cfg *Config) checkServer(l *checkLines, name string, f umail.Facts, err error) bool {
	mb := cfg.mailBox(name)
	key := func(k string) string { return name + "." + k }
	at := name + " " + mb.Address
	var ce *umail.CheckError
	step := umail.Step("")
	if errors.As(err, &ce) {
		step = ce.Step
	} else if err != nil {
		l.fail(at+": "+err.Error(), "check the ["+name+"] section")
		return false
	}
	usual := map[string]string{"imap": `993 with security = "tls", or 143 with security = "starttls"`,
		"smtp": `465 with security = "tls", or 587 with security = "starttls"`}[name]
	implicitPort := map[string]string{"imap": "993", "smtp": "465"}[name]
	plainPort := map[string]string{"imap": "143", "smtp": "587"}[name]
	if step == umail.StepConnect {
		hint := fmt.Sprintf("check %s: the host and port of the %s server (usually port %s)", key("address"), strings.ToUpper(name), usual)
		var dns *net.DNSError
		switch {
		case errors.As(err, &dns):
			hint = fmt.Sprintf("the host name does not resolve: check the host in %s", key("address"))
		case errors.Is(err, syscall.ECONNREFUSED):
			hint = fmt.Sprintf("nothing listens on that port: check the port in %s (usually %s)", key("address"), usual)
		}
		l.fail(at+": cannot connect: "+ce.Err.Error(), hint)
		return false
	}
	l.ok("%s: connects", at)
	if step == umail.StepTLS {
		switch {
		case errors.Is(err, umail.ErrSpeaksTLS):
			l.fail(fmt.Sprintf("%s: a plain connection to an implicit-TLS port: the server waits for a TLS handshake (as on port %s), but %s is %q", at, implicitPort, key("security"), mb.Security),
				fmt.Sprintf(`set %s = "tls" for this port, or use the server's STARTTLS port (%s) with security = "starttls"`, key("security"), plainPort))
		case errors.Is(err, umail.ErrSpeaksPlain):
			l.fail(fmt.Sprintf("%s: TLS to a plain-text port: the server greets in plain text (%q, as on port %s), but %s is %q", at, f.Greeting, plainPort, key("security"), mb.Security),
				fmt.Sprintf(`set %s = "starttls" for this port, or use the server's implicit-TLS port (%s) with security = "tls"`, key("security"), implicitPort))
		default:
			l.fail(fmt.Sprintf("%s: %s: %v", at, key("security"), ce.Err), fmt.Sprintf(`set %s to what the server speaks on this port: "tls" (implicit, port %s) or "starttls" (port %s); "none" only on loopback`, key("security"), implicitPort, plainPort))
		}
		return false
	}
	switch {
	case f.TLS == nil:
		l.ok("%s: plain text, no TLS (%s = \"none\": loopback only)", at, key("security"))
	case mb.Security == string(umail.ImplicitTLS):
		l.ok("%s: implicit TLS (%s)", at, tls.VersionName(f.TLS.Version))
	default:
		l.ok("%s: STARTTLS (%s)", at, tls.VersionName(f.TLS.Version))
	}
	if step == umail.StepCertificate {
		l.fail(at+": the certificate does not verify: "+ce.Err.Error(), certHint(ce.Err, key))
		return false
	}
	if f.TLS != nil && len(f.TLS.PeerCertificates) > 0 {
		c := f.TLS.PeerCertificates[0]
		l.ok("%s: certificate verifies for %s (issued by %s, valid until %s)", at, hostOfAddr(mb.Address), c.Issuer.CommonName, c.NotAfter.UTC().Format("2006-01-02"))
	}
	if step == umail.StepLogin && mb.Auth == "oauth2" {
		l.fail(fmt.Sprintf("%s: login as %s with OAuth 2.0 failed: %v", at, mb.Username, ce.Err), oauthHint(ce.Err, key))
		return false
	}
	if step == umail.StepLogin {
		l.fail(fmt.Sprintf("%s: login as %s refused: %v", at, mb.Username, ce.Err),
			fmt.Sprintf("check %s and the password (%s, or %s); a provider that wants an app password (Gmail) or OAuth (Microsoft 365) refuses the account's own password", key("username"), key("password_file"), key("password")))
		return false
	}
	switch {
	case mb.Username == "":
		l.ok("%s: no login (%s is empty)", at, key("username"))
	case mb.Auth == "oauth2":
		l.ok("%s: logs in as %s with an OAuth 2.0 access token from %s", at, mb.Username, mb.TokenURL)
	default:
		l.ok("%s: logs in as %s", at, mb.Username)
	}
	if step == umail.StepFolders {
		if errors.Is(err, umail.ErrNoFolder) {
			l.fail(fmt.Sprintf("%s: %v (%s)", at, ce.Err, key("folder")),
				fmt.Sprintf("set %s to the folder orders arrive in; the server has %s", key("folder"), strings.Join(f.Folders, ", ")))
		} else {
			l.fail(fmt.Sprintf("%s: folders: %v", at, ce.Err),
				fmt.Sprintf("the judge makes %s, %s and %s when they are missing, and the server refused: make them in a mail program, or name folders that exist", key("processed"), key("rejected"), key("quarantine")))
		}
		return false
	}
	return true
}

// oauthHint says what to change about an OAuth 2.0 login that failed.
func oauthHint(err error, key func(string) string) string {
	var re *oauth.RefreshError
	switch {
	case errors.Is(err, oauth.ErrRefused):
		return fmt.Sprintf("the token endpoint granted a token the mail server refused: it must be granted to %s for the mail scopes (Gmail: https://mail.google.com/; Microsoft 365: IMAP.AccessAsUser.All and SMTP.Send, with IMAP and SMTP AUTH enabled for the mailbox); run 'umpire mail authorize' again as that account (docs/operations.md, \"OAuth 2.0\")", key("username"))
	case errors.As(err, &re) && re.Code == "invalid_grant":
		return fmt.Sprintf("the refresh token in %s was revoked or has expired (Google's expire after 7 days while the app is in Testing): run 'umpire mail authorize' again", key("refresh_token_file"))
	case errors.As(err, &re) && (re.Code == "invalid_client" || re.Code == "unauthorized_client"):
		return fmt.Sprintf("the provider does not know the client: check %s and %s against the app's registration", key("client_id"), key("client_secret_file"))
	case errors.As(err, &re):
		return fmt.Sprintf("the token endpoint refused to refresh the token: check %s, %s and %s", key("token_url"), key("client_id"), key("scopes"))
	}
	return fmt.Sprintf("the token endpoint cannot be reached: check %s (Gmail: https://oauth2.googleapis.com/token; Microsoft 365: https://login.microsoftonline.com/TENANT/oauth2/v2.0/token)", key("token_url"))
}

// certHint says what to change about a certificate that does not verify.
func certHint(err error, key func(string) string) string {
	var ua x509.UnknownAuthorityError
	var hn x509.HostnameError
	var ci x509.CertificateInvalidError
	switch {
	case errors.As(err, &ua):
		return fmt.Sprintf("no authority this machine trusts signed it: for a private CA or a self-signed server, give its certificate (PEM) in %s", key("ca_file"))
	case errors.As(err, &hn):
		return fmt.Sprintf("write in %s a host name the certificate names: %s", key("address"), strings.Join(append(hn.Certificate.DNSNames, ipStrings(hn.Certificate.IPAddresses)...), ", "))
	case errors.As(err, &ci) && ci.Reason == x509.Expired:
		return "the certificate is out of its dates: the server's operator renews it (or this machine's clock is wrong)"
	}
	return fmt.Sprintf("the server's certificate must verify for the host in %s", key("address"))
}

func ipStrings(ips []net.IP) []string {
	var s []string
	for _, ip := range ips {
		s = append(s, ip.String())
	}
	return s
}

func hostOfAddr(addr string) string {
	host, _, _ := net.SplitHostPort(addr)
	return host
}

// checkIMAP checks the [imap] section against its server.
func (cfg *Config) checkIMAP(ctx context.Context, l *checkLines, timeout time.Duration) {
	s := server(cfg.IMAP)
	s.Timeout = timeout
	f, err := umail.CheckIMAP(ctx, umail.InboxConfig{Server: s, Folder: cfg.IMAP.Folder, Processed: cfg.IMAP.Processed,
		Rejected: cfg.IMAP.Rejected, Quarantine: cfg.IMAP.Quarantine})
	if !cfg.checkServer(l, "imap", f, err) {
		return
	}
	at := "imap " + cfg.IMAP.Address
	made := ""
	if len(f.Made) > 0 {
		made = " (made now: " + strings.Join(f.Made, ", ") + ")"
	}
	l.ok("%s: folders %s, %s, %s and %s are there%s", at, cfg.IMAP.Folder, cfg.IMAP.Processed, cfg.IMAP.Rejected, cfg.IMAP.Quarantine, made)
	poll := cfg.IMAP.Poll.Duration
	if poll <= 0 {
		poll = time.Minute
	}
	if f.IDLE {
		l.ok("%s: IDLE: new mail is taken as it arrives", at)
	} else {
		l.warn(at+": the server has no IDLE", fmt.Sprintf("the judge looks for new mail every %v (imap.poll); a shorter poll answers sooner", poll))
	}
	limit := cfg.Limits.MessageBytes
	switch {
	case f.AppendLimit == 0:
		l.ok("%s: the server names no size limit (APPENDLIMIT); the judge reads messages up to %d bytes (limits.message_bytes)", at, limit)
	case f.AppendLimit < limit:
		l.warn(fmt.Sprintf("%s: the server takes messages up to %d bytes (APPENDLIMIT), less than limits.message_bytes %d", at, f.AppendLimit, limit),
			fmt.Sprintf("set limits.message_bytes = %d, so that the limit the judge tells players is the one that holds", f.AppendLimit))
	default:
		l.ok("%s: the server takes messages up to %d bytes (APPENDLIMIT), the judge reads up to %d (limits.message_bytes)", at, f.AppendLimit, limit)
	}
}

// checkSMTP checks the [smtp] section against its server.
func (cfg *Config) checkSMTP(ctx context.Context, l *checkLines, timeout time.Duration) {
	s := server(cfg.SMTP)
	s.Timeout = timeout
	f, err := umail.CheckSMTP(ctx, umail.OutboxConfig{Server: s, HelloName: hostOf(cfg.Address)})
	if !cfg.checkServer(l, "smtp", f, err) {
		return
	}
	at := "smtp " + cfg.SMTP.Address
	limit := cfg.Limits.MessageBytes
	switch {
	case f.Size == 0:
		l.ok("%s: the server names no size limit (SIZE)", at)
	case f.Size < limit:
		l.fail(fmt.Sprintf("%s: the server takes mail up to %d bytes (SIZE), less than the judge's %d (limits.message_bytes)", at, f.Size, limit),
			fmt.Sprintf("the judge's reports with their maps may reach limits.message_bytes: raise the server's limit (Postfix message_size_limit, OpenSMTPD max-message-size), or lower limits.message_bytes to %d", f.Size))
	default:
		l.ok("%s: the server takes mail up to %d bytes (SIZE), at least the judge's %d (limits.message_bytes)", at, f.Size, limit)
	}
}

// checkStore checks the judge's signing key and its store: the file is an
// umpire store this umpire opens, and it and its folder can be written. It
// changes nothing: the store is opened read-only. It says whether a
// running judge holds the store.
func (cfg *Config) checkStore(l *checkLines, now time.Time) (running bool) {
	path := cfg.Store
	dir := filepath.Dir(path)
	at := "store " + path
	writable := func(what, p string, err error) bool {
		switch {
		case err == nil:
			return true
		case errors.Is(err, syscall.EROFS):
			l.fail(fmt.Sprintf("%s: %s %s is on a read-only file system", at, what, p),
				"set store to a path the judge can write, such as /var/lib/umpire/umpire.db (StateDirectory=umpire under systemd, docs/operations.md)")
		case errors.Is(err, fs.ErrNotExist):
			l.fail(fmt.Sprintf("%s: %s %s does not exist", at, what, p), "make the folder (mkdir -p "+dir+"), or fix store in the configuration")
		default:
			l.fail(fmt.Sprintf("%s: %s %s cannot be written: %s", at, what, p, plainErr(err)),
				fmt.Sprintf("give the user umpire runs as (uid %d) the folder and the file (chown), or set store to a path it can write", os.Getuid()))
		}
		return false
	}
	// The folder: compaction and backups write beside the file.
	probe, err := os.CreateTemp(dir, ".umpire-check-*")
	if err == nil {
		probe.Close()
		os.Remove(probe.Name())
	}
	dirOK := writable("its folder", dir, err)
	in, err := store.Inspect(path, time.Second)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		l.ok("signing key: none yet: serve makes it when it first opens the store")
		if dirOK {
			l.ok("%s: not there yet: serve makes it (its folder can be written)", at)
		}
		return false
	case errors.Is(err, store.ErrInUse):
		l.warn("signing key: not checked: a running judge holds the store", "run umpire check with the judge stopped to check its key; 'umpire keys server' shows it")
		if dirOK {
			l.ok("%s: in use by a running judge", at)
		}
		return true
	case err != nil:
		l.skip("signing key: not checked: the store cannot be read")
		l.fail(fmt.Sprintf("%s: %v", at, err), "set store to the judge's store file, or restore it from a backup (docs/operations.md)")
		return false
	}
	cfg.checkKey(l, in.ServerKey, now)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err == nil {
		f.Close()
	}
	if !writable("the file", path, err) || !dirOK {
		return false
	}
	switch {
	case in.Schema > in.Current:
		l.fail(fmt.Sprintf("%s: written by a newer umpire (schema %d; this one knows up to %d)", at, in.Schema, in.Current), "run the newer umpire, or restore a backup this one wrote")
	case in.Schema < in.Current:
		l.ok("%s: schema %d, brought to %d when serve opens it", at, in.Schema, in.Current)
	default:
		l.ok("%s: opens (schema %d) and can be written", at, in.Schema)
	}
	return false
}

// checkLogFile checks that serve can append to log.file, making it as
// serve would.
func (cfg *Config) checkLogFile(l *checkLines) {
	if cfg.Log.File == "" {
		return
	}
	f, err := OpenLogFile(cfg.Log.File)
	if err != nil {
		l.fail("log.file "+cfg.Log.File+" cannot be written: "+plainErr(err), fmt.Sprintf("make its folder %s, writable by the user umpire runs as (LogsDirectory=umpire under systemd gives /var/log/umpire)", filepath.Dir(cfg.Log.File)))
		return
	}
	f.Close()
	l.ok("log.file %s can be written", cfg.Log.File)
}

// checkKey signs a text with the judge's key and verifies the signature.
func (cfg *Config) checkKey(l *checkLines, raw []byte, now time.Time) {
	if raw == nil {
		l.ok("signing key: none yet: serve makes it when it first opens the store")
		return
	}
	const hint = "the judge's key in the store is damaged: restore the store from a backup (docs/operations.md)"
	k, err := signature.ParseServerKey(raw)
	if err != nil {
		l.fail("signing key: "+err.Error(), hint)
		return
	}
	signed, err := k.ClearSign([]byte("umpire check\n"), now)
	if err == nil {
		var ring *signature.Keyring
		if ring, err = signature.NewKeyring(k.Public()); err == nil {
			_, err = signature.VerifyInline(signed, ring)
		}
	}
	if err != nil {
		l.fail("signing key "+k.Public().Fingerprint+": "+err.Error(), hint)
		return
	}
	l.ok("signing key %s signs and verifies", k.Public().Fingerprint)
}

// checkWeb checks the [web] section: its address can be listened on (or
// is the running judge's), its certificate and key load.
func (cfg *Config) checkWeb(l *checkLines, running bool) {
	w := cfg.Web
	if w == nil {
		l.ok("web: no [web] section: no pages served")
		return
	}
	ln, err := net.Listen("tcp", w.Address)
	switch {
	case err == nil:
		ln.Close()
		l.ok("web.address %s can be listened on", w.Address)
	case errors.Is(err, syscall.EADDRINUSE) && running:
		l.warn("web.address "+w.Address+" is in use, likely by the running judge (it holds the store)", "stop the judge to check that the address can be listened on")
	case errors.Is(err, syscall.EADDRINUSE):
		l.fail("web.address "+w.Address+" is in use", "another program (or a running judge) listens there: stop it, or choose another port in web.address")
	case errors.Is(err, syscall.EACCES):
		l.fail("web.address "+w.Address+": permission denied", "a port under 1024 needs privilege: use one from 1024 (such as :8443) behind a proxy, or give the service CAP_NET_BIND_SERVICE")
	default:
		l.fail("web.address "+w.Address+": "+err.Error(), "write a host:port of this machine in web.address, such as :8443")
	}
	if w.CertFile == "" {
		return
	}
	pair, err := tls.LoadX509KeyPair(w.CertFile, w.KeyFile)
	if err != nil {
		l.fail("web.cert_file "+w.CertFile+", web.key_file "+w.KeyFile+": "+plainErr(err), "give a PEM certificate chain and its key, both readable by the user umpire runs as")
		return
	}
	c := pair.Leaf
	if c == nil {
		c, _ = x509.ParseCertificate(pair.Certificate[0])
	}
	l.ok("web.cert_file %s loads with its key (for %s, valid until %s)", w.CertFile, strings.Join(append(c.DNSNames, ipStrings(c.IPAddresses)...), ", "), c.NotAfter.UTC().Format("2006-01-02"))
}

// checkMail sends a test mail through the [smtp] server.
func (cfg *Config) checkMail(ctx context.Context, l *checkLines, o CheckOptions) {
	to := o.Mail
	if to == MailOperator {
		to = cfg.Operator
		if to == "" {
			l.fail("test mail: the configuration names no operator", "set operator, or give the address: umpire check --mail ADDRESS")
			return
		}
	}
	if _, err := mail.ParseAddress(to); err != nil {
		l.fail(fmt.Sprintf("test mail: %q is not a mail address", to), "give one such as ops@example.org")
		return
	}
	b := make([]byte, 8)
	rand.Read(b)
	host := hostOf(cfg.Address)
	id := "<check." + hex.EncodeToString(b) + "@" + host + ">"
	from := (&mail.Address{Name: cfg.Name, Address: cfg.Address}).String()
	raw := "From: " + from + "\r\nTo: " + to + "\r\nSubject: umpire check: test mail\r\nDate: " + o.Now().Format(time.RFC1123Z) +
		"\r\nMessage-ID: " + id + "\r\nAuto-Submitted: auto-generated\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"This mail was sent by 'umpire check --mail' through " + cfg.SMTP.Address + " as " + cfg.Address + ".\r\n" +
		"If you read it, the judge's mail reaches you.\r\n"
	s := server(cfg.SMTP)
	s.Timeout = o.Timeout
	if err := umail.SendTest(ctx, umail.OutboxConfig{Server: s, HelloName: host}, cfg.Address, to, []byte(raw)); err != nil {
		l.fail("test mail to "+to+": "+err.Error(), "the lines above say what of [smtp] holds; a refused recipient is the server's to explain (its log)")
		return
	}
	l.ok("test mail to %s sent (Message-ID %s): look for it", to, id)
}
