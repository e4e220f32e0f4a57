package message

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keyset is the keys a verification may use: a GnuPG home and the SSH
// public keys allowed, by identity.
type keyset struct {
	gpg *gpgHome
	ssh map[string][]byte
}

// readCorpusFile reads a file of the corpus folder.
func readCorpusFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// corpusKeysets returns the keys of the players who hold seats, and those
// plus the unknown signer's.
func corpusKeysets(t *testing.T) (known, all keyset) {
	t.Helper()
	known = keyset{gpg: newGPG(t), ssh: map[string][]byte{"bob@players.test": readCorpusFile(t, "keys/bob.pub")}}
	known.gpg.run(readCorpusFile(t, "keys/alice.asc"), "--import")
	all = keyset{gpg: newGPG(t), ssh: map[string][]byte{
		"bob@players.test":     readCorpusFile(t, "keys/bob.pub"),
		"mallory@players.test": readCorpusFile(t, "keys/unknown/mallory-ssh.pub"),
	}}
	all.gpg.run(readCorpusFile(t, "keys/alice.asc"), "--import")
	all.gpg.run(readCorpusFile(t, "keys/unknown/mallory.asc"), "--import")
	return known, all
}

// verifyExtracted checks every signed form m exposes with the real gpg and
// ssh-keygen, using the bytes Parse extracted exactly as the intake will
// be told to: Signed.Part and Signed.Signature for PGP/MIME, RawText for
// inline signatures, Attachment.Data for detached ones. It reports
// whether any form verifies with the keys of ks.
func verifyExtracted(t *testing.T, m *Message, ks keyset) bool {
	t.Helper()
	if m.Signed != nil {
		if ok, _ := ks.gpg.verify(m.Signed.Signature, m.Signed.Part); ok {
			return true
		}
	}
	if hasLinePrefix(string(m.RawText), "-----BEGIN PGP SIGNED MESSAGE-----") {
		if ok, _ := ks.gpg.verify(m.RawText, nil); ok {
			return true
		}
	}
	if i := bytes.Index(m.RawText, []byte("-----BEGIN SSH SIGNATURE-----")); i >= 0 {
		sig, text := toLF(m.RawText[i:]), m.RawText[:i]
		for _, v := range [][]byte{text, bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))} {
			if _, known := sshVerify(t, sig, v, ks.ssh); known {
				return true
			}
		}
	}
	if sig, data, ok := detachedPair(m); ok {
		if bytes.HasPrefix(sig.Data, []byte("-----BEGIN SSH SIGNATURE-----")) {
			if _, known := sshVerify(t, toLF(sig.Data), data.Data, ks.ssh); known {
				return true
			}
		} else if ok, _ := ks.gpg.verify(sig.Data, data.Data); ok {
			return true
		}
	}
	for _, f := range m.Forwarded {
		if verifyExtracted(t, f, ks) {
			return true
		}
	}
	return false
}

// TestCorpusSignatures checks, with the real gpg and ssh-keygen, that the
// bytes Parse extracts from each signed corpus message are exactly the
// bytes that were signed: good orders verify with the seat holders' keys,
// unknown-key orders verify only with the unknown signer's key added, and
// bad signatures verify with no key. This keeps the manifest honest and
// proves the raw-byte extraction (PGP/MIME part, RawText, attachments).
func TestCorpusSignatures(t *testing.T) {
	needTools(t)
	known, all := corpusKeysets(t)
	for _, e := range readManifest(t) {
		switch e.treatment {
		case "orders", "bad-signature", "unknown-key":
		case "command-signed", "command-refused", "replayed", "weak-signature":
			e.treatment = "orders" // signed by alice, who is known
		default:
			continue
		}
		t.Run(e.file, func(t *testing.T) {
			m, err := Parse(readCorpusFile(t, e.file), DefaultLimits())
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			okKnown, okAll := verifyExtracted(t, m, known), verifyExtracted(t, m, all)
			switch e.treatment {
			case "orders":
				if !okKnown {
					t.Error("no extracted signature verifies with the seat holders' keys")
				}
			case "unknown-key":
				if okKnown || !okAll {
					t.Errorf("verifies with known keys %v, with the unknown key added %v; want false, true", okKnown, okAll)
				}
			case "bad-signature":
				if okAll {
					t.Error("a bad signature verifies")
				}
			}
		})
	}
}

// TestRawTextIsWhatWasSigned shows why RawText exists: a clear-signed
// order file in Windows-1252 verifies over the bytes as sent, not over the
// UTF-8 Text the judge reads.
func TestRawTextIsWhatWasSigned(t *testing.T) {
	needTools(t)
	known, _ := corpusKeysets(t)
	m, err := Parse(readCorpusFile(t, "orders-cp1252-quotes.eml"), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, "# “hold” the bridge – don’t retreat") {
		t.Errorf("Text %q lacks the comment converted to UTF-8", m.Text)
	}
	if ok, msg := known.gpg.verify(m.RawText, nil); !ok {
		t.Errorf("RawText does not verify: %s", msg)
	}
	if ok, _ := known.gpg.verify([]byte(m.Text), nil); ok {
		t.Error("the UTF-8 Text verifies too; the test no longer shows the difference")
	}
}

// toLF turns CRLF into LF. ssh-keygen reads only LF armor, and a 7bit
// signature attachment or pasted block arrives with CRLF from the wire;
// the signature package accepts both.
func toLF(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }
