package laguna

import (
	_ "embed"
	"fmt"
	"strings"
)

// The original boards, drawn by Generate and kept as data (boards/*.txt,
// whose first lines say the seed and density that draw them; a test draws
// them again and compares). They are Lagoon's own: the printed board is
// not public.
var (
	//go:embed boards/easy.txt
	easyText string
	//go:embed boards/hard.txt
	hardText string
)

// The seeds that draw the original boards with EasyDensity and HardDensity.
const (
	EasySeed = 1
	HardSeed = 3
)

// builtin are the original boards, by name, in the order a form shows them.
var builtin = []*Board{
	mustBoard("easy", easyText),
	mustBoard("hard", hardText),
}

func mustBoard(name, text string) *Board {
	b, err := ParseBoard(text)
	if err != nil {
		panic(fmt.Sprintf("laguna: original board %s: %v", name, err))
	}
	b.name = name
	return b
}

// BoardNames returns the original boards' names: "easy", "hard".
func BoardNames() []string {
	out := make([]string, len(builtin))
	for i, b := range builtin {
		out[i] = b.name
	}
	return out
}

// BoardByName returns an original board, or nil.
func BoardByName(name string) *Board {
	for _, b := range builtin {
		if b.name == name {
			return b
		}
	}
	return nil
}

// BoardFromText returns the original board of that name, or reads a board
// in the notation (a file's text or one line with rows joined by "/"),
// checked. A board read that equals an original board is that board.
func BoardFromText(text string) (*Board, error) {
	if b := BoardByName(text); b != nil {
		return b, nil
	}
	if !strings.ContainsAny(text, "/\n") {
		return nil, fmt.Errorf("board %q: not one of %s, nor a board in the notation", text, strings.Join(BoardNames(), ", "))
	}
	b, err := ParseBoard(text)
	if err != nil {
		return nil, err
	}
	for _, o := range builtin {
		if o.kind == b.kind && o.landing == b.landing && o.place == b.place {
			return o, nil
		}
	}
	return b, nil
}
