package edit

import "testing"

// FuzzReadFiles feeds any text to the editor's readers: each refuses it or
// reads it into a document it can write, without a panic or a hang; a
// network or counter file it writes (its comments too) reads back and
// writes the same text again.
func FuzzReadFiles(f *testing.F) {
	f.Add([]byte("# umpire edit: scan x0=1 y0=2 sx=3 sy=4\ntitle = \"m\"\n[grid]\nfirst = \"0101\"\nlast = \"0303\"\n"))
	f.Add([]byte("title = \"b\"\nwidth = 10\nheight = 10\n[[region]]\nname = \"R\"\n[[space]]\nname = \"S\"\n"))
	f.Add([]byte("stand_in = true\n[[unit]]\nid = \"A\"\nma = 8\nfront = {A = 1}\n"))
	f.Add([]byte("# head\n[grid]\nfirst = \"0101\"\nlast = \"0303\"\n# roads\n[[road]]\n# inside\nkind = 'road'\npath = [\"0101\", \"0102\"]\n# end\n"))
	f.Add([]byte("title = \"m\" # kept\n[[space]] # head\nname = \"S\" # the S\nsetup = [ # open\n  \"a\", # one\n  # a line\n  'b#c',\n] # closed\nnote = \"\"\"x # not\n# not either\n\"\"\" # yes\n"))
	f.Add([]byte("a = \"\"\"x \" # no\n# no\n\"\"\" # yes\n[[u]]\nb = [\n[1, 2], # in\n] # out\n"))
	f.Add([]byte("stand_in = true # x\n# y\n[[unit]]\nid = \"A\" # z\nma = 8\n# w\n[[unit]] # q\nname = 'B'\n"))
	f.Add([]byte("1000..4039"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if h, err := readHexMap("fuzz.toml", data); err == nil {
			h.encode()
			_, _ = h.geometry("fuzz.toml")
		}
		if n, err := readNetMap("fuzz.toml", data); err == nil {
			text := n.encode().b.String()
			again, err := readNetMap("saved.toml", []byte(text))
			if err != nil {
				t.Fatalf("the written network file is refused: %v\n%s", err, text)
			}
			if second := again.encode().b.String(); second != text {
				t.Fatalf("a second save changes the network file:\n%s\n---\n%s", text, second)
			}
		}
		if c, err := readCounters("fuzz.toml", data); err == nil {
			text := c.encode().b.String()
			again, err := readCounters("saved.toml", []byte(text))
			if err != nil {
				t.Fatalf("the written counter file is refused: %v\n%s", err, text)
			}
			if second := again.encode().b.String(); second != text {
				t.Fatalf("a second save changes the counter file:\n%s\n---\n%s", text, second)
			}
		}
		header(data)
		readComments(data, hexTableKey)
		_, _ = ParseSize(string(data))
	})
}
