#!/usr/bin/env bash
# Quick start: installs the Debian packages the build needs if missing, builds
# protoc-gen-iter, the runtime and examples/quickstart (whose telemetry.proto
# is compiled with protoc --c_out --iter_out), then decodes a reading into a
# stack buffer.
#   examples/quickstart.sh [FILE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/cmake/install-deps.sh" --build

build=${BUILD_DIR:-$root/build/release}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DPROTOBUF_C_ITER_BUILD_TESTS=OFF -DPROTOBUF_C_ITER_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target quickstart
echo
echo "Generated: $build/examples/quickstart/protobuf-c-iter/telemetry.pb-iter.{h,c}"
"$build/examples/quickstart/quickstart" "$@"
