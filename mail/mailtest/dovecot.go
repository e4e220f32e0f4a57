package mailtest

import (
	"context"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
)

// dovecotBin is Dovecot's master program.
const dovecotBin = "/usr/sbin/dovecot"

// startTimeout bounds how long a real server may take to greet.
const startTimeout = 20 * time.Second

// dovecot is a Dovecot instance serving IMAP and LMTP on loopback ports, with
// everything it writes under dir.
type dovecot struct {
	dir      string
	roots    *x509.CertPool // trusts the certificate of its STARTTLS
	imapPort int
	lmtpPort int
	// submissionPort is Dovecot's submission server's, with OAuth; 0
	// without.
	submissionPort int
	proc           *process // nil while stopped
	// stamp is the modification time of the last passwd file written:
	// each new one gets a later one (writeUsers).
	stamp time.Time
}

// dovecotConf is a template of Dovecot 2.3's configuration: STARTTLS
// offered with a test certificate but not required, plain passwords from
// a file, one maildir per address owned by vmail, any address accepted over
// LMTP (like devmail, which creates accounts on delivery). Its login, imap
// and lmtp processes are started ahead and serve many connections: a new
// IMAP session then costs a few milliseconds instead of two forks (some
// 80 ms on a busy 2-core machine), and the tests open thousands. A failed
// login does not slow the next ones down (Dovecot's authentication penalty
// would hold every login from 127.0.0.1 for up to 15 s).
const dovecotConf = `# Written by umpire's mailtest for one test run.
instance_name = umpire-mailtest
base_dir = {{.Dir}}/run
state_dir = {{.Dir}}/state
log_path = {{.Dir}}/dovecot.log
info_log_path = {{.Dir}}/dovecot.log
listen = 127.0.0.1
protocols = imap lmtp{{if .OAuth}} submission{{end}}
ssl = yes
ssl_cert = <{{.Dir}}/tls.crt
ssl_key = <{{.Dir}}/tls.key
disable_plaintext_auth = no
auth_failure_delay = 0
auth_mechanisms = plain{{if .OAuth}} xoauth2 oauthbearer{{end}}
auth_verbose = yes
mail_uid = {{.UID}}
mail_gid = {{.GID}}
first_valid_uid = {{.UID}}
last_valid_uid = {{.UID}}
mail_location = maildir:{{.Dir}}/mail/%u
mail_fsync = never
namespace inbox {
  inbox = yes
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {{.Dir}}/passwd
{{- if .OAuth}}
  mechanisms = plain
{{- end}}
}
{{- if .OAuth}}
passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = {{.Dir}}/dovecot-oauth2.conf.ext
}
submission_relay_host = 127.0.0.1
submission_relay_port = {{.OAuth.RelayPort}}
hostname = {{.Domain}}
service submission-login {
  service_count = 0
  inet_listener submission {
    address = 127.0.0.1
    port = {{.SubmissionPort}}
  }
}
{{- end}}
userdb {
  driver = static
  args = uid={{.UID}} gid={{.GID}} home={{.Dir}}/mail/%u allow_all_users=yes
}
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
  service_count = 0
  process_min_avail = 1
  inet_listener imap {
    address = 127.0.0.1
    port = {{.IMAPPort}}
  }
  inet_listener imaps {
    port = 0
  }
}
service imap {
  service_count = 100
  process_min_avail = 1
}
service lmtp {
  process_min_avail = 1
  inet_listener lmtp {
    address = 127.0.0.1
    port = {{.LMTPPort}}
  }
}
protocol lmtp {
  postmaster_address = postmaster@{{.Domain}}
}
`

