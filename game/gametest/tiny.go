// Package gametest helps test the platform's layers and its games: Tiny, a
// small game that uses every part of the contract, for the tests of the
// layers that must name no game; and Check, the contract's promises played
// out on random games, for every game's own tests.
package gametest

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

// Tiny is a card game small enough to read in one sitting that still asks
// of the platform all the three Lagoon games do: 2 to 4 seats, hands hidden
// from the other seats (private views), a deck drawn by the game's own
// generator, turns of several decisions, a decision by another seat in the
// middle of a turn, options, teams, and both time rules. It counts no
// revelations (game.Revealer), as a game need not, so a host's take-backs
// of a game that cannot tell what chance showed are tried with it.
//
// The deck holds two cards of each value 1 to 9. Each seat is dealt a hand.
// On its turn a seat plays a card: it scores the card's value and draws a
// card if the deck has any. After an even card it may play again or stop;
// after an odd card the next seat decides whether to take a point from it,
// which ends the turn. The game ends when every hand is empty; the most
// points win (the fewest with the goal "low"), and with "pairs" seats 0
// and 2 play against 1 and 3, adding their points.
//
// Moves: 1 to 9 play that card ("play 5"), 10 stops ("stop"), 11 takes a
// point ("take"), 12 leaves it ("leave"). When a turn's time runs out, the
// turn ends: "stop" or "leave" where legal.
var Tiny = &game.Rules{
	ID:         "tiny",
	Name:       "Tiny",
	MinPlayers: 2,
	MaxPlayers: 4,
	Options: []game.Option{
		{Key: "hand", Label: "Cards in hand", Kind: game.Number, Default: "3", Min: 2, Max: 4},
		{Key: "goal", Label: "Goal", Kind: game.Choice, Default: "high",
			Choices: []game.OptionChoice{{Value: "high", Label: "Most points"}, {Value: "low", Label: "Fewest points"}}},
		{Key: "teams", Label: "Teams", Kind: game.Choice, Default: "solo",
			Choices: []game.OptionChoice{{Value: "solo", Label: "Each for themselves"}, {Value: "pairs", Label: "Pairs (4 players)"}}},
	},
	Times:        []game.TimeKind{game.TurnTimer, game.Bank, game.Correspondence},
	PrivateViews: true,
	New:          newTiny,
	ParseState:   parseTiny,
}

// The moves of Tiny other than playing a card.
const (
	Stop  game.Move = 10
	Take  game.Move = 11
	Leave game.Move = 12
)

// Tiny's decisions.
const (
	decPlay    = iota // the turn's owner plays a card
	decAgain          // after an even card: play again or stop
	decTrigger        // after an odd card: the next seat takes a point or not
	decOver
)

var decisionNames = [...]string{"play", "again", "trigger", "over"}

// tinyState is a Tiny game, a flat value.
type tinyState struct {
	players  uint8
	hand     uint8
	low      bool
	pairs    bool
	owner    int8 // the seat whose turn it is
	decision uint8
	last     int8 // the last card played, 0 before any
	turns    int32
	deck     [10]uint8    // cards of each value left in the deck
	hands    [4][10]uint8 // cards of each value in each hand
	scores   [4]int16
	rng      rand.PCG
}

var _ game.State = (*tinyState)(nil)

func newTiny(s game.Setup) (game.State, error) {
	hand, _ := strconv.Atoi(s.Options["hand"])
	st := &tinyState{players: uint8(s.Players), hand: uint8(hand), low: s.Options["goal"] == "low", pairs: s.Options["teams"] == "pairs"}
	if st.pairs && s.Players != 4 {
		return nil, fmt.Errorf("option teams: pairs need 4 players, not %d", s.Players)
	}
	st.rng.Seed(s.Seed, 0x74696e79)
	for v := 1; v <= 9; v++ {
		st.deck[v] = 2
	}
	for p := range s.Players {
		for range hand {
			st.hands[p][st.draw()]++
		}
	}
	return st, nil
}

