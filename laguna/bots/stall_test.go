package bots

import (
	"testing"

	"github.com/lagoon-games/lagoon/laguna"
)

// TestStalledPositionsEnd: positions of the arena's games on the hard board
// without the timer (lagoon arena -option board=hard -option timer=off,
// two players: -seed 41, and the last three from -seed 1, easy against easy,
// medium against medium and hard against easy)
// that ended by decision 22, each a few turns before the raft was held,
// played on by the same levels: each game now ends with a winner who
// delivered all. docs/laguna.md ("The planner") tells each cause.
func TestStalledPositionsEnd(t *testing.T) {
	const bound = 100 // rounds
	tests := []struct {
		name   string
		levels []string
		state  string
	}{
		{"a trade uncovers a reef under the raft that trades", []string{"easy", "medium"},
			"laguna 2 board=hard raft=4 deal=random timer=off open=off limit=0; play seat=Y turns=31 played=29 moved=182 steps=3 peeked=0 calm=6; R H s4 holes=G.Y..B home=A begun=1 reef=1; Y H t6 holes=YY.R.. home=C begun=1 reef=1; islands - RG - B YGB GB GB GB; volcano 4 2 0 0"},
		{"a trade uncovers a reef under both rafts", []string{"hard", "easy"},
			"laguna 2 board=hard raft=4 deal=random timer=off open=off limit=0; play seat=R turns=22 played=20 moved=135 steps=1 peeked=0 calm=1; R H s8 holes=.Y.G.Y home=A begun=1 reef=1; Y H r10 holes=BRR... home=H begun=1 reef=0; islands - GB G YGB RB GB GB -; volcano 3 3 0 0"},
		{"the volcano planned where delivering strands (max)", []string{"max", "medium"},
			"laguna 2 board=hard raft=4 deal=random timer=off open=off limit=0; play seat=R turns=12 played=10 moved=113 steps=27 peeked=0; R H o11 holes=.BYRR. home=G begun=1 reef=1; Y H v11 holes=YY.B.. home=A begun=1 reef=1; islands - GB RGB RYG GB G - GB; volcano 2 2 0 0"},
		{"the volcano planned where delivering strands (max, second seat)", []string{"medium", "max"},
			"laguna 2 board=hard raft=4 deal=random timer=off open=off limit=0; play seat=Y turns=21 played=19 moved=130 steps=12 peeked=0 calm=4; R H o8 holes=.G...B home=C begun=1 reef=0; Y H o11 holes=YGRY.. home=G begun=1 reef=1; islands B RB - GB YGB RG - RGB; volcano 2 3 0 0"},
		{"holes that keep the raft from its last pearl's island, until it loads another", []string{"easy", "easy"},
			"laguna 2 board=hard raft=4 deal=random timer=off open=off limit=0; play seat=R turns=30 played=28 moved=188 steps=4 peeked=0 trading=Y; R H r12 holes=RRG... home=A begun=1 reef=1; Y H r10 holes=..BG.Y home=H begun=1 reef=0; islands - YGB B GB RG GB B -; volcano 3 4 0 0"},
		{"three pearls aboard, two of its colour, and it needs two: it loads a third to deliver both", []string{"medium", "medium"},
			"laguna 2 board=hard raft=4 deal=random timer=off open=off limit=0; play seat=Y turns=29 played=27 moved=132 steps=0 peeked=0; R H o8 holes=...B.G home=C begun=1 reef=0; Y H r8 holes=YY..R. home=G begun=1 reef=1; islands GB RB - G RGB GB - RGB; volcano 2 4 0 0"},
		{"a trade the reefs leave out where the route meets the other raft", []string{"hard", "easy"},
			"laguna 2 board=hard raft=4 deal=random timer=off open=off limit=0; play seat=Y turns=27 played=25 moved=202 steps=0 peeked=0 exchanging=B; R H r3 holes=..GB.G home=A begun=1 reef=0; Y H t1 holes=RY.GY. home=G begun=1 reef=0; islands - B B YG RYB GB - GB; volcano 4 2 0 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := laguna.ParseState(tt.state)
			if err != nil {
				t.Fatal(err)
			}
			seats := make([]mover, len(tt.levels))
			for s, l := range tt.levels {
				seats[s] = planner(t, l, uint64(s+1))
			}
			start := st.Turn()
			switch end := playOn(t, st, seats, bound); end {
			case "":
				t.Fatalf("no end after %d rounds: %s", bound, st)
			case "delivered":
			default:
				t.Errorf("ended %s (decision 22: no pearl moved for 20 rounds), not by a winner who delivered all: %+v after %d turns: %s", end, st.Standing(), st.Turn()-start, st)
			}
		})
	}
}
