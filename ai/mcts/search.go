package mcts

import (
	"context"
	"sync"

	"github.com/lagoon-games/lagoon/game"
)

// The steps of a search (Searcher.Search): take the kept trees, grow them in
// parallel within the budget, and choose the move their roots visited most.

// takeTrees returns a tree for each worker of a search from pos, and the
// number of the search: the worker's tree kept from the last search,
// rerooted at pos when it leads there or started afresh in its own memory
// when not, and a new tree where none was kept. The kept trees are the
// search's until it gives them back (keepTrees).
func (s *Searcher) takeTrees(pos game.State) (trees []*tree, call uint64) {
	s.mu.Lock()
	kept := s.trees
	s.trees = nil
	call = s.calls
	s.calls++
	s.mu.Unlock()

	trees = make([]*tree, s.cfg.Workers)
	for w := range trees {
		switch {
		case w >= len(kept) || kept[w] == nil:
			trees[w] = newTree(pos, s.cfg)
		case kept[w].reroot(pos):
			trees[w] = kept[w]
		default:
			kept[w].restart(pos)
			trees[w] = kept[w]
		}
	}
	return trees, call
}

// keepTrees keeps the trees of a search for the next.
func (s *Searcher) keepTrees(trees []*tree) {
	s.mu.Lock()
	s.trees = trees
	s.mu.Unlock()
}

// rootVisits returns the visits of the trees' roots: the simulations kept
// from earlier searches, before this one runs.
func rootVisits(trees []*tree) int {
	n := 0
	for _, t := range trees {
		n += int(t.nodes[t.root].visits)
	}
	return n
}

// grow runs the simulations of search number call within budget b, a
// worker a tree, each from its own random stream, until the simulations
// are shared out or the time is up or ctx is done; it returns the
// simulations run.
func (s *Searcher) grow(ctx context.Context, trees []*tree, b Budget, call uint64) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if b.Time > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, b.Time)
		defer stop()
	}
	workers := len(trees)
	sims := make([]int, workers)
	var wg sync.WaitGroup
	for w, t := range trees {
		n := -1
		if b.Simulations > 0 {
			n = b.Simulations / workers
			if w < b.Simulations%workers {
				n++
			}
		}
		t.src.Seed(s.cfg.Seed, call<<8|uint64(w))
		wg.Go(func() { sims[w] = t.run(ctx, n) })
	}
	wg.Wait()

	total := 0
	for _, n := range sims {
		total += n
	}
	return total
}

// mostVisited returns the move among moves that the trees' roots visited
// most, all trees together, and its mean reward for seat p (0 if never
// visited). The moves are taken in the order of the legal moves, so that
// ties break the same way every time.
func mostVisited(trees []*tree, moves []game.Move, p int) (best game.Move, value float64) {
	visits := make(map[game.Move]int, len(moves))
	sum := make(map[game.Move]float64, len(moves))
	for _, t := range trees {
		for c := t.nodes[t.root].child; c >= 0; c = t.nodes[c].next {
			n := &t.nodes[c]
			visits[n.move] += int(n.visits)
			sum[n.move] += float64(n.sum[p])
		}
	}
	best = moves[0]
	for _, m := range moves {
		if visits[m] > visits[best] {
			best = m
		}
	}
	if n := visits[best]; n > 0 {
		value = sum[best] / float64(n)
	}
	return best, value
}
