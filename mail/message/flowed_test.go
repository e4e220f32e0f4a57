package message

import (
	"strings"
	"testing"
)

func TestUnflow(t *testing.T) {
	for _, c := range []struct {
		name, in string
		delSp    bool
		want     string
	}{
		{"soft breaks joined, DelSp=no keeps the space", "queue 1708: attack \nfrom 1607\nend\n", false, "queue 1708: attack from 1607\nend\n"},
		{"DelSp=yes deletes the added space", "queue 1708: attack  \nfrom 1607\n", true, "queue 1708: attack from 1607\n"},
		{"DelSp=yes joins a word broken in the middle", "attac \nk\n", true, "attack\n"},
		{"space-stuffing undone", " From the north\n >not quoted\n", false, "From the north\n>not quoted\n"},
		{"signature separator is no soft break", "orders \nend\n-- \nAlice\n", false, "orders end\n-- \nAlice\n"},
		{"quoted lines joined at their depth", "> On step 6 the \n> bridge fell\n>> old \n>> text\nmine\n", false, "> On step 6 the bridge fell\n>> old text\nmine\n"},
		{"a soft break before another depth ends the line", "> quoted \nmine\n", false, "> quoted \nmine\n"},
		{"CRLF kept", "a \r\nb\r\nc\r\n", false, "a b\r\nc\r\n"},
		{"soft break on the last line", "a \nb \n", false, "a b \n"},
		{"no final line break", "a \nb", false, "a b"},
		{"empty", "", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := string(Unflow([]byte(c.in), c.delSp)); got != c.want {
				t.Errorf("Unflow(%q, %v) = %q, want %q", c.in, c.delSp, got, c.want)
			}
		})
	}
}

// TestParseFlowed: a format=flowed body is read unflowed, and the text as
// sent is kept for the signature check.
func TestParseFlowed(t *testing.T) {
	raw := "From: a@players.test\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8; format=flowed; delsp=yes\r\n\r\n" +
		"game: x\r\nqueue 1: move 1A-2 1708 1709 1710 1711 1712 1713 1714 1715 then  \r\nattack 1716\r\n"
	m, err := Parse([]byte(raw), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Flowed || !m.DelSp {
		t.Errorf("Flowed %v DelSp %v, want both", m.Flowed, m.DelSp)
	}
	if want := "game: x\nqueue 1: move 1A-2 1708 1709 1710 1711 1712 1713 1714 1715 then attack 1716\n"; m.Text != want {
		t.Errorf("Text %q, want %q", m.Text, want)
	}
	if !strings.Contains(string(m.RawText), "then  \r\nattack") {
		t.Errorf("RawText %q is not the text as sent", m.RawText)
	}
}

func TestHTMLLines(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"gmail divs and br", `<div dir="ltr">-----BEGIN PGP SIGNED MESSAGE-----<br>Hash: SHA512<br><br>game: x<div>step:&nbsp; 7</div><div><br></div><div>end</div></div>`,
			"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\ngame: x\nstep:  7\n\nend"},
		{"source line breaks are spaces", "<p>move\n  US-1\n1708</p><p>end</p>", "move US-1 1708\nend"},
		{"entities", "a &amp; b &lt;c&gt;<br>", "a & b <c>"},
		{"pre kept", "<pre>a  b\nc</pre>", "a  b\nc"},
		{"hidden dropped", "<head><title>t</title><style>x{}</style></head><body>a<script>b</script></body>", "a"},
		{"trailing br in a block adds no line", "<div>a<br></div><div>b</div>", "a\nb"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := htmlLines(c.in); got != c.want {
				t.Errorf("htmlLines(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
