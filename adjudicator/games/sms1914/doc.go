// Package sms1914 is 1914 Serbien muß sterbien as a hosted game and an umpire
// resolve calculator: the Austro-Hungarian and Serbian turns with their
// movement, attack and defence steps, fog of war, shells, supply and the
// Inter-Phase; its tables are a data file the game master may send. It exports
// Game, the adjudicator.Rules the judge's registry lists, and Calculator, its
// umpire resolve procedures; everything else is the game's own. It is built on
// package kit (data files, order lines) and refuses order lines with
// adjudicator.Refuse. The orders, scenarios and tables are documented in
// docs/orders-sms1914.md, docs/scenario-sms1914.md, docs/tables-sms1914.md.
//
// Files, one a rule or procedure, named after it:
//
//	artillery.go bot.go brief.go calculator.go combat.go control.go crt.go data.go
//	ec.go fog.go forcedmarch.go forces.go game.go intensity.go montenegro.go
//	movement.go movers.go odds.go orders.go proficiency.go report.go
//	repulse.go retreat.go scenario.go shells.go smallmagnitude.go state.go
//	supply.go tables.go tec.go terrain.go
package sms1914
