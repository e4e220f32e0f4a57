package mailtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// OpenSMTPD's programs. Each instance runs in a mount namespace of its own
// (privateRuntime): its control socket (/run/smtpd.sock) and its queue
// (/var/spool/smtpd) are folders of the test, so any number of test
// processes, and an OpenSMTPD of the machine, run side by side.
const (
	smtpdBin   = "/usr/sbin/smtpd"
	smtpctlBin = "/usr/sbin/smtpctl"
	tempPrefix = "umpire-mailtest-"
)

// opensmtpd is the MTA of a real stack: it takes mail for the test domains
// on a loopback port and hands it to Dovecot over LMTP.
type opensmtpd struct {
	dir  string
	port int
	// signing holds the port of each DKIM signer, in the order given:
	// mail taken there is signed with its key (dkim.go).
	signing []int
	proc    *process // nil while stopped
}

// newOpenSMTPD writes and checks the configuration under dir, listening on
// port (0: a free one), with a signing port for each of signers.
func newOpenSMTPD(dir, lmtpAddr string, port int, signers []DKIMSigner) (*opensmtpd, error) {
	o := &opensmtpd{dir: dir, port: port}
	var err error
	if o.port == 0 {
		if o.port, err = freePort(); err != nil {
			return nil, err
		}
	}
	// A catch-all virtual table maps every recipient to the unprivileged
	// vmail user: OpenSMTPD refuses unknown users and delivering as root.
	if err := os.WriteFile(filepath.Join(dir, "vusers"), []byte("@ "+vmailUser+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("mailtest: opensmtpd: %w", err)
	}
	var conf strings.Builder
	fmt.Fprintf(&conf, "# Written by umpire's mailtest for one test run.\n")
	fmt.Fprintf(&conf, "table vusers file:%s\n", filepath.Join(dir, "vusers"))
	fmt.Fprintf(&conf, "listen on 127.0.0.1 port %d\n", o.port)
	if err := o.signingListeners(&conf, signers); err != nil {
		return nil, err
	}
	fmt.Fprintf(&conf, "action \"lmtp\" lmtp %q rcpt-to virtual <vusers>\n", lmtpAddr)
	for _, domain := range []string{JudgeDomain, PlayerDomain} {
		fmt.Fprintf(&conf, "match from any for domain %q action \"lmtp\"\n", domain)
	}
	if err := os.WriteFile(o.confPath(), []byte(conf.String()), 0o644); err != nil {
		return nil, fmt.Errorf("mailtest: opensmtpd: %w", err)
	}
	if out, err := exec.Command(smtpdBin, "-n", "-f", o.confPath()).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("mailtest: opensmtpd: bad configuration: %v: %s", err, out)
	}
	return o, nil
}

func (o *opensmtpd) confPath() string { return filepath.Join(o.dir, "smtpd.conf") }
func (o *opensmtpd) logPath() string  { return filepath.Join(o.dir, "smtpd.log") }
func (o *opensmtpd) addr() string     { return net.JoinHostPort("127.0.0.1", strconv.Itoa(o.port)) }

// start runs OpenSMTPD in the foreground, in its private runtime, and
// waits for its greeting and its control socket. The queue folder outlives
// a stop, so mail queued before StopSMTP is delivered after StartSMTP.
func (o *opensmtpd) start(ctx context.Context) error {
	argv, err := o.privateRuntime([]string{smtpdBin, "-d", "-f", o.confPath()})
	if err != nil {
		return err
	}
	p, err := startProcess("opensmtpd", o.logPath(), argv...)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	err = waitGreeting(ctx, o.addr(), "220", p.done)
	if err == nil {
		err = o.waitControl(ctx, p)
	}
	if err != nil {
		p.stop()
		return fmt.Errorf("mailtest: opensmtpd: %w", err)
	}
	o.proc = p
	return nil
}

// stop stops OpenSMTPD and its helper processes.
func (o *opensmtpd) stop() error {
	if o.proc == nil {
		return nil
	}
	err := o.proc.stop()
	o.proc = nil
	return err
}

// smtpctl runs OpenSMTPD's control program inside the mount namespace of
// the instance p, where its control socket is.
func smtpctl(ctx context.Context, p *process, args ...string) ([]byte, error) {
	nsenter, err := exec.LookPath("nsenter")
	if err != nil {
		return nil, fmt.Errorf("smtpctl needs nsenter (Debian package util-linux): %w", err)
	}
	argv := append([]string{"--target", strconv.Itoa(p.cmd.Process.Pid), "--mount", "--", smtpctlBin}, args...)
	out, err := exec.CommandContext(ctx, nsenter, argv...).CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("smtpctl %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return out, nil
}

// waitControl polls until smtpctl can talk to the new OpenSMTPD.
func (o *opensmtpd) waitControl(ctx context.Context, p *process) error {
	for {
		_, err := smtpctl(ctx, p, "show", "queue")
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-p.done:
			return errors.New("smtpd exited")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// privateRuntime wraps argv so that smtpd runs in a mount namespace of its
// own, where
//   - /run is the test's folder run/: OpenSMTPD's control socket
//     (/run/smtpd.sock) and pid file are the test's own, so another
//     OpenSMTPD on the machine, a system one or another test's, is neither
//     seen nor disturbed;
//   - /var/spool is the test's folder spool/: the queue (/var/spool/smtpd,
//     which smtpd creates with its owners) is the test's own;
//   - /etc/resolv.conf names only 127.0.0.1: OpenSMTPD looks up the name of
//     every connecting client, and with the machine's resolver that query
//     leaves loopback (and, with no network, stalls each connection for a
//     fraction of a second). On loopback it fails at once and smtpd falls
//     back to /etc/hosts.
//
// unshare and the shell exec smtpd, so the leader is smtpd itself, and
// smtpctl reaches the namespace through its pid.
func (o *opensmtpd) privateRuntime(argv []string) ([]string, error) {
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		return nil, fmt.Errorf("mailtest: opensmtpd needs unshare (Debian package util-linux) for a private runtime: %w", err)
	}
	conf := filepath.Join(o.dir, "resolv.conf")
	if err := os.WriteFile(conf, []byte("nameserver 127.0.0.1\noptions timeout:1 attempts:1\n"), 0o644); err != nil {
		return nil, err
	}
	run, spool := filepath.Join(o.dir, "run"), filepath.Join(o.dir, "spool")
	for _, d := range []string{run, spool} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	quote := func(a string) string { return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'" }
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = quote(a)
	}
	script := fmt.Sprintf("mount --bind %s /etc/resolv.conf && mount --bind %s /run && mount --bind %s /var/spool && exec %s",
		quote(conf), quote(run), quote(spool), strings.Join(quoted, " "))
	return []string{unshare, "--mount", "--propagation", "private", "/bin/sh", "-c", script}, nil
}
