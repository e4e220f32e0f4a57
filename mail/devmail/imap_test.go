package devmail

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

func TestIMAPLoginFailure(t *testing.T) {
	s := startServer(t)
	for _, login := range [][2]string{{judge, "wrong"}, {"nobody@umpire.test", judgePW}, {judge, ""}} {
		c, err := imapclient.DialInsecure(s.IMAPAddr(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Login(login[0], login[1]).Wait(); err == nil {
			t.Errorf("LOGIN %s %q succeeded", login[0], login[1])
		}
		c.Close()
	}
}

func TestIMAPCapabilities(t *testing.T) {
	s := startServer(t)
	c := dialIMAP(t, s.IMAPAddr(), judge, judgePW, nil)
	caps, err := c.Capability().Wait()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []imap.Cap{imap.CapIMAP4rev1, imap.CapIdle, imap.CapMove, imap.CapUIDPlus, imap.CapNamespace} {
		if !caps.Has(want) {
			t.Errorf("capability %s not advertised", want)
		}
	}
}

// TestIdleSeesSMTPDelivery is how a judge learns of new orders.
func TestIdleSeesSMTPDelivery(t *testing.T) {
	s := startServer(t)
	exists := make(chan uint32, 10)
	c := dialIMAP(t, s.IMAPAddr(), judge, judgePW, &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					exists <- *data.NumMessages
				}
			},
		},
	})
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatalf("IDLE: %v", err)
	}
	if err := sendSMTP(s.SMTPAddr(), nil, alice, []string{judge}, message(alice, judge, "orders", "x")); err != nil {
		t.Fatalf("send: %v", err)
	}
	select {
	case n := <-exists:
		if n != 1 {
			t.Errorf("EXISTS %d, want 1", n)
		}
	case <-time.After(testWait):
		t.Fatal("no EXISTS while idling after an SMTP delivery")
	}
	if err := idle.Close(); err != nil {
		t.Fatalf("DONE: %v", err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatalf("IDLE: %v", err)
	}
}

// TestJudgeMailboxOperations walks through what a judge does with its
// INBOX: find unseen mail by UID, flag it, file it in folders it created.
func TestJudgeMailboxOperations(t *testing.T) {
	s := startServer(t)
	first := message(alice, judge, "first", "orders one")
	second := message(alice, judge, "second", "orders two")
	for _, msg := range [][]byte{first, second} {
		if err := s.Deliver(alice, []string{judge}, msg); err != nil {
			t.Fatal(err)
		}
	}
	c := dialIMAP(t, s.IMAPAddr(), judge, judgePW, nil)
	for _, folder := range []string{"processed", "rejected"} {
		if err := c.Create(folder, nil).Wait(); err != nil {
			t.Fatalf("CREATE %s: %v", folder, err)
		}
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.UIDValidity == 0 || sel.NumMessages != 2 {
		t.Fatalf("SELECT INBOX: UIDVALIDITY %d, %d messages", sel.UIDValidity, sel.NumMessages)
	}

	unseen, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
	if err != nil {
		t.Fatalf("UID SEARCH UNSEEN: %v", err)
	}
	uids := unseen.AllUIDs()
	if len(uids) != 2 {
		t.Fatalf("UID SEARCH UNSEEN = %v, want 2 UIDs", uids)
	}

	store := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen}, Silent: true}
	if err := c.Store(imap.UIDSetNum(uids[0]), store, nil).Close(); err != nil {
		t.Fatalf("UID STORE +FLAGS \\Seen: %v", err)
	}
	unseen, err = c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if got := unseen.AllUIDs(); len(got) != 1 || got[0] != uids[1] {
		t.Fatalf("UID SEARCH UNSEEN after STORE = %v, want [%d]", got, uids[1])
	}

	moved, err := c.Move(imap.UIDSetNum(uids[0]), "processed").Wait()
	if err != nil {
		t.Fatalf("UID MOVE: %v", err)
	}
	if moved.UIDValidity == 0 || moved.DestUIDs == nil {
		t.Errorf("UID MOVE returned no COPYUID data: %+v", moved)
	}

	inbox := fetchAll(t, c, "INBOX")
	if len(inbox) != 1 || !bytes.Equal(raw(inbox[0]), second) {
		t.Fatalf("INBOX after MOVE: %d messages, want the second only", len(inbox))
	}
	processed := fetchAll(t, c, "processed")
	if len(processed) != 1 || !bytes.Equal(raw(processed[0]), first) {
		t.Fatalf("processed after MOVE: %d messages, want the first only", len(processed))
	}
	if !hasFlag(processed[0].Flags, imap.FlagSeen) {
		t.Errorf("moved message lost \\Seen: %v", processed[0].Flags)
	}

	// The fallback for servers without MOVE: UID COPY, \Deleted, UID EXPUNGE.
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	copied, err := c.Copy(imap.UIDSetNum(uids[1]), "rejected").Wait()
	if err != nil {
		t.Fatalf("UID COPY: %v", err)
	}
	if copied.UIDValidity == 0 || copied.DestUIDs == nil {
		t.Errorf("UID COPY returned no COPYUID data: %+v", copied)
	}
	deleted := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}, Silent: true}
	if err := c.Store(imap.UIDSetNum(uids[1]), deleted, nil).Close(); err != nil {
		t.Fatalf("UID STORE +FLAGS \\Deleted: %v", err)
	}
	if _, err := c.UIDExpunge(imap.UIDSetNum(uids[1])).Collect(); err != nil {
		t.Fatalf("UID EXPUNGE: %v", err)
	}
	if inbox := fetchAll(t, c, "INBOX"); len(inbox) != 0 {
		t.Errorf("INBOX after COPY and UID EXPUNGE holds %d messages, want 0", len(inbox))
	}
	if rejected := fetchAll(t, c, "rejected"); len(rejected) != 1 || !bytes.Equal(raw(rejected[0]), second) {
		t.Errorf("rejected after COPY holds %d messages, want the second", len(rejected))
	}
}

