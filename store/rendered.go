package store

import (
	"fmt"
	"time"
)

// Rendered is a queued report as it will be sent: rendered once, kept with
// the queued mail, so that every attempt sends the same bytes without
// rendering them again. Its map picture is kept apart, once for every mail
// that shows it (pictures/), by the digest of the picture's content.
//
//	rendered/<id>          Rendered, while mail id is queued
//	pictures/<digest>      the PNG of a picture, while a queued mail shows it
//	pictures/<digest>.svg  its SVG, when the mails attach one
//	picture-refs/<digest>  how many rendered mails show it (8 bytes)
type Rendered struct {
	// Text is the plain text part, signed as it is sent.
	Text string `json:"text"`
	HTML string `json:"html,omitempty"`
	// Picture is the digest (hex) of the map picture's content, "" for
	// none; MapFile and MapCID name it in the mail.
	Picture string `json:"picture,omitempty"`
	MapFile string `json:"map_file,omitempty"`
	MapCID  string `json:"map_cid,omitempty"`
	// SVGFile names the picture's SVG, attached beside the PNG ("" for
	// none: PictureSVG).
	SVGFile string `json:"svg_file,omitempty"`
}

// PutRendered keeps r for queued mail id, with png and svg the picture
// r.Picture names (which may be nil when the store holds it already; svg
// nil when the mail attaches none). A mail rendered already keeps its
// first rendering, and a mail no longer queued (sent meanwhile) keeps
// none.
func (tx *Tx) PutRendered(id uint64, r Rendered, png, svg []byte) error {
	b, err := tx.lazyBucket(bRendered)
	if err != nil {
		return fmt.Errorf("rendered mail %d: %w", id, err)
	}
	if b.Get(u64(id)) != nil {
		return nil
	}
	if m, err := tx.Mail(id); err != nil {
		return fmt.Errorf("rendered mail %d: %w", id, err)
	} else if m.State != MailQueued {
		return nil
	}
	if r.Picture != "" {
		if err := tx.refPicture(r.Picture, png, svg, 1); err != nil {
			return fmt.Errorf("rendered mail %d: %w", id, err)
		}
	}
	if err := putZJSON(b, u64(id), r); err != nil {
		return fmt.Errorf("rendered mail %d: %w", id, err)
	}
	return nil
}

// RenderedMail returns what PutRendered kept for mail id, with the PNG of
// its picture; ok is false when the mail is not rendered.
func (tx *Tx) RenderedMail(id uint64) (r Rendered, png []byte, ok bool, err error) {
	ok, err = getJSON(tx.bucket(bRendered), u64(id), &r)
	if err != nil || !ok {
		return r, nil, ok, err
	}
	if r.Picture != "" {
		if png, ok = tx.Picture(r.Picture); !ok {
			return r, nil, false, fmt.Errorf("rendered mail %d: picture %s: %w", id, r.Picture, ErrNotFound)
		}
	}
	return r, png, true, nil
}

// IsRendered reports whether mail id is rendered, without reading it.
func (tx *Tx) IsRendered(id uint64) bool {
	b := tx.bucket(bRendered)
	return b != nil && b.Get(u64(id)) != nil
}

// Picture returns the PNG of the picture whose content has digest, when a
// queued mail shows it. The bytes are valid only in the transaction.
func (tx *Tx) Picture(digest string) ([]byte, bool) {
	b := tx.bucket(bPictures)
	if b == nil {
		return nil, false
	}
	png := b.Get([]byte(digest))
	return png, png != nil
}

// PictureSVG returns the SVG of the picture whose content has digest, when
// a queued mail shows it and attaches its SVG. The bytes are valid only in
// the transaction.
func (tx *Tx) PictureSVG(digest string) ([]byte, bool) {
	b := tx.bucket(bPictures)
	if b == nil {
		return nil, false
	}
	svg := b.Get([]byte(digest + svgSuffix))
	return svg, svg != nil
}

// svgSuffix follows a picture's digest in the key of its SVG.
const svgSuffix = ".svg"

// refPicture adds delta to the mails showing picture digest, storing png
// (and svg, when set) when it is new and deleting the picture when none
// shows it any more.
func (tx *Tx) refPicture(digest string, png, svg []byte, delta int64) error {
	pics, err := tx.lazyBucket(bPictures)
	if err != nil {
		return err
	}
	refs, err := tx.lazyBucket(bPictureRefs)
	if err != nil {
		return err
	}
	var n int64
	if v := refs.Get([]byte(digest)); len(v) == 8 {
		n = int64(be64(v))
	}
	if n == 0 && delta > 0 && pics.Get([]byte(digest)) == nil {
		if png == nil {
			return fmt.Errorf("picture %s: no PNG given and none stored", digest)
		}
		if err := pics.Put([]byte(digest), png); err != nil {
			return err
		}
	}
	if delta > 0 && svg != nil && pics.Get([]byte(digest+svgSuffix)) == nil {
		if err := pics.Put([]byte(digest+svgSuffix), svg); err != nil {
			return err
		}
	}
	if n += delta; n > 0 {
		return refs.Put([]byte(digest), u64(uint64(n)))
	}
	if err := refs.Delete([]byte(digest)); err != nil {
		return err
	}
	if err := pics.Delete([]byte(digest + svgSuffix)); err != nil {
		return err
	}
	return pics.Delete([]byte(digest))
}

// dropRendered forgets the rendering of mail id, which is sent or given
// up: its picture is kept while another queued mail shows it.
func (tx *Tx) dropRendered(id uint64) error {
	b := tx.bucket(bRendered)
	if b == nil {
		return nil
	}
	var r Rendered
	if ok, err := getJSON(b, u64(id), &r); err != nil {
		return fmt.Errorf("rendered mail %d: %w", id, err)
	} else if !ok {
		return nil
	}
	if r.Picture != "" {
		if err := tx.refPicture(r.Picture, nil, nil, -1); err != nil {
			return fmt.Errorf("rendered mail %d: %w", id, err)
		}
	}
	return b.Delete(u64(id))
}

// DueUnrendered returns up to limit queued mails of the reports' lane,
// due at now, that are not rendered yet, by id. Rendered ones are skipped
// without being read.
func (tx *Tx) DueUnrendered(now time.Time, limit int) ([]Mail, error) {
	q := tx.bucket(bQueueReports)
	if q == nil {
		return nil, nil
	}
	var out []Mail
	c := q.Cursor()
	for k, v := c.First(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Next() {
		if tx.IsRendered(be64(k)) || (len(v) == 8 && time.Unix(0, int64(be64(v))).After(now)) {
			continue
		}
		m, err := tx.Mail(be64(k))
		if err != nil {
			return nil, fmt.Errorf("unrendered mail: %w", err)
		}
		out = append(out, m)
	}
	return out, nil
}