// draw takes a card from the deck by the generator.
func (s *tinyState) draw() int {
	k := int(s.rng.Uint64() % uint64(s.deckSize()))
	for v := 1; v <= 9; v++ {
		if k < int(s.deck[v]) {
			s.deck[v]--
			return v
		}
		k -= int(s.deck[v])
	}
	panic("gametest: draw from an empty deck")
}

func (s *tinyState) deckSize() int { return count(&s.deck) }

func count(cards *[10]uint8) int {
	n := 0
	for _, c := range cards {
		n += int(c)
	}
	return n
}

func (s *tinyState) Players() int { return int(s.players) }
func (s *tinyState) Over() bool   { return s.decision == decOver }
func (s *tinyState) Turn() int    { return int(s.turns) }

func (s *tinyState) ToMove() int {
	switch s.decision {
	case decOver:
		return game.NoSeat
	case decTrigger:
		return (int(s.owner) + 1) % int(s.players)
	}
	return int(s.owner)
}

func (s *tinyState) AppendLegal(dst []game.Move) []game.Move {
	switch s.decision {
	case decPlay, decAgain:
		for v := 1; v <= 9; v++ {
			if s.hands[s.owner][v] > 0 {
				dst = append(dst, game.Move(v))
			}
		}
		if s.decision == decAgain {
			dst = append(dst, Stop)
		}
	case decTrigger:
		dst = append(dst, Take, Leave)
	}
	return dst
}

func (s *tinyState) legal(m game.Move) bool {
	switch s.decision {
	case decPlay, decAgain:
		return m >= 1 && m <= 9 && s.hands[s.owner][m] > 0 || m == Stop && s.decision == decAgain
	case decTrigger:
		return m == Take || m == Leave
	}
	return false
}

func (s *tinyState) Play(m game.Move) error {
	if !s.legal(m) {
		if s.decision == decOver {
			return game.Refuse(game.RefusedOver, "the game is over")
		}
		return game.Refuse(game.RefusedNotNow, "%s is not a move now; the moves are %s", s.MoveText(m), s.legalText())
	}
	o := int(s.owner)
	switch {
	case m <= 9:
		s.hands[o][m]--
		s.scores[o] += int16(m)
		s.last = int8(m)
		if s.deckSize() > 0 {
			s.hands[o][s.draw()]++
		}
		switch {
		case m%2 == 1:
			s.decision = decTrigger
		case count(&s.hands[o]) > 0:
			s.decision = decAgain
		default:
			s.endTurn()
		}
	case m == Take:
		s.scores[s.ToMove()]++
		s.scores[o]--
		s.endTurn()
	default:
		s.endTurn()
	}
	return nil
}

func (s *tinyState) legalText() string {
	var out []string
	for _, m := range s.AppendLegal(nil) {
		out = append(out, s.MoveText(m))
	}
	return strings.Join(out, ", ")
}

// endTurn passes the turn to the next seat with cards, or ends the game.
func (s *tinyState) endTurn() {
	s.turns++
	n := int(s.players)
	for k := 1; k <= n; k++ {
		p := (int(s.owner) + k) % n
		if count(&s.hands[p]) > 0 {
			s.owner, s.decision = int8(p), decPlay
			return
		}
	}
	s.decision = decOver
}

func (s *tinyState) Clone() game.State {
	c := *s
	return &c
}

func (s *tinyState) CopyFrom(src game.State) { *s = *src.(*tinyState) }

// Resample deals the cards seat has not seen anew: the other seats' hands
// (keeping their sizes) and the deck, and reseeds the generator.
func (s *tinyState) Resample(seat int, r *rand.Rand) {
	s.rng.Seed(r.Uint64(), 0x74696e79)
	if seat == game.NoSeat {
		return
	}
	pool := s.deck
	for p := range int(s.players) {
		if p != seat {
			for v := range pool {
				pool[v] += s.hands[p][v]
			}
		}
	}
	for p := range int(s.players) {
		if p == seat {
			continue
		}
		size := count(&s.hands[p])
		s.hands[p] = [10]uint8{}
		for range size {
			k := r.IntN(count(&pool))
			for v := 1; v <= 9; v++ {
				if k < int(pool[v]) {
					pool[v]--
					s.hands[p][v]++
					break
				}
				k -= int(pool[v])
			}
		}
	}
	s.deck = pool
}

