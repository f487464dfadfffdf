#!/bin/bash
# botwait.sh LAGOON PORT [ROUNDS] [SERVE FLAGS...]: how long a person waits
# for their turn in a four-player game of Land of Druids against three easy
# bots (issue 47). It serves LAGOON on 127.0.0.1:PORT with a fresh data
# directory, seats Ann with the bots (the bots first), and each round ends
# Ann's turn at once and prints the time until she is to move again.
# Needs curl and jq. E.g. tools/botwait.sh ./lagoon 18476 4 -bot-delay 0
set -euo pipefail
BIN=$1 PORT=$2 ROUNDS=${3:-4}; shift $(( $# < 3 ? $# : 3 ))
DIR=$(mktemp -d)
"$BIN" serve -addr "127.0.0.1:$PORT" -data "$DIR" "$@" >"$DIR/log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; rm -rf "$DIR"' EXIT
U=http://127.0.0.1:$PORT/api
for _ in $(seq 100); do curl -sf "$U/health" >/dev/null && break; sleep 0.1; done
kill -0 $PID || { echo "the server did not start: $(cat "$DIR/log")" >&2; exit 1; }
C=$(curl -sf -X POST "$U/games" -H 'Content-Type: application/json' -d '{"game":"druids","seed":5,"options":{"first":"1"},"seats":[{"kind":"human","name":"Ann"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]}')
ID=$(jq -r .id <<<"$C"); TOK=$(jq -r '.seats[0].token' <<<"$C")
game() { curl -sf "$U/games/$ID" -H "Authorization: Bearer $TOK"; }
curl -sf -X POST "$U/games/$ID/join" -H "Authorization: Bearer $TOK" -H 'Content-Type: application/json' -d '{}' >/dev/null
start=$(date +%s%N)
for r in $(seq "$ROUNDS"); do
  until [ "$(game | jq -r .state.to_move)" = 0 ]; do sleep 0.02; done
  echo "round $r: Ann waited $(( ($(date +%s%N) - start) / 1000000 )) ms"
  # Ann ends her turn: "end" at the menu, else her first choice.
  while G=$(game) && [ "$(jq -r .state.to_move <<<"$G")" = 0 ]; do
    M=$(jq -r 'if (.state.view.legal | index("end")) then "end" else .state.view.legal[0] end' <<<"$G")
    curl -s -X POST "$U/games/$ID/moves" -H "Authorization: Bearer $TOK" -H 'Content-Type: application/json' \
      -d "{\"version\":$(jq .state.version <<<"$G"),\"move\":\"$M\"}" >/dev/null
  done
  start=$(date +%s%N)
done
