#!/bin/bash
# bench.sh OLDTREE NEWTREE OUT: the engines' and the search's benchmarks of
# two checkouts, test binaries built once and run in turn (6 rounds of 1 s
# each), then benchstat: how a change shows it cost no speed
# (docs/performance.md). benchstat: go install golang.org/x/perf/cmd/benchstat@latest
OLD=$1; NEW=$2; OUT=$3; mkdir -p "$OUT/bin"
declare -A B=( [bluelagoon]='RandomGame|LegalMoves$|Clone' [druids]='RandomGame' [laguna]='RandomTurn' [ai/mcts]='Tiny' [bluelagoon/bots]='^BenchmarkMCTS$|Playout' [druids/bots]='MCTS' [laguna/bots]='Playout' )
for p in "${!B[@]}"; do n=${p//\//_}
  (cd "$OLD" && go test -c -o "$OUT/bin/old_$n.test" "./$p") && (cd "$NEW" && go test -c -o "$OUT/bin/new_$n.test" "./$p")
done
: > "$OUT/old.txt"; : > "$OUT/new.txt"
for i in 1 2 3 4 5 6; do
  for p in "${!B[@]}"; do n=${p//\//_}
    (cd "$OLD/$p" && "$OUT/bin/old_$n.test" -test.run '^$' -test.bench "${B[$p]}" -test.benchtime 1s | grep -E '^(Benchmark|goos|goarch|pkg|cpu)' >> "$OUT/old.txt")
    (cd "$NEW/$p" && "$OUT/bin/new_$n.test" -test.run '^$' -test.bench "${B[$p]}" -test.benchtime 1s | grep -E '^(Benchmark|goos|goarch|pkg|cpu)' >> "$OUT/new.txt")
  done
done
benchstat "$OUT/old.txt" "$OUT/new.txt" > "$OUT/benchstat.txt"
