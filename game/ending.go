package game

// An Ender tells how a finished game ended, for a game that can end in more
// than one way (Laguna: a seat delivered its pearls, or no pearl moved for
// twenty rounds): a short phrase a report counts games by, the same for
// every game that ended alike, and "" while the game goes on. A game with
// one way to end need not say it; Ending calls that way "over".
type Ender interface{ Ending() string }

// Ending returns how st ended: its Ender's phrase, "over" for a finished
// game that gives none, "" for a game not over.
func Ending(st State) string {
	if !st.Over() {
		return ""
	}
	if e, ok := st.(Ender); ok {
		return e.Ending()
	}
	return "over"
}
