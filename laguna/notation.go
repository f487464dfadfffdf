package laguna

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lagoon-games/lagoon/game"
)

// Moves are written (holes 1 to 6, colours and rafts by colour letter,
// islands by letter, squares as c7):
//
//	N E S W           step the raft one square
//	end               end the turn
//	peek              look under one's own pearls
//	shift 2 5         move the pearl in hole 2 to open hole 5
//	load R 3          take a red pearl from the island into hole 3
//	unload 3          leave the pearl in hole 3 on the island
//	swap 3 R          leave the pearl in hole 3 and take a red one into it
//	deliver 3         unload the pearl in hole 3 at the volcano
//	trade Y 3 4       exchange with the yellow raft: one's hole 3 to its
//	                  hole 3, its hole 4 to one's hole 4
//	put R C           deal a red pearl to island C (variant)
//	place H c7        place one's raft lying across (H) or down (V), its
//	                  top-left square at c7
//
// A number that is no move is written "#n".
func (s *State) MoveText(m game.Move) string { return MoveText(m) }

// MoveText writes m in the notation; it does not depend on the state.
func MoveText(m game.Move) string {
	hole := func(h int) string { return strconv.Itoa(h + 1) }
	colour := func(c int) string { return ColourNames[c : c+1] }
	switch {
	case m < 0 || m >= numMoves:
		return "#" + strconv.Itoa(int(m))
	case m < mEnd:
		return DirNames[m]
	case m == mEnd:
		return "end"
	case m == mPeek:
		return "peek"
	case m < mLoad:
		k := int(m - mShift)
		return "shift " + hole(k/Holes) + " " + hole(k%Holes)
	case m < mUnload:
		k := int(m - mLoad)
		return "load " + colour(k%NumColours) + " " + hole(k/NumColours)
	case m < mSwap:
		return "unload " + hole(int(m-mUnload))
	case m < mDeliver:
		k := int(m - mSwap)
		return "swap " + hole(k/NumColours) + " " + colour(k%NumColours)
	case m < mTrade:
		return "deliver " + hole(int(m-mDeliver))
	case m < mPut:
		k := int(m - mTrade)
		return "trade " + colour(k/(Holes*Holes)) + " " + hole(k/Holes%Holes) + " " + hole(k%Holes)
	case m < mPlace:
		k := int(m - mPut)
		return "put " + colour(k%NumColours) + " " + IslandNames[k/NumColours:k/NumColours+1]
	}
	k := int(m - mPlace)
	return "place " + OrientNames[k/NumSquares] + " " + Square(k%NumSquares).String()
}

// ParseMove reads a move in the notation; see MoveText.
func (s *State) ParseMove(text string) (game.Move, error) { return ParseMove(text) }

// ParseMove reads a move in the notation, strictly: one space between
// words, upper-case letters for colours, islands and directions.
func ParseMove(text string) (game.Move, error) {
	m, ok := parseMoveWords(strings.Split(text, " "))
	if !ok {
		return 0, fmt.Errorf("move %q: a move is N, E, S, W, end, peek, shift 2 5, load R 3, unload 3, swap 3 R, deliver 3, trade Y 3 4, put R C or place H c7", text)
	}
	return m, nil
}

