package game

// A Revealer counts the times a game has shown what its chance drew: a
// tile drawn and seen, a layout laid, a peek at a bag, a scripted
// opponent's draw. Revealed never goes back, and a move that leaves it as
// it was shows no viewer anything the seed decided: the same move played
// after a Reseed shows every viewer the same, with the same legal moves
// after it. A game may count more than it shows (a draw from a bag of one
// tile); it must never count less.
//
// A host asks for it as ai/mcts asks for its optional knowledge. It is
// what lets a take-back keep chance a matter of chance (docs/api.md,
// Take-backs): no take-back goes back past a move that raised the count,
// for whoever asks and whoever else sits at the table, so a move cannot be
// played again until it draws what suits its player. A game that counts
// nothing is taken back as before: its chance drawn anew (Reseed) while it
// is Secret.
//
// The count is of the state's own history: a state read from its
// notation may start it afresh, so only states of one game, played on
// from one another, are compared.
type Revealer interface{ Revealed() int }

// Revealed returns st's count of revelations (Revealer), and false for a
// game that keeps none.
func Revealed(st State) (n int, ok bool) {
	r, ok := st.(Revealer)
	if !ok {
		return 0, false
	}
	return r.Revealed(), true
}
