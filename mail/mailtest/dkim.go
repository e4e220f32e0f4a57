package mailtest

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// dkimsignBin is OpenSMTPD's DKIM signing filter (Debian package
// opensmtpd-filter-dkimsign).
const dkimsignBin = "/usr/libexec/opensmtpd/filter-dkimsign"

// DKIMSigner is a mail provider's DKIM signing, as OpenSMTPD's
// filter-dkimsign does it on a port of a real stack of its own: every
// message taken there is signed with Key for Domain before it is
// delivered.
type DKIMSigner struct {
	Domain   string // d=
	Selector string // s=: the key is published at SELECTOR._domainkey.DOMAIN
	Key      *rsa.PrivateKey
	// Headers are the header fields signed (h=); nil: filter-dkimsign's
	// default, which leaves Message-ID out.
	Headers []string
}

// DKIMStack is a real stack whose OpenSMTPD also takes mail on a port of
// each of its signers, where it signs it with DKIM, as a player's mail
// provider signs what the player sends.
type DKIMStack struct {
	*realStack
}

// RealDKIM is Real with a signing port for each of signers. It skips the
// test (fails it when CI is "true") when filter-dkimsign is not
// installed.
func RealDKIM(t testing.TB, signers ...DKIMSigner) *DKIMStack {
	t.Helper()
	checkSystem(t)
	if _, err := os.Stat(dkimsignBin); err != nil {
		unavailable(t, "OpenSMTPD's DKIM filter is not installed: apt-get install opensmtpd-filter-dkimsign (bash .ci/run does this)")
	}
	r, err := startReal(context.Background(), signers)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			r.logTails(t)
		}
		if err := r.close(); err != nil {
			t.Error(err)
		}
	})
	return &DKIMStack{realStack: r}
}

// SigningAddr is the port, host:port, where the stack signs mail as
// signer i (in the order RealDKIM was given them) before delivering it.
func (s *DKIMStack) SigningAddr(i int) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.smtpd.signing[i]))
}

// SubmitSigned hands a message to the MTA on signer i's port, where it is
// signed, as a player's provider signs the mail the player sends.
func (s *DKIMStack) SubmitSigned(t testing.TB, i int, from string, to []string, raw []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	if err := submit(ctx, s.SigningAddr(i), from, to, raw); err != nil {
		t.Fatal(err)
	}
}

// signingListeners writes the filter and the listener of each signer to
// conf, with its key in a file of the stack's folder, and takes a port
// for each.
func (o *opensmtpd) signingListeners(conf *strings.Builder, signers []DKIMSigner) error {
	for i, s := range signers {
		port, err := freePort()
		if err != nil {
			return err
		}
		o.signing = append(o.signing, port)
		der, err := x509.MarshalPKCS8PrivateKey(s.Key)
		if err != nil {
			return fmt.Errorf("mailtest: dkim key of %s: %w", s.Domain, err)
		}
		keyFile := filepath.Join(o.dir, fmt.Sprintf("dkim%d.key", i))
		// The filter runs unprivileged: a test key may be read by all.
		if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o644); err != nil {
			return fmt.Errorf("mailtest: dkim key of %s: %w", s.Domain, err)
		}
		args := fmt.Sprintf("%s -c relaxed/relaxed -d %s -s %s -k %s", dkimsignBin, s.Domain, s.Selector, keyFile)
		if s.Headers != nil {
			args += " -h " + strings.ToLower(strings.Join(s.Headers, ":"))
		}
		fmt.Fprintf(conf, "filter \"dkim%d\" proc-exec %q\n", i, args)
		fmt.Fprintf(conf, "listen on 127.0.0.1 port %d filter \"dkim%d\"\n", port, i)
	}
	return nil
}
