package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Judge returns tx as the adjudicator sees a store transaction. Mails it
// queues are sent From from and stamped with now.
func (tx *Tx) Judge(from string, now time.Time) adjudicator.Tx {
	return judgeTx{tx: tx, from: from, now: now}
}

type judgeTx struct {
	tx   *Tx
	from string
	now  time.Time
}

// notFound makes the store's ErrNotFound the adjudicator's.
func notFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%w: %w", adjudicator.ErrNotFound, err)
	}
	return err
}

func gameOf(g Game) adjudicator.Game {
	return adjudicator.Game{ID: g.ID, Kind: g.Kind, Title: g.Title, Status: g.Status, GMKey: g.GMKey, Step: g.Step}
}

func (j judgeTx) Game(id string) (adjudicator.Game, error) {
	g, err := j.tx.Game(id)
	return gameOf(g), notFound(err)
}

func (j judgeTx) Games() ([]adjudicator.Game, error) {
	gs, err := j.tx.Games()
	out := make([]adjudicator.Game, len(gs))
	for i, g := range gs {
		out[i] = gameOf(g)
	}
	return out, err
}

func seatOf(s Seat) adjudicator.Seat {
	h, _ := s.Holder()
	return adjudicator.Seat{Game: s.Game, Name: s.Name, Holder: h.Key}
}

func (j judgeTx) Seat(game, name string) (adjudicator.Seat, error) {
	s, err := j.tx.Seat(game, name)
	return seatOf(s), notFound(err)
}

func (j judgeTx) Seats(game string) ([]adjudicator.Seat, error) {
	ss, err := j.tx.Seats(game)
	out := make([]adjudicator.Seat, len(ss))
	for i, s := range ss {
		out[i] = seatOf(s)
	}
	return out, notFound(err)
}

func (j judgeTx) AddOrderFile(o adjudicator.OrderFile) (uint64, error) {
	return j.tx.AddOrderFile(OrderFile{Game: o.Game, Step: o.Step, Seat: o.Seat, Digest: o.Digest, Key: o.Key,
		Signed: o.Signed, Text: o.Text, Received: o.Received, MessageID: o.MessageID, Status: "accepted"})
}

func (j judgeTx) OrderDigestVersion(game string, step uint64, seat string, d dice.Hash) (uint64, uint64, error) {
	v, latest, err := j.tx.OrderDigestVersion(game, step, seat, d)
	return v, latest, notFound(err)
}

func (j judgeTx) AddReceipt(r adjudicator.Receipt) error {
	rc := Receipt{MessageID: r.MessageID, Game: r.Game, Seat: r.Seat, Step: r.Step, Digest: r.Digest,
		Echo: r.Echo, Ready: r.Accepted, At: r.At}
	for _, p := range r.Problems {
		rc.Problems = append(rc.Problems, Problem{Line: p.Line, Text: p.Text, Hint: p.Hint})
	}
	_, err := j.tx.AddReceipt(rc)
	return err
}

// MailBody is what the store keeps as an outbox mail's Body for mail queued
// by the judge: the content, composed into MIME when it is sent.
type MailBody struct {
	Text string `json:"text"`
}

func (j judgeTx) Enqueue(m adjudicator.Mail) error {
	body, err := json.Marshal(MailBody{Text: m.Text})
	if err != nil {
		return err
	}
	refs := make([]string, len(m.References))
	for i, r := range m.References {
		refs[i] = "<" + r + ">"
	}
	irt := ""
	if m.InReplyTo != "" {
		irt = "<" + m.InReplyTo + ">"
	}
	_, err = j.tx.Enqueue(Mail{Kind: MailKind(m.Kind), Game: m.Game, To: []string{m.To}, From: j.from,
		Subject: m.Subject, InReplyTo: irt, References: refs, Body: body, Queued: j.now})
	return err
}

func (j judgeTx) RecordBounce(b adjudicator.Bounce) error {
	_, err := j.tx.AddBounce(Bounce{OriginalMessageID: b.OriginalMessageID, Recipient: b.Recipient,
		Action: b.Action, Status: b.Status, Diagnostic: b.Diagnostic, At: b.At})
	return err
}
