package message

import (
	"strings"

	"golang.org/x/net/html"
)

// htmlToText renders HTML as crude plain text for diagnostics: comments,
// scripts, styles and the head are dropped, block-level tags become line
// breaks, other tags vanish, entities are decoded and runs of blank lines
// are collapsed. golang.org/x/net/html tokenizes it, so it reads what a
// browser would; it is linear in the input and never fails.
func htmlToText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	z := html.NewTokenizer(strings.NewReader(s))
	skip := "" // the element whose content is being dropped
	for {
		tt := z.Next()
		if tt == html.ErrorToken { // io.EOF: the tokenizer reads from a string
			if skip == "" {
				// A tag cut off by the end of the text is shown as
				// written, not dropped as a browser would.
				b.WriteString(html.UnescapeString(string(z.Raw())))
			}
			break
		}
		name, _ := z.TagName()
		tag := string(name)
		switch {
		case skip != "":
			if tt == html.EndTagToken && tag == skip {
				skip = ""
			}
		case tt == html.TextToken:
			b.Write(z.Text())
		case tt == html.StartTagToken || tt == html.SelfClosingTagToken || tt == html.EndTagToken:
			b.WriteString(tagText(tag, tt))
			if tt == html.StartTagToken && hidden(tag) {
				skip = tag
			}
		}
	}
	text := strings.ReplaceAll(b.String(), "\u00a0", " ")
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

// hidden reports whether the content of element tag is never shown.
func hidden(tag string) bool {
	return tag == "script" || tag == "style" || tag == "head" || tag == "title"
}

// tagText is what a tag stands for in the text: a line break for one
// that begins or ends a block, a space between table cells.
func tagText(tag string, tt html.TokenType) string {
	switch tag {
	case "br", "hr":
		if tt != html.EndTagToken {
			return "\n"
		}
	case "p", "div", "tr", "li", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote":
		return "\n"
	case "td", "th":
		if tt != html.EndTagToken {
			return " "
		}
	}
	return ""
}

// htmlLines turns HTML back into the lines a browser displays, the text a
// reader would copy from the screen: runs of blanks and line breaks in the
// source are one space (none at the start of a line), "&nbsp;" is a space
// that stays, <br> breaks the line, a block (<div>, <p>, <li>...) starts
// and ends on a line of its own, <pre> keeps its text as written, entities
// are decoded, and comments, scripts, styles and the head are dropped.
// Blanks at the end of a line are dropped. It is linear in the input and
// never fails.
func htmlLines(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	lineStart := true // nothing written on the current line yet
	space := false    // a collapsible blank waits to be written
	pre := 0          // depth of <pre> elements
	newline := func() {
		b.WriteByte('\n')
		lineStart, space = true, false
	}
	z := html.NewTokenizer(strings.NewReader(s))
	skip := ""
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		name, _ := z.TagName()
		tag := string(name)
		switch {
		case skip != "":
			if tt == html.EndTagToken && tag == skip {
				skip = ""
			}
		case tt == html.TextToken:
			for _, r := range string(z.Text()) {
				switch {
				case pre > 0 && r == '\n':
					newline()
				case pre == 0 && (r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'):
					space = !lineStart
				default:
					if space {
						b.WriteByte(' ')
						space = false
					}
					if r == '\u00a0' {
						r = ' '
					}
					b.WriteRune(r)
					lineStart = false
				}
			}
		case tt == html.StartTagToken || tt == html.SelfClosingTagToken || tt == html.EndTagToken:
			switch {
			case tag == "br" && tt != html.EndTagToken:
				newline()
			case tag == "pre" || block(tag):
				if !lineStart {
					newline()
				}
				if tag == "pre" && tt == html.StartTagToken {
					pre++
				} else if tag == "pre" && tt == html.EndTagToken && pre > 0 {
					pre--
				}
			case (tag == "td" || tag == "th") && tt != html.EndTagToken:
				space = !lineStart
			}
			if tt == html.StartTagToken && hidden(tag) {
				skip = tag
			}
		}
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// block reports whether tag is a block element, which a browser shows on
// lines of its own.
func block(tag string) bool {
	switch tag {
	case "p", "div", "tr", "li", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "hr", "address", "section", "article", "header", "footer":
		return true
	}
	return false
}
