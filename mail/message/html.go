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
