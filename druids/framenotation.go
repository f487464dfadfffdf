package druids

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// A frame is written in the state's stack section as its registers,
// colon-separated:
//
//	prog:pc:sub:seat:count:seed:t:t2:invTile:mask:inv:d
//
// The count column holds the one of the four counting registers (side,
// summoned, given, left) that the frame's program counts with: a program
// counts with one at a time (Song of Seeds hands the seeds given up to
// the refresh that follows), and an explore program keeps the side it
// chose to its end. A program that counts nothing writes 0.

// A counter is one of the counting registers.
type counter uint8

const (
	countNothing counter = iota
	countSide
	countSummoned
	countGiven
	countLeft
)

// maxCount is the largest value each counter takes.
var maxCount = [...]int{countNothing: 0, countSide: 1, countSummoned: int(summonTaken), countGiven: 2, countLeft: 2}

// counter returns the register the frame's count column holds.
func (f *frame) counter() counter {
	prog := programs[f.prog]
	for _, o := range prog {
		if o.code == oExplore {
			return countSide
		}
	}
	if int(f.pc) < len(prog) {
		switch prog[f.pc].code {
		case oSummon:
			return countSummoned
		case oSongSeeds:
			return countGiven
		case oRefresh:
			return countLeft
		}
	}
	return countNothing
}

// count returns the value of the count column.
func (f *frame) count() int {
	switch f.counter() {
	case countSide:
		return int(f.side)
	case countSummoned:
		return int(f.summoned)
	case countGiven:
		return int(f.given)
	case countLeft:
		return int(f.left)
	}
	return 0
}

// setCount sets the register of the count column to n, and reports
// whether n is a value it takes.
func (f *frame) setCount(n int) bool {
	c := f.counter()
	if n < 0 || n > maxCount[c] {
		return false
	}
	switch c {
	case countSide:
		f.side = uint8(n)
	case countSummoned:
		f.summoned = summonWhat(n)
	case countGiven:
		f.given = int8(n)
	case countLeft:
		f.left = int8(n)
	}
	return true
}

// text writes the frame.
func (f *frame) text() string {
	return fmt.Sprintf("%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d:%d", f.prog, f.pc, f.sub, f.seat, f.count(), f.seed, f.t, f.t2, f.invTile, f.mask, f.inv, f.d)
}

// frame reads a frame of the stack.
func (r *sections) frame(s *State, text string) {
	f := strings.Split(text, ":")
	if len(f) != 12 {
		r.fail("stack: %q", text)
		return
	}
	var v [12]int
	for i, x := range f {
		n, err := strconv.Atoi(x)
		if err != nil {
			r.fail("stack: %q", text)
			return
		}
		v[i] = n
	}
	okDruid := func(d int) bool {
		return d == int(noDruid) || d >= 0 && d < MaxPlayers<<7 && druid(d).seat() < s.circles() && druid(d).tile() < NumTiles
	}
	okTile := func(t int) bool { return t >= -1 && t < NumTiles }
	prog := v[0]
	if prog < 0 || prog >= numProgs || len(programs[prog]) == 0 || v[1] < 0 || v[1] > len(programs[prog]) || v[2] < 0 || v[2] > 5 ||
		v[3] < 0 || v[3] >= int(s.players) || v[5] < -1 || v[5] > 2 ||
		!okTile(v[6]) || !okTile(v[7]) || !okTile(v[8]) || v[9] < 0 || v[9] > 15 || !okDruid(v[10]) || !okDruid(v[11]) {
		r.fail("stack: %q", text)
		return
	}
	fr := frame{prog: uint8(prog), pc: uint8(v[1]), sub: uint8(v[2]), seat: int8(v[3]), seed: int8(v[5]),
		t: int8(v[6]), t2: int8(v[7]), invTile: int8(v[8]), mask: uint8(v[9]), inv: druid(v[10]), d: druid(v[11])}
	if !fr.setCount(v[4]) {
		r.fail("stack: %q: count %d", text, v[4])
		return
	}
	s.stack[s.depth] = fr
}

// checkStack checks what the stack's registers must allow: the top action
// is at a step, and the seat to decide has a choice. The registers are the
// engine's own; a text that was not written by String may hold any
// numbers, so the check plays safe and refuses what the engine would not
// resolve.
func (s *State) checkStack() (err error) {
	if s.depth > 0 {
		f := &s.stack[s.depth-1]
		if int(f.pc) >= len(programs[f.prog]) {
			return errors.New("the action being resolved is at no step")
		}
	}
	for i := range int(s.depth) {
		f := &s.stack[i]
		if int(f.pc) >= len(programs[f.prog]) {
			continue // done, waiting for what it set off
		}
		if s.aj != ajOff && int(f.seat) == ajSeat {
			return errors.New("AJ resolves no action")
		}
		for _, t := range [2]int8{f.t, f.t2} {
			if t >= 0 && s.loc[t] != locPlay && s.loc[t] != locHand && s.loc[t] < locScore {
				return fmt.Errorf("an action being resolved names tile %d, which is in no place it could be", t+1)
			}
		}
		if f.invTile >= 0 && s.loc[f.invTile] != locPlay {
			return errors.New("an action being resolved names an invoker's site out of the world")
		}
		if err := s.checkStage(f, programs[f.prog][f.pc]); err != nil {
			return err
		}
	}
	defer func() {
		if recover() != nil {
			err = errors.New("the actions being resolved are not consistent")
		}
	}()
	if !s.Over() && len(s.AppendLegal(nil)) == 0 {
		return errors.New("the seat to decide has no choice")
	}
	// The engine writes a state only where a seat must decide: whatever
	// runs by itself has run (a step with nothing to decide is over).
	settled := *s
	settled.advance()
	if !settled.Equal(s) {
		return errors.New("the state is not one where a seat must decide")
	}
	// The actions being resolved must be able to finish: a few random ends
	// of them, on copies, must each leave a choice at every step and keep
	// the druids as the engine keeps them (registers the engine would not
	// have set can make a step act on druids that are not where it thinks).
	rng := rand.New(rand.NewPCG(1, 2))
	first := s.AppendLegal(nil)
	for i := range max(len(first), 4) {
		c := *s
		if s.depth > 0 {
			c.apply(first[i%len(first)])
		}
		for step := 0; c.depth > 0 && step < 400; step++ {
			if err := c.consistent(); err != nil {
				return fmt.Errorf("the actions being resolved break the state: %w", err)
			}
			legal := c.AppendLegal(nil)
			if len(legal) == 0 {
				return errors.New("the actions being resolved cannot finish")
			}
			c.apply(legal[rng.IntN(len(legal))])
		}
		if c.depth > 0 {
			return errors.New("the actions being resolved do not finish")
		}
		if err := c.consistent(); err != nil {
			return fmt.Errorf("the actions being resolved break the state: %w", err)
		}
	}
	return nil
}

// checkStage checks that a frame's registers hold what the stage of its
// step uses.
func (s *State) checkStage(f *frame, o op) error {
	if f.sub > 0 && !s.stageFits(f, o) {
		return errors.New("an action being resolved is at a stage its registers do not fit")
	}
	return nil
}
