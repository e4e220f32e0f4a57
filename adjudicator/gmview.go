package adjudicator

// The game master's view. A game master is trusted to run the game, not
// with the seats' secrets: in a game whose rules draw hidden values (rules
// with HiddenStreams: hands of cards, decks), the game master may be a
// player's friend, or a player. Until such a game ends, the game master's
// reports (step reports, and the report command's answer) are built from
// the public view (Spectator): no hand, no seat-private event, no stream
// key, no seat's order text; the order list (who ordered, which version,
// its digest) is public and stays. The game file's gm_sees_hands = true
// gives the game master every seat's view instead, and each report says
// which view it is. After the end everyone may see everything, the game
// master too. Games without hidden streams (fog of war the game master
// sees through) keep the full view.

// The game master's views (Report.GMView).
const (
	// GMViewAll is everything: a game without hidden streams, or one that
	// has ended.
	GMViewAll = ""
	// GMViewPublic is the public view of a game with hidden hands before
	// its end.
	GMViewPublic = "public"
	// GMViewHands is everything in a game with hidden hands whose game file
	// sets gm_sees_hands = true.
	GMViewHands = "hands"
)

// gmView says which view the game master of g gets of state, a state of
// the game under rules.
func gmView(g Game, rules Rules, state []byte) string {
	if g.Status == Ended {
		return GMViewAll
	}
	hs, ok := rules.(HiddenStreams)
	if !ok {
		return GMViewAll
	}
	if names, err := hs.HiddenStreams(state); err == nil && len(names) == 0 {
		return GMViewAll
	}
	if visibilityOf(g).GMSeesHands {
		return GMViewHands
	}
	return GMViewPublic
}

// gmNotice is the line a game master's report carries to say which view it
// is, for a game with hidden hands; "" for none.
func gmNotice(view string) string {
	switch view {
	case GMViewPublic:
		return "Game master: you see the public view until the game ends: no seat's hand, no seat's own events, no seat's order texts (only who ordered and the digest). The game file's gm_sees_hands = true would show them."
	case GMViewHands:
		return "Game master: the game file sets gm_sees_hands = true, so you see every seat's hand, own events and orders. Keep them to yourself."
	}
	return ""
}

// GMView says which view the game master of g gets now, state being a
// state of the game (GMViewAll, GMViewPublic or GMViewHands): for the
// operator's tools, which must not hand the game master more.
func (j *Judge) GMView(g Game, state []byte) (string, error) {
	rules, err := j.Games.Get(g.Kind)
	if err != nil {
		return "", err
	}
	return gmView(g, rules, state), nil
}
