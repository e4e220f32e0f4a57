package store

import (
	"encoding/json"
	"fmt"
)

// Event is one thing that happened in a step, as the report tells it.
type Event struct {
	Game    string          `json:"game"`
	Step    uint64          `json:"step"`
	Seq     uint64          `json:"seq"` // assigned by AddEvents, from 1 per game
	Rule    string          `json:"rule"`
	Text    string          `json:"text"`
	Visible []string        `json:"visible,omitempty"` // seats that may see it; empty means every seat
	Data    json.RawMessage `json:"data,omitempty"`
}

// AddEvents appends events to step of game, numbering them in order, and
// returns them with Game, Step and Seq set.
func (tx *Tx) AddEvents(game string, step uint64, events []Event) ([]Event, error) {
	b, err := tx.gameSub(game, bEvents)
	if err != nil {
		return nil, fmt.Errorf("add events: %w", err)
	}
	out := make([]Event, len(events))
	for i, e := range events {
		if e.Seq, err = b.NextSequence(); err == nil {
			e.Game, e.Step = game, step
			err = putJSON(b, append(u64(step), u64(e.Seq)...), e)
		}
		if err != nil {
			return nil, fmt.Errorf("add events: game %q step %d: %w", game, step, err)
		}
		out[i] = e
	}
	return out, nil
}

// Events returns the events of step of game in order.
func (tx *Tx) Events(game string, step uint64) ([]Event, error) {
	b, err := tx.gameSub(game, bEvents)
	if err != nil {
		return nil, err
	}
	events, err := list[Event](b, u64(step))
	if err != nil {
		return nil, fmt.Errorf("game %q step %d: events: %w", game, step, err)
	}
	return events, nil
}
