package mailtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// stopGrace is how long a server gets to exit after SIGTERM before the
// rest of its process group is killed.
const stopGrace = 5 * time.Second

// process is a mail server started in its own process group, so that
// stopping it can reach the children it forked (Dovecot's imap and auth
// processes, OpenSMTPD's privilege-separated helpers).
type process struct {
	name string
	cmd  *exec.Cmd
	done chan struct{} // closed when the leader has exited
	err  error         // the leader's exit status, set before done is closed
}

// startProcess runs argv with its output appended to logPath. If the test
// binary dies, the kernel sends the leader SIGTERM.
func startProcess(name, logPath string, argv ...string) (*process, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("mailtest: %s log: %w", name, err)
	}
	defer logFile.Close() // the child has its own descriptor
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.Dir = filepath.Dir(logPath)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("mailtest: start %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// stop stops the process group and reaps the leader.
func (p *process) stop() error {
	if err := stopGroup(p.cmd.Process.Pid); err != nil {
		return fmt.Errorf("mailtest: stop %s: %w", p.name, err)
	}
	<-p.done
	return nil
}

// stopGroup sends SIGTERM to every process of process group pgid, then
// SIGKILL to the survivors, and returns once no process of the group is
// alive. Signalling the whole group at once drops client connections right
// away; Dovecot's master alone takes a second to shut its children down.
func stopGroup(pgid int) error {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	if waitGone(func() bool { return groupAlive(pgid) }, stopGrace) {
		return nil
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	if waitGone(func() bool { return groupAlive(pgid) }, stopGrace) {
		return nil
	}
	return fmt.Errorf("process group %d survived SIGKILL", pgid)
}

// waitGone polls until running reports false, for at most timeout, and
// reports whether it did.
func waitGone(running func() bool, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for running() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// groupAlive reports whether a process that is not a zombie is in process
// group pgid. Zombies are skipped: orphans are reaped by init, whenever it
// gets to it.
func groupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, group, err := procStat(pid)
		if err != nil {
			continue // exited meanwhile
		}
		if group == pgid && state != 'Z' && state != 'X' {
			return true
		}
	}
	return false
}

// procStat reads the state and process group of pid from /proc/pid/stat.
func procStat(pid int) (state byte, pgid int, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, errors.New("mailtest: malformed /proc stat")
	}
	fields := bytes.Fields(b[i+1:])
	if len(fields) < 3 || len(fields[0]) != 1 {
		return 0, 0, errors.New("mailtest: malformed /proc stat")
	}
	pgid, err = strconv.Atoi(string(fields[2]))
	return fields[0][0], pgid, err
}
