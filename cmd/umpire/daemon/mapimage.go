package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/cmd/umpire/edit/vassal"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// mapImageLimits are the bounds of a game's map image: umpire edit's for
// a scan (vassal.DefaultLimits), which templates.DecodeMapImage keeps too.
func mapImageLimits() vassal.Limits {
	lim := vassal.DefaultLimits()
	lim.Pixels, lim.Side = templates.MaxMapImagePixels, templates.MaxMapImageSide
	return lim
}

// installMapImage carries out "game image ID FILE": it reads the image
// FILE (at most templates.MaxMapImageBytes), checks it from its header
// (vassal.CheckImage), decodes it whole once, checks that the game's map
// fits it with the game file's alignment, shrinks it to what the reports
// use (templates.MapImageShrink: twice the drawn map's pixels, the
// alignment kept by the scale stored with it), and keeps it in the store
// for the game's reports, replacing any before.
func (c *Console) installMapImage(ctx context.Context, cfg *Config, db *store.DB, j *adjudicator.Judge, id, path string) error {
	data, err := readMapImage(path)
	if err != nil {
		return usagef("%w", err)
	}
	givenFormat, w, h, err := vassal.CheckImage(data, mapImageLimits())
	if err != nil {
		return usagef("%s: %w", path, err)
	}
	var layout board.Picture
	var align adjudicator.MapAlign
	err = db.View(ctx, func(tx *store.Tx) error {
		g, err := findGame(tx.Judge(cfg.Address, c.Now()), cfg.Store, id)
		if err != nil {
			return err
		}
		if err := j.MapImageFits(g, w, h); err != nil {
			return usagef("%s on game %s: %w", path, id, err)
		}
		layout, align, err = j.MapImageLayout(g)
		return err
	})
	if err != nil {
		return err
	}
	// decoded whole once (and shrunk), outside the store's lock.
	stored, format, sw, sh, kx, ky, err := templates.ShrinkMapImage(data, templates.MapImageShrink(layout, align.SX, align.SY))
	if err != nil {
		return usagef("%s: %w", path, err)
	}
	sum := sha256.Sum256(stored)
	m := store.MapImage{Game: id, Digest: hex.EncodeToString(sum[:]), Format: format, Width: sw, Height: sh, Installed: c.Now()}
	if sw != w || sh != h {
		m.ScaleX, m.ScaleY, m.SourceWidth, m.SourceHeight = kx, ky, w, h
	}
	var public bool
	err = db.Update(ctx, func(tx *store.Tx) error {
		g, err := findGame(tx.Judge(cfg.Address, c.Now()), cfg.Store, id)
		if err != nil {
			return err
		}
		f, err := adjudicator.ParseGameFile(g.File, j.Games)
		public = err == nil && f.MapImagePublic
		return tx.PutMapImage(m, stored)
	})
	if err != nil {
		return err
	}
	who := "its seats and game master only"
	if public {
		who = "its seats, game master and public pages (map_image_public)"
	}
	given := sha256.Sum256(data)
	fmt.Fprintf(c.Stdout, "map image of %s installed: a %s image of %d × %d pixels, %d bytes, SHA-256 %s.\n",
		id, givenFormat, w, h, len(data), hex.EncodeToString(given[:]))
	if m.ScaleX > 0 {
		fmt.Fprintf(c.Stdout, "Kept shrunk to %d × %d pixels (%s, %d bytes): twice the pixels the reports draw the map with; map_image_align still counts the pixels of the image given.\n",
			sw, sh, format, len(stored))
	}
	fmt.Fprintf(c.Stdout, "Its reports are drawn on it from now on, shown to %s.\n", who)
	return nil
}

// readMapImage reads an image file of at most templates.MaxMapImageBytes.
func readMapImage(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, templates.MaxMapImageBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > templates.MaxMapImageBytes {
		return nil, fmt.Errorf("%s: larger than the %d MiB a map image may be; scan at a lower resolution or save it as JPEG", path, templates.MaxMapImageBytes>>20)
	}
	return data, nil
}

// MapImages finds games' map images in db for the renderer: the digest
// at once, the bytes only when a picture's map must be resampled anew.
func MapImages(db *store.DB) templates.MapImages {
	return func(game string) (*templates.MapImage, error) {
		var m store.MapImage
		var ok bool
		// a short read of one record: not tied to a request's context.
		err := db.View(context.Background(), func(tx *store.Tx) (err error) {
			m, ok, err = tx.MapImageInfo(game)
			return err
		})
		if err != nil || !ok {
			return nil, err
		}
		return &templates.MapImage{Digest: m.Digest, ScaleX: m.ScaleX, ScaleY: m.ScaleY, Load: func() ([]byte, error) {
			var data []byte
			err := db.View(context.Background(), func(tx *store.Tx) error {
				now, b, found, err := tx.MapImage(game)
				switch {
				case err != nil:
					return err
				case !found || now.Digest != m.Digest:
					return errors.New("the map image was replaced while the picture was drawn")
				}
				data = b
				return nil
			})
			return data, err
		}}, nil
	}
}
