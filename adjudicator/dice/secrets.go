package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"slices"
)

// SealedCommitment returns S = SHA-256("umpire-sealed-v2" || sealed root),
// published at game creation.
func SealedCommitment(root Hash) Hash {
	b := make([]byte, 0, len(tagSealed)+32)
	b = append(b, tagSealed...)
	b = append(b, root[:]...)
	return sha256.Sum256(b)
}

// StreamKey returns s(k, n) = HMAC(sealed root, "umpire-key-v2" || u64be(k)
// || lp(n)), the key of hidden stream n in step k. Keys are independent:
// knowing any set of them tells nothing of another or of the root.
func StreamKey(root Hash, k uint64, name string) Hash {
	mac := hmac.New(sha256.New, root[:])
	b := make([]byte, 0, len(tagKey)+8+4+len(name))
	b = append(b, tagKey...)
	b = appendU64(b, k)
	b = appendLP(b, name)
	mac.Write(b)
	var out Hash
	mac.Sum(out[:0])
	return out
}

// checkStreamName reports whether name may name a hidden stream: 1 to 64
// bytes of a-z 0-9 '-', not starting with '-', and not "open".
func checkStreamName(name string) error {
	if len(name) < 1 || len(name) > maxNameBytes {
		return fmt.Errorf("%w: stream name %q: 1 to %d bytes", errBadStream, name, maxNameBytes)
	}
	if name == Open {
		return fmt.Errorf("%w: %q is the open stream, not a hidden one", errBadStream, name)
	}
	if name[0] == '-' {
		return fmt.Errorf("%w: stream name %q starts with '-'", errBadStream, name)
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Errorf("%w: stream name %q: only a-z, 0-9 and '-'", errBadStream, name)
		}
	}
	return nil
}

// SetStreams sets the header's hidden streams to names sorted bytewise,
// checking each and that they are distinct and at most 1024.
func (h *Header) SetStreams(names []string) error {
	out, err := sortStreams(names)
	if err != nil {
		return err
	}
	h.Streams = out
	return nil
}

// sortStreams returns the names sorted bytewise, checking each and that
// they are distinct and at most 1024.
func sortStreams(names []string) ([]string, error) {
	out := slices.Clone(names)
	slices.Sort(out)
	if len(out) > maxStreams {
		return nil, fmt.Errorf("%w: %d hidden streams, at most %d", errBadStream, len(out), maxStreams)
	}
	for i, n := range out {
		if err := checkStreamName(n); err != nil {
			return nil, err
		}
		if i > 0 && out[i-1] == n {
			return nil, fmt.Errorf("%w: stream %q named twice", errBadStream, n)
		}
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}
