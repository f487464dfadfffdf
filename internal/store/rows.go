package store

import (
	"encoding/json"
	"fmt"
)

// This file holds what every store does the same way with a game's rows:
// their values, the checksums over them (checksum.go) and how they read
// back, so that a game copied from one store to another verifies there.
// A store's database keeps each value as a 64-bit integer, a text, a blob
// or NULL, and returns it as an int64, a string, a []byte or nil.

// GameRow returns the values of g's row, as a store writes them and its
// database returns them (see checksum.go), in the order of GameColumns,
// its checksum last.
func GameRow(g *Game) ([]any, error) {
	options := []byte("{}")
	if g.Options != nil {
		var err error
		if options, err = json.Marshal(g.Options); err != nil {
			return nil, err
		}
	}
	seats, err := json.Marshal(g.Seats)
	if err != nil {
		return nil, err
	}
	summary, err := json.Marshal(g.Summary)
	if err != nil {
		return nil, err
	}
	timeRule, err := jsonText(g.Time)
	if err != nil {
		return nil, err
	}
	clocks, err := jsonText(g.Clocks)
	if err != nil {
		return nil, err
	}
	reseeds, err := jsonText(g.Reseeds)
	if err != nil {
		return nil, err
	}
	values := []any{g.ID, millis(g.Created), millis(g.Updated), g.Game, string(options), int64(g.Players), int64(g.Seed),
		boolInt(g.SeedChosen), timeRule, string(seats), clocks, int64(g.Version), boolInt(g.Over), string(summary),
		boolInt(g.TakeBacksOff), int64(g.TakeBacks), boolInt(g.Expired), reseeds}
	return append(values, sum(values...)), nil
}

// moveSum is the hash of a move (see checksum.go): of the hash of the move
// before it, nil for the first, and of its row.
func moveSum(prev []byte, id string, version, seat int64, move string, at int64, clocks any, byTime int64) []byte {
	return sum(prev, id, version, seat, move, at, clocks, byTime)
}

// MoveRow returns the values of move version of game id, m, in the order
// game, version, seat, move, at, clocks, by_time, hash: its hash chains on
// prev, the hash of the move before it (nil for the first).
func MoveRow(prev []byte, id string, version int, m Move) ([]any, error) {
	clocks, err := jsonText(m.Clocks)
	if err != nil {
		return nil, err
	}
	at, byTime := millis(m.At), boolInt(m.ByTime)
	hash := moveSum(prev, id, int64(version), int64(m.Seat), m.Move, at, clocks, byTime)
	return []any{id, int64(version), int64(m.Seat), m.Move, at, clocks, byTime, hash}, nil
}

// ImportRows returns the rows that store g as Import stores it: its row,
// counting every move of g, and its moves' rows (MoveRow).
func ImportRows(g *Game) (row []any, moves [][]any, _ error) {
	c := *g
	c.Version = len(g.Moves)
	row, err := GameRow(&c)
	if err != nil {
		return nil, nil, err
	}
	var prev []byte
	for i, m := range g.Moves {
		mr, err := MoveRow(prev, g.ID, i+1, m)
		if err != nil {
			return nil, nil, err
		}
		moves, prev = append(moves, mr), mr[len(mr)-1].([]byte)
	}
	return row, moves, nil
}

// ScanGames reads the games of rows, their GameColumns, and apart the games
// whose rows do not decode or do not match their checksums.
func ScanGames(rows Rows) (games []*Game, damaged []Damaged, _ error) {
	for rows.Next() {
		g, err := ScanGame(rows)
		switch {
		case err != nil && g != nil:
			damaged = append(damaged, Damaged{g.ID, err})
		case err != nil:
			return nil, nil, err
		default:
			games = append(games, g)
		}
	}
	return games, damaged, rows.Err()
}

// ReadMoves reads the moves of g from rows, their MoveColumns in order of
// version, checking their hashes and that each but the last is followed;
// and with them what a move changes without writing the game's row: the
// version, and the clocks and the time of the last change if a move came
// after the row was written (the row's version says how many moves there
// were then, so there are never fewer).
func ReadMoves(g *Game, rows Rows) error {
	var moves []Move
	var prev []byte
	followed := false
	for rows.Next() {
		v := len(moves) + 1
		if v > 1 && !followed {
			return fmt.Errorf("game %s: move %d says none follows it, and move %d does: %w", g.ID, v-1, v, ErrDamaged)
		}
		m, next, hash, err := scanMove(rows, g.ID, v, prev)
		if err != nil {
			return fmt.Errorf("game %s: %w", g.ID, err)
		}
		moves, prev, followed = append(moves, m), hash, next
	}
	if err := rows.Err(); err != nil {
		return err
	}
	n := len(moves)
	if followed {
		return fmt.Errorf("game %s: move %d says another follows it, and none does: %w", g.ID, n, ErrDamaged)
	}
	if n < g.Version {
		return fmt.Errorf("game %s: its row counts %d moves, and %d are stored: %w", g.ID, g.Version, n, ErrDamaged)
	}
	if n > g.Version {
		g.Updated, g.Clocks = moves[n-1].At, moves[n-1].Clocks
	}
	g.Moves, g.Version = moves, n
	return nil
}

