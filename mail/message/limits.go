package message

// Limits bound the work and memory Parse may spend on one message. A message
// that exceeds them is refused with an error wrapping ErrTooLarge or
// ErrTooDeep before it can cost more; nothing is allocated in proportion to
// what the message merely claims.
type Limits struct {
	// MaxMessage is the largest raw message, in bytes.
	MaxMessage int64
	// MaxAttachment is the largest decoded part (body text or attachment),
	// in bytes.
	MaxAttachment int64
	// MaxDepth is how deeply multiparts and attached messages may nest. The
	// message itself is at depth 0, its parts at depth 1, and so on; a part
	// deeper than MaxDepth (inside more than MaxDepth multiparts or
	// attached messages) is refused.
	MaxDepth int
	// MaxParts is how many MIME entities (the message itself, every
	// multipart and every leaf part) one message may hold.
	MaxParts int
}

// DefaultLimits returns the limits umpire uses unless configured otherwise:
// a 2 MiB message, 1 MiB per decoded part, nesting 10 deep and 100 parts.
// Order files are a few kilobytes; these leave room for screenshots and
// forwarded mail while keeping a hostile message cheap to refuse.
func DefaultLimits() Limits {
	return Limits{
		MaxMessage:    2 << 20,
		MaxAttachment: 1 << 20,
		MaxDepth:      10,
		MaxParts:      100,
	}
}

// orDefault returns l with every zero or negative field replaced by the
// default, so that a zero Limits is safe rather than unlimited.
func (l Limits) orDefault() Limits {
	d := DefaultLimits()
	if l.MaxMessage <= 0 {
		l.MaxMessage = d.MaxMessage
	}
	if l.MaxAttachment <= 0 {
		l.MaxAttachment = d.MaxAttachment
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxParts <= 0 {
		l.MaxParts = d.MaxParts
	}
	return l
}
