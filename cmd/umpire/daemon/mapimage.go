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
// fits it with the game file's alignment, and keeps it in the store for
// the game's reports, replacing any before.
func (c *Console) installMapImage(ctx context.Context, cfg *Config, db *store.DB, j *adjudicator.Judge, id, path string) error {
	data, err := readMapImage(path)
	if err != nil {
		return usagef("%w", err)
	}
	format, w, h, err := vassal.CheckImage(data, mapImageLimits())
	if err != nil {
		return usagef("%s: %w", path, err)
	}
	if _, err := templates.DecodeMapImage(data); err != nil {
		return usagef("%s: %w", path, err)
	}
	sum := sha256.Sum256(data)
	m := store.MapImage{Game: id, Digest: hex.EncodeToString(sum[:]), Format: format, Width: w, Height: h, Installed: c.Now()}
	var public bool
	err = db.Update(ctx, func(tx *store.Tx) error {
		jt := tx.Judge(cfg.Address, c.Now())
		g, err := findGame(jt, cfg.Store, id)
		if err != nil {
			return err
		}
		if err := j.MapImageFits(g, w, h); err != nil {
			return usagef("%s on game %s: %w", path, id, err)
		}
		f, err := adjudicator.ParseGameFile(g.File, j.Games)
		public = err == nil && f.MapImagePublic
		return tx.PutMapImage(m, data)
	})
	if err != nil {
		return err
	}
	who := "its seats and game master only"
	if public {
		who = "its seats, game master and public pages (map_image_public)"
	}
	fmt.Fprintf(c.Stdout, "map image of %s installed: a %s image of %d × %d pixels, %d bytes, SHA-256 %s.\nIts reports are drawn on it from now on, shown to %s.\n",
		id, format, w, h, len(data), m.Digest, who)
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
		return &templates.MapImage{Digest: m.Digest, Load: func() ([]byte, error) {
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