// parseMoveWords reads a move from its words: a verb and its arguments,
// holes, colours, an island, a raft's lie and square, each a word of their
// own. It reports false when they are no move.
func parseMoveWords(f []string) (game.Move, bool) {
	verb, args := f[0], f[1:]
	switch {
	case len(args) == 0:
		return parseMoveWord(verb)
	case len(args) == 1 && verb == "unload":
		h, ok := parseHole(args[0])
		return Unload(h), ok
	case len(args) == 1 && verb == "deliver":
		h, ok := parseHole(args[0])
		return Deliver(h), ok
	case len(args) == 2 && verb == "shift":
		a, ok1 := parseHole(args[0])
		b, ok2 := parseHole(args[1])
		return Shift(a, b), ok1 && ok2 && a != b
	case len(args) == 2 && verb == "load":
		c, ok1 := parseColour(args[0])
		h, ok2 := parseHole(args[1])
		return Load(h, c), ok1 && ok2
	case len(args) == 2 && verb == "swap":
		h, ok1 := parseHole(args[0])
		c, ok2 := parseColour(args[1])
		return Swap(h, c), ok1 && ok2
	case len(args) == 2 && verb == "put":
		c, ok := parseColour(args[0])
		i := strings.Index(IslandNames, args[1])
		return Put(i, c), ok && len(args[1]) == 1 && i >= 0
	case len(args) == 2 && verb == "place":
		o := strings.Index(OrientNames[0]+OrientNames[1], args[0])
		sq, err := ParseSquare(args[1])
		return Place(Orient(o), sq), len(args[0]) == 1 && o >= 0 && err == nil
	case len(args) == 3 && verb == "trade":
		q, ok1 := parseColour(args[0])
		a, ok2 := parseHole(args[1])
		b, ok3 := parseHole(args[2])
		return Trade(q, a, b), ok1 && ok2 && ok3
	}
	return 0, false
}

// parseMoveWord reads a move of one word: a step, end or peek.
func parseMoveWord(w string) (game.Move, bool) {
	switch w {
	case "end":
		return End, true
	case "peek":
		return Peek, true
	}
	for d, name := range DirNames {
		if w == name {
			return Step(Dir(d)), true
		}
	}
	return 0, false
}

// parseHole reads a hole, 1 to 6, as its number from 0.
func parseHole(w string) (int, bool) {
	if len(w) == 1 && w[0] >= '1' && w[0] <= '6' {
		return int(w[0] - '1'), true
	}
	return 0, false
}

// parseColour reads a colour by its letter.
func parseColour(w string) (int, bool) {
	if len(w) == 1 && strings.Contains(ColourNames, w) {
		return strings.Index(ColourNames, w), true
	}
	return 0, false
}

// refusal says why m is not a move now.
func (s *State) refusal(m game.Move) error {
	text := MoveText(m)
	// refuse says why in the contract's terms, after the move's text.
	refuse := func(code game.RefusalCode, format string, args ...any) error {
		return fmt.Errorf("%s: %w", text, game.Refuse(code, format, args...))
	}
	p := int(s.seat)
	r := &s.rafts[p]
	switch {
	case s.phase == phOver:
		return game.Refuse(game.RefusedOver, "the game is over")
	case m < 0 || m >= numMoves:
		return fmt.Errorf("move %d: %w", m, game.Refuse(game.RefusedNoSuchMove, "no such move"))
	case s.phase == phPlace && m < mPlace:
		return refuse(game.RefusedNotNow, "the rafts are being placed; place yours against the landing line of a free island")
	case s.phase == phPlace:
		return refuse(RefusedPlace, "a raft is placed on six water squares against the landing line of an island no other raft chose, off the other rafts")
	case s.phase == phDeal && (m < mPut || m >= mPlace):
		return refuse(game.RefusedNotNow, "the pearls are being dealt; put one on an island")
	case s.phase == phDeal:
		return refuse(RefusedDeal, "deal a pearl not of your colour, left in the volcano, to an island with room and no pearl of that colour, so that the others can still be dealt")
	case m >= mPut:
		return refuse(game.RefusedNotNow, "that is done before play begins")
	case r.aboard() < MinAboard:
		return refuse(RefusedLoadFirst, "first load two or three pearls from your island")
	}
	return s.playRefusal(m, refuse)
}

