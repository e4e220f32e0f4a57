// Package bu is Brotherhood & Unity (Yugoslavia 1991-1995) as a hosted game
// and an umpire resolve calculator: three seats or two, card play with hidden
// hands on hidden dice streams, rounds of operations, decision steps owed by
// two seats at once, and data files for the map, counters, tracks and cards.
// It exports Game, the adjudicator.Rules the judge's registry lists, and
// Calculator, its umpire resolve procedures; everything else is the game's
// own. It is built on package kit (data files, order lines) and refuses order
// lines with adjudicator.Refuse. The orders, scenarios and tables are
// documented in docs/orders-bu.md, docs/scenario-bu.md, docs/tables-bu.md.
//
// Files, one a rule or procedure, named after it:
//
//	advance.go airstrike.go battle.go bot.go brief.go brief_round.go calculator.go capture.go
//	cards.go combat.go counters.go data.go deck.go diplomacy.go effects.go
//	event.go game.go interrupt.go losses.go mapfile.go movement.go
//	operations.go orders.go orders_event.go orders_round.go report.go
//	retreat.go round.go start.go state.go supply.go terrain.go tracks.go
//	victory.go
package bu
