#!/usr/bin/env bash
# Re-solves the first N lines of a labelled set with the reference search (the
# tutorial's part-7 solver, which shares no pruning with the tuned search that
# labelled the set), in weak mode, one position at a time, and appends one line per
# position to RESULTS: `moves weak-score nodes microseconds label=LABEL
# wall=SECONDS`. Positions already in RESULTS are skipped, so a stopped run loses
# only the position it was on: run it again to go on.
#
#   scripts/reference-check.sh SET N RESULTS [ORDER]
#
# ORDER `stones` (the default) solves the positions with the most stones first (the
# quickest); `file` keeps the set's order. The table is 8 GB (TABLE_MB to change
# it); the binary is target/release/c4solver (C4SOLVER to change it). At the end it
# prints how many signs agree, disagree and are still missing.
set -euo pipefail
set_file=$1; n=$2; results=$3; order=${4:-stones}
bin=${C4SOLVER:-target/release/c4solver}
touch "$results"
queue=$(head -n "$n" "$set_file")
if [ "$order" = stones ]; then
  queue=$(echo "$queue" | awk '{print length($1), $0}' | sort -rn -s -k1,1 | cut -d' ' -f2-)
fi
sign() { if [ "$1" -gt 0 ]; then echo 1; elif [ "$1" -lt 0 ]; then echo -1; else echo 0; fi; }
while read -r moves label; do
  if awk -v m="$moves" '$1 == m {found = 1} END {exit !found}' "$results"; then continue; fi
  start=$(date +%s)
  out=$(printf '%s\n' "$moves" | "$bin" --solver reference -w --no-book --threads 1 --table-mb "${TABLE_MB:-8192}")
  echo "$out label=$label wall=$(( $(date +%s) - start ))s" >> "$results"
done <<< "$queue"
agree=0; disagree=0; missing=0
while read -r moves label; do
  line=$(awk -v m="$moves" '$1 == m' "$results")
  if [ -z "$line" ]; then missing=$((missing + 1)); continue; fi
  got=$(echo "$line" | awk '{print $2}')
  if [ "$got" = "$(sign "$label")" ]; then agree=$((agree + 1)); else disagree=$((disagree + 1)); echo "disagree: $line" >&2; fi
done <<< "$(head -n "$n" "$set_file")"
echo "$agree agree, $disagree disagree, $missing missing (of the first $n of $set_file)"
[ "$disagree" -eq 0 ]