// playRefusal is refusal's part for a move of play, once the raft is
// loaded.
func (s *State) playRefusal(m game.Move, refuse func(game.RefusalCode, string, ...any) error) error {
	p := int(s.seat)
	reef, arrows := s.showing(p)
	dock := s.docked(p)
	switch {
	case m < mEnd && reef:
		return refuse(RefusedReef, "a reef shows through your raft; cover it before you move")
	case m < mEnd && arrows != 0:
		return refuse(RefusedCurrent, "the current showing through your raft takes you %s", dirList(s.stepDirs(p)))
	case m < mEnd:
		return refuse(RefusedBlocked, "the raft would leave the water or run into another raft")
	case m == mPeek:
		return refuse(RefusedPeek, "you may look under your pearls once, before your first step of the turn")
	case m < mLoad && !s.mayShift(p, reef):
		return refuse(RefusedPearlsStill, "without the sand timer, pearls move between holes only before the first step of a turn that a reef ended, while a reef shows through the raft")
	case m < mLoad && !s.validShift(p, int(m-mShift)/Holes, int(m-mShift)%Holes):
		return refuse(RefusedPearl, "move a pearl from a hole that holds one to a hole that is open")
	case m < mLoad:
		return refuse(RefusedUncover, "before your raft's first step of the turn a pearl may be moved only if it uncovers no reef or arrow, and this one lies on one (a peek shows what lies under your pearls)")
	case m < mDeliver && arrows != 0 && dock < 0:
		return refuse(RefusedCurrent, "an arrow shows through your raft; you cannot dock while the current holds you")
	case m < mDeliver && (dock < 0 || dock >= NumIslands) && !s.loadingAtHome():
		return refuse(RefusedNotDocked, "your raft is not docked at an island")
	case m < mDeliver:
		return refuse(RefusedLoad, "a raft holds %d to %d pearls and an island %d; take what the island has, into an open hole", MinAboard, s.maxAboard, IslandRoom)
	case m < mTrade && dock != Volcano:
		return refuse(RefusedNotDocked, "your raft is not docked at the volcano")
	case m < mTrade:
		return refuse(RefusedDelivery, "deliver a pearl of your colour, keeping at least %d aboard", MinAboard)
	}
	return refuse(RefusedTrade, "exchange with a raft your raft touches, with no arrow showing through yours: a pearl for a pearl, each to the same hole of the other raft")
}

// Laguna's own refusal codes, beside the contract's RefusedOver,
// RefusedNoSuchMove and RefusedNotNow (a move of another phase).
const (
	RefusedPlace       game.RefusalCode = "place"        // no raft may go there
	RefusedDeal        game.RefusalCode = "deal"         // no pearl may be dealt so
	RefusedLoadFirst   game.RefusalCode = "load_first"   // the raft holds too few pearls to sail
	RefusedReef        game.RefusalCode = "reef"         // a reef shows through the raft
	RefusedCurrent     game.RefusalCode = "current"      // an arrow shows through the raft
	RefusedBlocked     game.RefusalCode = "blocked"      // land, the board's edge or a raft is in the way
	RefusedPeek        game.RefusalCode = "peek"         // the turn's peek is spent or too late
	RefusedPearlsStill game.RefusalCode = "pearls_still" // without the timer, pearls move only after a reef
	RefusedPearl       game.RefusalCode = "pearl"        // no pearl to move, or no open hole
	RefusedUncover     game.RefusalCode = "uncover"      // before the first step, a pearl moved would uncover a reef or an arrow
	RefusedNotDocked   game.RefusalCode = "not_docked"   // the raft is not at the island or the volcano
	RefusedLoad        game.RefusalCode = "load"         // no such load or unload
	RefusedDelivery    game.RefusalCode = "delivery"     // no such delivery
	RefusedTrade       game.RefusalCode = "trade"        // no such exchange
)

func dirList(dirs uint8) string {
	var out []string
	for d := range 4 {
		if dirs>>d&1 != 0 {
			out = append(out, DirNames[d])
		}
	}
	return strings.Join(out, " or ")
}

