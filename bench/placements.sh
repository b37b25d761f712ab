#!/usr/bin/env bash
# A/B timing over code placements. Where a function's code lands (its offset
# within a 64-byte line, what shares its cache sets and branch-predictor
# entries) moves one build's rates by up to 15% on rows whose code did not
# change (deep64 884-1014 ns over five placements of one build, bench/README.md),
# as much as most changes gain. So a change is timed over several
# placements of each build: each build is linked again with PAD bytes of code
# ahead of everything else (every function then moves by PAD), and the
# builds are compared by the median over placements of each placement's
# median.
#
#   bench/placements.sh link BUILD_DIR OUT_DIR
#       links BUILD_DIR's pbci_bench (as built: bench/run.sh's build, or any
#       with PROTOBUF_C_ITER_BUILD_BENCH=ON) once per pad into
#       OUT_DIR/pbci_bench.PAD (PADS="0 16 32 48 80" unless set)
#   bench/placements.sh compare OUT_A OUT_B [REPS] [FILTER]
#       runs A's and B's binaries in alternation, REPS times (4), on the
#       benchmarks matching FILTER (^iter/) for MIN_TIME seconds each
#       (0.1), CPU time in ns; prints per benchmark A's and B's median per
#       placement, the median of those, and B/A
set -euo pipefail

link() {
  local build=$1 out=$2 pad
  local dir=$build/bench
  local cmd_file=$dir/CMakeFiles/pbci_bench.dir/link.txt
  [ -f "$cmd_file" ] || { echo "no $cmd_file: build pbci_bench first" >&2; exit 1; }
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  local cmd
  cmd=$(cat "$cmd_file")
  for pad in ${PADS:-0 16 32 48 80}; do
    # (.skip 0 draws a warning: no statement then.)
    printf '__attribute__((used)) void pbci_placement_pad(void) {\n%s}\n' \
      "$([ "$pad" -gt 0 ] && printf '  __asm__(".skip %d, 0x90");\n' "$pad")" > "$out/pad$pad.c"
    cc -c -O2 "$out/pad$pad.c" -o "$out/pad$pad.o"
    # The pad first among the objects: right after the compiler and its flags.
    local first=${cmd%%.o *}
    first=${first##* }
    local linked=${cmd/ $first.o / $out/pad$pad.o $first.o }
    linked=${linked/ -o pbci_bench / -o $out/pbci_bench.$pad }
    (cd "$dir" && eval "$linked")
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
