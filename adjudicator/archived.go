package adjudicator

import (
	"fmt"
	"strings"
	"time"
)

// ArchivedGame is what stays of a game the operator archived: it ended,
// its export went to a file the operator keeps (umpire game archive), and
// the store holds only this record of it.
type ArchivedGame struct {
	ID       string
	Kind     string
	Title    string
	Archived time.Time
	Steps    uint64
	// DiceHead is the hash (hex) of the dice log's last record.
	DiceHead string
	// SHA256 is the digest (hex) of the export file's bytes.
	SHA256 string
	// File is the export file's base name.
	File string
}

// archivedNote says that game id ended and was archived, and how to get
// and check its record; ok is false when id names no archived game.
func archivedNote(tx Tx, id string) (note string, ok bool) {
	a, ok, err := tx.Archived(id)
	if err != nil || !ok {
		return "", false
	}
	return ArchivedNote(a), true
}

// ArchivedNote is archivedNote's text for a: one sentence, lowercase.
func ArchivedNote(a ArchivedGame) string {
	return fmt.Sprintf("game %s (%s) ended and was archived on %s after %d steps, with final dice log head %s; "+
		"this judge keeps no more of it, and its operator holds its record: ask the operator for the game's export "+
		"(SHA-256 %s), which 'umpire replay FILE' replays and 'umpire verify FILE' checks",
		a.ID, a.Kind, a.Archived.UTC().Format("2 Jan 2006 15:04 MST"), a.Steps, a.DiceHead, a.SHA256)
}

// noGame says why id names no game: archived, or never hosted here (then
// with hint, such as "send 'list' for the games"). It is lowercase, without
// a full stop.
func noGame(tx Tx, id, hint string) string {
	if note, ok := archivedNote(tx, id); ok {
		return note
	}
	return fmt.Sprintf("there is no game %q (%s%s)", id, nearGames(tx, id), hint)
}

// noGameReply is noGame as the sentences of a reply.
func noGameReply(tx Tx, id, hint string) string {
	s := noGame(tx, id, hint)
	return strings.ToUpper(s[:1]) + s[1:] + ".\n"
}
