package laguna

// Ending tells how a finished game ended (game.Ender), so that a report
// can count the games decision 22 ended apart from those a seat won:
// "delivered" (a seat delivered its pearls), "round limit" (the limit
// option's rounds were played), "calm" (no pearl changed place for
// stallRounds rounds: decision 22), and in the solo game "solved" or
// "stuck"; "" before the end. The state holds what decides it, so a state
// read back ends as the one written.
func (s *State) Ending() string {
	switch {
	case s.phase != phOver:
		return ""
	case s.Solo() && s.islands == s.target:
		return "solved"
	case s.Solo():
		return "stuck"
	}
	for p := range int(s.players) {
		if int(s.volcano[p]) >= Target(int(s.players)) {
			return "delivered"
		}
	}
	if s.limit > 0 && int(s.played) >= int(s.limit)*int(s.players) {
		return "round limit"
	}
	return "calm"
}