func hasFlag(flags []imap.Flag, want imap.Flag) bool {
	for _, f := range flags {
		if f == want {
			return true
		}
	}
	return false
}

// TestIMAPRestartKeepsMailAndUIDValidity: a restart drops connections but the
// mailboxes, their UIDs and UIDVALIDITY stay, as a judge's checkpoint needs.
func TestIMAPRestartKeepsMailAndUIDValidity(t *testing.T) {
	s := startServer(t)
	msg := message(alice, judge, "orders", "x")
	if err := s.Deliver(alice, []string{judge}, msg); err != nil {
		t.Fatal(err)
	}
	c := dialIMAP(t, s.IMAPAddr(), judge, judgePW, nil)
	if err := c.Create("processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	before, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	status, err := c.Status("processed", &imap.StatusOptions{UIDValidity: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	addr := s.IMAPAddr()

	if err := s.StopIMAP(); err != nil {
		t.Fatalf("StopIMAP: %v", err)
	}
	select {
	case <-c.Closed():
	case <-time.After(testWait):
		t.Fatal("IMAP connection survived StopIMAP")
	}
	if listening(addr) {
		t.Fatal("IMAP still listening after StopIMAP")
	}
	if err := s.StartIMAP(context.Background()); err != nil {
		t.Fatalf("StartIMAP: %v", err)
	}
	if s.IMAPAddr() != addr {
		t.Fatalf("IMAPAddr moved from %s to %s", addr, s.IMAPAddr())
	}

	c2 := dialIMAP(t, addr, judge, judgePW, nil)
	after, err := c2.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if after.UIDValidity != before.UIDValidity || after.UIDNext != before.UIDNext {
		t.Errorf("INBOX UIDVALIDITY/UIDNEXT %d/%d before restart, %d/%d after",
			before.UIDValidity, before.UIDNext, after.UIDValidity, after.UIDNext)
	}
	status2, err := c2.Status("processed", &imap.StatusOptions{UIDValidity: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if status2.UIDValidity != status.UIDValidity {
		t.Errorf("processed UIDVALIDITY %d before restart, %d after", status.UIDValidity, status2.UIDValidity)
	}
	if msgs := fetchAll(t, c2, "INBOX"); len(msgs) != 1 || !bytes.Equal(raw(msgs[0]), msg) {
		t.Errorf("INBOX after restart holds %d messages, want the one delivered", len(msgs))
	}
}

// TestDeliveryRecreatesDeletedInbox: a client may delete its INBOX; mail
// still has somewhere to go.
func TestDeliveryRecreatesDeletedInbox(t *testing.T) {
	s := startServer(t)
	c := dialIMAP(t, s.IMAPAddr(), judge, judgePW, nil)
	if err := c.Delete("INBOX").Wait(); err != nil {
		t.Fatalf("DELETE INBOX: %v", err)
	}
	msg := message(alice, judge, "after delete", "x")
	if err := s.Deliver(alice, []string{judge}, msg); err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	if msgs := fetchAll(t, c, "INBOX"); len(msgs) != 1 || !bytes.Equal(raw(msgs[0]), msg) {
		t.Fatalf("re-created INBOX holds %d messages, want the one delivered", len(msgs))
	}
}
