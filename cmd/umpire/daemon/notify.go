package daemon

import (
	"context"
	"sync"
	"time"

	sdaemon "github.com/coreos/go-systemd/v22/daemon"

	"github.com/umpire-pbem/umpire/store"
)

// ready tells systemd (a Type=notify unit) that the judge runs, and that
// it stops once ctx ends. Without NOTIFY_SOCKET (not run by systemd) it
// does nothing. The judge calls the stopping it returns before it exits:
// it returns once systemd was told, which the goroutine that ctx's end
// starts may not have done yet.
func (d *Daemon) ready(ctx context.Context) (stopping func()) {
	if ok, err := sdaemon.SdNotify(false, sdaemon.SdNotifyReady); err != nil {
		d.log.WarnContext(ctx, "systemd not told the judge is ready", "err", err)
	} else if ok {
		d.log.DebugContext(ctx, "systemd told the judge is ready")
	}
	var once sync.Once
	stopping = func() { once.Do(func() { sdaemon.SdNotify(false, sdaemon.SdNotifyStopping) }) }
	context.AfterFunc(ctx, stopping)
	return stopping
}

// watchdog keeps systemd's watchdog (WatchdogSec=) fed while the judge's
// store answers, three times per interval, until ctx ends: a judge whose
// store is stuck is restarted. Without a watchdog it only waits for ctx.
func (d *Daemon) watchdog(ctx context.Context) error {
	interval, err := sdaemon.SdWatchdogEnabled(false)
	if err != nil {
		d.log.WarnContext(ctx, "systemd's watchdog not fed", "err", err)
	}
	if err != nil || interval <= 0 {
		<-ctx.Done()
		return ctx.Err()
	}
	t := time.NewTicker(interval / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if err := d.db.View(ctx, func(*store.Tx) error { return nil }); err != nil {
			d.log.ErrorContext(ctx, "store does not answer: systemd's watchdog not fed", "err", err)
			continue
		}
		sdaemon.SdNotify(false, sdaemon.SdNotifyWatchdog)
	}
}
