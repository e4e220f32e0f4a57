package store

import (
	"fmt"
	"time"
)

// A game's map image: the game master's image of the published map that
// its reports are drawn on (docs/game-file.md). Its bucket is made the
// first time it is written, so stores written before it need no
// migration; it goes with the game (archive deletes games/<id> whole),
// and no export or web page reads it:
//
//	games/<id>/map-image/"meta"   MapImage
//	games/<id>/map-image/"image"  the image's bytes, as installed
const (
	bMapImage     = "map-image"
	kMapImageMeta = "meta"
	kMapImageData = "image"
)

// MapImage describes a game's installed map image.
type MapImage struct {
	Game string `json:"game"`
	// Digest is the SHA-256 of the image's bytes, in hex: pictures drawn
	// on it are kept by it.
	Digest    string    `json:"digest"`
	Format    string    `json:"format"` // png, jpeg or gif
	Width     int       `json:"width"`
	Height    int       `json:"height"`
	Bytes     int       `json:"bytes"`
	Installed time.Time `json:"installed"`
	// ScaleX and ScaleY are the image's pixels per pixel of the image the
	// operator gave, across and down, when it was shrunk at install
	// (SourceWidth × SourceHeight pixels then); 0 when it was kept whole.
	ScaleX       float64 `json:"scale_x,omitempty"`
	ScaleY       float64 `json:"scale_y,omitempty"`
	SourceWidth  int     `json:"source_width,omitempty"`
	SourceHeight int     `json:"source_height,omitempty"`
}

// PutMapImage installs data as game's map image, replacing any before.
func (tx *Tx) PutMapImage(m MapImage, data []byte) error {
	b, err := tx.gameSub(m.Game, bMapImage)
	if err == nil {
		m.Bytes = len(data)
		err = putJSON(b, []byte(kMapImageMeta), m)
	}
	if err == nil {
		err = b.Put([]byte(kMapImageData), data)
	}
	if err != nil {
		return fmt.Errorf("put map image of %q: %w", m.Game, err)
	}
	return nil
}

// MapImageInfo returns what game's map image is, without its bytes; ok is
// false when the game has none installed.
func (tx *Tx) MapImageInfo(game string) (m MapImage, ok bool, err error) {
	b, err := tx.gameSub(game, bMapImage)
	if err == nil {
		ok, err = getJSON(b, []byte(kMapImageMeta), &m)
	}
	if err != nil {
		return MapImage{}, false, fmt.Errorf("map image of %q: %w", game, err)
	}
	return m, ok, nil
}

// MapImage returns game's map image and a copy of its bytes (valid after
// the transaction); ok is false when the game has none installed.
func (tx *Tx) MapImage(game string) (m MapImage, data []byte, ok bool, err error) {
	if m, ok, err = tx.MapImageInfo(game); err != nil || !ok {
		return m, nil, ok, err
	}
	b, _ := tx.gameSub(game, bMapImage)
	raw := b.Get([]byte(kMapImageData))
	if raw == nil {
		return MapImage{}, nil, false, fmt.Errorf("map image of %q: its bytes are missing: %w", game, ErrNotFound)
	}
	return m, append([]byte(nil), raw...), true, nil
}
