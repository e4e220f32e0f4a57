package mailtest

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// installHint tells a developer how to get the real servers.
const installHint = "apt-get install dovecot-imapd dovecot-lmtpd opensmtpd (bash .ci/run does this)"

// vmailUser owns the maildirs: Dovecot refuses to run mail processes as root
// and OpenSMTPD refuses to deliver as root.
const vmailUser = "vmail"

// binary is a program Real runs and the Debian package that installs it.
type binary struct{ path, pkg string }

func binaries() []binary {
	return []binary{
		{dovecotBin, "dovecot-core"},
		{"/usr/lib/dovecot/imap", "dovecot-imapd"},
		{"/usr/lib/dovecot/lmtp", "dovecot-lmtpd"},
		{smtpdBin, "opensmtpd"},
		{smtpctlBin, "opensmtpd"},
	}
}

// unavailable ends a test that cannot have a real stack with msg: a failure
// in CI, where the stack must be there, a skip elsewhere.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	} else {
		t.Skip(msg)
	}
}

// checkSystem ends the test unless the real servers can run here.
func checkSystem(t testing.TB) {
	t.Helper()
	var missing []string
	for _, b := range binaries() {
		if _, err := os.Stat(b.path); err != nil && !slices.Contains(missing, b.pkg) {
			missing = append(missing, b.pkg)
		}
	}
	if len(missing) > 0 {
		unavailable(t, "real mail servers not installed: %s; missing: %s", installHint, strings.Join(missing, ", "))
	}
	if os.Geteuid() != 0 {
		unavailable(t, "mailtest: real mail servers need root (Dovecot and OpenSMTPD drop privileges themselves)")
	}
}

// ensureVmail returns the uid and gid of the vmail user, creating it as an
// unprivileged system user without a home if it does not exist.
func ensureVmail() (uid, gid int, err error) {
	u, err := user.Lookup(vmailUser)
	if err != nil {
		out, addErr := exec.Command("useradd", "--system", "--no-create-home",
			"--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", vmailUser).CombinedOutput()
		// Another test process may have created it meanwhile: look again.
		if u, err = user.Lookup(vmailUser); err != nil {
			return 0, 0, fmt.Errorf("mailtest: create user %s: %v: %s", vmailUser, addErr, out)
		}
	}
	if uid, err = strconv.Atoi(u.Uid); err != nil {
		return 0, 0, fmt.Errorf("mailtest: user %s: uid %q: %w", vmailUser, u.Uid, err)
	}
	if gid, err = strconv.Atoi(u.Gid); err != nil {
		return 0, 0, fmt.Errorf("mailtest: user %s: gid %q: %w", vmailUser, u.Gid, err)
	}
	if uid == 0 {
		return 0, 0, fmt.Errorf("mailtest: user %s has uid 0", vmailUser)
	}
	return uid, gid, nil
}
