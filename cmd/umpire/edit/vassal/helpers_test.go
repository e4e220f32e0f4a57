package vassal

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// entry is a file of a test module. Claim, when not 0, is the
// uncompressed size its zip header claims (a lying header, as a zip
// bomb's).
type entry struct {
	name  string
	data  []byte
	claim uint64
}

// moduleZip writes entries into a zip archive as VASSAL's ArchiveWriter
// does (deflated entries).
func moduleZip(tb testing.TB, entries ...entry) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		if e.claim == 0 {
			w, err := zw.Create(e.name)
			if err != nil {
				tb.Fatal(err)
			}
			if _, err := w.Write(e.data); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		var comp bytes.Buffer
		fw, _ := flate.NewWriter(&comp, flate.BestCompression)
		fw.Write(e.data)
		fw.Close()
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Deflate,
			CRC32: crc32.ChecksumIEEE(e.data), CompressedSize64: uint64(comp.Len()), UncompressedSize64: e.claim})
		if err != nil {
			tb.Fatal(err)
		}
		w.Write(comp.Bytes())
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// pngOf is a w × h PNG.
func pngOf(tb testing.TB, w, h int) []byte {
	tb.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	img.Set(0, 0, color.Black)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// pngHeader is the start of a PNG of w × h pixels: its signature and a
// well-formed IHDR chunk, and no pixels, as a 20,000 × 20,000 scan would
// begin.
func pngHeader(w, h uint32) []byte {
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr[:]...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// buildFileXML is a buildFile.xml as VASSAL 3.7 writes one, around the
// given maps.
func buildFileXML(maps string) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule ModuleOther1="" ModuleOther2="" VassalVersion="3.7.0" description="" name="Test Module" nextPieceSlotId="0" version="1.0">
    <VASSAL.build.module.BasicCommandEncoder/>
    <VASSAL.build.module.Documentation/>
` + maps + `
    <VASSAL.build.module.PieceWindow name="Counters"><VASSAL.build.widget.PieceSlot entryName="1 Inf" gpid="1">+/null/prototype;Infantry	piece;;;1inf.png;1 Inf/	null;0;0</VASSAL.build.widget.PieceSlot></VASSAL.build.module.PieceWindow>
</VASSAL.build.GameModule>
`)
}

// mapXML is a Map element holding the given boards.
func mapXML(name, boards string) string {
	return `    <VASSAL.build.module.Map allowMultiple="false" backgroundcolor="255,255,255" mapName="` + name + `" markMoved="Always">
        <VASSAL.build.module.map.BoardPicker addColumnText="Add column" boardPrompt="Select board" slotHeight="125" slotScale="0.2" slotWidth="350" title="Choose Boards">
` + boards + `
        </VASSAL.build.module.map.BoardPicker>
        <VASSAL.build.module.map.StackMetrics bottom="40" disabled="false" down="83" exSepX="6" exSepY="18" top="38" unexSepX="8" unexSepY="16"/>
    </VASSAL.build.module.Map>
`
}

// moduleData is a moduledata entry as VASSAL writes one.
var moduleData = []byte(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<data version="1"><version>1.0</version><extra1/><extra2/><VassalVersion>3.7.0</VassalVersion><dateSaved>1700000000000</dateSaved><description/><name>Test Module</name></data>
`)
