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

// OpenSMTPD's programs and the one control socket every instance on the
// machine uses; its queue, /var/spool/smtpd, is shared as well.
const (
	smtpdBin      = "/usr/sbin/smtpd"
	smtpctlBin    = "/usr/sbin/smtpctl"
	smtpdSocket   = "/var/run/smtpd.sock"
	smtpdLockName = "umpire-mailtest-opensmtpd.lock"
	tempPrefix    = "umpire-mailtest-"
	lockTimeout   = 3 * time.Minute
)

// opensmtpd is the MTA of a real stack: it takes mail for the test domains
// on a loopback port and hands it to Dovecot over LMTP. Only one can run
// per machine, so it holds a lock file while it exists.
type opensmtpd struct {
	dir  string
	port int
	lock *fileLock // held from acquire to release
	proc *process  // nil while stopped
}

// newOpenSMTPD writes and checks the configuration under dir.
func newOpenSMTPD(dir, lmtpAddr string) (*opensmtpd, error) {
	o := &opensmtpd{dir: dir}
	var err error
	if o.port, err = freePort(); err != nil {
		return nil, err
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

// acquire takes the machine-wide lock and makes sure no other OpenSMTPD
// runs: one left behind by a crashed run of these tests is stopped, any
// other is errSMTPDBusy.
func (o *opensmtpd) acquire(ctx context.Context, waiting func()) error {
	ctx, cancel := context.WithTimeout(ctx, lockTimeout)
	defer cancel()
	lock, err := lockFile(ctx, filepath.Join(os.TempDir(), smtpdLockName), waiting)
	if err != nil {
		return err
	}
	if controlSocketLive() {
		stopOrphanSMTPDs()
	}
	if controlSocketLive() {
		lock.unlock()
		return errSMTPDBusy
	}
	o.lock = lock
	return nil
}

// release gives the lock back.
func (o *opensmtpd) release() {
	if o.lock != nil {
		o.lock.unlock()
		o.lock = nil
	}
}

// start runs OpenSMTPD in the foreground and waits for its greeting. With
// purge, deliveries are paused until envelopes left in the shared queue by
// earlier runs of these tests (any recipient in the reserved .test domain)
// have been removed; mail for other domains there is errForeignQueue.
func (o *opensmtpd) start(ctx context.Context, purge bool) error {
	argv := []string{smtpdBin, "-d", "-f", o.confPath()}
	if purge {
		argv = []string{smtpdBin, "-d", "-P", "mda", "-f", o.confPath()}
	}
	argv, err := o.loopbackResolver(argv)
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
		err = waitControl(ctx, p.done)
	}
	if err == nil && purge {
		err = purgeQueue(ctx)
		if err == nil {
			_, err = smtpctl(ctx, "resume", "mda")
		}
	}
	if err != nil {
		p.stop()
		return fmt.Errorf("mailtest: opensmtpd: %w", err)
	}
	o.proc = p
	return nil
}

// stop stops OpenSMTPD and its helper processes. With clean, the envelopes
// still queued (all from this test) are removed first.
func (o *opensmtpd) stop(clean bool) error {
	if o.proc == nil {
		return nil
	}
	var cleanErr error
	if clean {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		_, cleanErr = smtpctl(ctx, "remove", "all")
		cancel()
	}
	err := o.proc.stop()
	o.proc = nil
	return errors.Join(cleanErr, err)
}

// smtpctl runs OpenSMTPD's control program.
func smtpctl(ctx context.Context, args ...string) ([]byte, error) {
	out, err := exec.CommandContext(ctx, smtpctlBin, args...).CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("smtpctl %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return out, nil
}

// waitControl polls until smtpctl can talk to the new OpenSMTPD.
func waitControl(ctx context.Context, exited <-chan struct{}) error {
	for {
		_, err := smtpctl(ctx, "show", "queue")
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-exited:
			return errors.New("smtpd exited")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// purgeQueue removes the queued envelopes addressed to .test domains and
// fails if others are queued. Lines of "smtpctl show queue" are
// evpid|proto|type|flags|sender|rcpt|dest|...
func purgeQueue(ctx context.Context) error {
	out, err := smtpctl(ctx, "show", "queue")
	if err != nil {
		return err
	}
	foreign := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "|")
		if len(fields) < 7 {
			continue
		}
		if !strings.HasSuffix(strings.ToLower(fields[5]), ".test") {
			foreign++
			continue
		}
		if _, err := smtpctl(ctx, "remove", fields[0]); err != nil {
			return err
		}
	}
	if foreign > 0 {
		return fmt.Errorf("%w (%d envelopes)", errForeignQueue, foreign)
	}
	return nil
}

// controlSocketLive reports whether an OpenSMTPD answers on the control
// socket.
func controlSocketLive() bool {
	c, err := net.DialTimeout("unix", smtpdSocket, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// stopOrphanSMTPDs stops OpenSMTPD instances started by this package in a
// test process that died without cleaning up: their configuration lies in a
// folder named tempPrefix*. The caller holds the lock, so no live test owns
// them.
func stopOrphanSMTPDs() {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		args := strings.Fields(cmdline(pid))
		if len(args) < 3 || filepath.Base(args[0]) != "smtpd" ||
			!strings.HasPrefix(filepath.Base(filepath.Dir(args[len(args)-1])), tempPrefix) {
			continue
		}
		if _, pgid, err := procStat(pid); err == nil && pgid == pid && alive(pid) {
			_ = stopGroup(pid)
		}
	}
}

// loopbackResolver wraps argv so that smtpd runs in a mount namespace of its
// own whose /etc/resolv.conf names only 127.0.0.1. OpenSMTPD looks up the
// name of every connecting client; with the machine's resolver that query
// leaves loopback (and, with no network, stalls each connection for a
// fraction of a second). On loopback it fails at once and smtpd falls back
// to /etc/hosts. The shell execs smtpd, so the process keeps its name.
func (o *opensmtpd) loopbackResolver(argv []string) ([]string, error) {
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		return nil, fmt.Errorf("mailtest: opensmtpd needs unshare (Debian package util-linux) to keep its DNS lookups on loopback: %w", err)
	}
	conf := filepath.Join(o.dir, "resolv.conf")
	if err := os.WriteFile(conf, []byte("nameserver 127.0.0.1\noptions timeout:1 attempts:1\n"), 0o644); err != nil {
		return nil, err
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	script := fmt.Sprintf("mount --bind '%s' /etc/resolv.conf && exec %s", conf, strings.Join(quoted, " "))
	return []string{unshare, "--mount", "--propagation", "private", "/bin/sh", "-c", script}, nil
}
