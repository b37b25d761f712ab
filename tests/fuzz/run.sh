#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each one:
# first over its regression folder (every input that ever found a bug must
# pass), then fuzzing for SECONDS (default 60) on top of the seed corpus and
# the corpus kept from earlier runs. New crashes land in build/fuzz/crashes.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]    e.g. tests/fuzz/run.sh 1800 merge
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/fuzz_one.sh"
extra_targets=(stream)  # the stream reader (fuzz_stream.cc)
fuzz_args "$@"

"$root/cmake/install-deps.sh"

build=${FUZZ_BUILD_DIR:-$root/build/fuzz}
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPROTOBUF_C_ITER_FUZZ=ON -DPROTOBUF_C_ITER_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz-all

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fuzz=$build/tests/fuzz
for t in "${targets[@]}"; do
  fuzz_one "$t" "$fuzz/fuzz_$t" "$seconds" "$fuzz/$t.dict" "$build" \
    "$build/corpus/$t" "$fuzz/seeds/$t"
done
