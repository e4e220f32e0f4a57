package daemon

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
)

// Archiving an ended game (umpire game archive, docs/operations.md): its
// export is written to a file and checked, and only then is the game
// deleted from the store, leaving a tombstone (store/archive.go). The
// order matters: a crash before the delete leaves the game stored and a
// file that a second try finds; nothing is ever deleted that is not in a
// verified file.

// errArchiveExists: the archive file is there already.
var errArchiveExists = errors.New("the file exists")

// archiveOptions say how archiveGame runs.
type archiveOptions struct {
	// Reuse accepts an existing file that holds exactly the game's export
	// (an earlier try that wrote the file and then failed): the automatic
	// archiver's retry. The command line never overwrites nor reuses.
	Reuse bool
	// Why is said in the mail to the game's seats and game master.
	Why string
}

// archiveGame writes ended game id's export to path, checks it, and then
// deletes the game from the store, leaving its tombstone, which it
// returns.
func archiveGame(ctx context.Context, cfg *Config, db *store.DB, j *adjudicator.Judge, id, path string, now time.Time, opt archiveOptions) (store.Archived, error) {
	var a store.Archived
	var data []byte
	err := db.Update(ctx, func(tx *store.Tx) error {
		jt := tx.Judge(cfg.Address, now)
		g, err := findGame(jt, cfg.Store, id)
		if err != nil {
			return err
		}
		if g.Status != adjudicator.Ended {
			return usagef("game %s is %s (step %d): only an ended game can be archived; 'umpire game export %s' writes a copy without removing it", id, g.Status, g.Step, id)
		}
		x, err := j.ExportGame(jt, id)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := json.NewEncoder(&buf).Encode(x); err != nil { // as 'game export' prints it
			return err
		}
		data = buf.Bytes()
		head, n, err := diceHead(jt, id)
		if err != nil {
			return err
		}
		a = store.Archived{ID: g.ID, Kind: g.Kind, Title: g.Title, Scenario: g.Scenario, GMKey: g.GMKey, Created: g.Created,
			Archived: now, Steps: g.Step, DiceHead: head, DiceRecords: n, File: filepath.Base(path)}
		return nil
	})
	if err != nil {
		return a, err
	}
	sum := sha256.Sum256(data)
	a.SHA256 = hex.EncodeToString(sum[:])
	if err := writeNewFile(path, data); errors.Is(err, errArchiveExists) {
		old, rerr := os.ReadFile(path)
		if !opt.Reuse || rerr != nil || !bytes.Equal(old, data) {
			return a, usagef("%s exists: an archive never replaces a file; give a new file name", path)
		}
	} else if err != nil {
		return a, fmt.Errorf("archive %s: %w", id, err)
	}
	if err := checkArchive(j, path, id, a); err != nil {
		return a, fmt.Errorf("archive %s: %s does not hold the game as stored, so the game stays in the store: %w", id, path, err)
	}
	err = db.Update(ctx, func(tx *store.Tx) error {
		jt := tx.Judge(cfg.Address, now)
		g, err := findGame(jt, cfg.Store, id)
		if err != nil {
			return err
		}
		head, _, err := diceHead(jt, id)
		if err != nil {
			return err
		}
		if g.Status != adjudicator.Ended || g.Step != a.Steps || head != a.DiceHead {
			return fmt.Errorf("archive %s: the game changed while its export was written (now %s, step %d): it stays in the store; %s is left as it is", id, g.Status, g.Step, path)
		}
		why := opt.Why
		if why == "" {
			why = "The operator of the judge archived it."
		}
		text := fmt.Sprintf("%s ended after %d steps and has been archived on %s. %s\n\n"+
			"The judge keeps no more of the game. Its operator holds its whole record (the export, SHA-256 %s):\n"+
			"ask the operator for it; 'umpire replay FILE' replays it and 'umpire verify FILE' checks its dice log\n(final head %s).\n",
			id, a.Steps, now.UTC().Format("2 Jan 2006 15:04 MST"), why, a.SHA256, a.DiceHead)
		if err := j.Announce(jt, id, "archived", text); err != nil {
			return err
		}
		return tx.ArchiveGame(a)
	})
	return a, err
}

