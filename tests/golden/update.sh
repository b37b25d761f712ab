#!/usr/bin/env bash
# Refreshes the golden generated files from a build tree, after a deliberate
# change to the generator; review the diff before committing it.
#   tests/golden/update.sh [BUILD_DIR]   (default: build/test)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build/test}
gen=$build/tests/protobuf-c-iter
for f in merge3.pb-iter.h merge3.pb-iter.c pkg/common.pb-iter.h pkg/common.pb-iter.c \
         empty.pb-iter.h empty.pb-iter.c; do
  mkdir -p "$here/$(dirname "$f")"
  cp "$gen/$f" "$here/$f"
done
echo "golden files refreshed from $gen"
