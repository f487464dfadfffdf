package arena

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// Standing is one bot's results over a tournament.
type Standing struct {
	Bot   string `json:"bot"`
	Games int    `json:"games"`
	// Wins counts victories, a victory shared by k players as 1/k.
	Wins float64 `json:"wins"`
	// Share is Wins/Games, with its 95% Wilson score interval.
	Share     float64 `json:"share"`
	ShareLow  float64 `json:"share_low"`
	ShareHigh float64 `json:"share_high"`
	// MeanScore and MeanMargin (score minus the best other score) are over
	// the Finished games, those played to the end (no forfeit).
	Finished   int     `json:"finished"`
	MeanScore  float64 `json:"mean_score"`
	MeanMargin float64 `json:"mean_margin"`
	// Elo is the rating from the Bradley-Terry fit, the bots' mean at 0.
	Elo      float64 `json:"elo"`
	Forfeits int     `json:"forfeits"`
}

// Summarise computes each bot's standing from the games. A spec that
// seats several bots names them "spec #2" and on from the second.
func Summarise(bots []string, games []Game) []Standing {
	st := make([]Standing, len(bots))
	seen := map[string]int{}
	for i, b := range bots {
		seen[b]++
		st[i].Bot = b
		if k := seen[b]; k > 1 {
			st[i].Bot = fmt.Sprintf("%s #%d", b, k)
		}
	}
	for _, g := range games {
		for seat, bot := range g.Seats {
			s := &st[bot]
			s.Games++
			for _, w := range g.Winners {
				if w == seat {
					s.Wins += 1 / float64(len(g.Winners))
				}
			}
			if g.Forfeit != nil {
				if g.Forfeit.Seat == seat {
					s.Forfeits++
				}
				continue
			}
			s.Finished++
			s.MeanScore += float64(g.Scores[seat])
			best := math.MinInt
			for o, sc := range g.Scores {
				if o != seat {
					best = max(best, sc)
				}
			}
			s.MeanMargin += float64(g.Scores[seat] - best)
		}
	}
	elo := Elo(len(bots), games)
	for i := range st {
		s := &st[i]
		if s.Games > 0 {
			s.Share = s.Wins / float64(s.Games)
			s.ShareLow, s.ShareHigh = Wilson(s.Wins, s.Games)
		}
		if s.Finished > 0 {
			s.MeanScore /= float64(s.Finished)
			s.MeanMargin /= float64(s.Finished)
		}
		s.Elo = elo[i]
	}
	return st
}

// Wilson returns the 95% Wilson score interval of a proportion of wins
// successes out of n trials.
func Wilson(wins float64, n int) (low, high float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	fn := float64(n)
	p := wins / fn
	d := 1 + z*z/fn
	c := (p + z*z/(2*fn)) / d
	h := z * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn)) / d
	return math.Max(0, c-h), math.Min(1, c+h)
}

// Elo fits a Bradley-Terry model to the games, taken as pairwise results
// between every two seats of a game (a winner beats a seat that did not
// win, whatever their scores, as a team's member or the rules' tie-break
// decided; between two winners or two seats that did not win the higher
// final score wins, equal scores draw; a forfeit loses to everyone) and
// returns the ratings on
// the Elo scale, with a mean of 0. Each pair of bots gets one virtual draw,
// so that a bot that won every game still gets a finite rating.
func Elo(bots int, games []Game) []float64 {
	wins := make([][]float64, bots) // wins[i][j]: i beat j
	for i := range wins {
		wins[i] = make([]float64, bots)
		for j := range wins[i] {
			if i != j {
				wins[i][j] = 0.5
			}
		}
	}
	for _, g := range games {
		for a := range g.Seats {
			for b := range g.Seats {
				if a >= b || g.Seats[a] == g.Seats[b] {
					continue
				}
				i, j := g.Seats[a], g.Seats[b]
				switch c := compareSeats(g, a, b); {
				case c > 0:
					wins[i][j]++
				case c < 0:
					wins[j][i]++
				default:
					wins[i][j] += 0.5
					wins[j][i] += 0.5
				}
			}
		}
	}
	// Minorisation-maximisation (Hunter 2004).
	gamma := make([]float64, bots)
	for i := range gamma {
		gamma[i] = 1
	}
	for range 1000 {
		next := make([]float64, bots)
		change := 0.0
		for i := range bots {
			w, d := 0.0, 0.0
			for j := range bots {
				if i == j {
					continue
				}
				w += wins[i][j]
				d += (wins[i][j] + wins[j][i]) / (gamma[i] + gamma[j])
			}
			next[i] = w / d
		}
		mean := 0.0
		for _, x := range next {
			mean += math.Log(x)
		}
		mean /= float64(bots)
		for i := range next {
			next[i] /= math.Exp(mean)
			change = math.Max(change, math.Abs(next[i]-gamma[i]))
		}
		gamma = next
		if change < 1e-10 {
			break
		}
	}
	elo := make([]float64, bots)
	for i, x := range gamma {
		elo[i] = 400 * math.Log10(x)
	}
	return elo
}

// compareSeats compares two seats of a game: positive if seat a finished
// ahead of seat b. A forfeit loses; a winner is ahead of a seat that did
// not win (a team's members win together, whatever each scored; in Blue
// Lagoon the winner has the highest score, the tie-break deciding between
// equals); otherwise the higher score is ahead.
func compareSeats(g Game, a, b int) int {
	if f := g.Forfeit; f != nil {
		switch f.Seat {
		case a:
			return -1
		case b:
			return 1
		}
	}
	wa, wb := 0, 0
	for _, w := range g.Winners {
		if w == a {
			wa = 1
		}
		if w == b {
			wb = 1
		}
	}
	if wa != wb {
		return wa - wb
	}
	return g.Scores[a] - g.Scores[b]
}

// WriteTable writes the standings as a table, then how the games ended
// (Endings), then the forfeits and the games stopped unfinished.
func WriteTable(w io.Writer, st []Standing, games []Game) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\tgames\twins\twin share\t95% CI\tmean score\tmean margin\tElo\tforfeits\t")
	for _, s := range st {
		// No game played to the end has no mean, which 0 would misstate.
		score, margin := "-", "-"
		if s.Finished > 0 {
			score, margin = fmt.Sprintf("%.1f", s.MeanScore), fmt.Sprintf("%+.1f", s.MeanMargin)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f%%\t%.1f%% to %.1f%%\t%s\t%s\t%+.0f\t%d\t\n",
			s.Bot, s.Games, s.Wins, 100*s.Share, 100*s.ShareLow, 100*s.ShareHigh, score, margin, s.Elo, s.Forfeits)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := SummariseEndings(games).Write(w); err != nil {
		return err
	}
	for _, g := range games {
		if f := g.Forfeit; f != nil {
			if _, err := fmt.Fprintf(w, "deal %d (seed %d), seat %d, %s lost by forfeit after %d moves: %s\n",
				g.Deal, g.Record.Seed, f.Seat, f.Bot, len(g.Record.Moves), f.Reason); err != nil {
				return err
			}
		}
		if g.Unfinished {
			if _, err := fmt.Fprintf(w, "deal %d (seed %d), seats %v, stopped unfinished after %d moves: nobody won\n",
				g.Deal, g.Record.Seed, g.Seats, len(g.Record.Moves)); err != nil {
				return err
			}
		}
	}
	return nil
}
