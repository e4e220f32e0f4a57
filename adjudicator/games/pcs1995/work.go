package pcs1995

// This file runs pieces of work (a strategic bombing mission, an
// activation) that may stop for a decision of a seat whose standing orders
// do not give it. The work is then run again in the next step from its
// snapshot, with the draws and decisions it already made, so that no die is
// drawn twice and the decision is taken exactly where the rules put it.

import (
	"strconv"
	"strings"
)

// question is a decision a seat may have to take inside a piece of work.
type question struct {
	seat string
	kind string // intercept, defend, interdict, absorb, advance; or an automatic policy
	key  string // the standing order that answers it
	text string // the question as the seat reads it
	hint string // how to answer
	def  string // the answer when the seat sends none
	// auto questions are never asked: without a standing order the
	// default applies (policies such as On-Call boxes).
	auto bool
}

// suspend is what a piece of work panics with to stop for a decision.
type suspend struct{ q question }

// decide answers a question: the decision this work already took if it is
// run again, else the seat's standing order, else (outside work, or for an
// automatic policy) the default; else the work stops and the seat is asked.
func (g *game) decide(q question) string {
	run := g.run
	if run != nil && run.used < len(run.decisions) {
		v := run.decisions[run.used]
		run.used++
		return v
	}
	v, ok := g.standingAnswer(q.seat, q.kind, q.key)
	if !ok && (q.auto || run == nil) {
		v, ok = q.def, true
	}
	if !ok {
		panic(suspend{q})
	}
	if run != nil {
		run.decisions = append(run.decisions, v)
		run.used++
	}
	return v
}

// standingAnswer is the decision a seat's standing orders give to a
// question of kind under key; ok is false when they give none ("ask", or
// no order).
func (g *game) standingAnswer(seat, kind, key string) (string, bool) {
	st := g.Standing[seat]
	v, has := st[key]
	if !has && strings.HasPrefix(key, "intercept:") {
		v, has = st["intercept:all"]
	}
	if !has || v == "ask" {
		return "", false
	}
	return v, true
}

// work runs a piece of work; false when it stopped for a decision (the
// pending decision is set).
func (g *game) work(w *work, do func(w *work)) (done bool) {
	if w.Snapshot == nil {
		w.Snapshot = g.coreJSON()
	}
	g.run = &workRun{recorded: w.Draws, decisions: w.Decisions, skip: w.Events}
	defer func() {
		run := g.run
		g.run = nil
		r := recover()
		if r == nil {
			return
		}
		s, ok := r.(suspend)
		if !ok {
			panic(r)
		}
		w.Draws, w.Decisions, w.Events = run.draws, run.decisions, run.events
		g.Pending = &pending{Kind: phaseDecision, Seat: s.q.seat, Question: s.q.text, Hint: s.q.hint,
			Decide: s.q.kind, Key: s.q.key, Default: s.q.def, Work: w}
		g.Pending.Hint = strings.TrimSpace(g.Pending.Hint + " Or send the standing order " + standingFor(s.q) + " to decide this and the later ones.")
		g.ev(decisionRule[s.q.kind], "%s has no standing order for this decision and is asked: %s.", s.q.seat, s.q.text)
		done = false
	}()
	do(w)
	return true
}

// standingFor names the standing order that answers a question.
func standingFor(q question) string {
	switch q.kind {
	case "intercept":
		return "intercept " + strings.TrimPrefix(q.key, "intercept:") + " N|all|none"
	case "defend":
		return "defend gs N interdict N escort N"
	case "interdict":
		return "interdict sm N escort N"
	case "absorb":
		return "absorb OPTION..."
	case "advance":
		return "advancing lead|none"
	}
	return q.key
}

// count reads a quantity answer (a number, all, none) against n available.
func count(v string, n int) int {
	switch v {
	case "all":
		return n
	case "none", "":
		return 0
	}
	k, err := strconv.Atoi(v)
	if err != nil || k < 0 {
		return 0
	}
	return min(k, n)
}
