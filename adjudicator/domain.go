package adjudicator

import (
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// Game is a hosted game.
type Game struct {
	ID       string
	Kind     string // the rules package, such as "wbt"
	Title    string
	Status   string // "forming", "running", "paused", "ended"
	GMKey    string // fingerprint of the game master's key
	Step     uint64 // the step open for orders; 0 before the game starts
	Scenario string
	File     []byte // the game file it was created from
	Created  time.Time
	// Resumed is when the game was last resumed after a pause; the
	// safety brake counts only the steps adjudicated since.
	Resumed time.Time
	// NoObservers is set while the game master forbids observers.
	NoObservers bool
}

// The statuses of a game.
const (
	Forming = "forming"
	Running = "running"
	Paused  = "paused"
	Ended   = "ended"
)

// Seat is a side of a game and the key that holds it now.
type Seat struct {
	Game   string
	Name   string
	Holder string // fingerprint of the current holder's key; "" if vacant
	// Join is the SHA-256 of the signed join by which the holder took the
	// seat (the seat's contribution to an umpire-dice-v3 start record);
	// zero when it took it otherwise (the operator's console).
	Join dice.Hash
	// Pending is the key asking to join, waiting for the game master's
	// approval (games with join_approval); PendingJoin the SHA-256 of its
	// signed join.
	Pending     string
	PendingJoin dice.Hash
	// Excused counts the missed steps the judge waited for this seat.
	Excused int
	// AbsentFrom and AbsentUntil bound the holder's declared absence;
	// AbsenceDays counts the days declared so far.
	AbsentFrom, AbsentUntil time.Time
	AbsenceDays             int
}

// StepRecord is one step of a hosted game: open for orders, then closed
// when adjudicated. State is the game's state when the step opened, the
// input of its adjudication.
type StepRecord struct {
	Game     string
	Number   uint64
	Phase    string
	Status   string // "open", "closed", "rolled-back" (closed unadjudicated), "over" (the final state of an ended game)
	Opened   time.Time
	Deadline time.Time
	Closed   time.Time
	Owing    []string
	NoOrders map[string]string
	Ready    []string          // seats that said they are ready
	Used     map[string]uint64 // order file version adjudicated, per seat
	// Repeated names, per seat without orders whose default is "repeat",
	// the order file used again: the step and version it was sent for.
	Repeated map[string]OrderRef
	Orders   []dice.Hash   // digests of those order files (D_k's input)
	Extended bool          // the grace period was added once
	Reminded int           // reminders sent
	Paused   time.Duration // time left when the game was paused
	// RestoredFrom names the step whose opening state a rollback restored
	// into this step (0 when the step follows the one before).
	RestoredFrom uint64
	State        []byte
	// Dice is what an umpire-dice-v2 or -v3 step's dice are bound to,
	// fixed when the step closes; nil for v1 games and open steps.
	Dice *StepDice `json:",omitempty"`
}

// The statuses of a step.
const (
	StepOpen       = "open"
	StepWaiting    = "waiting" // closed, waiting for its beacon round
	StepClosed     = "closed"
	StepRolledBack = "rolled-back"
	StepOver       = "over"
)

// StepDice is what an umpire-dice-v2 step's dice are bound to: its close
// time and what closed it, its order list, and, with a beacon, the round it
// waits for; then the log head after its records.
type StepDice struct {
	Close    time.Time
	ClosedBy dice.ClosedBy
	Orders   []dice.OrderEntry
	// Round is the beacon round R the step uses (0 without a beacon).
	Round uint64 `json:",omitempty"`
	// Tries counts failed fetches of the round; Retry is when to fetch
	// again and Told when the game master was last told it is late.
	Tries int       `json:",omitempty"`
	Retry time.Time `json:",omitempty"`
	Told  time.Time `json:",omitempty"`
	// Head is the dice log head after the step's records (its step
	// record, its draws, the reveals it published, the end record of a
	// game it ended): the head its reports quote.
	Head dice.Hash
}

// OrderRef names one version of a seat's orders for a step.
type OrderRef struct {
	Step    uint64
	Version uint64
}

// DiceSecrets are a game's chain roots and commitments, and the chains'
// checkpoints (dice.Chain), which make finding a step's links cheap.
type DiceSecrets struct {
	// Scheme is the dice scheme the game was created with: 3 for
	// umpire-dice-v3, 2 for umpire-dice-v2; 1 (or 0, in stores written
	// before v2) for v1.
	Scheme               int
	OpenRoot, SealedRoot dice.Hash
	ChainLength          uint64
	// Open0 is the open commitment; Sealed0 the sealed chain's commitment
	// (v1) or S (v2).
	Open0, Sealed0    dice.Hash
	OpenCheckpoints   []dice.Hash
	SealedCheckpoints []dice.Hash
	// Streams are a v2 or v3 game's hidden streams, Beacon its beacon (nil
	// for none), as its header holds them.
	Streams []string
	Beacon  *beacon.Chain
}

// V2 reports whether the game's log is one of typed records in one hash
// chain: umpire-dice-v2, or umpire-dice-v3, which is v2 with the changes
// V3 says.
func (s DiceSecrets) V2() bool { return s.Scheme >= 2 }

// V3 reports whether the game uses umpire-dice-v3: salted order digests,
// a start record, a beacon delay floor and closes that never decrease.
func (s DiceSecrets) V3() bool { return s.Scheme == 3 }

// SchemeName is the game's dice scheme: umpire-dice-v1, -v2 or -v3.
func (s DiceSecrets) SchemeName() string {
	switch s.Scheme {
	case 3:
		return dice.Scheme
	case 2:
		return legacy.Records.Name()
	}
	return legacy.Hashed.Name()
}

// orderSalt returns t(seat) of a v3 game, the key of its order digests.
func (s DiceSecrets) orderSalt(seat string) dice.Hash { return dice.OrderSalt(s.SealedRoot, seat) }

// entryDigest is the digest an order file stands under in an order list:
// the seat's keyed digest in a v3 game, the file's SHA-256 before.
func (s DiceSecrets) entryDigest(f OrderFile, forStep, version uint64) dice.Hash {
	if s.V3() {
		return dice.OrderDigest(s.orderSalt(f.Seat), forStep, version, f.Signed)
	}
	return f.Digest
}

func (s DiceSecrets) chains() (open, sealed dice.Chain) {
	sealed = legacy.Chain(s.SealedRoot, s.ChainLength, s.SealedCheckpoints)
	if s.V2() {
		return dice.Chain{Root: s.OpenRoot, Length: s.ChainLength, Checkpoints: s.OpenCheckpoints}, sealed
	}
	return legacy.Chain(s.OpenRoot, s.ChainLength, s.OpenCheckpoints), sealed
}

// streamKey returns the key of hidden stream name in step k.
func (s DiceSecrets) streamKey(k uint64) func(string) (dice.Hash, bool) {
	return func(name string) (dice.Hash, bool) { return dice.StreamKey(s.SealedRoot, k, name), true }
}

// Observer is a key that follows a game without a seat: it is mailed the
// public view of every report (Spectator) and, unless the game says
// otherwise, the press sent to every seat.
type Observer struct {
	Game  string
	Key   string // fingerprint
	Since time.Time
}

// Press is one message of press a seat or the game master sent, as the
// judge relayed it. It is stored with the game and never read as orders.
type Press struct {
	Game string
	At   time.Time
	Step uint64 // the game's step when it was sent
	// From is the sender's seat, "" for the game master; Key its key.
	From string
	Key  string
	// Grey press names no sender to the players who read it; the game
	// master sees who sent it.
	Grey bool
	// To are the seats it was addressed to ("gm" for the game master);
	// Broadcast is press to every seat.
	To        []string
	Broadcast bool
	// Readers are the keys it was mailed to.
	Readers []string
	Text    string
	Digest  dice.Hash // SHA-256 of the signed bytes that carried it
}

// Key is a public key the judge knows.
type Key struct {
	Fingerprint string
	Kind        string // "openpgp", "ssh", or "dkim" (a mail address, dkim.go)
	Address     string // where its holder last wrote from
}

// OrderFile is one accepted version of a seat's orders for a step.
type OrderFile struct {
	Game    string
	Step    uint64
	Seat    string
	Version uint64 // assigned by the store: 1, 2, 3...
	// Digest is the SHA-256 of the signed bytes: how the store tells a
	// file sent again. In an umpire-dice-v3 game it is never shown: the
	// order list, receipts and reports quote the seat's keyed digest.
	Digest    dice.Hash
	Key       string
	Signed    []byte // the exact signed bytes
	Text      string // the order file's text
	Received  time.Time
	MessageID string
}

// Problem is something wrong in what a player sent, with the line it is on
// (0 when it concerns the whole message) and a hint how to fix it.
type Problem struct {
	Line int
	Text string
	Hint string
}

// Receipt is the judge's answer to one message that carried orders.
type Receipt struct {
	MessageID string // of the incoming message
	Game      string
	Seat      string
	Step      uint64
	Digest    dice.Hash
	Echo      string // the orders as understood, in canonical form
	Problems  []Problem
	Accepted  bool
	Version   uint64 // the order file version stored, when accepted
	At        time.Time
	// Keyed is the digest of an accepted file of an umpire-dice-v3 game,
	// keyed by the seat's order salt: the one the receipt quotes and the
	// order list will hold. Zero in other games.
	Keyed dice.Hash
}

// MailKind says what a queued mail is.
type MailKind string

// The kinds of mail the judge sends.
const (
	MailReceipt      MailKind = "receipt"
	MailReport       MailKind = "report"
	MailReminder     MailKind = "reminder"
	MailError        MailKind = "error"
	MailAnnouncement MailKind = "announcement"
	// MailPress is press a seat or the game master sent, relayed.
	MailPress MailKind = "press"
)

// Mail is an answer the judge queues. The store keeps it until the outbox
// has sent it.
type Mail struct {
	Kind       MailKind
	Game       string
	To         string
	Subject    string
	Text       string
	InReplyTo  string   // Message-ID of the message answered, without <>
	References []string // without <>
	// Report, when set, is rendered by the templates when the mail is sent
	// (text, HTML and map picture); Text is its plain fallback.
	Report *Report
	// Files are attached to the mail (the judge's public key).
	Files []File `json:",omitempty"`
	// Limit names whom an answer counts against in the hourly reply
	// limit: "key FINGERPRINT" for an answer to a signed message, "address
	// ADDR" for one to unsigned mail. It is empty for mail that is never
	// held back: reports, announcements and reminders to seats and game
	// masters, and receipts for newly accepted orders.
	Limit string
	// Held, when set, says why the mail is held back instead of sent (the
	// reply limit): the store keeps it for the operator, unsent.
	Held string
}

// File is a file attached to a mail.
type File struct {
	Name string // the file name the reader sees
	Type string // its media type, such as "application/pgp-keys"
	Data []byte
}

// CommandRecord is a signed command the judge carried out, by its key and
// the digest of its signed bytes: the same text signed by the same key is
// not carried out again.
type CommandRecord struct {
	Digest  dice.Hash
	Game    string
	Command string // the command line, as the judge read it
	Key     string // the signing key
	At      time.Time
}

// Bounce is a delivery status notification for the judge's own mail.
type Bounce struct {
	OriginalMessageID string // of the judge's mail that bounced
	Recipient         string
	Action            string // "failed", "delayed", ...
	Status            string // such as "5.1.1"
	Diagnostic        string
	At                time.Time
}
