#!/usr/bin/env bash
# The race, as docs/benchmark.md reports it: builds pbci_bench in Release, runs
# every decoder on every input in rounds (each round runs each input's
# decoders back to back, in random order), the rounds spread over five links
# of the code that place it differently (bench/placements.sh), and writes
#   bench/results/report.md   the tables (medians and paired ratios),
#                             machine and versions
#   bench/results/chart.svg   the bar chart
#   bench/results/raw.json    every sample: one rate per benchmark per round
# then writes the report into docs/benchmark.md and its speed-ups into
# README.md, each between its bench-report markers.
#
#   bench/run.sh [pbci_bench flags]      e.g. --datasets=DIR
#   ROUNDS=200 bench/run.sh              (default 100 rounds x 0.01 s: short
#                                         slices, see bench/README.md)
#   PLACEMENTS="0 32" bench/run.sh       (pads of code, bytes, one run each,
#                                         with placements.sh's data pads in
#                                         turn, ROUNDS shared out; by default
#                                         placements.sh's five; "0" for one
#                                         run of one link)
#   BUILD_DIR=dir bench/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/cmake/install-deps.sh"

build=${BUILD_DIR:-$root/build/bench}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DPROTOBUF_C_ITER_BUILD_TESTS=OFF -DPROTOBUF_C_ITER_BUILD_EXAMPLES=OFF \
  -DPROTOBUF_C_ITER_BUILD_BENCH=ON
cmake --build "$build" -j "$(nproc)" --target pbci_bench

results=$root/bench/results
mkdir -p "$results"
# The rounds spread over several links of the same code, each with other
# pads of code ahead of all else and of read-only data after it
# (bench/placements.sh), then reported together: where the code lands moves
# a build's rates by up to 15%, where its tables land by a few percent
# (bench/README.md), so no ratio rests on one link.
runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
# One binary per pad, as placements.sh names them (its pads unless
# PLACEMENTS is set).
linked=$(PADS="${PLACEMENTS:-}" "$root/bench/placements.sh" link "$build" "$runs")
mapfile -t links <<< "$linked"
rounds=${ROUNDS:-100}
per_link=$(( (rounds + ${#links[@]} - 1) / ${#links[@]} ))
raw=()
for link in "${links[@]}"; do
  pad=${link##*.}
  echo "== placement $pad: $per_link rounds"
  "$link" \
    --rounds="$per_link" \
    --benchmark_min_time="${MIN_TIME:-0.01}" \
    --report_dir="$runs/report$pad" "$@"
  raw+=("$runs/report$pad/raw.json")
done
"$build/bench/pbci_bench" \
  --samples_from="$(IFS=,; echo "${raw[*]}")" \
  --benchmark_min_time="${MIN_TIME:-0.01}" \
  --report_dir="$results" "$@"

# Code size: each bench schema's generated decoders (.pb-iter.o) against
# protoc-c's own .pb-c.o for the same file, as built above: the objects of
# the schema libraries pbci_bench links (not every object under the build
# directory, which may hold ones an earlier layout left).
objects=$runs/objects
mkdir "$objects"
link_dir=$build/bench
i=0
for lib in $(tr ' ' '\n' < "$link_dir/CMakeFiles/pbci_bench.dir/link.txt" |
             grep -E '(^|/)lib(bench|dataset)-protos\.a$'); do
  [[ $lib == /* ]] || lib=$link_dir/$lib
  i=$((i + 1))
  mkdir "$objects/$i" # in link order, one per library
  (cd "$objects/$i" && ar x "$lib")
done
{
  echo
  echo "**Generated code size** (\`size\`: text + data bytes of the objects built above)"
  echo
  echo "| file | messages | protoc-c .pb-c.o | iter .pb-iter.o | iter / protoc-c | iter per message |"
  echo "|---|--:|--:|--:|--:|--:|"
  find "$objects" -name '*.pb-iter.c.o' | sort | while read -r iter_o; do
    pbc_o=${iter_o%.pb-iter.c.o}.pb-c.c.o
    [[ -f "$pbc_o" ]] || continue
    name=$(basename "${iter_o%.pb-iter.c.o}").proto
    messages=$(nm "$iter_o" | grep -c ' [DR] .*__iter_type$' || true)
    iter_size=$(size "$iter_o" | awk 'NR == 2 { print $1 + $2 }')
    pbc_size=$(size "$pbc_o" | awk 'NR == 2 { print $1 + $2 }')
    awk -v n="$name" -v m="$messages" -v i="$iter_size" -v c="$pbc_size" \
      'BEGIN { printf "| %s | %d | %d | %d | %.2fx | %d |\n", n, m, c, i, i / c, i / m }'
  done
} >> "$results/report.md"

# The report into docs/benchmark.md, its speed-ups into README.md.
"$root/bench/publish.sh" "$results/report.md" "$root"
