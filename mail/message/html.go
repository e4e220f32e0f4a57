package message

import (
	"html"
	"strings"
)

// htmlToText renders HTML as crude plain text for diagnostics: comments,
// scripts, styles and the head are dropped, block-level tags become line
// breaks, other tags vanish, entities are decoded and runs of blank lines
// are collapsed. It is linear in the input and never fails.
func htmlToText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		lt := strings.IndexByte(s, '<')
		if lt < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:lt])
		s = s[lt:]
		if strings.HasPrefix(s, "<!--") {
			end := strings.Index(s, "-->")
			if end < 0 {
				break
			}
			s = s[end+3:]
			continue
		}
		gt := strings.IndexByte(s, '>')
		if gt < 0 {
			b.WriteString(s)
			break
		}
		name := tagName(s[1:gt])
		s = s[gt+1:]
		switch name {
		case "script", "style", "head", "title":
			// Skip to the closing tag, which need not exist.
			if end := indexFoldASCII(s, "</"+name); end >= 0 {
				s = s[end:]
				if gt := strings.IndexByte(s, '>'); gt >= 0 {
					s = s[gt+1:]
				} else {
					s = ""
				}
			} else {
				s = ""
			}
		case "br", "p", "/p", "div", "/div", "tr", "/tr", "li", "/li", "table", "/table",
			"h1", "h2", "h3", "h4", "h5", "h6", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6",
			"pre", "/pre", "blockquote", "/blockquote", "hr":
			b.WriteByte('\n')
		case "td", "th":
			b.WriteByte(' ')
		}
	}
	text := html.UnescapeString(b.String())
	text = strings.ReplaceAll(text, "\u00a0", " ")
	lines := strings.Split(text, "\n")
	out := lines[:0]
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// tagName returns the lower-case name of a tag from the text between its
// angle brackets, with a leading "/" for a closing tag.
func tagName(t string) string {
	t = strings.TrimSpace(t)
	end := strings.IndexAny(t, " \t\r\n/>")
	if strings.HasPrefix(t, "/") {
		rest := t[1:]
		if e := strings.IndexAny(rest, " \t\r\n>"); e >= 0 {
			rest = rest[:e]
		}
		return "/" + strings.ToLower(rest)
	}
	if end >= 0 {
		t = t[:end]
	}
	return strings.ToLower(t)
}

// indexFoldASCII returns the index of the first occurrence of sub (lower
// case ASCII) in s, matching ASCII letters without regard to case, or -1.
// Unlike searching strings.ToLower(s), the index is always one into s.
func indexFoldASCII(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for ; j < len(sub); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}
