// Package adjudicator is the judge's domain: games, seats, order files,
// receipts and the mail they cause, the step machine that runs a hosted
// game, and the intake rules that turn an incoming message into accepted
// orders and answers. It declares the small interfaces it needs (Tx for the
// store, Rules for a game) and knows nothing of IMAP, SMTP or bbolt: the
// mail side of intake (MIME, signatures, the reply limit) is package
// mail/intake, the store's side of Tx is package store.
//
// Where each part of the judge lives:
//
//	domain.go     the records: Game, Seat, StepRecord, OrderFile, Key, Problem
//	rules.go      Rules (what a game package provides), Registry, and the
//	              optional Bot, SeatSides, FileOptions, OptionSeats,
//	              HiddenStreams, StreamSeats, PublicOrders and DefaultOrders
//	              (DefaultWords: a seat's default in plain words)
//	gamefile.go   the game file a game master sends: options, seats, schedule
//	mapimage.go   the game master's map image: map_image settings, the
//	              alignment, whose reports draw on it, whether it fits the map
//	judge.go      the step machine: Judge creates games, seats players, opens
//	              steps, counts readiness, ticks deadlines and reminders, pauses,
//	              resumes, excuses absences and rolls back; the safety brake that
//	              pauses a game whose clock runs away
//	adjudicate.go a step closed and adjudicated: its orders and order list,
//	              its dice (v2 step record, draws, reveals; or v1 links), the
//	              game's Adjudicate, the reports queued; Replay re-runs a game
//	dicelog.go    the umpire-dice-v3 (or -v2) header at creation and rollback
//	              records
//	start.go      the start announcement, each holder's briefing;
//	              umpire-dice-v3's start record, each holder's order salt,
//	              the join's dice and nonce lines, the commitments every
//	              mail about a v3 game quotes
//	briefing.go   Briefer, Brief, Choice and StandingOrders: what a step asks
//	              of a seat, the pre-filled order file (OrderForm), and the
//	              briefing mailed on join, on start and in reports
//	beacon.go     the beacon option, close notices, a step waiting for its
//	              round (Waiting, BeaconArrived, BeaconFailed)
//	replay.go     the replay of a v2 or v3 game against its log
//	roll.go       witnessed rolls for third parties (the dice service)
//	export.go     a game's public log exported, read back and replayed
//	publiclog.go  WritePublicLog: a game's public dice log, as log GAME mails it
//	intake.go     intake: Intake.Handle decides what an Envelope means; Tx
//	envelope.go   Envelope, an incoming message as intake sees it
//	dkim.go       Identity: seats held by a mail address whose provider signs
//	              its mail with DKIM, in games that allow it
//	orderfile.go  the order file's own grammar: header, order lines, digest
//	names.go      names as a player writes them: a game's id and a seat's
//	              name in any case, and the did-you-mean of an unknown one
//	refusal.go    Refusal and Refuse: a game's refusal of an order line
//	command.go    unsigned commands (help, help GAME [TOPIC], list, status,
//	              units, map, log)
//	grammar.go    Verb, Verbs and Grammar: a game's order table, which its
//	              parser looks verbs up in and help GAME mails; Nearest,
//	              DidYouMean, UnitHint and Verbs.Hint, the did-you-mean of an
//	              unknown name
//	signing.go    SigningPage and its MailClients: where answers send a
//	              player to learn to sign from their mail program
//	signed.go     signed commands (create, join, start, the game master's),
//	              each carried out once (CommandRecord)
//	press.go      press between seats, relayed as the game's PressRules allow
//	observe.go    observers: observe, unobserve, the game master's observers
//	history.go    looking back: games, history, report (the asker's view), key
//	report.go     reports: Report, Situation and the optional Reporter; the
//	              orders each reader sees, every seat's with publish_orders
//	gmview.go     the game master's view of a game with hidden hands: public
//	              until the end, unless gm_sees_hands (GMView)
//	archived.go   ArchivedGame: the record of a game archived out of the
//	              store, and the answer naming it to whoever asks for it
//	budget.go     Budget: the time and memory the rules' work on a message or
//	              a step may take; OverBudget, and StepStuck (a step the
//	              rules could not adjudicate pauses its game)
//	quarantine.go SetAside: the answer to a message the judge set aside
//	consume.go    Consuming, the guard that makes every grammar loop consume
//	errors.go     the package's sentinel errors
package adjudicator