// scanMove reads the row of move version of game id, with whether another
// follows it, and checks it against its hash, which chains on prev, the
// hash of the move before; it returns the hash.
func scanMove(row Scanner, id string, version int, prev []byte) (m Move, followed bool, hash []byte, _ error) {
	var cols [8]any
	if err := row.Scan(&cols[0], &cols[1], &cols[2], &cols[3], &cols[4], &cols[5], &cols[6], &cols[7]); err != nil {
		return m, false, nil, err
	}
	d := columns{values: cols[:]}
	if v := d.integer(0, "version"); d.err == nil && v != int64(version) {
		return m, false, nil, fmt.Errorf("move %d follows move %d: %w", v, version-1, ErrDamaged)
	}
	seat, move, at := d.integer(1, "seat"), d.text(2, "move"), d.integer(3, "at")
	if cols[4] != nil {
		d.json(4, "clocks", &m.Clocks)
	}
	byTime := d.flag(5, "by_time")
	followed = d.flag(7, "followed")
	if d.err != nil {
		return m, false, nil, fmt.Errorf("move %d: %w", version, d.err)
	}
	hash = moveSum(prev, id, int64(version), seat, move, at, cols[4], boolInt(byTime))
	if err := checkSum(cols[6], hash, fmt.Sprint("move ", version)); err != nil {
		return m, false, nil, err
	}
	m.Seat, m.Move, m.At, m.ByTime = int(seat), move, fromMillis(at), byTime
	return m, followed, hash, nil
}

// Scanner is a row to read: a *sql.Row or *sql.Rows, a pgx.Row or pgx.Rows.
type Scanner interface{ Scan(dest ...any) error }

// Rows is the rows of a query: *sql.Rows or pgx.Rows.
type Rows interface {
	Scanner
	Next() bool
	Err() error
}

// ScanGame reads a game's row, its GameColumns, and checks it against its
// checksum. Each column is read as the value the database holds and decoded here, so that a
// damaged column (a value of the wrong type, JSON that does not decode, a
// flipped bit) is an error of this game only: it returns the game, with
// its id, and the error.
func ScanGame(row Scanner) (*Game, error) {
	var cols [19]any
	dest := make([]any, len(cols))
	for i := range cols {
		dest[i] = &cols[i]
	}
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	var g Game
	d := columns{values: cols[:]}
	g.ID = d.text(0, "id")
	if d.err != nil {
		g.ID = fmt.Sprint(cols[0])
		return &g, fmt.Errorf("game %s: %w", g.ID, d.err)
	}
	g.Created, g.Updated = fromMillis(d.integer(1, "created")), fromMillis(d.integer(2, "updated"))
	g.Game = d.text(3, "game")
	d.json(4, "options", &g.Options)
	g.Players = int(d.integer(5, "players"))
	g.Seed = uint64(d.integer(6, "seed"))
	g.SeedChosen = d.flag(7, "seed_chosen")
	if cols[8] != nil {
		g.Time = new(Time)
		d.json(8, "time rule", g.Time)
	}
	d.json(9, "seats", &g.Seats)
	if cols[10] != nil {
		d.json(10, "clocks", &g.Clocks)
	}
	g.Version = int(d.integer(11, "version"))
	g.Over = d.flag(12, "over")
	d.json(13, "summary", &g.Summary)
	g.TakeBacksOff = d.flag(14, "take_backs_off")
	g.TakeBacks = int(d.integer(15, "take_backs"))
	g.Expired = d.flag(16, "expired")
	if cols[17] != nil {
		d.json(17, "reseeds", &g.Reseeds)
	}
	if d.err == nil {
		d.err = checkSum(cols[18], sum(cols[:18]...), "its row")
	}
	if d.err != nil {
		return &g, fmt.Errorf("game %s: %w", g.ID, d.err)
	}
	return &g, nil
}

// columns decodes the values of a row, keeping the first error.
type columns struct {
	values []any
	err    error
}

func (c *columns) fail(name string, v any, want string) {
	if c.err == nil {
		c.err = fmt.Errorf("%s: %v (%T) is not %s", name, v, v, want)
	}
}

func (c *columns) text(i int, name string) string {
	switch v := c.values[i].(type) {
	case string:
		return v
	case []byte:
		return string(v)
	default:
		c.fail(name, v, "text")
		return ""
	}
}

func (c *columns) integer(i int, name string) int64 {
	v, ok := c.values[i].(int64)
	if !ok {
		c.fail(name, c.values[i], "an integer")
	}
	return v
}

func (c *columns) flag(i int, name string) bool {
	v, ok := c.values[i].(int64)
	if !ok || v != 0 && v != 1 {
		c.fail(name, c.values[i], "0 or 1")
	}
	return v == 1
}

func (c *columns) json(i int, name string, into any) {
	text := c.text(i, name)
	if c.err != nil {
		return
	}
	if err := json.Unmarshal([]byte(text), into); err != nil {
		c.err = fmt.Errorf("%s: %w", name, err)
	}
}
