//go:build integration

package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// The tests of this file, and the inbox tests' runs on the stack it adds,
// take mail from the real Dovecot and OpenSMTPD: they are integration
// tests (go test -tags integration; bash .ci/run sets it).

// servers are the real mail servers this package's tests take in turn;
// TestMain sets it before any test runs.
var servers *mailtest.Shared

func TestMain(m *testing.M) {
	servers = mailtest.NewShared()
	stacks = append(stacks, servers.Stack)
	code := m.Run()
	if err := servers.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = max(code, 1)
	}
	os.Exit(code)
}

// TestInboxStartTLSRealDovecot takes mail from the real Dovecot over
// STARTTLS: with its certificate trusted every message is handled; with a
// certificate nobody vouches for the inbox logs in to nothing and says why.
func TestInboxStartTLSRealDovecot(t *testing.T) {
	t.Parallel()
	st := startStack(t, servers.Stack)
	roots := st.(mailtest.TLSRoots).RootCAs()
	_, otherPool := testCA(t)
	deliver(t, st, 1, 2, "x")
	open := func(roots *x509.CertPool) (*memHandler, error) {
		h := newMemHandler()
		in, err := NewInbox(InboxConfig{Server: Server{Address: st.IMAPAddr(), Security: StartTLS, Username: judgeAddr, Password: judgePass,
			TLS: &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"}, Timeout: 10 * time.Second}}, h, h)
		if err != nil {
			t.Fatal(err)
		}
		return h, in.Once(context.Background())
	}
	if h, err := open(otherPool); err == nil || !strings.Contains(err.Error(), "certificate") || h.count() != 0 {
		t.Errorf("an untrusted certificate: %v, %d handled", err, h.count())
	}
	if h, err := open(roots); err != nil || h.count() != 2 {
		t.Errorf("over STARTTLS: %v, %d handled", err, h.count())
	}
}
