package templates

import (
	"path/filepath"
	"strings"
)

// File is one file of a rendered report, to be written at Path.
type File struct {
	Path string
	Data []byte
}

// Folder is the files of r in the folder dir, as "umpire render --out
// DIR/" writes them: base.txt, base.html, base.png and base.svg (no
// pictures when r has none).
func (r *Rendered) Folder(dir, base string) []File {
	files := append([]File{{filepath.Join(dir, base+".txt"), []byte(r.Text)}, {filepath.Join(dir, base+".html"), []byte(r.HTML)}},
		r.picture(filepath.Join(dir, base+".png"))...)
	if r.SVG != nil {
		files = append(files, File{filepath.Join(dir, base+".svg"), r.SVG})
	}
	return files
}

// File is the part of r that the extension of path names, as "umpire
// render --out FILE" writes it: the text (.txt), the map picture (.png;
// nothing when r has none), the map as a drawing (.svg; nothing when r
// has none), or the HTML (.html) with the picture beside it, to which it
// points (a file on disk cannot resolve cid: references). ok is false for
// another extension.
func (r *Rendered) File(path string) (files []File, ok bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return r.picture(path), true
	case ".svg":
		if r.SVG == nil {
			return nil, true
		}
		return []File{{path, r.SVG}}, true
	case ".html", ".htm":
		html := r.HTML
		png := strings.TrimSuffix(path, filepath.Ext(path)) + ".png"
		if r.Map != nil {
			html = strings.ReplaceAll(html, "cid:"+r.MapCID, filepath.Base(png))
		}
		return append(r.picture(png), File{path, []byte(html)}), true
	case ".txt", ".text":
		return []File{{path, []byte(r.Text)}}, true
	}
	return nil, false
}

func (r *Rendered) picture(path string) []File {
	if r.Map == nil {
		return nil
	}
	return []File{{path, r.Map}}
}
