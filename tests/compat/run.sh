#!/usr/bin/env bash
# The compatibility matrix: the whole test suite (tests/run.sh) built against
# other protobuf and protobuf-c releases than Debian 12's, which are built
# from the source tarballs in ../shared/third_party into a cache keyed by the
# tarballs' hashes (a second run starts at once).
#
#   tests/compat/run.sh [ENTRY ...]        (default: B C D)
#
#   A  Debian 12's packages: protobuf 3.21.12, protobuf-c 1.4.1 (tests/run.sh)
#   B  Debian's protobuf 3.21.12 with protobuf-c 1.5.2
#   C  protobuf 33.6 + abseil 20250512.1, protobuf-c 1.5.2 built against it
#   D  protobuf 36.0 + abseil 20250512.1 (protoc-gen-c and libprotobuf-c: C's;
#      protobuf-c 1.5.2's generator does not compile against 34 and newer,
#      and as a plugin it talks to protoc over a pipe)
#
# Environment: PBCI_THIRD_PARTY (default: ../shared/third_party beside the
# checkout), PBCI_COMPAT_CACHE (default: ~/.cache/protobuf-c-iter/compat),
# JOBS (default: nproc). Each entry builds in build/compat-<entry>. Without
# the tarballs, entries B-D print "SKIPPED" and do not fail.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
third_party=${PBCI_THIRD_PARTY:-$root/../shared/third_party}
cache=${PBCI_COMPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/protobuf-c-iter/compat}
export JOBS=${JOBS:-$(nproc)}
entries=("$@")
[[ ${#entries[@]} -gt 0 ]] || entries=(B C D)

absl_tgz=abseil-cpp-20250512.1.tar.gz
pbc_tgz=protobuf-c-1.5.2.tar.gz

# The first 12 hex digits of the hash of the given files' contents.
key() { (cd "$third_party" && cat "$@") | sha256sum | cut -c1-12; }

# Builds into $1 by running the rest of the arguments, unless a complete
# build is there already; an interrupted build is started again.
cached() {
  local prefix=$1
  shift
  if [[ -f $prefix/.complete ]]; then
    echo "compat: using $prefix"
    return
  fi
  echo "compat: building $prefix"
  rm -rf "$prefix"
  "$@"
  touch "$prefix/.complete"
}

# abseil + protobuf $1 (33.6 or 36.0), with the tarballs' own script.
protobuf_prefix() {
  echo "$cache/protobuf-$1-$(key "$absl_tgz" "protobuf-$1.tar.gz" build-protobuf.sh)"
}
build_protobuf() {
  local prefix
  prefix=$(protobuf_prefix "$1")
  cached "$prefix" env PB_VER="$1" OPT=-O1 \
    "$third_party/build-protobuf.sh" "$prefix" "$third_party" "$cache/work-protobuf-$1"
  rm -rf "$cache/work-protobuf-$1"
}

# protobuf-c 1.5.2 (libprotobuf-c and protoc-gen-c) against the protobuf in
# $2 ("system" for Debian's), installed into $1.
build_protobuf_c() {
  local prefix=$1 protobuf=$2 work=$cache/work-protobuf-c
  local args=(-DCMAKE_BUILD_TYPE=Release -DBUILD_TESTS=OFF
              -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib)
  [[ $protobuf == system ]] ||
    args+=(-DCMAKE_PREFIX_PATH="$protobuf" -DCMAKE_FIND_PACKAGE_PREFER_CONFIG=ON)
  rm -rf "$work"
  mkdir -p "$work"
  tar xzf "$third_party/$pbc_tgz" -C "$work"
  cmake -S "$work/protobuf-c-1.5.2/build-cmake" -B "$work/build" "${args[@]}" >/dev/null
  nice -n 19 cmake --build "$work/build" -j "$JOBS"
  cmake --install "$work/build" >/dev/null
  rm -rf "$work"
}
protobuf_c_prefix() {  # $1: "system" or a protobuf prefix
  local against=system
  [[ $1 == system ]] || against=$(basename "$1")
  echo "$cache/protobuf-c-1.5.2-$(key "$pbc_tgz")-$against"
}

# Runs the suite in build/compat-$1 with CMAKE_PREFIX_PATH $2.
suite() {
  echo "=== compat $1: CMAKE_PREFIX_PATH=$2"
  BUILD_DIR=$root/build/compat-$1 PBCI_CMAKE_ARGS="-DCMAKE_PREFIX_PATH=$2" \
    "$root/tests/run.sh"
}

for entry in "${entries[@]}"; do
  if [[ $entry != A && ! -f $third_party/$pbc_tgz ]]; then
    echo "compat $entry: SKIPPED: no $third_party/$pbc_tgz (see its README)"
    continue
  fi
  case $entry in
    A)
      BUILD_DIR=$root/build/compat-A "$root/tests/run.sh" ;;
    B)
      pbc=$(protobuf_c_prefix system)
      cached "$pbc" build_protobuf_c "$pbc" system
      suite B "$pbc" ;;
    C | D)
      build_protobuf 33.6
      pb33=$(protobuf_prefix 33.6)
      pbc=$(protobuf_c_prefix "$pb33")
      cached "$pbc" build_protobuf_c "$pbc" "$pb33"
      if [[ $entry == C ]]; then
        suite C "$pb33;$pbc"
      else
        build_protobuf 36.0
        suite D "$(protobuf_prefix 36.0);$pbc"
      fi ;;
    *)
      echo "compat: unknown entry '$entry' (A, B, C or D)" >&2
      exit 2 ;;
  esac
done