// diceHead is the hash (hex) of the last record of game's dice log and
// the number of its records.
func diceHead(tx adjudicator.Tx, game string) (string, uint64, error) {
	sec, err := tx.DiceSecrets(game)
	if err != nil {
		return "", 0, err
	}
	if sec.V2() {
		l, err := tx.DiceLedger(game)
		if err != nil {
			return "", 0, err
		}
		return l.Head.String(), l.Records, nil
	}
	h, n, err := tx.DiceHead(game)
	return h.String(), n, err
}

// checkArchive reads the file at path back and replays it: every state
// and every die must be as the export said, and the export the game's.
func checkArchive(j *adjudicator.Judge, path, id string, a store.Archived) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != a.SHA256 {
		return errors.New("its bytes are not the export written")
	}
	x, err := adjudicator.ReadGameExport(bytes.NewReader(data))
	if err != nil {
		return err
	}
	if x.Game != id || x.Step != a.Steps {
		return fmt.Errorf("it holds game %s at step %d, not %s at step %d", x.Game, x.Step, id, a.Steps)
	}
	if _, err := j.ReplayExport(x); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}

// writeNewFile writes data to a new file at path atomically and durably:
// a temporary file beside it is written and synced, then linked to path,
// which fails when path exists (errArchiveExists), so that a file is
// never replaced; then the directory is synced. Readers see no file or the
// whole file.
func writeNewFile(path string, data []byte) error {
	if _, err := os.Lstat(path); err == nil {
		return errArchiveExists
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp, path); errors.Is(err, iofs.ErrExist) {
		return errArchiveExists
	} else if err != nil {
		// A file system without hard links: rename, having looked once
		// more that nothing is in the way.
		if _, serr := os.Lstat(path); serr == nil {
			return errArchiveExists
		}
		if err := os.Rename(tmp, path); err != nil {
			return err
		}
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// archiveEnded archives, into cfg's archive_dir, every game that ended
// cfg's archive_after ago or earlier, found in the store's index of ended
// games (docs/operations.md, "Archiving ended games"). Each archive is
// logged; a game whose file cannot be written or checked stays in the
// store, is logged, and is tried again on the next pass. It returns how
// many games it archived.
func (d *Daemon) archiveEnded(ctx context.Context, now time.Time) (int, error) {
	cfg, db := d.cfg, d.db
	after := cfg.Retention.ArchiveAfter.Duration
	if after <= 0 || cfg.Retention.ArchiveDir == "" {
		return 0, nil
	}
	ended, err := db.EndedGames(ctx, now.Add(-after))
	if err != nil {
		return 0, err
	}
	var due []store.EndedGame
	for _, g := range ended {
		if g.ID != adjudicator.DiceService {
			due = append(due, g)
		}
	}
	if len(due) == 0 {
		return 0, nil
	}
	if err := os.MkdirAll(cfg.Retention.ArchiveDir, 0o700); err != nil {
		d.log.ErrorContext(ctx, "archiving ended games failed: no archive folder; they stay in the store", "dir", cfg.Retention.ArchiveDir, "err", err)
		return 0, nil
	}
	j := cfg.Judge(d.log)
	why := fmt.Sprintf("The judge archives a game once it has ended and rested for %s (its operator's setting).", days(after))
	n := 0
	for _, g := range due {
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		path := filepath.Join(cfg.Retention.ArchiveDir, g.ID+".json")
		a, err := archiveGame(ctx, cfg, db, j, g.ID, path, now, archiveOptions{Reuse: true, Why: why})
		var uerr UsageError
		if errors.As(err, &uerr) && fileExists(path) {
			// Another file of that name: a second name, by the time.
			path = filepath.Join(cfg.Retention.ArchiveDir, g.ID+"-"+now.UTC().Format("20060102T150405Z")+".json")
			a, err = archiveGame(ctx, cfg, db, j, g.ID, path, now, archiveOptions{Reuse: true, Why: why})
		}
		if err != nil {
			d.log.ErrorContext(ctx, "archiving an ended game failed: it stays in the store, and is tried again in an hour", "game", g.ID, "file", path, "err", err)
			continue
		}
		d.log.InfoContext(ctx, "ended game archived", "game", a.ID, "file", path, "steps", a.Steps, "sha256", a.SHA256, "dice_head", a.DiceHead)
		n++
	}
	return n, nil
}

// days writes d in days when it is whole days.
func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return plural(int(d/(24*time.Hour)), "day")
	}
	return d.String()
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
