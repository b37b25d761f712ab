#!/usr/bin/env bash
# Runs the whole test suite: installs missing Debian packages, builds once
# with ASan + UBSan and -Werror, and runs every test in parallel.
#   tests/run.sh            build in build/test, run ctest
#   BUILD_DIR=dir tests/run.sh
#   PBCI_CMAKE_ARGS=-DCMAKE_PREFIX_PATH=... tests/run.sh   (one more cmake
#       argument: how tests/compat/run.sh points the build at other releases)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/cmake/install-deps.sh"

build=${BUILD_DIR:-$root/build/test}
jobs=$(nproc)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
  -DPROTOBUF_C_ITER_SANITIZE=ON -DPROTOBUF_C_ITER_WERROR=ON \
  ${PBCI_CMAKE_ARGS:+"$PBCI_CMAKE_ARGS"}
cmake --build "$build" -j "$jobs"
# Any ASan (leaks included) or UBSan finding fails the test.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" -j "$jobs" --output-on-failure
