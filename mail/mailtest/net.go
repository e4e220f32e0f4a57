package mailtest

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// Real stacks take their ports below the kernel's ephemeral range, where
// neither bind to port 0 nor outgoing connections take them: a port freed by
// StopSMTP or RestartIMAP then stays free until the server comes back.
const (
	lowestPort    = 16384
	portTries     = 100
	ephemeralConf = "/proc/sys/net/ipv4/ip_local_port_range"
)

// freePort returns a loopback TCP port that was free a moment ago, below the
// ephemeral range if there is room there.
func freePort() (int, error) {
	if low := ephemeralLow(); low-lowestPort >= 1024 {
		for range portTries {
			port := lowestPort + rand.IntN(low-lowestPort)
			ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
			if err == nil {
				ln.Close()
				return port, nil
			}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("mailtest: find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// ephemeralLow returns the first port of the ephemeral range, 0 if unknown.
func ephemeralLow() int {
	b, err := os.ReadFile(ephemeralConf)
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(b))
	if len(fields) != 2 {
		return 0
	}
	low, err := strconv.Atoi(fields[0])
	if err != nil {
		return 0
	}
	return low
}

// waitGreeting polls addr until a server there sends a greeting line that
// starts with prefix ("* OK" for IMAP, "220" for SMTP and LMTP), or until
// ctx is done or exited is closed.
func waitGreeting(ctx context.Context, addr, prefix string, exited <-chan struct{}) error {
	var lastErr error
	for {
		if lastErr = greeting(addr, prefix); lastErr == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("mailtest: no greeting on %s: %w", addr, lastErr)
		case <-exited:
			return fmt.Errorf("mailtest: server for %s exited", addr)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func greeting(addr, prefix string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, prefix) {
		return fmt.Errorf("greeting %q", strings.TrimSpace(line))
	}
	return nil
}
