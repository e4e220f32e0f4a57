package mailtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// fileLock is an exclusive flock(2) on a file, held across processes: go
// test runs packages in parallel processes, and OpenSMTPD allows one
// instance per machine.
type fileLock struct {
	f *os.File
}

// lockFile waits until it holds the lock on path, or ctx is done. waiting
// is called once if the lock is busy.
func lockFile(ctx context.Context, path string, waiting func()) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("mailtest: lock: %w", err)
	}
	for notified := false; ; {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return &fileLock{f: f}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("mailtest: lock %s: %w", path, err)
		}
		if !notified && waiting != nil {
			waiting()
			notified = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("mailtest: lock %s: %w", path, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// unlock releases the lock. The file stays: removing it would let two
// processes lock different files of the same name.
func (l *fileLock) unlock() {
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}
