#!/usr/bin/env bash
# The cross test: the runtime, the test schemas' generated code and
# protobuf-c 1.5.2 cross-compiled for other architectures and tested there
# under qemu-user (tests/cross/CMakeLists.txt says what runs):
#   s390x    64-bit big-endian              s390x-linux-gnu, qemu-s390x
#   powerpc  32-bit big-endian              powerpc-linux-gnu, qemu-ppc
#   armhf    32-bit little-endian, ARMv7    arm-linux-gnueabihf, qemu-arm
#
#   tests/cross/run.sh [TARGET ...]          (default: all three)
#
# Needs the host build of tests/run.sh (BUILD_DIR, default build/test): its
# generated code, and its cross_write_corpus for the differential inputs.
# Replays the fuzzers' seeds and corpus too when tests/fuzz/run.sh's build
# is there (FUZZ_BUILD_DIR, default build/fuzz). protobuf-c's sources come
# from ../shared/third_party (PBCI_THIRD_PARTY). Each target builds in
# build/cross-<target>. A target whose cross compiler or qemu is missing,
# or all of them without the protobuf-c tarball, print "SKIPPED" and do not
# fail (Debian: apt-get install g++-<triple> qemu-user).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
host=${BUILD_DIR:-$root/build/test}
fuzz=${FUZZ_BUILD_DIR:-$root/build/fuzz}
third_party=${PBCI_THIRD_PARTY:-$root/../shared/third_party}
jobs=${JOBS:-$(nproc)}
pbc_tgz=$third_party/protobuf-c-1.5.2.tar.gz

targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(s390x powerpc armhf)
for t in "${targets[@]}"; do
  if [[ ! $t =~ ^(s390x|powerpc|armhf)$ ]]; then
    echo "cross: unknown target '$t' (s390x, powerpc or armhf)" >&2
    exit 2
  fi
done
if [[ ! -x $host/tests/cross_write_corpus ]]; then
  echo "cross: no $host/tests/cross_write_corpus: run tests/run.sh first" >&2
  exit 2
fi
if [[ ! -f $pbc_tgz ]]; then
  echo "cross: SKIPPED: no $pbc_tgz (see its README)"
  exit 0
fi

work=$root/build/cross
mkdir -p "$work"
if [[ ! -f $work/protobuf-c-1.5.2/protobuf-c/protobuf-c.c ]]; then
  tar xzf "$pbc_tgz" -C "$work"
fi
# The datasets, when the host build has them: in the corpus and dataset_test.
datasets=$(sed -n 's/^PROTOBUF_C_ITER_DATASETS:PATH=//p' "$host/CMakeCache.txt")
[[ -d $host/datasets/protobuf-c-iter ]] || datasets=
# (libprotobuf logs every random string that is not UTF-8 it serializes.)
"$host/tests/cross_write_corpus" "$work/corpus.txt" ${datasets:+"$datasets"} \
  2>"$work/corpus.log"

for t in "${targets[@]}"; do
  trap_ubsan=OFF
  case $t in
    s390x) triple=s390x-linux-gnu qemu=qemu-s390x ;;
    powerpc) triple=powerpc-linux-gnu qemu=qemu-ppc trap_ubsan=ON ;;
    armhf) triple=arm-linux-gnueabihf qemu=qemu-arm ;;
  esac
  if ! command -v "$triple-g++" >/dev/null || ! command -v "$qemu" >/dev/null; then
    echo "cross $t: SKIPPED: needs $triple-g++ and $qemu" \
      "(Debian: apt-get install g++-$triple qemu-user)"
    continue
  fi
  echo "=== cross $t ($triple, under $qemu)"
  build=$root/build/cross-$t
  cmake -S "$root/tests/cross" -B "$build" -DCMAKE_BUILD_TYPE= \
    -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="${triple%%-*}" \
    -DCMAKE_C_COMPILER="$triple-gcc" -DCMAKE_CXX_COMPILER="$triple-g++" \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=$qemu;-L;/usr/$triple" \
    -DPBCI_HOST_BUILD="$host" -DPBCI_CORPUS="$work/corpus.txt" \
    -DPBCI_PROTOBUF_C_SRC="$work/protobuf-c-1.5.2" \
    -DPBCI_GTEST_SRC=/usr/src/googletest/googletest \
    -DPBCI_DATASETS="$datasets" -DPBCI_FUZZ_BUILD="$fuzz" \
    -DPBCI_UBSAN_TRAP=$trap_ubsan >/dev/null
  cmake --build "$build" -j "$jobs"
  ctest --test-dir "$build" -j "$jobs" --output-on-failure
done
