#!/usr/bin/env bash
# Installs the Debian 12 packages protobuf-c-iter needs, if any is missing.
# Used by examples/quickstart.sh, tests/run.sh and CI.
set -euo pipefail

packages=(cmake make g++ gcc clang libclang-rt-14-dev pkg-config
          protobuf-compiler libprotobuf-dev libprotoc-dev
          protobuf-c-compiler libprotobuf-c-dev
          libgtest-dev libbenchmark-dev valgrind)

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
