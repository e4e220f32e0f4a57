package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/store"
)

// judge is the daemon's intake: it takes each message from the inbox, reads
// and checks it, and commits what it means in one store transaction. It is
// the mail.Handler and mail.Checkpoints of the inbox.
type judge struct {
	db      *store.DB
	intake  *adjudicator.Intake
	address string // our own address
	from    string // From header of our mail
	limits  message.Limits
	now     func() time.Time
	log     *slog.Logger
	replies *rateLimit
	poke    func() // wakes the outbox after a commit that queued mail
}

// Checkpoint implements mail.Checkpoints.
func (j *judge) Checkpoint(ctx context.Context, mailbox string) (uint32, uint32, error) {
	var cp store.Checkpoint
	err := j.db.View(ctx, func(tx *store.Tx) (err error) {
		cp, err = tx.Checkpoint(mailbox)
		return err
	})
	return cp.UIDValidity, cp.LastUID, err
}

// Handle implements mail.Handler.
func (j *judge) Handle(ctx context.Context, m mail.Message) (mail.Disposition, error) {
	ds, err := j.HandleBatch(ctx, []mail.Message{m})
	if err != nil {
		return 0, err
	}
	return ds[0], nil
}

// HandleBatch implements mail.BatchHandler: the messages are read and their
// signatures checked in parallel, then committed in one transaction, each
// message's decision whole.
func (j *judge) HandleBatch(ctx context.Context, ms []mail.Message) ([]mail.Disposition, error) {
	now := j.now()
	keys, err := j.keyring(ctx)
	if err != nil {
		return nil, fmt.Errorf("read keys: %w", err)
	}
	envs := make([]*adjudicator.Envelope, len(ms))
	digests := make([]dice.Hash, len(ms))
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(ms)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				digests[i] = dice.Hash(sha256.Sum256(ms[i].Raw))
				envs[i] = j.envelope(ctx, ms[i], keys, now)
			}
		}()
	}
	for i := range ms {
		work <- i
	}
	close(work)
	wg.Wait()

	ds := make([]mail.Disposition, len(ms))
	queued := false
	err = j.db.Update(ctx, func(tx *store.Tx) error {
		queued = false
		for i, m := range ms {
			d, err := j.commit(ctx, tx, m, envs[i], digests[i], now, &queued)
			if err != nil {
				return fmt.Errorf("message uid %d: %w", m.UID, err)
			}
			ds[i] = d
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	if queued && j.poke != nil {
		j.poke()
	}
	return ds, nil
}

// commit writes one message's decision: the checkpoint, and either the
// disposition recorded when it was taken before, or intake's effects and
// the consumed record.
func (j *judge) commit(ctx context.Context, tx *store.Tx, m mail.Message, env *adjudicator.Envelope, digest dice.Hash, now time.Time, queued *bool) (mail.Disposition, error) {
	cp, err := tx.Checkpoint(m.Mailbox)
	if err != nil {
		return 0, err
	}
	if cp.UIDValidity != m.UIDValidity || m.UID > cp.LastUID {
		if err := tx.PutCheckpoint(store.Checkpoint{Mailbox: m.Mailbox, UIDValidity: m.UIDValidity, LastUID: m.UID}); err != nil {
			return 0, err
		}
	}
	if rec, ok, err := tx.ConsumedRecord(digest, env.MessageID); err != nil || ok {
		// Taken before (a crash between commit and move, or the same mail
		// delivered twice): same folder, no effects again.
		return dispositionOf(rec.Disposition), err
	}
	jt := &limitedTx{Tx: tx.Judge(j.from, now), limit: j.replies, sender: env.From, now: now, log: j.log, queued: queued}
	outcome, err := j.intake.Handle(ctx, jt, env)
	if err != nil {
		return 0, err
	}
	d := mail.Processed
	if outcome == adjudicator.Refused {
		d = mail.Rejected
	}
	_, err = tx.ConsumeMessage(store.Consumed{MessageID: env.MessageID, Digest: digest, Mailbox: m.Mailbox,
		UID: m.UID, At: now, Disposition: dispositionName(d)})
	return d, err
}

func dispositionName(d mail.Disposition) string {
	if d == mail.Rejected {
		return "rejected"
	}
	return "processed"
}

func dispositionOf(s string) mail.Disposition {
	if s == "rejected" {
		return mail.Rejected
	}
	return mail.Processed
}

// envelope reads m into what intake needs. It never fails: what cannot be
// read becomes a reason the player is told.
func (j *judge) envelope(ctx context.Context, m mail.Message, keys signature.Keys, now time.Time) *adjudicator.Envelope {
	env := &adjudicator.Envelope{Received: now, Size: m.Size, Limit: j.limits.MaxMessage}
	msg, err := message.Parse(m.Raw, j.limits)
	if msg != nil {
		env.MessageID, env.Subject = msg.MessageID, msg.Subject
		env.From = msg.From.Addr
		if len(msg.ReplyTo) > 0 && msg.ReplyTo[0].Addr != "" {
			env.From = msg.ReplyTo[0].Addr
		}
		if rp := strings.Trim(msg.ReturnPath, "<> "); env.From == "" && rp != "" {
			// No readable From: the envelope sender the delivering server
			// recorded is where an answer can still go.
			env.From = rp
		}
		env.References = append(append([]string(nil), msg.References...), msg.InReplyTo)
		env.References = slices.DeleteFunc(env.References, func(r string) bool { return r == "" })
		if reason, auto := message.Automatic(msg, []string{j.address}); auto {
			env.Automatic = reason
			if r := msg.Report; r != nil && r.OriginalMessageID != "" {
				env.Bounce = &adjudicator.Bounce{OriginalMessageID: r.OriginalMessageID, Recipient: r.FinalRecipient,
					Action: r.Action, Status: r.Status, Diagnostic: r.DiagnosticCode, At: now}
			}
			return env
		}
	}
	switch {
	case m.Truncated:
		env.TooLarge = true
		return env
	case errors.Is(err, message.ErrTooLarge):
		env.TooLarge = true
		var le *message.LimitError
		if errors.As(err, &le) && le.Limit != message.LimitMessage {
			env.TooLargeWhy = strings.TrimSuffix(le.Error(), ".")
		}
		return env
	case err != nil:
		env.Unreadable = err.Error()
		return env
	}
	env.Text, env.HTMLOnly = msg.Text, msg.HTMLOnly
	if msg.Encrypted {
		env.SignatureProblem = "the message is encrypted, and the judge reads no encrypted mail: " +
			"sign your order file without encrypting it (gpg --clearsign orders.txt)"
		return env
	}
	verify(msg, env, keys)
	return env
}

// verify finds the signature of msg, in any of the forms players use, and
// checks it against the keys the judge knows. A message without one of its
// own may carry a forwarded message that has one.
func verify(msg *message.Message, env *adjudicator.Envelope, keys signature.Keys) {
	attached := attachedKeys(msg, keys)
	if attached != nil {
		keys = either{keys, attached.ring}
	}
	v, content, err, found := verifyMessage(msg, keys)
	for _, fwd := range msg.Forwarded {
		if found {
			break
		}
		v, content, err, found = verifyMessage(fwd, keys)
	}
	if !found {
		return // unsigned
	}
	var unknown *signature.UnknownKeyError
	switch {
	case errors.As(err, &unknown):
		env.UnknownKey = unknown.Fingerprint
	case errors.Is(err, signature.ErrNoSignature):
		// nothing usable: treated as unsigned
	case err != nil:
		env.SignatureProblem = err.Error()
	default:
		env.Signed = &adjudicator.Signature{Kind: string(v.Kind), Fingerprint: v.Fingerprint, Content: content, Signed: v.Signed}
		if attached != nil {
			if raw, ok := attached.raw[v.Fingerprint]; ok {
				env.NewKey = &adjudicator.NewKey{Fingerprint: v.Fingerprint, Kind: string(v.Kind), Public: raw}
			}
		}
	}
}

// attached holds the public keys a message carries that the judge does
// not know yet: a new player's join brings the player's key.
type attached struct {
	ring *signature.Keyring
	raw  map[string][]byte // fingerprint -> the attachment as sent
}

func attachedKeys(msg *message.Message, known signature.Keys) *attached {
	var a *attached
	for _, att := range msg.Attachments {
		if !isKeyFile(att.Data) {
			continue
		}
		k, err := signature.ParseKey(att.Data)
		if err != nil {
			continue
		}
		if _, ok := known.Lookup(k.Kind, k.Fingerprint); ok {
			continue
		}
		if a == nil {
			a = &attached{ring: &signature.Keyring{}, raw: map[string][]byte{}}
		}
		if a.ring.Add(k) == nil {
			a.raw[k.Fingerprint] = att.Data
		}
	}
	return a
}

// isKeyFile reports whether an attachment looks like a public key rather
// than a signature or an order file.
func isKeyFile(b []byte) bool {
	s := strings.TrimSpace(string(b))
	return strings.Contains(s, "BEGIN PGP PUBLIC KEY BLOCK") ||
		strings.HasPrefix(s, "ssh-ed25519 ") || strings.HasPrefix(s, "ecdsa-sha2-") || strings.HasPrefix(s, "ssh-rsa ")
}

// either looks a key up in a, then in b.
type either struct{ a, b signature.Keys }

func (e either) Lookup(kind signature.Kind, id string) (signature.Key, bool) {
	if k, ok := e.a.Lookup(kind, id); ok {
		return k, true
	}
	return e.b.Lookup(kind, id)
}

// verifyMessage checks the signature of one message: PGP/MIME, a file with
// its detached signature, or an inline block. found is false when the
// message has none.
func verifyMessage(msg *message.Message, keys signature.Keys) (v signature.Verified, content string, err error, found bool) {
	switch {
	case msg.Signed != nil: // PGP/MIME
		v, err = signature.VerifyDetached(msg.Signed.Part, msg.Signed.Signature, keys)
		if in := msg.Signed.Inner; in != nil {
			content = in.Text
			// Some mail programs attach the order file inside the signed
			// part instead of writing it in the body.
			if !strings.Contains(content, "game:") {
				for _, a := range in.Attachments {
					if strings.HasPrefix(a.ContentType, "text/") && strings.Contains(a.Text(), "game:") {
						content = a.Text()
						break
					}
				}
			}
		}
		return v, content, err, true
	case detachedPair(msg) != nil:
		pair := detachedPair(msg)
		v, err = signature.VerifyDetached(pair[0].Data, pair[1].Data, keys)
		return v, string(pair[0].Data), err, true
	}
	if _, ok := signature.Detect(msg.RawText); !ok {
		return v, "", nil, false
	}
	// Inline signatures cover the text as sent, before any charset
	// conversion.
	v, err = signature.VerifyInline(msg.RawText, keys)
	return v, string(v.Content), err, true
}

// detachedPair returns an attached file and its detached signature
// (NAME and NAME.asc or NAME.sig), or nil.
func detachedPair(msg *message.Message) []message.Attachment {
	var files []message.Attachment
	for _, a := range msg.Attachments {
		if !isKeyFile(a.Data) {
			files = append(files, a)
		}
	}
	for _, sig := range files {
		ext := strings.ToLower(path.Ext(sig.Filename))
		if ext != ".asc" && ext != ".sig" {
			continue
		}
		base := strings.TrimSuffix(sig.Filename, path.Ext(sig.Filename))
		for _, f := range files {
			if f.Filename == base {
				return []message.Attachment{f, sig}
			}
		}
		// A lone file and a lone signature go together too.
		if len(files) == 2 {
			other := files[0]
			if other.Filename == sig.Filename {
				other = files[1]
			}
			return []message.Attachment{other, sig}
		}
	}
	return nil
}

// keyring loads the keys the judge knows.
func (j *judge) keyring(ctx context.Context) (*signature.Keyring, error) {
	var keys []store.Key
	if err := j.db.View(ctx, func(tx *store.Tx) (err error) {
		keys, err = tx.Keys()
		return err
	}); err != nil {
		return nil, err
	}
	r := &signature.Keyring{}
	for _, k := range keys {
		pk, err := signature.ParseKey(k.Public)
		if err != nil {
			j.log.WarnContext(ctx, "stored key does not parse", "fingerprint", k.Fingerprint, "err", err)
			continue
		}
		if err := r.Add(pk); err != nil {
			j.log.WarnContext(ctx, "stored key refused", "fingerprint", k.Fingerprint, "err", err)
		}
	}
	return r, nil
}

// limitedTx holds back answers to a sender who has had too many this hour,
// so that a broken auto-responder cannot make the judge a mail cannon.
// Receipts for accepted orders always go.
type limitedTx struct {
	adjudicator.Tx
	limit  *rateLimit
	sender string
	now    time.Time
	log    *slog.Logger
	queued *bool
}

func (l *limitedTx) Enqueue(m adjudicator.Mail) error {
	if m.Kind != adjudicator.MailReceipt && !l.limit.allow(strings.ToLower(l.sender), l.now) {
		l.log.Warn("answer held back: sender over the hourly reply limit", "to", m.To, "subject", m.Subject)
		return nil
	}
	*l.queued = true
	return l.Tx.Enqueue(m)
}

// rateLimit counts answers per sender over a sliding hour.
type rateLimit struct {
	mu    sync.Mutex
	max   int
	sends map[string][]time.Time
}

func newRateLimit(perHour int) *rateLimit {
	return &rateLimit{max: perHour, sends: map[string][]time.Time{}}
}

func (r *rateLimit) allow(sender string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	recent := r.sends[sender][:0]
	for _, t := range r.sends[sender] {
		if now.Sub(t) < time.Hour {
			recent = append(recent, t)
		}
	}
	if len(recent) >= r.max {
		r.sends[sender] = recent
		return false
	}
	r.sends[sender] = append(recent, now)
	return true
}
