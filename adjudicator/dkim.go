package adjudicator

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// Identity says what may hold a game's seats: the game file's identity
// (docs/game-file.md, "Players without a key").
type Identity string

// The identities a game file may name.
const (
	// IdentityKeys is the default: every seat is held by a key (OpenPGP
	// or SSH), and only a message that key signed counts.
	IdentityKeys Identity = "keys"
	// IdentityDKIM lets a seat be held by a mail address too: a message
	// counts as that address's when a DKIM signature of its domain
	// covers its From, Subject, Date, Message-ID and whole body. The
	// address's provider, or anyone who has its password, can write as
	// the player.
	IdentityDKIM Identity = "dkim"
)

// KindDKIM is the Signature.Kind and Key.Kind of a mail address a DKIM
// signature vouches for.
const KindDKIM = "dkim"

// UnmarshalText reads an identity, refusing one it does not know.
func (i *Identity) UnmarshalText(b []byte) error {
	switch v := Identity(strings.TrimSpace(string(b))); v {
	case IdentityKeys, IdentityDKIM:
		*i = v
		return nil
	}
	return fmt.Errorf("identity %q is unknown: write \"keys\" (the default: every seat is held by a key) or \"dkim\" "+
		"(a seat may also be held by a mail address whose provider signs its mail with DKIM)", b)
}

// identityOf reads g's identity from its file; a file the judge accepted
// once that says none (or cannot be read loosely) is IdentityKeys.
func identityOf(g Game) Identity {
	var t struct {
		Identity Identity `toml:"identity"`
	}
	if _, err := datafile.DecodeLoose("game file", g.File, &t); err != nil || t.Identity == "" {
		return IdentityKeys
	}
	return t.Identity
}

// DKIMHolder is the holder of a seat held by a mail address: "dkim:"
// and the address in lower case.
func DKIMHolder(address string) string { return KindDKIM + ":" + strings.ToLower(address) }

// DKIMAddress returns the mail address of a seat's holder held by DKIM;
// ok is false for a key.
func DKIMAddress(holder string) (address string, ok bool) {
	return strings.CutPrefix(holder, KindDKIM+":")
}

// PublicHolder is a seat's holder as the public sees it (the web pages,
// status, announcements): a key's fingerprint, or for a mail address
// only its domain, "dkim:…@example.org", so that no public page hands a
// player's address to anyone who reads it.
func PublicHolder(holder string) string {
	addr, ok := DKIMAddress(holder)
	if !ok {
		return holder
	}
	if at := strings.LastIndexByte(addr, '@'); at >= 0 {
		return KindDKIM + ":…" + addr[at:]
	}
	return KindDKIM + ":…"
}

// holderPhrase names a holder in a sentence: "key FP", or "the mail
// address a@example.org (by DKIM, without a key)"; public words the
// address as PublicHolder does.
func holderPhrase(holder string, public bool) string {
	addr, ok := DKIMAddress(holder)
	switch {
	case !ok:
		return "key " + holder
	case public:
		return "a mail address (" + PublicHolder(holder) + ", by DKIM, without a key)"
	}
	return "the mail address " + addr + " (by DKIM, without a key)"
}

// dkimCommands are the commands a mail address may give by DKIM, in a
// game that allows it: a seat's own. The game master's commands, create,
// observe and roll want a key.
var dkimCommands = map[string]bool{"join": true, "ready": true, "notready": true, "absence": true, "resign": true,
	"press": true, "report": true, "history": true, "status": true, "map": true, "log": true}

// dkimGame returns the game a message no key signed is about, and whether
// that game lets a mail address hold a seat (identity = "dkim"): there,
// and only there, the message's DKIM signature stands for a signature.
// The game is the one its seat command names, or its order file's.
func dkimGame(tx Tx, env *Envelope) (Game, bool) {
	text := env.Text
	if env.DKIM != nil {
		text = env.DKIM.Content
	}
	id := ""
	if c, ok := signedCommand(text); ok {
		if dkimCommands[c.name] && len(c.args) > 0 {
			id = c.args[0]
		}
	} else if of, _ := ParseOrderFile(text); of.Game != "" {
		id = of.Game
	}
	if id == "" {
		return Game{}, false
	}
	g, err := tx.Game(id)
	if err != nil {
		return Game{}, false
	}
	return g, identityOf(g) == IdentityDKIM
}

// dkimRefusal answers a message about game g, which allows DKIM, whose
// DKIM signature does not count.
func dkimRefusal(a answer, g Game, problem string) error {
	return a.reply(MailError, "DKIM signature not accepted", fmt.Sprintf(
		"Game %s lets a mail address hold a seat without a key, when the address's mail\n"+
			"provider signs the message with DKIM. Your message does not count: %s.\n\n"+
			"Nothing was accepted. Or sign your message with a key, which nobody else can\n"+
			"write with: docs/signing.md says how, for your mail program.\n", g.ID, problem))
}

// dkimJoinNote tells a mail address that joined by DKIM what that means:
// nothing, for a key.
func dkimJoinNote(holder string) string {
	addr, ok := DKIMAddress(holder)
	if !ok {
		return ""
	}
	return fmt.Sprintf("\nThe seat is held by your mail address, without a key: every message from %s\n"+
		"that its provider signs with DKIM counts as yours, and no other. Your provider, or\n"+
		"anyone who has your mailbox's password, can write as you. Send your orders from\n"+
		"this address, directly to the judge (a list or forwarder that re-signs them breaks\n"+
		"the signature).\n", addr)
}

// dkimSigned reports whether seat's order file version v for step was
// signed by DKIM, not by a key: the order list says so.
func dkimSigned(tx Tx, game, seat string, step, v uint64) bool {
	f, err := tx.OrderVersion(game, step, seat, v)
	if err != nil {
		return false
	}
	_, ok := DKIMAddress(f.Key)
	return ok
}

// joinHolderNote is what a join answer tells the new holder of a seat
// about the mail that will count as theirs: for a key, to sign with it
// (and where the page says how); for a DKIM-held seat, dkimJoinNote.
func joinHolderNote(holder string) string {
	if note := dkimJoinNote(holder); note != "" {
		return note
	}
	return signOrdersNote
}
