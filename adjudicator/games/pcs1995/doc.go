// Package pcs1995 holds the rules of 1995: Milosevic's Last Gamble
// (Procedural Combat Series, Conflict Simulations 2019) that the hosted game
// and `umpire resolve pcs1995` share: combat (8.0-8.2), initiative (3.2),
// effectiveness checks (3.3), SAM fire (6.6), airstrikes (6.1.3),
// reinforcements (5.1, 5.2), recovery (5.3), de-escalation (7.5) and the
// advance after combat (8.4). Every die is a d8 (3.0).
package pcs1995
