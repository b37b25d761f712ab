#!/usr/bin/env bash
# Refreshes the golden generated files (every test proto's .pb-iter.[ch]) from
# a build tree, after a deliberate change to the generator; review the diff
# before committing it.
#   tests/golden/update.sh [BUILD_DIR]   (default: build/test)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build/test}
gen=$build/tests/protobuf-c-iter
cd "$gen"
find . -name '*.pb-iter.[ch]' | sort | while read -r f; do
  mkdir -p "$here/$(dirname "$f")"
  cp "$f" "$here/$f"
done
echo "golden files refreshed from $gen"
