#!/usr/bin/env bash
# The fuzz targets as 32-bit programs (clang -m32, ASan + UBSan), where
# size_t arithmetic wraps sooner: for i386/armhf users. Not part of CI: it
# needs apt to take the i386 architecture (dpkg --add-architecture), which
# CI leaves alone.
# It needs:
#  - tests/fuzz/run.sh run once (its build has the generated sources, the
#    seed corpus and the dictionaries this reuses);
#  - gcc-multilib and g++-multilib (32-bit libc and libstdc++);
#  - PBC32, the path of libprotobuf-c.so.1 for i386, e.g. taken from
#    Debian's package without installing it:
#      dpkg --add-architecture i386 && apt-get update
#      apt-get download libprotobuf-c1:i386 && dpkg -x libprotobuf-c1_*_i386.deb x
#      dpkg --remove-architecture i386 && apt-get update
#      PBC32=$PWD/x/usr/lib/i386-linux-gnu/libprotobuf-c.so.1
#   PBC32=... tests/fuzz/run32.sh [SECONDS] [TARGET...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/fuzz_one.sh"
fuzz_args "$@"
: "${PBC32:?set PBC32 to an i386 libprotobuf-c.so.1 (see the header of this script)}"

build=${FUZZ_BUILD_DIR:-$root/build/fuzz}
gen=$build/tests/protobuf-c-iter
[[ -d $gen ]] || { echo "run tests/fuzz/run.sh first: no $gen" >&2; exit 1; }
out=$build/m32
mkdir -p "$out"
cd "$out"

flags=(-m32 -O1 -g -fsanitize=fuzzer-no-link,address,undefined
       -fno-sanitize-recover=undefined -I"$root/runtime/include" -I"$gen"
       -I"$root/tests")
objects=()
while IFS= read -r c; do
  o=$(echo "${c#"$root"/}" | tr / _).o
  clang "${flags[@]}" -std=c99 -w -c "$c" -o "$o"
  objects+=("$o")
done < <(find "$root/runtime/src" "$gen" -name '*.c' | sort)
for s in input_facts invariants iter_check iter_types option_check pbc_compare; do
  clang++ "${flags[@]}" -std=c++17 -c "$root/tests/support/$s.cc" -o "support_$s.o"
  objects+=("support_$s.o")
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for t in "${targets[@]}"; do
  upper=$(echo "$t" | tr a-z A-Z)
  clang++ "${flags[@]}" -std=c++17 -DFUZZ_SCHEMA_"$upper" \
    -c "$here/fuzz_decode.cc" -o "fuzz_$t.o"
  clang++ -m32 -fsanitize=fuzzer,address,undefined "fuzz_$t.o" "${objects[@]}" \
    "$PBC32" -Wl,-rpath,"$(dirname "$PBC32")" -o "fuzz32_$t"
  fuzz_one "$t" "$out/fuzz32_$t" "$seconds" "$build/tests/fuzz/$t.dict" "$out" \
    "$out/corpus/$t" "$build/corpus/$t" "$build/tests/fuzz/seeds/$t"
done
