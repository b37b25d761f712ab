#!/usr/bin/env bash
# The compatibility matrix: the whole test suite (tests/run.sh) built against
# other protobuf and protobuf-c releases than Debian 12's, which are built
# from the source tarballs in ../shared/third_party into a cache keyed by the
# tarballs' hashes (a second run starts at once).
#
#   tests/compat/run.sh [ENTRY ...]        (default: B C D)
#   tests/compat/run.sh --deps-only [ENTRY ...]
#       only builds (or finds in the cache) what the entries need
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
# the tarballs, entries B-D print "SKIPPED" and do not fail. The build steps
# are those of the tarballs' build-protobuf.sh, except that abseil is built
# once for both protobuf releases, without optimisation, and protobuf with
# precompiled headers (protobuf-pch.cmake).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
third_party=${PBCI_THIRD_PARTY:-$root/../shared/third_party}
cache=${PBCI_COMPAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/protobuf-c-iter/compat}
export JOBS=${JOBS:-$(nproc)}
deps_only=false
if [[ ${1:-} == --deps-only ]]; then
  deps_only=true
  shift
fi
entries=("$@")
[[ ${#entries[@]} -gt 0 ]] || entries=(B C D)
for entry in "${entries[@]}"; do
  if [[ ! $entry =~ ^[ABCD]$ ]]; then
    echo "compat: unknown entry '$entry' (A, B, C or D)" >&2
    exit 2
  fi
done
# cmake, make and clang, which the dependency builds need too.
"$root/cmake/install-deps.sh"

absl_tgz=abseil-cpp-20250512.1.tar.gz
pbc_tgz=protobuf-c-1.5.2.tar.gz

# How the C++ dependencies are built (part of their cache key): static,
# position-independent, C++17 (protobuf >= 30 requires it; abseil must agree),
# no optimisation (here they are test oracles and build tools, and a cold
# CI run spends most of its time building them), with clang (which compiles
# protobuf at -O0 about 1.6 times as fast as gcc; the suites themselves are
# built with the default compiler, as users' code would be).
OPT="-O0 -w"  # and no warnings: they are not ours to fix
cpp_args=(
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
  -DCMAKE_BUILD_TYPE=Release
  "-DCMAKE_C_FLAGS_RELEASE=$OPT -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELEASE=$OPT -DNDEBUG"
  -DCMAKE_CXX_STANDARD=17 -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DBUILD_SHARED_LIBS=OFF -DCMAKE_INSTALL_LIBDIR=lib
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)

# protobuf's libraries with precompiled headers (see the file).
pch=$root/tests/compat/protobuf-pch.cmake

# The first 12 hex digits of the hash of the given files' contents (in
# ../shared/third_party, or absolute paths) and the build flags.
key() {
  { (cd "$third_party" && cat "$@"); echo "${cpp_args[*]}"; } | sha256sum | cut -c1-12
}

# Builds into $1 by running the rest of the arguments, unless a complete
# build is there already; an interrupted build is started again. A lock per
# prefix lets several runs share the cache: one builds, the others wait for
# it.
cached() {
  local prefix=$1 lock
  shift
  mkdir -p "$cache"
  exec {lock}>"$prefix.lock"
  flock "$lock"
  if [[ -f $prefix/.complete ]]; then
    echo "compat: using $prefix"
  else
    echo "compat: building $prefix"
    rm -rf "$prefix"
    "$@"
    touch "$prefix/.complete"
  fi
  exec {lock}>&-
}

# Configures the CMake project in directory $2 of the sources unpacked from
# tarball $1 with the cmake arguments after $3, builds it and installs it
# into prefix $3.
build_cmake() {
  local tgz=$1 dir=$2 prefix=$3 work=$3.work top
  shift 3
  rm -rf "$work"
  mkdir -p "$work"
  tar xzf "$third_party/$tgz" -C "$work"
  top=$(cd "$work" && ls)
  cmake -S "$work/$top/$dir" -B "$work/build" -DCMAKE_INSTALL_PREFIX="$prefix" "$@" >/dev/null
  nice -n 19 cmake --build "$work/build" -j "$JOBS"
  cmake --install "$work/build" >/dev/null
  rm -rf "$work"
}

# abseil, once for both protobuf releases (both require this one).
absl_prefix() { echo "$cache/abseil-20250512.1-$(key "$absl_tgz")"; }
build_absl() {
  cached "$(absl_prefix)" build_cmake "$absl_tgz" . "$(absl_prefix)" "${cpp_args[@]}" \
    -DABSL_BUILD_TESTING=OFF -DABSL_ENABLE_INSTALL=ON -DABSL_PROPAGATE_CXX_STD=ON
}

# protobuf $1 (33.6 or 36.0): libprotobuf, libprotoc, protoc. Its CMake
# package finds abseil through CMAKE_PREFIX_PATH, which must then name both.
protobuf_prefix() {
  echo "$cache/protobuf-$1-$(key "$absl_tgz" "protobuf-$1.tar.gz" "$pch")"
}
build_protobuf() {
  build_absl
  cached "$(protobuf_prefix "$1")" build_cmake "protobuf-$1.tar.gz" . \
    "$(protobuf_prefix "$1")" "${cpp_args[@]}" -DCMAKE_PREFIX_PATH="$(absl_prefix)" \
    -Dprotobuf_BUILD_TESTS=OFF -Dprotobuf_BUILD_CONFORMANCE=OFF \
    -Dprotobuf_BUILD_EXAMPLES=OFF -Dprotobuf_LOCAL_DEPENDENCIES_ONLY=ON \
    -Dprotobuf_WITH_ZLIB=OFF -Dprotobuf_INSTALL=ON -DCMAKE_PROJECT_INCLUDE="$pch"
}

# protobuf-c 1.5.2 (libprotobuf-c and protoc-gen-c; its CMake build lives in
# build-cmake/) against protobuf $1: "system" (Debian's) or a protobuf
# version built above.
protobuf_c_prefix() {
  local against=system
  [[ $1 == system ]] || against=$(basename "$(protobuf_prefix "$1")")
  echo "$cache/protobuf-c-1.5.2-$(key "$pbc_tgz")-$against"
}
build_protobuf_c() {
  local args=(-DCMAKE_BUILD_TYPE=Release -DBUILD_TESTS=OFF -DCMAKE_INSTALL_LIBDIR=lib)
  [[ $1 == system ]] || args+=(-DCMAKE_FIND_PACKAGE_PREFER_CONFIG=ON
    "-DCMAKE_PREFIX_PATH=$(protobuf_prefix "$1");$(absl_prefix)")
  cached "$(protobuf_c_prefix "$1")" build_cmake "$pbc_tgz" build-cmake \
    "$(protobuf_c_prefix "$1")" "${args[@]}"
}

# Runs the suite in build/compat-$1 with CMAKE_PREFIX_PATH $2 (unless
# --deps-only).
suite() {
  "$deps_only" && return
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
      "$deps_only" || BUILD_DIR=$root/build/compat-A "$root/tests/run.sh" ;;
    B)
      build_protobuf_c system
      suite B "$(protobuf_c_prefix system)" ;;
    C | D)
      build_protobuf 33.6
      build_protobuf_c 33.6
      if [[ $entry == C ]]; then
        suite C "$(protobuf_prefix 33.6);$(absl_prefix);$(protobuf_c_prefix 33.6)"
      else
        build_protobuf 36.0
        suite D "$(protobuf_prefix 36.0);$(absl_prefix);$(protobuf_c_prefix 33.6)"
      fi ;;
  esac
done
