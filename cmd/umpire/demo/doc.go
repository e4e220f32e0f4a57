// Package demo is "umpire demo": a game master and two players with new
// keys play a game by mail with the judge on mail servers of its own (Run).
// Its scripted seats (Table, Player) sign and send their mail and read the
// judge's answers; the end-to-end tests play on them too.
//
//	demo.go     Run: the demonstration's story
//	scripted.go Table and Player: a game played by scripted players over real mail
package demo
