package edit

import "testing"

// FuzzReadFiles feeds any text to the editor's readers: each refuses it or
// reads it into a document it can write, without a panic or a hang.
func FuzzReadFiles(f *testing.F) {
	f.Add([]byte("# umpire edit: scan x0=1 y0=2 sx=3 sy=4\ntitle = \"m\"\n[grid]\nfirst = \"0101\"\nlast = \"0303\"\n"))
	f.Add([]byte("title = \"b\"\nwidth = 10\nheight = 10\n[[region]]\nname = \"R\"\n[[space]]\nname = \"S\"\n"))
	f.Add([]byte("stand_in = true\n[[unit]]\nid = \"A\"\nma = 8\nfront = {A = 1}\n"))
	f.Add([]byte("# head\n[grid]\nfirst = \"0101\"\nlast = \"0303\"\n# roads\n[[road]]\n# inside\nkind = 'road'\npath = [\"0101\", \"0102\"]\n# end\n"))
	f.Add([]byte("title = \"m\" # kept\n[[space]] # head\nname = \"S\" # the S\nsetup = [ # open\n  \"a\", # one\n  # a line\n  'b#c',\n] # closed\nnote = \"\"\"x # not\n# not either\n\"\"\" # yes\n"))
	f.Add([]byte("1000..4039"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if h, err := readHexMap("fuzz.toml", data); err == nil {
			h.encode()
			_, _ = h.geometry("fuzz.toml")
		}
		if n, err := readNetMap("fuzz.toml", data); err == nil {
			n.encode()
		}
		if c, err := readCounters("fuzz.toml", data); err == nil {
			c.encode()
		}
		header(data)
		readComments(data, hexTableKey)
		_, _ = ParseSize(string(data))
	})
}
