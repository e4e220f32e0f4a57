package message

import (
	"path"
	"strings"
)

// normalizeText prepares decoded body text for reading: CRLF and bare CR
// line endings become LF, a leading byte order mark is dropped and NUL
// bytes are removed (hadNUL reports whether there were any).
func normalizeText(s string) (text string, hadNUL bool) {
	s = strings.TrimPrefix(s, "\uFEFF")
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
		hadNUL = true
	}
	return s, hadNUL
}

// cleanFilename makes a sender's file name safe to show and to use as the
// last element of a path: folders ("../../x", "C:\x") and control
// characters are removed, and it is cut to 255 bytes. "." and ".." become
// empty.
func cleanFilename(s string) string {
	s = sanitizeField(s)
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(s, `\`, "/")
	s = strings.TrimSpace(path.Base(s))
	if s == "." || s == ".." || s == "/" {
		return ""
	}
	return clip(s, 255)
}
