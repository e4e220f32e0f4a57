package mail

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// testCA makes a certificate for 127.0.0.1 and localhost and the pool that
// trusts it.
func testCA(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "umpire test mail server"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

func TestOutboxTLS(t *testing.T) {
	cert, pool := testCA(t)
	_, otherPool := testCA(t)
	for _, sec := range []Security{StartTLS, ImplicitTLS} {
		t.Run(string(sec), func(t *testing.T) {
			r := newRecorder(t)
			r.stop()
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			r.addr = l.Addr().String()
			r.tls = &tls.Config{Certificates: []tls.Certificate{cert}}
			if sec == ImplicitTLS {
				l = tls.NewListener(l, r.tls)
			}
			r.start(l) // AUTH only over TLS
			t.Cleanup(r.stop)

			send := func(roots *x509.CertPool) (*memQueue, string) {
				q := newMemQueue(mailTo(1, "alice@players.test"))
				clock := testNow
				o, err := NewOutbox(OutboxConfig{Server: Server{Address: r.addr, Security: sec, Username: "judge@umpire.test",
					Password: "secret", TLS: &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"}, Timeout: 5 * time.Second},
					Now: func() time.Time { return clock }}, q)
				if err != nil {
					t.Fatal(err)
				}
				o.Drain(context.Background())
				state, reason, _ := q.get(1)
				return q, state + " " + reason
			}
			if _, got := send(pool); !strings.HasPrefix(got, "sent") {
				t.Errorf("over %s with a trusted certificate: %s", sec, got)
			}
			if len(r.received()) != 1 {
				t.Errorf("%d mails arrived", len(r.received()))
			}
			// A server whose certificate nobody vouches for gets nothing,
			// least of all the password; the mail waits.
			if _, got := send(otherPool); !strings.HasPrefix(got, "queued") || !strings.Contains(got, "certificate") {
				t.Errorf("over %s with an untrusted certificate: %s", sec, got)
			}
		})
	}
}

func TestInboxImplicitTLS(t *testing.T) {
	cert, pool := testCA(t)
	_, otherPool := testCA(t)
	st := startStack(t, mailtest.Embedded)
	deliver(t, st, 1, 2, "x")
	addr := mailtest.TLSFront(t, st.IMAPAddr(), cert)
	open := func(roots *x509.CertPool) (*memHandler, error) {
		h := newMemHandler()
		in, err := NewInbox(InboxConfig{Server: Server{Address: addr, Security: ImplicitTLS, Username: judgeAddr, Password: judgePass,
			TLS: &tls.Config{RootCAs: roots, ServerName: "127.0.0.1"}, Timeout: 5 * time.Second}}, h, h)
		if err != nil {
			t.Fatal(err)
		}
		return h, in.Once(context.Background())
	}
	if h, err := open(otherPool); err == nil || !strings.Contains(err.Error(), "certificate") || h.count() != 0 {
		t.Errorf("an untrusted certificate: %v, %d handled", err, h.count())
	}
	if h, err := open(pool); err != nil || h.count() != 2 {
		t.Errorf("over TLS: %v, %d handled", err, h.count())
	}
}
