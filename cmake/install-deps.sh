#!/usr/bin/env bash
# Installs the Debian 12 packages protobuf-c-iter needs, if any is missing.
#   cmake/install-deps.sh          to build and test everything (tests/run.sh, CI)
#   cmake/install-deps.sh --build  to build the plugin, runtime and examples only
#                                  (examples/quickstart.sh)
set -euo pipefail

packages=(cmake make g++ gcc pkg-config
          protobuf-compiler libprotobuf-dev libprotoc-dev
          protobuf-c-compiler libprotobuf-c-dev)
case "${1:-}" in
  --build) ;;
  # The fuzzers need clang and its runtimes; the hostile tests valgrind; the
  # bench Google Benchmark; a downstream test Ninja.
  "") packages+=(clang libclang-rt-14-dev libgtest-dev libbenchmark-dev valgrind
                 ninja-build) ;;
  *) echo "usage: $0 [--build]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing missing packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "error: run as root, or run: apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