// Secret: the seed deals every hand, which the other seats may not see
// until the game is over.
func (s *tinyState) Secret() bool { return !s.Over() }

func (s *tinyState) TimeUp() (game.Move, bool) {
	switch s.decision {
	case decAgain:
		return Stop, true
	case decTrigger:
		return Leave, true
	}
	return 0, false
}

// TinyView is what a viewer sees of Tiny: its own hand, how many cards the
// others hold, the deck's size and the points.
type TinyView struct {
	Decision string   `json:"decision"`
	Owner    int      `json:"owner"`
	Last     int      `json:"last"`
	Hand     []int    `json:"hand"` // the viewer's cards, nil for a spectator
	Holding  []int    `json:"holding"`
	Deck     int      `json:"deck"`
	Scores   []int    `json:"scores"`
	Legal    []string `json:"legal"` // the viewer's moves, when it is to move
}

func (s *tinyState) View(v game.Viewer) any {
	tv := TinyView{Decision: decisionNames[s.decision], Owner: int(s.owner), Last: int(s.last), Deck: s.deckSize(), Legal: []string{}}
	for p := range int(s.players) {
		tv.Holding = append(tv.Holding, count(&s.hands[p]))
		tv.Scores = append(tv.Scores, int(s.scores[p]))
	}
	if v.Seat >= 0 && v.Seat < int(s.players) {
		tv.Hand = []int{}
		for c := 1; c <= 9; c++ {
			for range s.hands[v.Seat][c] {
				tv.Hand = append(tv.Hand, c)
			}
		}
		if s.ToMove() == v.Seat {
			for _, m := range s.AppendLegal(nil) {
				tv.Legal = append(tv.Legal, s.MoveText(m))
			}
		}
	}
	return tv
}

func (s *tinyState) Table() any { return nil }

// Note says who was to move: the log of Tiny needs nothing more.
func (s *tinyState) Note(m game.Move) any {
	return map[string]any{"decision": decisionNames[s.decision]}
}

func (s *tinyState) Standing() game.Standing {
	n := int(s.players)
	st := game.Standing{Scores: make([]int, n)}
	for p := range n {
		st.Scores[p] = int(s.scores[p])
	}
	units := make([]int, n) // what decides: a seat's points, or its team's
	copy(units, st.Scores)
	if s.pairs {
		st.Teams = [][]int{{0, 2}, {1, 3}}
		for p := range n {
			units[p] = st.Scores[p] + st.Scores[(p+2)%4]
		}
	}
	if !s.Over() {
		return st
	}
	best := units[0]
	for _, u := range units {
		if s.low && u < best || !s.low && u > best {
			best = u
		}
	}
	for p, u := range units {
		if u == best {
			st.Winners = append(st.Winners, p)
		}
	}
	return st
}

func (s *tinyState) MoveText(m game.Move) string {
	switch {
	case m >= 1 && m <= 9:
		return "play " + strconv.Itoa(int(m))
	case m == Stop:
		return "stop"
	case m == Take:
		return "take"
	case m == Leave:
		return "leave"
	}
	return "#" + strconv.Itoa(int(m))
}

func (s *tinyState) ParseMove(text string) (game.Move, error) {
	switch text {
	case "stop":
		return Stop, nil
	case "take":
		return Take, nil
	case "leave":
		return Leave, nil
	}
	if v, ok := strings.CutPrefix(text, "play "); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= 9 {
			return game.Move(n), nil
		}
	}
	return 0, fmt.Errorf("move %q: a move is play 1 to play 9, stop, take or leave", text)
}

