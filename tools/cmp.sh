#!/bin/bash
# cmp.sh A B: compares two directories of records.sh, timings aside.
for f in "$1"/*.json; do
  n=$(basename "$f")
  if diff <(grep -v '"seconds"' "$f") <(grep -v '"seconds"' "$2/$n") > /dev/null; then echo "$n same"; else echo "$n DIFFERS"; fi
done