// String writes the state on one line, in fields separated by "; ": the
// setup, where the turn stands (with the exchange in progress, if any),
// each raft, the islands' pearls and the volcano's:
//
//	laguna 2 board=easy raft=4 deal=random timer=on open=off limit=0; play seat=R turns=2 played=0 moved=0 steps=0 peeked=0 exchanging=A; R H f3 holes=Y....B home=A begun=0 reef=0; Y H p3 holes=...... home=B begun=0 reef=0; islands G RGB RGB RYB RYB RYG YGB RYG; volcano 0 0 0 0
//
// An original board is written by its name, any other on one line. See
// docs/laguna.md.
func (s *State) String() string {
	var b strings.Builder
	board := s.board.name
	if board == "" {
		board = s.board.Line()
	}
	fmt.Fprintf(&b, "laguna %d board=%s raft=%d deal=%s timer=%s open=%s limit=%d; ",
		s.players, board, s.maxAboard, pick(s.deal, "players", "random"), pick(s.timer, "on", "off"), pick(s.open, "on", "off"), s.limit)
	fmt.Fprintf(&b, "%s seat=%c turns=%d played=%d moved=%d steps=%d peeked=%d",
		phaseNames[s.phase], ColourNames[s.seat], s.turns, s.played, s.moved, s.steps, bit(s.peeked))
	if s.calm > 0 {
		fmt.Fprintf(&b, " calm=%d", s.calm)
	}
	switch {
	case s.with >= withRaft:
		fmt.Fprintf(&b, " trading=%c", ColourNames[s.with-withRaft])
	case s.with >= 0:
		fmt.Fprintf(&b, " exchanging=%c", IslandNames[s.with])
	}
	for p := range int(s.players) {
		r := &s.rafts[p]
		fmt.Fprintf(&b, "; %c ", ColourNames[p])
		if r.placed() {
			fmt.Fprintf(&b, "%s %v", OrientNames[r.orient], Square(r.at))
		} else {
			b.WriteString("- -")
		}
		b.WriteString(" holes=")
		for _, c := range r.holes {
			if c < 0 {
				b.WriteByte('.')
			} else {
				b.WriteByte(ColourNames[c])
			}
		}
		home := "-"
		if s.home[p] >= 0 {
			home = IslandNames[s.home[p] : s.home[p]+1]
		}
		fmt.Fprintf(&b, " home=%s begun=%d reef=%d", home, bit(s.begun[p]), bit(s.reefEnd[p]))
	}
	writeIslands(&b, "; islands", &s.islands)
	b.WriteString("; volcano")
	for c := range NumColours {
		fmt.Fprintf(&b, " %d", s.volcano[c])
	}
	if s.Solo() {
		writeIslands(&b, "; target", &s.target)
		if s.par >= 0 {
			fmt.Fprintf(&b, " par=%d", s.par)
		} else {
			b.WriteString(" par=-")
		}
	}
	return b.String()
}

// writeIslands writes the islands' pearls after label: "RYG RY - ...".
func writeIslands(b *strings.Builder, label string, islands *[NumIslands][NumColours]uint8) {
	b.WriteString(label)
	for i := range NumIslands {
		b.WriteByte(' ')
		if islands[i] == [NumColours]uint8{} {
			b.WriteByte('-')
		}
		for c := range NumColours {
			for range islands[i][c] {
				b.WriteByte(ColourNames[c])
			}
		}
	}
}

func pick(v bool, yes, no string) string {
	if v {
		return yes
	}
	return no
}

func bit(v bool) int {
	if v {
		return 1
	}
	return 0
}

// ParseState reads a state written by String, strictly: the text must be
// exactly as String writes the state it describes, and the state must hold
// together (every pearl somewhere, rafts on water and apart, counts in
// bounds).
func ParseState(text string) (*State, error) {
	s, err := parseState(text)
	if err != nil {
		return nil, fmt.Errorf("laguna state: %w", err)
	}
	if s.String() != text {
		return nil, errors.New("laguna state: not written as the notation writes it")
	}
	return s, nil
}