// String writes the state on one line:
//
//	tiny 2 3 high solo; owner 0 play; last 0; turns 0; deck 2 2 ...; hand 0 0 1 ...; hand ...; scores 0 0; rng <hex>
func (s *tinyState) String() string {
	var b strings.Builder
	goal, teams := "high", "solo"
	if s.low {
		goal = "low"
	}
	if s.pairs {
		teams = "pairs"
	}
	fmt.Fprintf(&b, "tiny %d %d %s %s; owner %d %s; last %d; turns %d; deck", s.players, s.hand, goal, teams, s.owner, decisionNames[s.decision], s.last, s.turns)
	writeCards(&b, &s.deck)
	for p := range int(s.players) {
		b.WriteString("; hand")
		writeCards(&b, &s.hands[p])
	}
	b.WriteString("; scores")
	for p := range int(s.players) {
		fmt.Fprintf(&b, " %d", s.scores[p])
	}
	rng, _ := s.rng.MarshalBinary()
	fmt.Fprintf(&b, "; rng %s", hex.EncodeToString(rng))
	return b.String()
}

func writeCards(b *strings.Builder, cards *[10]uint8) {
	for v := 1; v <= 9; v++ {
		fmt.Fprintf(b, " %d", cards[v])
	}
}

func parseTiny(text string) (game.State, error) {
	fail := func(format string, args ...any) (game.State, error) {
		return nil, fmt.Errorf("tiny state: "+format, args...)
	}
	parts := strings.Split(text, "; ")
	if len(parts) < 7 {
		return fail("%d parts, want at least 7", len(parts))
	}
	var s tinyState
	var goal, teams, dec string
	if _, err := fmt.Sscanf(parts[0], "tiny %d %d %s %s", &s.players, &s.hand, &goal, &teams); err != nil {
		return fail("header: %v", err)
	}
	n := int(s.players)
	if n < 2 || n > 4 || len(parts) != 7+n {
		return fail("%d players in %d parts", n, len(parts))
	}
	s.low, s.pairs = goal == "low", teams == "pairs"
	if _, err := fmt.Sscanf(parts[1], "owner %d %s", &s.owner, &dec); err != nil || s.owner < 0 || int(s.owner) >= n {
		return fail("owner: %q", parts[1])
	}
	s.decision = 255
	for i, name := range decisionNames {
		if name == dec {
			s.decision = uint8(i)
		}
	}
	if s.decision == 255 {
		return fail("decision %q", dec)
	}
	if _, err := fmt.Sscanf(parts[2], "last %d", &s.last); err != nil {
		return fail("last: %v", err)
	}
	if _, err := fmt.Sscanf(parts[3], "turns %d", &s.turns); err != nil {
		return fail("turns: %v", err)
	}
	if err := readCards(parts[4], "deck", &s.deck); err != nil {
		return fail("%v", err)
	}
	for p := range n {
		if err := readCards(parts[5+p], "hand", &s.hands[p]); err != nil {
			return fail("seat %d: %v", p, err)
		}
	}
	scores := strings.Fields(strings.TrimPrefix(parts[5+n], "scores"))
	if len(scores) != n {
		return fail("scores: %q", parts[5+n])
	}
	for p, f := range scores {
		v, err := strconv.Atoi(f)
		if err != nil {
			return fail("scores: %v", err)
		}
		s.scores[p] = int16(v)
	}
	rngText, ok := strings.CutPrefix(parts[len(parts)-1], "rng ")
	raw, err := hex.DecodeString(rngText)
	if !ok || err != nil || s.rng.UnmarshalBinary(raw) != nil {
		return fail("rng: %q", parts[len(parts)-1])
	}
	return &s, nil
}

func readCards(text, label string, cards *[10]uint8) error {
	f := strings.Fields(text)
	if len(f) != 10 || f[0] != label {
		return fmt.Errorf("%s: %q", label, text)
	}
	for v := 1; v <= 9; v++ {
		n, err := strconv.Atoi(f[v])
		if err != nil || n < 0 || n > 2 {
			return fmt.Errorf("%s: %q", label, text)
		}
		cards[v] = uint8(n)
	}
	return nil
}
