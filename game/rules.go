package game

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Rules describe one game and set it up. A game package exports one Rules
// value; the registry hosts them side by side.
type Rules struct {
	// ID names the game in records, the store and the API: "bluelagoon".
	// Lower-case letters and digits.
	ID string
	// Name is the game's name for people: "Blue Lagoon".
	Name string
	// MinPlayers and MaxPlayers bound the seats of a table.
	MinPlayers, MaxPlayers int
	// Options are what a table may choose before the game begins, in the
	// order a form shows them.
	Options []Option
	// Times are the time rules the game allows, the first the default.
	// Empty means only NoTime.
	Times []TimeKind
	// DefaultTime returns the time rule a table of that many players with
	// these options keeps unless it chooses another (Laguna with its sand
	// timer: 30 s a turn, what a turn leaves passing on); nil, or the zero
	// TimeRule, is no time. opts have been checked.
	DefaultTime func(players int, opts map[string]string) TimeRule
	// PrivateViews reports whether two seats may see different things
	// (hidden hands). When false every viewer's view is the same, and a
	// server encodes it once.
	PrivateViews bool
	// PublicNotation reports whether a state's notation (State.String)
	// holds nothing a seat may not see: no hidden hands, no bag's order,
	// no generator. A host shows the notation of a game in progress only
	// then, or once State.Secret is false; and it gives an outside program
	// playing a seat the notation of a copy resampled for that seat, which
	// holds a world the seat could believe in rather than the true one.
	PublicNotation bool
	// House returns the seats the rules play themselves in a game so set
	// up, each with the name a table shows for it (Druids' solo opponent:
	// option aj puts AJ in seat 2, "AJ (Legend)"); none when there are
	// none. ToMove never returns a house seat: the rules make its
	// decisions inside Play. A host fills these seats itself, offers them
	// to nobody and keeps no time for them. Setup.Options has been
	// checked. Nil when the game never has one.
	House func(s Setup) []HouseSeat
	// New sets a game up. Setup.Options has been checked against Options
	// (CheckOptions); New checks what only the game knows (a board's
	// notation, an option that depends on the number of players) and says
	// what is wrong.
	New func(s Setup) (State, error)
	// ParseState reads a state in the game's notation.
	ParseState func(text string) (State, error)
	// NewReader, if not nil, returns a reader of states that reads as
	// ParseState does but may keep what it built from one state for the
	// next (Blue Lagoon's boards, which a batch of states shares): for a
	// tool that reads many states in a row. A reader is for one goroutine.
	NewReader func() func(text string) (State, error)
}

// Setup is everything that decides a game before its first move.
type Setup struct {
	Players int
	// Options maps option keys to values; an option left out takes its
	// default.
	Options map[string]string
	// Seed drives the game's generator: the same setup gives the same game.
	Seed uint64
}

// A HouseSeat is a seat the rules play themselves (Rules.House).
type HouseSeat struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
}

// HouseSeats returns the seats the rules play themselves in a game so set
// up (Rules.House), none if the game has no house seats. s.Options must
// have been checked (CheckOptions).
func (r *Rules) HouseSeats(s Setup) []HouseSeat {
	if r.House == nil {
		return nil
	}
	return r.House(s)
}

// NewGame checks the setup against r and sets the game up. It is how every
// layer starts a game: the player count and the options are checked here,
// with errors that say what is wrong, before the game's own New.
func (r *Rules) NewGame(s Setup) (State, error) {
	if s.Players < r.MinPlayers || s.Players > r.MaxPlayers {
		return nil, fmt.Errorf("%s: %d players; a game has %d to %d", r.Name, s.Players, r.MinPlayers, r.MaxPlayers)
	}
	opts, err := r.CheckOptions(s.Options)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Name, err)
	}
	for _, o := range r.Options {
		if len(o.Players) > 0 && opts[o.Key] != o.Default && !slices.Contains(o.Players, s.Players) {
			return nil, fmt.Errorf("%s: option %s: only with %s", r.Name, o.Key, playerCounts(o.Players))
		}
	}
	s.Options = opts
	st, err := r.New(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Name, err)
	}
	return st, nil
}

// playerCounts writes player counts for people: "2 players", "1 or 3
// players".
func playerCounts(counts []int) string {
	if len(counts) == 1 && counts[0] == 1 {
		return "1 player"
	}
	return orList(counts) + " players"
}