func parseState(text string) (*State, error) {
	parts := strings.Split(text, "; ")
	if len(parts) < 6 {
		return nil, fmt.Errorf("%d fields; want the setup, the turn, a raft a seat, the islands and the volcano", len(parts))
	}
	head := strings.Split(parts[0], " ")
	if len(head) != 8 || head[0] != "laguna" {
		return nil, fmt.Errorf("setup %q", parts[0])
	}
	players, err := strconv.Atoi(head[1])
	if err != nil || players < 1 || players > 4 || len(parts) != 4+players+bit(players == 1) {
		return nil, fmt.Errorf("%q players in %d fields", head[1], len(parts))
	}
	opt := map[string]string{}
	for _, kv := range head[2:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("setup %q", kv)
		}
		opt[k] = v
	}
	o := options{Deal: opt["deal"] == "players", NoTimer: opt["timer"] == "off", Open: opt["open"] == "on"}
	if o.Board, err = BoardFromText(opt["board"]); err != nil {
		return nil, oneLine{err}
	}
	if o.MaxAboard, err = strconv.Atoi(opt["raft"]); err != nil {
		return nil, fmt.Errorf("raft %q", opt["raft"])
	}
	if o.Limit, err = strconv.Atoi(opt["limit"]); err != nil {
		return nil, fmt.Errorf("limit %q", opt["limit"])
	}
	s, err := newGame(players, o, 0)
	if err != nil {
		return nil, err
	}
	s.volcano = [NumColours]uint8{}
	s.islands = [NumIslands][NumColours]uint8{}
	if err := s.parseTurn(parts[1]); err != nil {
		return nil, err
	}
	for p := range players {
		if err := s.parseRaft(p, parts[2+p]); err != nil {
			return nil, fmt.Errorf("raft %c: %w", ColourNames[p], err)
		}
	}
	if err := s.parsePearls(parts[2+players], parts[3+players]); err != nil {
		return nil, err
	}
	if players == 1 {
		s.target = [NumIslands][NumColours]uint8{}
		target, par, ok := strings.Cut(parts[4+players], " par=")
		if err := readIslands(target, "target", &s.target); err != nil || !ok {
			return nil, fmt.Errorf("target %q", parts[4+players])
		}
		if par != "-" {
			n, err := strconv.Atoi(par)
			if err != nil || n < 0 || n > 9999 {
				return nil, fmt.Errorf("par %q", par)
			}
			s.par = int16(n)
		}
	}
	return s, s.valid()
}

func (s *State) parseTurn(text string) error {
	f := strings.Split(text, " ")
	if len(f) >= 8 && strings.HasPrefix(f[7], "calm=") {
		// Turns ended with no pearl changing place.
		n, err := strconv.Atoi(f[7][len("calm="):])
		if err != nil || n < 1 || n > 1<<16-1 {
			return fmt.Errorf("turn %q", text)
		}
		s.calm = uint16(n)
		f = append(f[:7], f[8:]...)
	}
	if len(f) == 8 {
		// An exchange in progress: with an island, or with a raft.
		if v, ok := strings.CutPrefix(f[7], "exchanging="); ok && len(v) == 1 && strings.Contains(IslandNames, v) {
			s.with = int8(strings.Index(IslandNames, v))
		} else if v, ok := strings.CutPrefix(f[7], "trading="); ok && len(v) == 1 && strings.Contains(ColourNames[:s.players], v) {
			s.with = int8(withRaft + strings.Index(ColourNames, v))
		} else {
			return fmt.Errorf("turn %q", text)
		}
		f = f[:7]
	}
	if len(f) != 7 {
		return fmt.Errorf("turn %q", text)
	}
	s.phase = 255
	for i, name := range phaseNames {
		if f[0] == name {
			s.phase = phase(i)
		}
	}
	var seat string
	var peeked int
	vals := []any{&seat, &s.turns, &s.played, &s.moved, &s.steps, &peeked}
	for i, key := range []string{"seat", "turns", "played", "moved", "steps", "peeked"} {
		v, ok := strings.CutPrefix(f[1+i], key+"=")
		if _, err := fmt.Sscan(v, vals[i]); !ok || err != nil {
			return fmt.Errorf("turn %q", text)
		}
	}
	s.seat = int8(strings.Index(ColourNames[:s.players], seat))
	if s.phase == 255 || len(seat) != 1 || s.seat < 0 || peeked > 1 || peeked < 0 || s.turns < 0 || s.played < 0 || s.moved < 0 {
		return fmt.Errorf("turn %q", text)
	}
	s.peeked = peeked == 1
	return nil
}

