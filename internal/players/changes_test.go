package players

import "testing"

// TestChanges: a mark reaches the watches of its key made before it, once
// however many marks came, and none of other keys; a watch stopped
// leaves no key behind.
func TestChanges(t *testing.T) {
	c := NewChanges()
	a, stopA := c.Watch(GameKey("g1"), PlayerKey("p1"))
	b, stopB := c.Watch(GameKey("g2"))
	pending := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	for _, tc := range []struct {
		marks  []string
		wantA  bool
		wantB  bool
		reason string
	}{
		{nil, false, false, "no mark"},
		{[]string{GameKey("g1")}, true, false, "a mark of a's game"},
		{[]string{PlayerKey("p1"), GameKey("g1"), PlayerKey("p1")}, true, false, "three marks of a's keys, read once"},
		{[]string{GameKey("g2"), GameKey("g3")}, false, true, "a mark of b's game and of nobody's"},
		{[]string{PlayerKey("p2")}, false, false, "another player"},
	} {
		for _, k := range tc.marks {
			c.Mark(k)
		}
		if got := pending(a); got != tc.wantA {
			t.Errorf("%s: a told %v, want %v", tc.reason, got, tc.wantA)
		}
		if got := pending(b); got != tc.wantB {
			t.Errorf("%s: b told %v, want %v", tc.reason, got, tc.wantB)
		}
	}
	stopA()
	stopA()
	c.Mark(GameKey("g1"))
	if pending(a) {
		t.Error("a stopped watch was told")
	}
	if n := c.Watched(); n != 1 {
		t.Errorf("%d keys watched with b alone, want 1", n)
	}
	stopB()
	if n := c.Watched(); n != 0 {
		t.Errorf("%d keys watched after every stop, want 0", n)
	}
}
