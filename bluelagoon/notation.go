package bluelagoon

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SyntaxError reports malformed notation: where, as a byte offset into the
// input, and why.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("at offset %d: %s", e.Offset, e.Msg)
}

// parser reads the notation strictly: single spaces, every statement ended
// by ';', numbers without leading zeros, nothing repaired.
type parser struct {
	s string
	i int
	// boards, when not nil, holds the boards read before, by their
	// statements: a state on one of them skips reading its board again.
	boards map[string]*Board
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: p.i, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func describe(c byte) string {
	if c == 0 {
		return "the end of the input"
	}
	return strconv.QuoteRune(rune(c))
}

// literal consumes lit or fails saying what was expected.
func (p *parser) literal(lit, what string) error {
	if strings.HasPrefix(p.s[p.i:], lit) {
		p.i += len(lit)
		return nil
	}
	for k := 0; k < len(lit); k++ {
		if p.i+k >= len(p.s) || p.s[p.i+k] != lit[k] {
			p.i += k
			return p.errorf("expected %s, found %s", what, describe(p.peek()))
		}
	}
	return nil
}

// maxNumber bounds every number in the notation.
const maxNumber = 1_000_000

// number reads a non-negative decimal number.
func (p *parser) number(what string) (int, error) {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	digits := p.s[start:p.i]
	if digits == "" {
		return 0, p.errorf("expected %s (a number), found %s", what, describe(p.peek()))
	}
	if len(digits) > 1 && digits[0] == '0' {
		p.i = start
		return 0, p.errorf("%s %q has a leading zero", what, digits)
	}
	if len(digits) > 7 {
		p.i = start
		return 0, p.errorf("%s %s is too large", what, digits)
	}
	n, _ := strconv.Atoi(digits)
	if n > maxNumber {
		p.i = start
		return 0, p.errorf("%s %d is too large", what, n)
	}
	return n, nil
}

// numberIn reads a number that must lie in [lo, hi]; a number out of range is
// reported where it starts.
func (p *parser) numberIn(what string, lo, hi int) (int, error) {
	start := p.i
	n, err := p.number(what)
	if err == nil && (n < lo || n > hi) {
		p.i = start
		err = p.errorf("%s %d is out of range %d to %d", what, n, lo, hi)
	}
	return n, err
}

// seat reads a seat number of a game of the given number of players.
func (p *parser) seat(what string, players int) (int, error) {
	start := p.i
	n, err := p.number(what)
	if err == nil && n >= players {
		p.i = start
		err = p.errorf("%s %d is not a seat of a %d-player game", what, n, players)
	}
	return n, err
}

// coord reads "row,col".
func (p *parser) coord() (Coord, error) {
	r, err := p.number("row")
	if err != nil {
		return Coord{}, err
	}
	if err := p.literal(",", "',' between row and column"); err != nil {
		return Coord{}, err
	}
	c, err := p.number("column")
	if err != nil {
		return Coord{}, err
	}
	return Coord{r, c}, nil
}

// coordList reads zero or more " row,col" and checks each against the board
// height h.
func (p *parser) coordList(h int) ([]Coord, []int, error) {
	var cs []Coord
	var at []int
	for p.peek() == ' ' && p.i+1 < len(p.s) && p.s[p.i+1] >= '0' && p.s[p.i+1] <= '9' {
		p.i++
		start := p.i
		c, err := p.coord()
		if err != nil {
			return nil, nil, err
		}
		if c.Row >= h || c.Col >= RowLen(h, c.Row) {
			p.i = start
			return nil, nil, p.errorf("space %v is off a board of height %d", c, h)
		}
		cs = append(cs, c)
		at = append(at, start)
	}
	return cs, at, nil
}

// end consumes the ';' that ends a statement.
func (p *parser) end(stmt string) error {
	return p.literal(";", "';' to end the "+stmt+" statement")
}

// sep consumes the single space between statements.
func (p *parser) sep() error {
	if p.peek() != ' ' {
		return p.errorf("expected a space before the next statement, found %s", describe(p.peek()))
	}
	p.i++
	switch {
	case p.peek() == ' ':
		return p.errorf("doubled space")
	case p.i == len(p.s):
		p.i--
		return p.errorf("trailing space")
	}
	return nil
}

// parsedState is a state as read, before it is checked against the rules.
type parsedState struct {
	board           *Board // read before, when the parser knew the board's text
	boardKey        string // the board's text, to remember the board by
	height, players int
	current         int
	phase           Phase
	islands         []Island
	stones          []Coord
	tokens          [NumTokenKinds][]Coord
	tokenAt         [NumTokenKinds][]int
	seats           []parsedPlayer
}

type parsedPlayer struct {
	id, score          int
	held               [NumTokenKinds]int
	settlers, villages []Coord
	settlerAt          []int
	villageAt          []int
	offset             int
}

// state reads a whole state: its arrangement and current player, its board
// (unless the parser knows the board already), the unclaimed tokens and the
// players.
func (p *parser) state() (*parsedState, error) {
	st := &parsedState{}
	if err := p.arrangement(st); err != nil {
		return nil, err
	}
	if err := p.currentPlayer(st); err != nil {
		return nil, err
	}
	if p.knownBoard(st) {
		return st, p.tokensAndPlayers(st)
	}
	land := map[Coord]bool{} // the islands' spaces, where stone circles may be
	if err := p.islands(st, land); err != nil {
		return nil, err
	}
	if err := p.stoneCircles(st, land); err != nil {
		return nil, err
	}
	return st, p.tokensAndPlayers(st)
}

// arrangement reads the statement 'a height players;'.
func (p *parser) arrangement(st *parsedState) error {
	var err error
	if err = p.literal("a ", "the arrangement statement 'a height players;'"); err != nil {
		return err
	}
	if st.height, err = p.numberIn("board height", MinHeight, MaxHeight); err != nil {
		return err
	}
	if err = p.literal(" ", "a space"); err != nil {
		return err
	}
	if st.players, err = p.numberIn("player count", MinPlayers, MaxPlayers); err != nil {
		return err
	}
	return p.end("arrangement")
}

// currentPlayer reads the statement 'c player phase;' after its space.
func (p *parser) currentPlayer(st *parsedState) error {
	var err error
	if err = p.sep(); err != nil {
		return err
	}
	if err = p.literal("c ", "the current-player statement 'c player phase;'"); err != nil {
		return err
	}
	if st.current, err = p.seat("current player", st.players); err != nil {
		return err
	}
	if err = p.literal(" ", "a space"); err != nil {
		return err
	}
	switch p.peek() {
	case 'E':
		st.phase = Exploration
	case 'S':
		st.phase = Settlement
	default:
		return p.errorf("expected phase E or S, found %s", describe(p.peek()))
	}
	p.i++
	return p.end("current-player")
}

// knownBoard reports whether the board's statements, which follow, are
// those of a board the parser has read before; if so it takes that board
// and skips them. When the parser remembers boards, st.boardKey is set to
// the board's text, so that a new board can be remembered by it.
func (p *parser) knownBoard(st *parsedState) bool {
	if p.boards == nil {
		return false
	}
	k := strings.Index(p.s[p.i:], "; r ")
	if k < 0 {
		return false
	}
	st.boardKey = strconv.Itoa(st.height) + p.s[p.i:p.i+k+1]
	b := p.boards[st.boardKey]
	if b == nil {
		return false
	}
	st.board = b
	p.i += k + 1
	return true
}

// islands reads the island statements, at least one, each after its space,
// and the space after them, adding the islands' spaces to land. (The caller
// makes land, so that the map stays off the heap.)
func (p *parser) islands(st *parsedState, land map[Coord]bool) error {
	for {
		if err := p.sep(); err != nil {
			return err
		}
		if p.peek() != 'i' {
			break
		}
		isl, err := p.island(st.height, land)
		if err != nil {
			return err
		}
		st.islands = append(st.islands, isl)
	}
	if len(st.islands) == 0 {
		return p.errorf("expected at least one island statement 'i bonus spaces;'")
	}
	return nil
}

// island reads the statement 'i bonus spaces;' on a board of height h and
// adds its spaces to land, which none of them may be on already.
func (p *parser) island(h int, land map[Coord]bool) (Island, error) {
	if err := p.literal("i ", "'i bonus spaces;'"); err != nil {
		return Island{}, err
	}
	bonus, err := p.number("island bonus")
	if err != nil {
		return Island{}, err
	}
	cs, at, err := p.coordList(h)
	if err != nil {
		return Island{}, err
	}
	for k, c := range cs {
		if land[c] {
			return Island{}, &SyntaxError{Offset: at[k], Msg: fmt.Sprintf("space %v is already on an island", c)}
		}
		land[c] = true
	}
	if len(cs) == 0 {
		return Island{}, p.errorf("island has no spaces")
	}
	if err := p.end("island"); err != nil {
		return Island{}, err
	}
	return Island{Bonus: bonus, Spaces: cs}, nil
}

// stoneCircles reads the statement 's spaces;': exactly NumStoneCircles
// spaces of land, each listed once.
func (p *parser) stoneCircles(st *parsedState, land map[Coord]bool) error {
	var err error
	if err = p.literal("s", "the stone-circle statement 's spaces;'"); err != nil {
		return err
	}
	var stoneAt []int
	if st.stones, stoneAt, err = p.coordList(st.height); err != nil {
		return err
	}
	for k, c := range st.stones {
		switch {
		case !land[c]:
			return &SyntaxError{Offset: stoneAt[k], Msg: fmt.Sprintf("stone circle %v is not on land", c)}
		case slices.Contains(st.stones[:k], c):
			return &SyntaxError{Offset: stoneAt[k], Msg: fmt.Sprintf("stone circle %v is listed twice", c)}
		}
	}
	if err = p.end("stone-circle"); err != nil {
		return err
	}
	if len(st.stones) != NumStoneCircles {
		return &SyntaxError{Offset: p.i - 1, Msg: fmt.Sprintf("board has %d stone circles, want exactly %d", len(st.stones), NumStoneCircles)}
	}
	return nil
}

// tokensAndPlayers reads what follows the board: the unclaimed tokens and
// the players' statements.
func (p *parser) tokensAndPlayers(st *parsedState) error {
	var err error
	if err = p.sep(); err != nil {
		return err
	}
	if err = p.literal("r", "the unclaimed-token statement 'r C ... B ... W ... P ... S ...;'"); err != nil {
		return err
	}
	for t := Coconut; t <= Statuette; t++ {
		if err = p.literal(" "+string(t.Letter()), fmt.Sprintf("' %c' (%v)", t.Letter(), t)); err != nil {
			return err
		}
		if st.tokens[t], st.tokenAt[t], err = p.coordList(st.height); err != nil {
			return err
		}
	}
	if err = p.end("unclaimed-token"); err != nil {
		return err
	}

	for p.i < len(p.s) {
		if err = p.sep(); err != nil {
			return err
		}
		pl, err := p.player(st)
		if err != nil {
			return err
		}
		st.seats = append(st.seats, pl)
	}
	if len(st.seats) != st.players {
		return p.errorf("state has %d player statements for %d players", len(st.seats), st.players)
	}
	return nil
}

func (p *parser) player(st *parsedState) (parsedPlayer, error) {
	pl := parsedPlayer{offset: p.i}
	var err error
	if err = p.literal("p ", "a player statement 'p id score C B W P S S spaces T spaces;'"); err != nil {
		return pl, err
	}
	if pl.id, err = p.seat("player", st.players); err != nil {
		return pl, err
	}
	if err = p.literal(" ", "a space"); err != nil {
		return pl, err
	}
	if pl.score, err = p.number("score"); err != nil {
		return pl, err
	}
	for t := Coconut; t <= Statuette; t++ {
		if err = p.literal(" ", "a space"); err != nil {
			return pl, err
		}
		start := p.i
		if pl.held[t], err = p.number(t.String() + " count"); err != nil {
			return pl, err
		}
		if pl.held[t] > Supply(t) {
			p.i = start
			return pl, p.errorf("player %d holds %d tokens of %v; there are only %d", pl.id, pl.held[t], t, Supply(t))
		}
	}
	if err = p.literal(" S", "' S' and the player's settlers"); err != nil {
		return pl, err
	}
	if pl.settlers, pl.settlerAt, err = p.coordList(st.height); err != nil {
		return pl, err
	}
	if err = p.literal(" T", "' T' and the player's villages"); err != nil {
		return pl, err
	}
	if pl.villages, pl.villageAt, err = p.coordList(st.height); err != nil {
		return pl, err
	}
	return pl, p.end("player")
}

// ParseState reads a game state in the notation and checks it against the
// rules: the board must be valid, pieces and tokens must be where they can
// be, and the counts must be possible. The game's generator, which lays out
// the next phase's tokens, starts from seed 0; use Reseed to change it.
func ParseState(s string) (*Game, error) {
	return readState(&parser{s: s})
}

func readState(p *parser) (*Game, error) {
	st, err := p.state()
	if err != nil {
		return nil, fmt.Errorf("parse state: %w", err)
	}
	g, err := st.game()
	if err != nil {
		return nil, fmt.Errorf("parse state: %w", err)
	}
	if p.boards != nil && st.board == nil && st.boardKey != "" {
		if len(p.boards) >= maxReaderBoards {
			clear(p.boards)
		}
		p.boards[st.boardKey] = g.board
	}
	return g, nil
}

// maxReaderBoards bounds the boards a StateReader keeps.
const maxReaderBoards = 64

// A StateReader reads states as ParseState does, keeping the last boards it
// has read, so that a stream of states on the same board builds the board
// once: a tool that answers line after line (lagoon rules) pays for the
// state only. A board is known again by its text exactly. A StateReader is
// not safe for concurrent use.
type StateReader struct {
	boards map[string]*Board
}

// Read reads a state in the notation.
func (r *StateReader) Read(s string) (*Game, error) {
	if r.boards == nil {
		r.boards = make(map[string]*Board)
	}
	return readState(&parser{s: s, boards: r.boards})
}

// ParseBoard reads a board from a state in the notation, such as the files of
// built-in boards; the pieces and tokens of the state must be well formed and
// are then set aside.
func ParseBoard(s string) (*Board, error) {
	g, err := ParseState(s)
	if err != nil {
		return nil, fmt.Errorf("parse board: %w", err)
	}
	return g.board, nil
}

// game checks a parsed state against the rules and builds the game. A board
// equal to a built-in one is replaced by it, so that it keeps its name and
// its tables are shared.
func (st *parsedState) game() (*Game, error) {
	b, err := st.gameBoard()
	if err != nil {
		return nil, err
	}
	g := &Game{board: b, players: uint8(st.players), allowance: uint8(SettlerAllowance(st.players)), phase: st.phase, current: uint8(st.current)}
	g.freeSea = int16(b.sea.count(b.words))
	g.Reseed(0)
	var supply [NumTokenKinds]int
	if err := st.layTokens(g, &supply); err != nil {
		return nil, err
	}
	seen := make([]bool, st.players)
	for _, pl := range st.seats {
		if seen[pl.id] {
			return nil, &SyntaxError{Offset: pl.offset, Msg: fmt.Sprintf("player %d has two statements", pl.id)}
		}
		seen[pl.id] = true
		if err := st.seatPlayer(g, pl, &supply); err != nil {
			return nil, err
		}
	}
	if err := checkSupply(supply); err != nil {
		return nil, err
	}
	g.over = g.collected >= numResourceTokens || g.nextMover(0) < 0
	if !g.over && !g.canMove(int(g.current)) {
		return nil, fmt.Errorf("player %d is to move but has no legal placement, and play never passes the turn to such a player", g.current)
	}
	return g, nil
}

// gameBoard returns the board read before, or else builds the board from
// its statements, or the built-in board equal to it.
func (st *parsedState) gameBoard() (*Board, error) {
	if st.board != nil {
		return st.board, nil
	}
	b, err := newBoard(st.height, st.islands, st.stones)
	if err != nil {
		return nil, err
	}
	if named := builtinEqual(b); named != nil {
		return named, nil
	}
	return b, nil
}

// layTokens puts the unclaimed tokens on their stone circles, one a circle,
// and counts them into supply.
func (st *parsedState) layTokens(g *Game, supply *[NumTokenKinds]int) error {
	b := g.board
	for i := range g.tokens {
		g.tokens[i] = noToken
	}
	for t := Coconut; t <= Statuette; t++ {
		for k, c := range st.tokens[t] {
			ci := b.circleOf[b.index(c)]
			if ci < 0 {
				return &SyntaxError{Offset: st.tokenAt[t][k], Msg: fmt.Sprintf("%v at %v is not on a stone circle", t, c)}
			}
			if g.tokens[ci] != noToken {
				return &SyntaxError{Offset: st.tokenAt[t][k], Msg: fmt.Sprintf("stone circle %v holds two tokens", c)}
			}
			g.tokens[ci] = t
			supply[t]++
		}
	}
	return nil
}

// seatPlayer checks a player's statement and gives the player its score,
// its tokens (counted into supply) and its pieces.
func (st *parsedState) seatPlayer(g *Game, pl parsedPlayer, supply *[NumTokenKinds]int) error {
	id := pl.id
	if st.phase == Exploration && pl.score != 0 {
		return &SyntaxError{Offset: pl.offset, Msg: fmt.Sprintf("player %d has score %d in the exploration phase, before any phase is scored", id, pl.score)}
	}
	g.totals[id] = pl.score
	for t, n := range pl.held {
		g.held[id][t] = uint8(n)
		supply[t] += n
		if Token(t).IsResource() {
			g.collected += uint8(n)
		}
	}
	if allowance := int(g.allowance); len(pl.settlers) > allowance {
		return &SyntaxError{Offset: pl.offset, Msg: fmt.Sprintf("player %d has %d settlers on the board; the allowance is %d", id, len(pl.settlers), allowance)}
	}
	if len(pl.villages) > VillagesPerPlayer {
		return &SyntaxError{Offset: pl.offset, Msg: fmt.Sprintf("player %d has %d villages on the board; there are only %d", id, len(pl.villages), VillagesPerPlayer)}
	}
	if err := st.placePieces(g, id, Settler, pl.settlers, pl.settlerAt); err != nil {
		return err
	}
	return st.placePieces(g, id, Village, pl.villages, pl.villageAt)
}

// placePieces puts player id's pieces of one kind on the spaces cs, read at
// the offsets at: one piece a space, villages on land and, in the
// settlement phase, off the stone circles, and no piece on a circle that
// still holds its token.
func (st *parsedState) placePieces(g *Game, id int, piece Piece, cs []Coord, at []int) error {
	b := g.board
	village := piece == Village
	for k, c := range cs {
		s := b.index(c)
		if g.occupied.has(s) {
			return &SyntaxError{Offset: at[k], Msg: fmt.Sprintf("space %v holds more than one piece", c)}
		}
		if village && b.islandOf[s] < 0 {
			return &SyntaxError{Offset: at[k], Msg: fmt.Sprintf("village at %v is on the sea", c)}
		}
		if village && st.phase == Settlement && b.circleOf[s] >= 0 {
			return &SyntaxError{Offset: at[k], Msg: fmt.Sprintf("village at %v stands on a stone circle in the settlement phase", c)}
		}
		if ci := b.circleOf[s]; ci >= 0 && g.tokens[ci] != noToken {
			return &SyntaxError{Offset: at[k], Msg: fmt.Sprintf("piece at %v stands on a stone circle that still holds a token", c)}
		}
		g.put(id, piece, s)
	}
	return nil
}

// checkSupply checks that a state with any tokens has all of them, on the
// board and held: a state with none at all is a bare board.
func checkSupply(supply [NumTokenKinds]int) error {
	total := 0
	for _, n := range supply {
		total += n
	}
	if total == 0 {
		return nil
	}
	for t, n := range supply {
		if n != Supply(Token(t)) {
			return fmt.Errorf("state has %d tokens of %v on the board and held; the game has %d", n, Token(t), Supply(Token(t)))
		}
	}
	return nil
}

// String returns the state in canonical notation.
func (g *Game) String() string {
	b, _ := g.AppendText(nil)
	return string(b)
}

// MarshalText writes the state in canonical notation.
func (g *Game) MarshalText() ([]byte, error) { return g.AppendText(nil) }

// AppendText appends the state in canonical notation to dst.
func (g *Game) AppendText(dst []byte) ([]byte, error) {
	b := g.board
	dst = append(dst, "a "...)
	dst = strconv.AppendInt(dst, int64(b.height), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(g.players), 10)
	dst = append(dst, "; c "...)
	dst = strconv.AppendInt(dst, int64(g.current), 10)
	dst = append(dst, ' ', g.phase.Letter(), ';')
	for _, isl := range b.islands {
		dst = append(dst, " i "...)
		dst = strconv.AppendInt(dst, int64(isl.Bonus), 10)
		for _, c := range isl.Spaces {
			dst = append(dst, ' ')
			dst = appendCoord(dst, c)
		}
		dst = append(dst, ';')
	}
	dst = append(dst, " s"...)
	for _, s := range b.circles {
		dst = append(dst, ' ')
		dst = appendCoord(dst, b.coords[s])
	}
	dst = append(dst, "; r"...)
	for t := Coconut; t <= Statuette; t++ {
		dst = append(dst, ' ', t.Letter())
		for i, s := range b.circles {
			if g.tokens[i] == t {
				dst = append(dst, ' ')
				dst = appendCoord(dst, b.coords[s])
			}
		}
	}
	dst = append(dst, ';')
	for p := range int(g.players) {
		dst = append(dst, " p "...)
		dst = strconv.AppendInt(dst, int64(p), 10)
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(g.totals[p]), 10)
		for _, n := range g.held[p] {
			dst = append(dst, ' ')
			dst = strconv.AppendInt(dst, int64(n), 10)
		}
		dst = append(dst, " S"...)
		dst = g.appendSpaces(dst, &g.settlers[p])
		dst = append(dst, " T"...)
		dst = g.appendSpaces(dst, &g.villages[p])
		dst = append(dst, ';')
	}
	return dst, nil
}

func (g *Game) appendSpaces(dst []byte, set *bitset) []byte {
	for s := set.next(0, g.board.words); s >= 0; s = set.next(s+1, g.board.words) {
		dst = append(dst, ' ')
		dst = appendCoord(dst, g.board.coords[s])
	}
	return dst
}

// equal reports whether two boards have the same rows, islands and circles.
func (b *Board) equal(o *Board) bool {
	if b.height != o.height || len(b.islands) != len(o.islands) || !slices.Equal(b.circles, o.circles) {
		return false
	}
	for i, isl := range b.islands {
		if isl.Bonus != o.islands[i].Bonus || !slices.Equal(isl.Spaces, o.islands[i].Spaces) {
			return false
		}
	}
	return true
}
