#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each one:
# first over its regression folder (every input that ever found a bug must
# pass), then fuzzing for SECONDS (default 60) on top of the seed corpus and
# the corpus kept from earlier runs. New crashes land in build/fuzz/crashes.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]    e.g. tests/fuzz/run.sh 1800 merge
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(scalars2 scalars3 defaults merge)

"$root/cmake/install-deps.sh"

build=${FUZZ_BUILD_DIR:-$root/build/fuzz}
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPROTOBUF_C_ITER_FUZZ=ON -DPROTOBUF_C_ITER_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz-all

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fuzz=$build/tests/fuzz
mkdir -p "$build/crashes"
for t in "${targets[@]}"; do
  bin=$fuzz/fuzz_$t
  regressions=$here/regressions/$t
  if compgen -G "$regressions/*" >/dev/null; then
    echo "== fuzz_$t: regression inputs"
    "$bin" -runs=0 "$regressions"/*
  fi
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  echo "== fuzz_$t: fuzzing for ${seconds}s"
  log=$build/fuzz_$t.log
  status=0
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -dict="$fuzz/$t.dict" -artifact_prefix="$build/crashes/$t-" \
    -print_final_stats=1 "$corpus" "$fuzz/seeds/$t" >"$log" 2>&1 || status=$?
  grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb" "$log" || true
  if [[ $status -ne 0 ]]; then
    tail -n 40 "$log" >&2
    echo "fuzz_$t failed (exit $status); crash inputs: $build/crashes/" >&2
    exit 1
  fi
done
