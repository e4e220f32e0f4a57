package bu

// This file holds the cards: the Draw Cards step (6.1) with the Late War
// rebuild of turn 3 (6.1.1), and the discard pile (7.4.1).
//
// Each seat's draw deck is shuffled on its own hidden dice stream just
// before each of its draws. Shuffling the cards left in a deck once more
// before a draw changes no chance (every hand of N of them is as likely as
// from a deck shuffled once at set-up), and it lets the judge send the seat
// the key of that shuffle: the seat checks its own hand at once, and learns
// no more than the order of cards the next draw shuffles again. When a
// turn's cards have all been played the keys are published (dice.Reveal):
// every card the shuffle put in a hand has been shown, and the cards left
// are known from the decks and the discard pile.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// handSize is how many cards seat draws on the turn (6.1.2, 14.3.3, 15.1).
func (g *game) handSize(seat string) int {
	t := min(g.Turn, gameTurns) - 1
	n := 0
	if g.TwoPlayer() {
		n = cardsTwoPlayer[seat][t]
	} else {
		n = g.sc.Tracks.Cards[Side(seat)][t]
	}
	return n + g.Extended
}

// drawCards is the Draw Cards step of the turn (6.1): the turn-3 rebuild,
// then each seat's draw, in the order of play.
func (g *game) drawCards() {
	for _, seat := range g.order() {
		d := g.Decks[seat]
		if g.Turn == 3 {
			g.rebuild(seat)
		}
		n := g.handSize(seat)
		var hand []string
		for len(hand) < n {
			if len(d.Draw) == 0 {
				if len(d.Discard) == 0 {
					g.ev("6.1.2", "%s's draw deck and discard pile are used up: %s draws %d cards instead of %d.", seatName(seat), seatName(seat), len(hand), n)
					break
				}
				// ruling: a used-up draw deck is made again from the
				// discard pile (the rules say nothing of it)
				d.Draw, d.Discard = d.Discard, nil
				g.ev("6.1.2", "%s's draw deck is used up: the %d cards of the discard pile are shuffled into a new draw deck (ruling).", seatName(seat), len(d.Draw))
			}
			g.shuffle(seat, fmt.Sprintf("before %s's turn %d draw", seatName(seat), g.Turn))
			take := min(n-len(hand), len(d.Draw))
			hand = append(hand, d.Draw[:take]...)
			d.Draw = slices.Clone(d.Draw[take:])
		}
		g.Hands[seat] = append(g.Hands[seat], hand...)
		slices.Sort(g.Hands[seat])
		g.ev("6.1.2", "%s draws %d cards (%d left in the draw deck).", seatName(seat), len(hand), len(d.Draw))
		g.evTo([]string{seat}, "6.1.2", "Your hand for turn %d: %s.", g.Turn, g.cardList(g.Hands[seat]))
	}
}

// shuffle shuffles seat's draw deck on its hidden stream.
func (g *game) shuffle(seat, why string) {
	d := g.Decks[seat]
	if len(d.Draw) < 2 {
		return
	}
	slices.Sort(d.Draw) // a shuffle starts from an order anyone can rebuild
	perm := dice.Shuffle(g.r, deckStream(seat), len(d.Draw), fmt.Sprintf("B&U 6.1.2 shuffle of %s's draw deck (%d cards) %s", seatName(seat), len(d.Draw), why))
	shuffled := make([]string, len(d.Draw))
	for i, p := range perm {
		shuffled[i] = d.Draw[p]
	}
	d.Draw = shuffled
}

// rebuild makes the Late War draw deck on turn 3 (6.1.1): the Late War
// cards, the draw deck and the discard pile together, without the Early War
// cards; it is shuffled before the draw.
func (g *game) rebuild(seat string) {
	d := g.Decks[seat]
	all := slices.Concat(d.Late, d.Draw, d.Discard)
	d.Late, d.Draw, d.Discard = nil, nil, nil
	removed := 0
	for _, id := range all {
		if c := g.sc.Deck.Card(id); c != nil && c.Period == early {
			d.Out = append(d.Out, id)
			removed++
			continue
		}
		d.Draw = append(d.Draw, id)
	}
	slices.Sort(d.Out)
	g.ev("6.1.1", "%s's Late War draw deck is made: Late War cards, draw deck and discard pile together, %d Early War cards removed, %d cards to shuffle.", seatName(seat), removed, len(d.Draw))
}

// endOfHands publishes the keys of the decks' shuffles once the turn's
// cards are all played: nothing they hid is secret any more.
func (g *game) endOfHands() {
	for _, seat := range g.Seats {
		dice.Reveal(g.r, deckStream(seat))
	}
}

// discard puts a played card face up on its seat's discard pile (7.4.1).
func (g *game) discard(seat, card string) {
	g.Decks[seat].Discard = append(g.Decks[seat].Discard, card)
}

// takeFromHand removes card from seat's hand; false if it is not there.
func (g *game) takeFromHand(seat, card string) bool {
	i := slices.Index(g.Hands[seat], card)
	if i < 0 {
		return false
	}
	g.Hands[seat] = slices.Delete(g.Hands[seat], i, i+1)
	return true
}

// cardName is "S4 Posavina Corridor Offensive (CV 4)".
func (g *game) cardName(id string) string {
	c := g.sc.Deck.Card(id)
	if c == nil {
		return id
	}
	return fmt.Sprintf("%s %s (CV %d)", c.ID, c.Title, c.CV)
}

func (g *game) cardList(ids []string) string {
	if len(ids) == 0 {
		return "no cards"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = g.cardName(id)
	}
	return strings.Join(parts, ", ")
}
