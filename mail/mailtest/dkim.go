package mailtest

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
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
	r, err := startReal(context.Background(), realOptions{signers: signers})
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

// SignDKIMLength signs raw, a message with CRLF line ends, as s with a
// DKIM signature (simple/simple) whose body hash covers only the body's
// first n bytes (l=n), as no good signer does and go-msgauth will not:
// the signature a forger who appends to a message hopes for. It is made
// by hand, after RFC 6376 3.7, over From, Subject, Date, Message-ID and
// To.
func SignDKIMLength(raw []byte, s DKIMSigner, n int) ([]byte, error) {
	head, body, ok := bytes.Cut(raw, []byte("\r\n\r\n"))
	if !ok {
		return nil, errors.New("mailtest: no end of header")
	}
	canon := append(bytes.Clone(bytes.TrimRight(body, "\r\n")), "\r\n"...)
	if n > len(canon) {
		return nil, fmt.Errorf("mailtest: l=%d is more than the body's %d bytes", n, len(canon))
	}
	bh := sha256.Sum256(canon[:n])
	names := []string{"from", "subject", "date", "message-id", "to"}
	field := fmt.Sprintf("DKIM-Signature: v=1; a=rsa-sha256; c=simple/simple; d=%s; s=%s; h=%s; l=%d; bh=%s; b=",
		s.Domain, s.Selector, strings.Join(names, ":"), n, base64.StdEncoding.EncodeToString(bh[:]))
	lines := strings.Split(string(head), "\r\n")
	h := sha256.New()
	for _, name := range names {
		for _, l := range lines {
			if strings.HasPrefix(strings.ToLower(l), name+":") {
				h.Write([]byte(l + "\r\n"))
				break
			}
		}
	}
	h.Write([]byte(field))
	sig, err := rsa.SignPKCS1v15(rand.Reader, s.Key, crypto.SHA256, h.Sum(nil))
	if err != nil {
		return nil, fmt.Errorf("mailtest: %w", err)
	}
	return append([]byte(field+base64.StdEncoding.EncodeToString(sig)+"\r\n"), raw...), nil
}

// Resendable is a delivered message without the header fields its
// delivery added (Return-Path, Delivered-To, Received), which would make
// the MTA see a loop when it is sent again: a message as a server on the
// way hands it on.
func Resendable(raw []byte) []byte {
	head, body, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
	var kept []string
	drop := false
	for _, l := range strings.Split(string(head), "\r\n") {
		if l != "" && l[0] != ' ' && l[0] != '\t' {
			name, _, _ := strings.Cut(strings.ToLower(l), ":")
			drop = name == "return-path" || name == "delivered-to" || name == "received"
		}
		if !drop {
			kept = append(kept, l)
		}
	}
	return append([]byte(strings.Join(kept, "\r\n")+"\r\n\r\n"), body...)
}

// DKIMRecord is the DNS TXT record that publishes k as a DKIM key.
func DKIMRecord(k *rsa.PrivateKey) string {
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		panic(err) // an RSA key always marshals
	}
	return "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(der)
}
