package signature

import (
	"encoding/base64"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// SignSSH makes an armored SSH signature of data in namespace, as
// `ssh-keygen -Y sign -n NAMESPACE` does (OpenSSH PROTOCOL.sshsig, SHA-512).
// umpire's demo players sign with it; real players use ssh-keygen.
func SignSSH(signer ssh.Signer, namespace string, data []byte) ([]byte, error) {
	s := &sshSignature{pub: signer.PublicKey(), namespace: namespace, hashAlg: "sha512"}
	var sig *ssh.Signature
	var err error
	if as, ok := signer.(ssh.AlgorithmSigner); ok && signer.PublicKey().Type() == ssh.KeyAlgoRSA {
		sig, err = as.SignWithAlgorithm(nil, s.signedData(data), ssh.KeyAlgoRSASHA512) // never SHA-1
	} else {
		sig, err = signer.Sign(nil, s.signedData(data))
	}
	if err != nil {
		return nil, fmt.Errorf("ssh signature: %w", err)
	}
	blob := []byte(sshsigMagic)
	blob = append(blob, 0, 0, 0, sshsigVersion)
	blob = appendSSHString(blob, signer.PublicKey().Marshal())
	blob = appendSSHString(blob, []byte(namespace))
	blob = appendSSHString(blob, nil)
	blob = appendSSHString(blob, []byte("sha512"))
	blob = appendSSHString(blob, ssh.Marshal(sig))
	enc := base64.StdEncoding.EncodeToString(blob)
	var b strings.Builder
	b.WriteString(sshBegin + "\n")
	for len(enc) > 70 {
		b.WriteString(enc[:70] + "\n")
		enc = enc[70:]
	}
	b.WriteString(enc + "\n" + sshEnd + "\n")
	return []byte(b.String()), nil
}
