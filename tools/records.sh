#!/bin/bash
# records.sh BIN OUT: deterministic arena runs of every game (iteration
# budgets, one game at a time), their JSON reports in OUT. Two builds play
# the same games move for move when `cmp.sh OUT1 OUT2` finds every file the
# same: how a refactor shows it changed no game.
BIN=$1; OUT=$2; mkdir -p "$OUT"
run() { name=$1; shift; "$BIN" arena -json -q -parallel 1 -seed 3 "$@" > "$OUT/$name.json" 2> "$OUT/$name.err"; }
run bl1 -games 4 mcts:200 greedy
run bl2 -games 4 heuristic random
run bl3 -games 2 -players 3 easy medium mcts:100
run bl4 -games 2 -board wheels mcts:150,rave=1 heuristic
run dr1 -game druids -games 2 mcts:200 heuristic
run dr2 -game druids -games 2 -option aj=adept mcts:200
run dr3 -game druids -games 2 aj-legend easy
run dr4 -game druids -games 1 -players 4 random heuristic mcts:50 aj-initiate
run la1 -game laguna -games 4 hard medium
run la2 -game laguna -games 2 mcts:200 easy
run la3 -game laguna -games 2 -option timer=off max random