func (s *State) parseRaft(p int, text string) error {
	f := strings.Split(text, " ")
	if len(f) != 7 || f[0] != ColourNames[p:p+1] {
		return fmt.Errorf("%q", text)
	}
	r := &s.rafts[p]
	if f[1] != "-" || f[2] != "-" {
		o := strings.Index(OrientNames[0]+OrientNames[1], f[1])
		sq, err := ParseSquare(f[2])
		if len(f[1]) != 1 || o < 0 || err != nil || !s.board.Fits(Orient(o), sq) {
			return fmt.Errorf("%q: not a raft on water inside the board", text)
		}
		r.at, r.orient = int16(sq), Orient(o)
	}
	holes, ok := strings.CutPrefix(f[3], "holes=")
	if !ok || len(holes) != Holes {
		return fmt.Errorf("%q: holes", text)
	}
	for h := range Holes {
		switch c := strings.IndexByte(ColourNames, holes[h]); {
		case holes[h] == '.':
		case c >= 0:
			r.holes[h] = int8(c)
		default:
			return fmt.Errorf("%q: holes", text)
		}
	}
	home, ok := strings.CutPrefix(f[4], "home=")
	switch i := strings.Index(IslandNames, home); {
	case !ok || len(home) != 1:
		return fmt.Errorf("%q: home", text)
	case home == "-":
	case i >= 0:
		s.home[p] = int8(i)
	default:
		return fmt.Errorf("%q: home", text)
	}
	for i, key := range []string{"begun=", "reef="} {
		v, ok := strings.CutPrefix(f[5+i], key)
		if !ok || v != "0" && v != "1" {
			return fmt.Errorf("%q: %s", text, key)
		}
		*[]*bool{&s.begun[p], &s.reefEnd[p]}[i] = v == "1"
	}
	return nil
}

func (s *State) parsePearls(islands, volcano string) error {
	if err := readIslands(islands, "islands", &s.islands); err != nil {
		return err
	}
	f := strings.Split(volcano, " ")
	if len(f) != 1+NumColours || f[0] != "volcano" {
		return fmt.Errorf("volcano %q", volcano)
	}
	for c, w := range f[1:] {
		n, err := strconv.Atoi(w)
		if err != nil || n < 0 || n > PearlsPerColour {
			return fmt.Errorf("volcano %q", volcano)
		}
		s.volcano[c] = uint8(n)
	}
	return nil
}

// readIslands reads the islands' pearls written by writeIslands.
func readIslands(text, label string, islands *[NumIslands][NumColours]uint8) error {
	f := strings.Split(text, " ")
	if len(f) != 1+NumIslands || f[0] != label {
		return fmt.Errorf("%s %q", label, text)
	}
	for i, w := range f[1:] {
		if w == "-" {
			continue
		}
		if len(w) > IslandRoom {
			return fmt.Errorf("%s %q: an island holds %d pearls", label, text, IslandRoom)
		}
		for j := range len(w) {
			c := strings.IndexByte(ColourNames, w[j])
			if c < 0 {
				return fmt.Errorf("%s %q", label, text)
			}
			islands[i][c]++
		}
	}
	return nil
}

