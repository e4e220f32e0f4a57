package vassal

import (
	"encoding/binary"
	"io"
)

// directoryReader is the module's file while archive/zip reads its
// central directory: every byte archive/zip reads then counts against
// Limits.DirectoryBytes, which bounds the list of entries it keeps in
// memory (at least 46 bytes of directory an entry). left < 0 lifts the
// bound once the directory is read.
type directoryReader struct {
	r    io.ReaderAt
	left int64
}

// ReadAt reads from the module, within the directory's bound.
func (d *directoryReader) ReadAt(p []byte, off int64) (int, error) {
	if d.left >= 0 {
		if int64(len(p)) > d.left {
			return 0, refuse(ErrTooLarge, "the module's list of entries is larger than %s", bytesText(d.left))
		}
		d.left -= int64(len(p))
	}
	return d.r.ReadAt(p, off)
}

// The records at the end of a zip file (APPNOTE.TXT 4.3.14 to 4.3.16).
const (
	endSignature    = 0x06054b50 // end of central directory record, 22 bytes and a comment
	endLen          = 22
	end64LocatorSig = 0x07064b50 // zip64 end of central directory locator, 20 bytes
	end64LocatorLen = 20
	end64Signature  = 0x06064b50 // zip64 end of central directory record, 56 bytes or more
	end64Len        = 56
	endSearch       = 65 * 1024 // how far from the end archive/zip looks for the end record
)

// checkDirectory reads the count of entries the zip's end record claims,
// and refuses more than lim.Entries before archive/zip is given the file:
// archive/zip sizes its list of entries from that count (up to one per 30
// bytes of file) before it reads a single entry. The end record is found
// as archive/zip finds it: the last signature whose comment fits the
// file. A file that is not a zip passes here, for archive/zip to refuse.
func checkDirectory(r io.ReaderAt, size int64, lim Limits) error {
	n := min(size, endSearch)
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
		return refuseWrap(ErrNotModule, err, "the module cannot be read")
	}
	at := -1
	for i := len(buf) - endLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(buf[i:]) == endSignature {
			if c := int(binary.LittleEndian.Uint16(buf[i+20:])); i+endLen+c <= len(buf) {
				at = i
			}
			break
		}
	}
	if at < 0 {
		return nil
	}
	records := uint64(binary.LittleEndian.Uint16(buf[at+10:]))
	dirSize, dirOff := binary.LittleEndian.Uint32(buf[at+12:]), binary.LittleEndian.Uint32(buf[at+16:])
	if records == 0xffff || dirSize == 0xffff || dirSize == 0xffffffff || dirOff == 0xffffffff {
		// A zip64 file: its count is in the zip64 end record, which the
		// locator just before the end record points at.
		endOff := size - n + int64(at)
		if endOff < end64LocatorLen {
			return nil
		}
		loc := make([]byte, end64LocatorLen)
		if _, err := r.ReadAt(loc, endOff-end64LocatorLen); err != nil {
			return nil
		}
		if binary.LittleEndian.Uint32(loc) != end64LocatorSig {
			return nil
		}
		off := binary.LittleEndian.Uint64(loc[8:])
		if off > uint64(size-end64Len) {
			return nil
		}
		rec := make([]byte, end64Len)
		if _, err := r.ReadAt(rec, int64(off)); err != nil || binary.LittleEndian.Uint32(rec) != end64Signature {
			return nil
		}
		records = binary.LittleEndian.Uint64(rec[32:])
	}
	if records > uint64(lim.Entries) {
		return refuse(ErrTooLarge, "the module claims %s entries, over the limit of %s", groupDigits(int64(min(records, 1<<62))), groupDigits(int64(lim.Entries)))
	}
	return nil
}
