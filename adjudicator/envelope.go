package adjudicator

import "time"

// Envelope is an incoming message as intake sees it: parsed, classified, and
// with its signature checked against the keys the judge knows. The mail side
// fills it in; intake never sees raw MIME.
type Envelope struct {
	MessageID  string // without <>; "" if the message had none
	From       string // reply address; never proof of identity
	Subject    string
	References []string
	Received   time.Time

	// Automatic is why the message is automatic mail (an auto-reply, a
	// list, a bounce, our own mail), or "". Automatic mail is never
	// answered.
	Automatic string
	Bounce    *Bounce // a delivery report about the judge's own mail

	// Unreadable is why the message could not be read at all, or "".
	Unreadable string
	// TooLarge is set when the message exceeds Limit bytes (Size), or
	// when one of its parts is too large: TooLargeWhy then says which.
	TooLarge    bool
	TooLargeWhy string
	Size, Limit int64
	// HTMLOnly is set when the message has no plain-text part.
	HTMLOnly bool
	// Client is the section of SigningPage for the mail program the
	// message seems to come from ("thunderbird"; one of MailClients),
	// guessed by the mail side from its User-Agent or X-Mailer and its
	// shape; "" when it cannot tell. Answers about signing point there,
	// and the answers to an HTML-only message and to a signature that does
	// not match name the program and its one setting (ClientFor).
	Client string

	Text string // the plain-text body

	// Signed is the verified signature, when there is one that verifies.
	Signed *Signature
	// SignatureProblem says why a signature that is present did not
	// verify, for the player; UnknownKey names the key when the signature
	// is good but the key is not one the judge knows.
	SignatureProblem string
	UnknownKey       string
	// KeyProblem says why a good signature is not accepted: its key has
	// expired or was revoked, or the signature or key is too weak (SHA-1,
	// small RSA, DSA).
	KeyProblem string
	// DKIM is the From address as a DKIM signature of its domain vouches
	// for it (Kind "dkim", Fingerprint DKIMHolder(address), Content the
	// message's text, Signed its body as received), for a message that no
	// key signed; DKIMProblem says instead why its DKIM signatures vouch
	// for nothing. Either counts only in a game whose file allows
	// identity = "dkim" (dkim.go); elsewhere the message is unsigned.
	DKIM        *Signature
	DKIMProblem string
	// NewKey is the signer's public key when the judge did not know it and
	// the message carried it as an attachment: a new player's "join", or a
	// new game master's "create". For anything else the key is unknown.
	NewKey *NewKey
	// KeyNote, when set, tells the sender what the judge did with a key
	// the message brought (an update of a known key merged, a revocation
	// honoured); every answer to the message starts with it.
	KeyNote string
}

// NewKey is a public key a message brought with it.
type NewKey struct {
	Fingerprint string
	Kind        string
	Public      []byte
}

// Signature is a verified signature: who signed and exactly what.
type Signature struct {
	Kind        string // "openpgp", "ssh" or "dkim"
	Fingerprint string // a key's fingerprint, or DKIMHolder(address)
	Content     string // the signed text, as the player wrote it
	Signed      []byte // the exact bytes the signature covers (DKIM: the body)
}
