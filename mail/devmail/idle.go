package devmail

import (
	"sync"
	"time"

	"github.com/emersion/go-imap/v2/imapserver"
)

// idlePoll is how often an idling session looks for changes made by other
// IMAP sessions (flags, expunges). Deliveries wake it at once.
const idlePoll = time.Second

// Idle implements imapserver.Session. imapmemserver's own IDLE (go-imap
// v2.0.0-beta.8) only wakes on updates queued after it has started, so a
// message delivered between the client's IDLE command and that moment would
// go unannounced until the next command. This loop polls first, then sleeps
// until a delivery, the next tick or DONE.
func (sess *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	ticker := time.NewTicker(idlePoll)
	defer ticker.Stop()
	for {
		wake := sess.delivered.wait() // before polling, so no delivery slips between
		if err := sess.UserSession.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-wake:
		case <-ticker.C:
		}
	}
}

// broadcast wakes every waiter at once, any number of times.
type broadcast struct {
	mu sync.Mutex
	ch chan struct{}
}

func newBroadcast() *broadcast {
	return &broadcast{ch: make(chan struct{})}
}

// wait returns a channel closed by the next notify.
func (b *broadcast) wait() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ch
}

// notify wakes the current waiters.
func (b *broadcast) notify() {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.ch)
	b.ch = make(chan struct{})
}
