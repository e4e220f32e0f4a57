// Package kit is what every game package shares before its first rule:
// its data files read strictly, with refusals that name the line and the
// field, its order lines read into words, and its modified rolls written
// one way (Roll: the die, each modifier with its value and rule, the
// total), in the reports and in the rules calculator alike. The refusal of an order
// line is the domain's own, adjudicator.Refuse, so that the refusal walk
// of package rulestest finds it by type in every game.
//
// A game's data file (a map, a counter list, a table, a scenario) is a
// File, decoded with Decode:
//
//	f := kit.File{Name: name, Data: data}
//	var v countersFile
//	if err := f.Decode(&v); err != nil {
//		return nil, err // a *datafile.FileError: file, line, field
//	}
//	if v.Move < 1 {
//		return nil, f.Errorf("unit", i, "move", "%d: want 1 or more (6.1)", v.Move)
//	}
//
// Order lines come numbered (adjudicator.OrderLine); Lines gives each
// line's number and text without its comment, skipping empty lines, and
// Fields its words:
//
//	for n, text := range kit.Lines(lines) {
//		f := kit.Fields(text)
//		...
//	}
//
// Files:
//
//	file.go   File: Decode (strict, over package datafile) and Errorf; Preamble
//	lines.go  StripComment, Fields and Lines: the order-line tokenizer
//	modifier.go  Modifier, Modifiers and Roll: a modified roll, each term named with its rule
package kit