// orList writes numbers for people: "2", "1 or 3", "1, 2 or 3".
func orList(ns []int) string {
	words := make([]string, len(ns))
	for i, n := range ns {
		words[i] = strconv.Itoa(n)
	}
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// TimeFor returns the time rule a table of that many players with these
// options keeps unless it chooses another (DefaultTime), checked; no time
// when the game has no default. opts must have been checked.
func (r *Rules) TimeFor(players int, opts map[string]string) (TimeRule, error) {
	if r.DefaultTime == nil {
		return TimeRule{Kind: NoTime}, nil
	}
	return r.CheckTime(r.DefaultTime(players, opts))
}

// An OptionKind is what values an option takes.
type OptionKind string

const (
	// Choice takes one of the option's Choices, or, if Custom, any text
	// the game accepts.
	Choice OptionKind = "choice"
	// Number takes a whole number from Min to Max.
	Number OptionKind = "number"
)

// An Option is a choice a table makes before the game begins.
type Option struct {
	Key     string     `json:"key"`
	Label   string     `json:"label"`
	Kind    OptionKind `json:"kind"`
	Default string     `json:"default"`
	// Choices are the values of a Choice option, in the order a form
	// shows them.
	Choices []OptionChoice `json:"choices,omitempty"`
	// Custom lets a Choice option take other values than its choices (a
	// board in the notation); the game checks them.
	Custom bool `json:"custom,omitempty"`
	// Min and Max bound a Number option.
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
	// Help says what the option does, in a sentence.
	Help string `json:"help,omitempty"`
	// Players are the player counts the option applies to (Druids' solo
	// opponent: 2; Laguna's puzzle: 1); at any other count it keeps its
	// default. Empty: every count.
	Players []int `json:"players,omitempty"`
}

// An OptionChoice is one value of a Choice option.
type OptionChoice struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// CheckOptions checks opts against the declared options and returns them
// with every option set: the defaults filled in. An unknown key, a value
// that is not a choice or a number out of range is an error naming the
// option and what it accepts.
func (r *Rules) CheckOptions(opts map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(r.Options))
	for key := range opts {
		if !slices.ContainsFunc(r.Options, func(o Option) bool { return o.Key == key }) {
			keys := make([]string, len(r.Options))
			for i, o := range r.Options {
				keys[i] = o.Key
			}
			if len(keys) == 0 {
				return nil, fmt.Errorf("option %q: the game has no options", key)
			}
			return nil, fmt.Errorf("option %q: unknown; the options are %s", key, strings.Join(keys, ", "))
		}
	}
	for _, o := range r.Options {
		v, ok := opts[o.Key]
		if !ok {
			v = o.Default
		}
		if err := o.check(v); err != nil {
			return nil, err
		}
		out[o.Key] = v
	}
	return out, nil
}

func (o *Option) check(v string) error {
	switch o.Kind {
	case Choice:
		if o.Custom || slices.ContainsFunc(o.Choices, func(c OptionChoice) bool { return c.Value == v }) {
			return nil
		}
		values := make([]string, len(o.Choices))
		for i, c := range o.Choices {
			values[i] = c.Value
		}
		return fmt.Errorf("option %s: %q is not one of %s", o.Key, v, strings.Join(values, ", "))
	case Number:
		n, err := strconv.Atoi(v)
		if err != nil || n < o.Min || n > o.Max {
			return fmt.Errorf("option %s: %q is not a whole number from %d to %d", o.Key, v, o.Min, o.Max)
		}
		return nil
	}
	return fmt.Errorf("option %s: unknown kind %q", o.Key, o.Kind)
}

// Registry holds the games a process hosts, by id.
type Registry struct {
	games []*Rules
}

// NewRegistry returns a registry of the given games, in the order given
// (the first is the default). Every game must have an id of lower-case
// letters and digits, a name, player counts, New and ParseState, and no
// two games may share an id.
func NewRegistry(games ...*Rules) (*Registry, error) {
	reg := &Registry{}
	for _, r := range games {
		if err := r.validate(); err != nil {
			return nil, err
		}
		if reg.Lookup(r.ID) != nil {
			return nil, fmt.Errorf("game registry: two games with id %q", r.ID)
		}
		reg.games = append(reg.games, r)
	}
	if len(reg.games) == 0 {
		return nil, errors.New("game registry: no games")
	}
	return reg, nil
}

func (r *Rules) validate() error {
	if r.ID == "" || strings.ContainsFunc(r.ID, func(c rune) bool { return !('a' <= c && c <= 'z' || '0' <= c && c <= '9') }) {
		return fmt.Errorf("game registry: id %q is not lower-case letters and digits", r.ID)
	}
	switch {
	case r.Name == "":
		return fmt.Errorf("game registry: game %s has no name", r.ID)
	case r.MinPlayers < 1 || r.MaxPlayers < r.MinPlayers:
		return fmt.Errorf("game registry: game %s: players %d to %d", r.ID, r.MinPlayers, r.MaxPlayers)
	case r.New == nil || r.ParseState == nil:
		return fmt.Errorf("game registry: game %s lacks New or ParseState", r.ID)
	}
	for _, o := range r.Options {
		if err := o.check(o.Default); err != nil {
			return fmt.Errorf("game registry: game %s: the default of %w", r.ID, err)
		}
		for _, n := range o.Players {
			if n < r.MinPlayers || n > r.MaxPlayers {
				return fmt.Errorf("game registry: game %s: option %s applies to %d players, who never sit at a table", r.ID, o.Key, n)
			}
		}
	}
	defaults, _ := r.CheckOptions(nil)
	for n := r.MinPlayers; n <= r.MaxPlayers; n++ {
		if _, err := r.TimeFor(n, defaults); err != nil {
			return fmt.Errorf("game registry: game %s: the default time of %d players: %w", r.ID, n, err)
		}
	}
	return nil
}

// Lookup returns the game with the given id, or nil.
func (reg *Registry) Lookup(id string) *Rules {
	for _, r := range reg.games {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Get returns the game with the given id, or an error that lists the games.
func (reg *Registry) Get(id string) (*Rules, error) {
	if r := reg.Lookup(id); r != nil {
		return r, nil
	}
	return nil, fmt.Errorf("unknown game %q; the games are %s", id, strings.Join(reg.IDs(), ", "))
}

// Default returns the first game registered.
func (reg *Registry) Default() *Rules { return reg.games[0] }

// All returns the games in the order registered.
func (reg *Registry) All() []*Rules { return slices.Clone(reg.games) }

// IDs returns the games' ids in the order registered.
func (reg *Registry) IDs() []string {
	ids := make([]string, len(reg.games))
	for i, r := range reg.games {
		ids[i] = r.ID
	}
	return ids
}
