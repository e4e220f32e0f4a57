package adjudicator

import (
	"fmt"
	"io"
)

// WritePublicLog writes the public dice log of game to w: the export that
// `log GAME` mails and the web page offers for download, in the scheme the
// game was created with (umpire-dice-v3, or v2 or v1 for older games). It holds
// nothing that is not public (docs/dice-log.md). It returns a one-line
// summary naming the scheme and the head.
func WritePublicLog(tx Tx, game string, w io.Writer) (string, error) {
	sec, err := tx.DiceSecrets(game)
	if err != nil {
		return "", err
	}
	if sec.V2() {
		head, err := tx.WriteDiceLog(game, w)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("The public dice log of %s (scheme %s), head %s.", game, sec.SchemeName(), head), nil
	}
	x, err := tx.ExportLog(game)
	if err != nil {
		return "", err
	}
	if err := x.Write(w); err != nil {
		return "", err
	}
	return fmt.Sprintf("The public dice log of %s (scheme umpire-dice-v1): %d steps, %d entries, head %s.", game, len(x.Steps), len(x.Entries), x.Head), nil
}
