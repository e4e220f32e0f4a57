// Package edit is "umpire edit": a map editor served on loopback for a
// game master's own map file and counter file, painted over their scan of
// the published map. The game's own reader checks the files as create
// does (its New, with the files as a game file's options give them), and
// its own renderer draws them; Save writes through a temporary file.
//
//	server.go    Server: the page, its assets, the scan and the document API
//	document.go  Document: the files being edited and each game's map format
//	hexmap.go    HexMap: a hex map file (board.ParseMap's format) and its grid's geometry; ParseSize: a new map's grid
//	network.go   NetMap: B&U's network map file
//	counters.go  Counters: a counter file as tables of rows
//	tomlwrite.go writer: TOML text, and what each of its lines holds
//	check.go     check: create's reader on the document, where a refusal points, the judge's picture
//	scan.go      Scan: the game master's scan, bounded from its header
//	vassalimport.go ReadModule: a VASSAL module's board (chosen by name) as the scan, its hexes to align the grid, its extent a new map's grid
//	comments.go  Comments: a file's comments kept with their tables and values (every file kind)
//	save.go      writeFile: a temporary file renamed over the file
//	assets/      the page: editor.html, editor.js, editor.css
package edit
