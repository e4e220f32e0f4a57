package devmail

import (
	"context"
	"fmt"
	"net"
	"sync"
)

// trackingListener remembers the connections it accepted so that stopping a
// listener can drop them all: the IMAP and SMTP libraries only close the
// connections they have registered, which leaves a window right after
// Accept.
type trackingListener struct {
	net.Listener

	mu     sync.Mutex
	conns  map[*trackedConn]struct{}
	closed bool
}

func listen(ctx context.Context, addr string) (*trackingListener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("devmail: listen on %s: %w", addr, err)
	}
	return &trackingListener{Listener: ln, conns: make(map[*trackedConn]struct{})}, nil
}

// Accept implements net.Listener.
func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &trackedConn{Conn: c, l: l}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		c.Close()
		return nil, net.ErrClosed
	}
	l.conns[tc] = struct{}{}
	return tc, nil
}

// closeAll closes the listener and every connection it accepted.
func (l *trackingListener) closeAll() {
	l.mu.Lock()
	l.closed = true
	conns := make([]*trackedConn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
	}
	l.mu.Unlock()
	l.Listener.Close()
	for _, c := range conns {
		c.Close()
	}
}

// trackedConn removes itself from its listener's set when closed.
type trackedConn struct {
	net.Conn
	l    *trackingListener
	once sync.Once
	err  error
}

// Close implements net.Conn.
func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
		c.err = c.Conn.Close()
	})
	return c.err
}
