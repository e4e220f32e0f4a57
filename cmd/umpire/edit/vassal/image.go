package vassal

import (
	"bytes"
	"image"
	_ "image/gif"  // GIF scans and board images
	_ "image/jpeg" // JPEG scans and board images
	_ "image/png"  // PNG scans and board images
	"strconv"
)

// CheckImage reads the header of a scan or a board image, never its
// pixels, and gives its format ("png", "jpeg" or "gif") and size. It
// refuses what is not one of those formats, and an image over
// lim.Pixels or lim.Side before anything is decoded: the cost is that of
// reading the header.
func CheckImage(data []byte, lim Limits) (format string, w, h int, err error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "", 0, 0, refuseWrap(ErrNotImage, err, "not a PNG, JPEG or GIF image")
	}
	switch format {
	case "png", "jpeg", "gif":
	default:
		return "", 0, 0, refuse(ErrNotImage, "a %s image; only PNG, JPEG and GIF are read", format)
	}
	w, h = cfg.Width, cfg.Height
	if w <= 0 || h <= 0 {
		return "", 0, 0, refuse(ErrNotImage, "a %s image of %d × %d pixels, which is empty", format, w, h)
	}
	if w > lim.Side || h > lim.Side || int64(w)*int64(h) > lim.Pixels {
		return "", 0, 0, refuse(ErrTooLarge, "a %s image of %s × %s pixels, over the limit of %s pixels (and %s a side); scan at a lower resolution",
			format, groupDigits(int64(w)), groupDigits(int64(h)), groupDigits(lim.Pixels), groupDigits(int64(lim.Side)))
	}
	return format, w, h, nil
}

// groupDigits writes n with commas between thousands: 20,000.
func groupDigits(n int64) string {
	if n < 0 {
		return "-" + groupDigits(-n)
	}
	if n < 1000 {
		return strconv.FormatInt(n, 10)
	}
	return groupDigits(n/1000) + "," + strconv.FormatInt(n%1000+1000, 10)[1:]
}
