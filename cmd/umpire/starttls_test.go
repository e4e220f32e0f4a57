//go:build integration

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// TestServeIMAPOverSTARTTLS: the judge reads its mailbox from the real
// Dovecot over STARTTLS, trusting the server's certificate through
// imap.ca_file, and answers; a ca_file that holds no certificate is a
// configuration error.
func TestServeIMAPOverSTARTTLS(t *testing.T) {
	t.Parallel()
	st := mailtest.Real(t)
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	st.AddUser(t, "alice@players.test", "pw")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "umpire.toml")
	write := func(ca string) {
		os.WriteFile(cfg, []byte(fmt.Sprintf("store = %q\naddress = %q\n[imap]\naddress = %q\nsecurity = \"starttls\"\nca_file = %q\nusername = %q\npassword = %q\n[smtp]\naddress = %q\nsecurity = \"none\"\n",
			filepath.Join(dir, "umpire.db"), daemontest.JudgeAddress, st.IMAPAddr(), ca, daemontest.JudgeAddress, daemontest.JudgePassword, st.SMTPAddr())), 0o600)
	}
	write(st.(mailtest.TLSRoots).CertFile())
	st.Submit(t, "alice@players.test", []string{daemontest.JudgeAddress}, []byte("From: alice@players.test\r\nTo: "+daemontest.JudgeAddress+"\r\nSubject: help\r\nMessage-ID: <h1@players.test>\r\n\r\nhelp\r\n"))
	st.WaitFor(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX", 1, 20*time.Second)
	if code, out, errOut := run(t, "serve", "--once", "--config", cfg); code != exitOK {
		t.Fatalf("serve over STARTTLS: exit %d\n%s\n%s", code, out, errOut)
	}
	got := st.WaitFor(t, "alice@players.test", "pw", "INBOX", 1, 20*time.Second)
	if !strings.Contains(string(got[0]), "Sign it with any of") {
		t.Errorf("the answer to help:\n%s", got[0])
	}
	notPEM := filepath.Join(dir, "ca.pem")
	os.WriteFile(notPEM, []byte("not a certificate"), 0o644)
	write(notPEM)
	if code, _, errOut := run(t, "serve", "--once", "--config", cfg); code != exitUsage || !strings.Contains(errOut, "imap.ca_file") {
		t.Errorf("a ca_file without a certificate: exit %d: %s", code, errOut)
	}
}