// newDovecot writes the configuration and an empty password file under dir,
// on fresh ports; with o, Dovecot also takes OAuth 2.0 tokens (oauth.go).
func newDovecot(dir string, uid, gid int, o *dovecotOAuth) (*dovecot, error) {
	d := &dovecot{dir: dir}
	var err error
	if d.imapPort, err = freePort(); err != nil {
		return nil, err
	}
	if o != nil {
		if d.submissionPort, err = freePort(); err != nil {
			return nil, err
		}
		if err := o.write(dir); err != nil {
			return nil, err
		}
	}
	if d.lmtpPort, err = freePort(); err != nil {
		return nil, err
	}
	for _, sub := range []string{"run", "state", "mail"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("mailtest: dovecot: %w", err)
		}
	}
	if err := os.Chown(filepath.Join(dir, "mail"), uid, gid); err != nil {
		return nil, fmt.Errorf("mailtest: dovecot: %w", err)
	}
	if _, _, d.roots, err = writeCert(dir); err != nil {
		return nil, err
	}
	var conf strings.Builder
	err = template.Must(template.New("dovecot.conf").Parse(dovecotConf)).Execute(&conf, map[string]any{
		"Dir": dir, "UID": uid, "GID": gid, "IMAPPort": d.imapPort, "LMTPPort": d.lmtpPort, "Domain": JudgeDomain,
		"OAuth": o, "SubmissionPort": d.submissionPort,
	})
	if err != nil {
		return nil, fmt.Errorf("mailtest: dovecot.conf: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dovecot.conf"), []byte(conf.String()), 0o644); err != nil {
		return nil, fmt.Errorf("mailtest: dovecot: %w", err)
	}
	if err := d.writeUsers(nil); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *dovecot) imapAddr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(d.imapPort)) }
func (d *dovecot) lmtpAddr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(d.lmtpPort)) }
func (d *dovecot) submissionAddr() string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(d.submissionPort))
}

// start runs Dovecot in the foreground and waits for its IMAP and LMTP
// greetings.
func (d *dovecot) start(ctx context.Context) error {
	p, err := startProcess("dovecot", filepath.Join(d.dir, "dovecot.stderr"),
		dovecotBin, "-F", "-c", filepath.Join(d.dir, "dovecot.conf"))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	greetings := []struct{ addr, prefix string }{{d.imapAddr(), "* OK"}, {d.lmtpAddr(), "220"}}
	if d.submissionPort != 0 {
		greetings = append(greetings, struct{ addr, prefix string }{d.submissionAddr(), "220"})
	}
	for _, g := range greetings {
		if err := waitGreeting(ctx, g.addr, g.prefix, p.done); err != nil {
			p.stop()
			return fmt.Errorf("mailtest: dovecot: %w", err)
		}
	}
	d.proc = p
	return nil
}

// stop stops Dovecot and every process it forked, which drops all IMAP
// connections.
func (d *dovecot) stop() error {
	if d.proc == nil {
		return nil
	}
	err := d.proc.stop()
	d.proc = nil
	return err
}

// writeUsers replaces the password file. Dovecot reads it again when it
// changes.
func (d *dovecot) writeUsers(users map[string]string) error {
	addrs := make([]string, 0, len(users))
	for addr := range users {
		addrs = append(addrs, addr)
	}
	sort.Strings(addrs)
	var b strings.Builder
	for _, addr := range addrs {
		fmt.Fprintf(&b, "%s:{PLAIN}%s\n", addr, users[addr])
	}
	path := filepath.Join(d.dir, "passwd")
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("mailtest: dovecot users: %w", err)
	}
	// Dovecot rereads a passwd file when its size or its modification
	// time (in seconds) changed, and looks at most once a second: each
	// file gets a later time than the last, and the callers wait for the
	// change to be seen (awaitLogin).
	d.stamp = d.stamp.Add(time.Second)
	if now := time.Now().Truncate(time.Second); now.After(d.stamp) {
		d.stamp = now
	}
	if err := os.Chtimes(tmp, d.stamp, d.stamp); err != nil {
		return fmt.Errorf("mailtest: dovecot users: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("mailtest: dovecot users: %w", err)
	}
	return nil
}

// awaitLogin waits, for at most five seconds, until Dovecot at addr takes
// (want true) or refuses (false) the login of user with password: until
// it has reread the passwd file the last writeUsers wrote.
func awaitLogin(addr, user, password string, want bool) error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := imapclient.DialInsecure(addr, &imapclient.Options{Dialer: &net.Dialer{Timeout: ioTimeout}})
		if err == nil {
			err = c.Login(user, password).Wait()
			c.Close()
			if (err == nil) == want {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mailtest: dovecot: the login of %s is still %v after its passwd file changed", user, !want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
