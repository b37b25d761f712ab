#!/usr/bin/env bash
# A/B timing over code placements. Where a function's code lands (its offset
# within a 64-byte line, what shares its cache sets and branch-predictor
# entries) moves one build's rates by up to 15% on rows whose code did not
# change (deep64 884-1014 ns over five placements of one build, bench/README.md),
# as much as most changes gain; where the read-only data the decoders read
# lands (the prototypes copied into new structs, the tables) moved
# rtb_bid_request by 4% with its code in place (286-298 ns). So a change is
# timed over several placements of each build: each build is linked again
# with PAD bytes of code ahead of everything else (every function then moves
# by PAD) and DATA bytes of read-only data after the rest (with the usual
# `-z relro` layout the end of .data.rel.ro is page-aligned, so everything
# in it moves down by DATA), and the builds are compared by the median over
# placements of each placement's median.
#
#   bench/placements.sh link BUILD_DIR OUT_DIR
#       links BUILD_DIR's pbci_bench (as built: bench/run.sh's build, or any
#       with PROTOBUF_C_ITER_BUILD_BENCH=ON) once per pad into
#       OUT_DIR/pbci_bench.PAD (PADS="0 16 32 48 80" unless set), the k-th
#       with the k-th of DATA_PADS ("0 832 1664 2496 3328": spread over a
#       4 KiB page in steps of 13 cache lines; taken in turn when PADS has
#       more)
#   bench/placements.sh compare OUT_A OUT_B [REPS] [FILTER]
#       runs A's and B's binaries in alternation, REPS times (4), on the
#       benchmarks matching FILTER (^iter/) for MIN_TIME seconds each
#       (0.1), CPU time in ns; prints per benchmark A's and B's median per
#       placement, the median of those, and B/A
set -euo pipefail

link() {
  local build=$1 out=$2 pad data k=0
  local dir=$build/bench
  local cmd_file=$dir/CMakeFiles/pbci_bench.dir/link.txt
  [ -f "$cmd_file" ] || { echo "no $cmd_file: build pbci_bench first" >&2; exit 1; }
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  local cmd
  cmd=$(cat "$cmd_file")
  local -a data_pads
  read -r -a data_pads <<< "${DATA_PADS:-0 832 1664 2496 3328}"
  for pad in ${PADS:-0 16 32 48 80}; do
    data=${data_pads[k % ${#data_pads[@]}]}
    k=$((k + 1))
    # (.skip 0 draws a warning: no statement then.)
    printf '__attribute__((used)) void pbci_placement_pad(void) {\n%s}\n' \
      "$([ "$pad" -gt 0 ] && printf '  __asm__(".skip %d, 0x90");\n' "$pad")" > "$out/pad$pad.c"
    # Pointers, so that it lands in .data.rel.ro with the decoders' tables.
    printf '__attribute__((used, section(".data.rel.ro.pbci_placement")))\nconst void *const pbci_placement_data[%d] = {pbci_placement_data};\n' \
      $((data / 8 + 1)) > "$out/data$pad.c"
    cc -c -O2 "$out/pad$pad.c" -o "$out/pad$pad.o"
    cc -c -O2 "$out/data$pad.c" -o "$out/data$pad.o"
    # The code pad first among the objects: right after the compiler and its
    # flags; the data pad last of all, after the libraries.
    local first=${cmd%%.o *}
    first=${first##* }
    local linked=${cmd/ $first.o / $out/pad$pad.o $first.o }
    linked=${linked/ -o pbci_bench / -o $out/pbci_bench.$pad }
    (cd "$dir" && eval "$linked $out/data$pad.o")
    echo "$out/pbci_bench.$pad"
  done
}

compare() {
  local a=$1 b=$2 reps=${3:-4} filter=${4:-^iter/} pad side f
  local pads=
  for f in "$a"/pbci_bench.*; do pads="$pads ${f##*.}"; done
  pads=$(echo "$pads" | tr ' ' '\n' | sort -n)
  for _ in $(seq "$reps"); do
    for pad in $pads; do
      for side in A B; do
        local dir=$a
        [ $side = B ] && dir=$b
        "$dir/pbci_bench.$pad" --benchmark_filter="$filter" \
          --benchmark_min_time="${MIN_TIME:-0.1}" 2>/dev/null |
          sed 's/\x1b\[[0-9;]*m//g' | awk -v s=$side -v p="$pad" '$5 == "ns" {print $1, s, p, $4}'
      done
    done
  done | sort -k1,1 -k2,2 -k3,3n -k4,4g | awk '
    function median(v, n) { return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
    function flush_placement() {
      if (cnt) { pm[name, side, ++np[name, side]] = median(vals, cnt); line[name, side] = line[name, side] sprintf(" %8.1f", median(vals, cnt)) }
      cnt = 0
    }
    { key = $1 SUBSEP $2 SUBSEP $3
      if (key != last) { flush_placement(); last = key; name = $1; side = $2; if (!(name in seen)) { seen[name]; order[++nn] = name } }
      vals[++cnt] = $4 }
    END {
      flush_placement()
      for (i = 1; i <= nn; i++) {
        n = order[i]
        for (s = 0; s < 2; s++) {
          sd = s ? "B" : "A"; k = np[n, sd]
          for (j = 1; j <= k; j++) t[j] = pm[n, sd, j]
          asort_n(t, k); m[sd] = median(t, k)
          printf "%-32s %s per placement:%s | median %.1f\n", n, sd, line[n, sd], m[sd]
        }
        printf "%-32s B/A %.3f\n", n, m["B"] / m["A"]
      }
    }
    function asort_n(v, n,   i, j, x) { for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x } }'
}

case ${1:-} in
  link) shift; link "$@" ;;
  compare) shift; compare "$@" ;;
  *) sed -n '2,20p' "$0"; exit 2 ;;
esac
