// Package wbt is War by Television: Kosovo 1999 as a hosted game and an umpire
// resolve calculator: one step per phase (set-up, weather, NATO and Serb
// movement and combat, losses, advance), follow-up steps owed by one seat, the
// rulebook's CRT and data files the rulebook lacks. It exports Game, the
// adjudicator.Rules the judge's registry lists, and Calculator, its umpire
// resolve procedures; everything else is the game's own. It is built on
// package kit (data files, order lines) and refuses order lines with
// adjudicator.Refuse. The orders, scenarios and tables are documented in
// docs/orders-wbt.md, docs/scenario-wbt.md, docs/tables-wbt.md.
//
// Files, one a rule or procedure, named after it:
//
//	antitank.go artillery.go battle.go bot.go brief.go bridges.go
//	calculator.go civilian.go combat.go crt.go game.go mepps.go movement.go
//	movephase.go odds.go orders.go reach.go receipt.go reconstitution.go
//	report.go rivers.go scenario.go stacking.go state.go supply.go victory.go
//	weather.go zoc.go
package wbt
