package daemon

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/umpire-pbem/umpire/templates"
)

// LogFile is the judge's log file (log.file): written by appending, and
// reopened by its path on SIGHUP, so that a log rotated away (logrotate's
// rename, then kill -HUP) is followed by a new file.
type LogFile struct {
	path string
	mu   sync.Mutex
	f    *os.File
}

// OpenLogFile opens (or makes, mode 0640) the log file at path for
// appending.
func OpenLogFile(path string) (*LogFile, error) {
	l := &LogFile{path: path}
	if err := l.Reopen(); err != nil {
		return nil, err
	}
	return l, nil
}

// Reopen closes the file and opens its path again. When the path cannot be
// opened, the log goes on into the file it had.
func (l *LogFile) Reopen() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return fmt.Errorf("log.file: %w", err)
	}
	l.mu.Lock()
	old := l.f
	l.f = f
	l.mu.Unlock()
	if old != nil {
		return old.Close()
	}
	return nil
}

// Write appends p, one log record, to the file.
func (l *LogFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Write(p)
}

// Close closes the file.
func (l *LogFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}

// Path is the file's path.
func (l *LogFile) Path() string { return l.path }

// Reload rereads the report templates from templates.dir (SIGHUP). When
// one does not parse, the judge keeps the templates it had, and the error
// says which file. Reports already rendered ahead of their sending go out
// as they were rendered.
func (d *Daemon) Reload(ctx context.Context) error {
	rs, err := templates.NewReports(d.cfg.Templates.Dir)
	if err != nil {
		d.log.ErrorContext(ctx, "templates not reread, the judge keeps those it had", "dir", d.cfg.Templates.Dir, "err", err)
		return err
	}
	d.queue.reloaded.Store(rs.WithMapImages(MapImages(d.db)).WithPages(Pages(d.db, d.judge, d.cfg.Address, d.cfg.Web.baseURL(), d.now)))
	d.log.InfoContext(ctx, "templates reread", "dir", d.cfg.Templates.Dir)
	return nil
}

// Hangups reopens the log file (nil: none) and rereads the templates at
// each signal from hup (SIGHUP, as log rotation sends it), until ctx ends.
func (d *Daemon) Hangups(ctx context.Context, hup <-chan os.Signal, log *LogFile) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
		}
		if log != nil {
			if err := log.Reopen(); err != nil {
				d.log.ErrorContext(ctx, "log file not reopened, logging on into the old one", "err", err)
			} else {
				d.log.InfoContext(ctx, "log file reopened", "path", log.Path())
			}
		}
		_ = d.Reload(ctx) // logged; the templates it had stay
	}
}
