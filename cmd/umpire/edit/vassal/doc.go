// Package vassal reads what umpire edit needs from a VASSAL module (a
// .vmod, a zip archive): each map's boards, with the board's image and
// its hex grid, so that the game master's map is aligned at once. It
// reads the buildFile (buildFile.xml, or buildFile in modules saved
// before VASSAL 3.5) as VASSAL's own classes read it: the elements
// VASSAL.build.module.Map, ...map.boardPicker.Board (its "image" under
// images/ in the zip), ...board.HexGrid (dx, dy, x0, y0, sideways),
// ...board.mapgrid.HexGridNumbering, and ...board.ZonedGrid with its
// Zones. A HexGrid gives each hex's centre and label as VASSAL computes
// them (HexGrid.Hex, HexGrid.Label).
//
// A module is a stranger's file: everything is bounded (Limits). Only
// the entries needed are read, each through a reader that stops at its
// bound and counts against the module's total, so a zip bomb costs at
// most that total; the zip's list of entries is bounded before
// archive/zip sizes it; the XML is read in one streaming pass with a
// depth bound, and encoding/xml expands no declared entity. CheckImage
// reads the header of a scan or board image and refuses one over the
// pixel bound before anything is decoded. docs/editor.md ("Importing a
// VASSAL module") states the bounds and the format.
//
// Files:
//
//	module.go     Module, Board, Zone; Read and ReadFile: the zip, its entries, the boards
//	buildfile.go  the buildFile's elements and attributes, read as VASSAL reads them
//	hexgrid.go    HexGrid and Numbering: hex centres and labels as VASSAL computes them
//	image.go      CheckImage: a scan's or board image's format and size, from its header
//	directory.go  the zip's list of entries, bounded before archive/zip reads it
//	limits.go     Limits, DefaultLimits, and the bounded reader of an entry
//	errors.go     Error and the kinds of refusal
package vassal