// valid checks that a state read holds together.
func (s *State) valid() error {
	var count [NumColours]int
	for c := range NumColours {
		count[c] = int(s.volcano[c])
	}
	for i := range NumIslands {
		if s.islandCount(i) > IslandRoom {
			return fmt.Errorf("island %c holds %d pearls; an island holds %d", IslandNames[i], s.islandCount(i), IslandRoom)
		}
		for c := range NumColours {
			count[c] += int(s.islands[i][c])
		}
	}
	n := int(s.players)
	for p := range n {
		r := &s.rafts[p]
		for _, c := range r.holes {
			if c >= 0 {
				count[c]++
			}
		}
		placed := s.phase > phPlace || p < int(s.seat)
		if r.placed() != placed || (s.home[p] >= 0) != placed {
			return fmt.Errorf("raft %c: placed or not as the phase says", ColourNames[p])
		}
		if r.aboard() > int(s.maxAboard) || s.phase < phPlay && r.aboard() > 0 {
			return fmt.Errorf("raft %c: %d pearls aboard", ColourNames[p], r.aboard())
		}
		if !placed {
			continue
		}
		if s.overlaps(p, r) {
			return fmt.Errorf("raft %c lies on another raft", ColourNames[p])
		}
		for q := range p {
			if s.home[q] == s.home[p] {
				return fmt.Errorf("rafts %c and %c were placed at the same island", ColourNames[q], ColourNames[p])
			}
		}
	}
	for c := range NumColours {
		if count[c] != PearlsPerColour {
			return fmt.Errorf("%d pearls of colour %c; there are %d", count[c], ColourNames[c], PearlsPerColour)
		}
	}
	if s.Solo() {
		var total [NumColours]int
		for i := range NumIslands {
			for c := range NumColours {
				total[c] += int(s.target[i][c])
			}
		}
		if total[0]+total[1]+total[2]+total[3] != NumPearls-MinAboard || slices.Max(total[:]) > PearlsPerColour {
			return errors.New("the target is not 22 of the 24 pearls")
		}
	}
	switch s.phase {
	case phPlace:
		if !s.deal && s.volcano != [NumColours]uint8{} || s.played != 0 {
			return errors.New("the pearls are dealt, or play has begun, while the rafts are placed")
		}
	case phDeal:
		if s.volcano == [NumColours]uint8{} || s.dealer(int(s.seat)) != int(s.seat) {
			return errors.New("the seat to deal has no pearl to deal")
		}
	}
	if s.phase < phPlay && (s.steps != 0 || s.peeked) {
		return errors.New("steps or a peek before play")
	}
	if err := s.validHomes(); err != nil {
		return err
	}
	if err := s.validEnd(); err != nil {
		return err
	}
	return s.validExchange()
}

// validEnd refuses a game in play that the turn before it would have
// ended (decision 22): a game of 2 to 4 after stallRounds calm rounds, and
// a solo raft at the start of a turn (not its first) that can only end it.
// No game reaches either, and a state read must be one a game reaches.
func (s *State) validEnd() error {
	if s.phase != phPlay {
		return nil
	}
	if !s.Solo() && int(s.calm) >= stallRounds*int(s.players) {
		return fmt.Errorf("calm=%d in play: a game of %d is over after %d turns in which no pearl changes place", s.calm, s.players, stallRounds*int(s.players))
	}
	turnStart := s.steps == 0 && !s.peeked && s.with < 0
	if s.Solo() && s.played > 0 && turnStart && s.stuck() {
		return errors.New("a solo raft in play that can only end its turn: the turn before it ended the game")
	}
	return nil
}

// validHomes checks that each raft placed and not yet moved lies against
// its home island's landing line: a raft that has not ended a turn of play
// has not sailed, unless it is sailing its first turn now (or sailed in
// the turn that ended the game).
func (s *State) validHomes() error {
	for p := range int(s.players) {
		r := &s.rafts[p]
		sailing := p == int(s.seat) && s.steps > 0
		if !r.placed() || s.begun[p] || sailing {
			continue
		}
		if s.board.start[r.orient][r.at] != s.home[p] {
			return fmt.Errorf("raft %c has not begun to play but lies away from island %c", ColourNames[p], IslandNames[s.home[p]])
		}
	}
	return nil
}

// oneLine is an error written on one line: a board the checker refuses
// gives every reason on a line of its own, and a state's error is a line
// of the line protocols (lagoon rules).
type oneLine struct{ err error }

func (e oneLine) Error() string { return strings.ReplaceAll(e.err.Error(), "\n", "; ") }
func (e oneLine) Unwrap() error { return e.err }

// validExchange checks an exchange in progress: in play, with the island
// the raft to move touches or a raft it touches.
func (s *State) validExchange() error {
	if s.with < 0 {
		return nil
	}
	p := int(s.seat)
	r := &s.rafts[p]
	ok := s.phase == phPlay
	if q := int(s.with) - withRaft; q >= 0 {
		ok = ok && q != p && s.touching(p, q)
	} else {
		ok = ok && int(s.board.touch[r.orient][r.at]) == int(s.with)
	}
	if !ok {
		return errors.New("an exchange in progress with an island or raft the raft to move does not touch")
	}
	return nil
}
