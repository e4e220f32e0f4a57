// Package daemon is the running judge: "umpire serve". New makes it from a
// Config and an open store, Run runs it until its context ends (Once takes
// what is waiting and sends what is due, for serve --once) and Close stops
// what New started. The operator's commands that work on a judge's store
// (umpire game, keys, mail, store, replay, render) are a Console, which the
// command line runs in its own process or, while the judge runs, sends
// through the control socket (Controllable, Call) for the judge to run on
// its open store.
//
// Where each part of the judge lives:
//
//	daemon.go      Daemon: New, Run, Once, Close; serve --dev's mail servers;
//	               the game master told of a mail that could not be delivered
//	config.go      Config, the configuration file (LoadConfig) and its checks
//	reload.go      SIGHUP: the log file reopened, the report templates reread
//	notify.go      systemd's readiness and watchdog notifications (Type=notify)
//	journal.go     the log sent to systemd's journal in its native protocol (JournalHandler)
//	journal_linux.go  a record too large for a datagram sent as a memory file
//	journal_other.go  no such record where there is no memory file to send
//	check.go       umpire check: the configuration tried against its servers and files
//	authorize.go   umpire mail authorize: the OAuth 2.0 refresh token of a mail section
//	schedule.go    the games' clocks: deadlines, reminders, beacon rounds
//	queue.go       the outbox as mail.Outbox reads it: mail composed and signed
//	prerender.go   the reports' lane rendered ahead of its sending
//	pages.go       Pages: a step report's link to its step's public web page
//	intakestore.go the store as the mail intake uses it
//	archive.go     ended games archived to a checked file, by hand or on their own
//	web.go         the public pages and metrics served while the judge runs
//	control.go     the control socket: its server and its client (Call)
//	control_linux.go  the socket's peer check: the caller's uid (SO_PEERCRED)
//	control_other.go  no peer check where the system cannot tell the caller
//	console.go     Console, where the operator's commands run
//	game.go        umpire game: new, list, show, export, pause, resume, archive, image
//	mapimage.go    umpire game image: a game's map image checked, shrunk to what reports use and stored; MapImages for the renderer
//	keys.go        umpire keys, and the judge's own signing key
//	held.go        umpire mail: held answers and quarantined messages
//	storeops.go    umpire store: backup, compact, prune, space, stats
//	replay.go      umpire replay of a stored game or of a game export
//	render.go      umpire render: a stored step's report
//	choices.go     a game, seat or step that does not exist answered with those that do
//	errors.go      UsageError, a mistake in what the operator asked for
package daemon
