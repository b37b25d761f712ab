// libFuzzer target: one per test schema (FUZZ_SCHEMA selects the types).
// The first input byte picks a message type of the schema; the rest is
// decoded by the generated decoder and by protobuf_c_message_unpack, and
// every claim of docs/SECURITY.md is checked:
//  - unpacked_size equals the bytes unpack uses, in a heap buffer of exactly
//    that size (ASan sees any overrun); one byte less gives NO_MEMORY; a
//    misaligned buffer gives ALIGNMENT;
//  - the decoded message satisfies every invariant (CheckInvariants);
//  - where protobuf-c 1.4.1 is an oracle (no merged sub-messages, nesting
//    within our limit): same acceptance, equal structs, equal re-packing;
//  - the decode options against the plain decode (option_check.h): aliasing
//    gives the same content, DISCARD_UNKNOWN the same known fields,
//    VALIDATE_UTF8 and max_depth reject only what they must;
//  - the input merged into its own decode with a buffer too small, or not:
//    a merge that fails leaves the message whole (CheckMergedInvariants)
//    and protobuf-c packs it.
#include <protobuf-c-iter/protobuf-c-iter.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "defaults.pb-iter.h"
#include "merge.pb-iter.h"
#include "merge3.pb-iter.h"
#include "options.pb-iter.h"
#include "scalars2.pb-iter.h"
#include "scalars3.pb-iter.h"
#include "support/input_facts.h"
#include "support/invariants.h"
#include "support/iter_check.h"
#include "support/option_check.h"
#include "support/pbc_compare.h"

namespace {

using pbci_test::IterType;

const std::vector<IterType>& SchemaTypes() {
  static const std::vector<IterType> kTypes = {
#if defined(FUZZ_SCHEMA_SCALARS2)
    PBCI_TEST_ITER_TYPE(Iter__Test__Scalars2, iter__test__scalars2,
                        "iter.test.Scalars2"),
#elif defined(FUZZ_SCHEMA_SCALARS3)
    PBCI_TEST_ITER_TYPE(Iter__Test3__All3, iter__test3__all3,
                        "iter.test3.All3"),
    PBCI_TEST_ITER_TYPE(Iter__Test3__Leaf, iter__test3__leaf,
                        "iter.test3.Leaf"),
    PBCI_TEST_ITER_TYPE(Iter__Test3__All3__MStringSelfEntry,
                        iter__test3__all3__mstring_self_entry,
                        "iter.test3.All3.MStringSelfEntry"),
#elif defined(FUZZ_SCHEMA_DEFAULTS)
    PBCI_TEST_ITER_TYPE(Iter__Defaults__Defaults, iter__defaults__defaults,
                        "iter.defaults.Defaults"),
    PBCI_TEST_ITER_TYPE(Renamed__PkgC__HTTPServerConf,
                        renamed__pkg_c__httpserver_conf,
                        "iter.opts.HTTPServer_conf"),
#elif defined(FUZZ_SCHEMA_MERGE)
    PBCI_TEST_ITER_TYPE(Iter__Merge__MergeTest, iter__merge__merge_test,
                        "iter.merge.MergeTest"),
    PBCI_TEST_ITER_TYPE(Iter__Merge__Plain, iter__merge__plain,
                        "iter.merge.Plain"),
    PBCI_TEST_ITER_TYPE(Iter__Merge3__Outer3, iter__merge3__outer3,
                        "iter.merge3.Outer3"),
#else
#error "define FUZZ_SCHEMA_*"
#endif
  };
  return kTypes;
}

void Fail(const IterType& t, const std::string& what, const std::string& in) {
  std::fprintf(stderr, "%s: %s\ninput %s\n", t.full_name, what.c_str(),
               pbci_test::Hex(in).c_str());
  std::abort();
}

// The input, which decodes into `size` bytes, merged into its own decode
// with a new buffer of `pick` 64ths of that (merging appends to its arrays,
// so it mostly fails for want of room): if the merge fails, the message is
// whole, and protobuf-c packs it. A decode of its own, since the caller's
// stays for the option checks.
void CheckFailedMerge(const IterType& t, const std::string& in, size_t size,
                      unsigned pick) {
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(in.data());
  pbci_test::ExactBuffer first(size), second(size * pick / 64);
  if (t.unpack(bytes, in.size(), first.data, first.size) < 0) {
    Fail(t, "a second unpack failed", in);
  }
  auto* msg = static_cast<ProtobufCMessage*>(first.data);
  if (t.unpack_merge(msg, bytes, in.size(), second.data, second.size) >= 0) {
    return;
  }
  const std::string broken = pbci_test::CheckMergedInvariants(
      msg, {{first.data, first.size}, {second.data, second.size}});
  if (!broken.empty()) Fail(t, "after a failed merge: " + broken, in);
  pbci_test::Pack(msg);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const IterType& t = SchemaTypes()[data[0] % SchemaTypes().size()];
  const std::string in(reinterpret_cast<const char*>(data + 1), size - 1);
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(in.data());

  std::string problems;
  pbci_test::IterResult r = pbci_test::DecodeWithIter(t, in, &problems);
  if (!problems.empty()) Fail(t, problems, in);
  if (r.code >= 0) {
    std::string broken =
        pbci_test::CheckInvariants(r.message(), r.buffer->data, r.buffer->size);
    if (!broken.empty()) Fail(t, "invariant: " + broken, in);
    pbci_test::ExactBuffer shifted(r.buffer->size + 1);
    ptrdiff_t code = t.unpack(
        bytes, in.size(), static_cast<char*>(shifted.data) + 1, r.buffer->size);
    if (code != PROTOBUF_C_ITER_ERR_ALIGNMENT) {
      Fail(t, "misaligned buffer gave " + std::to_string(code), in);
    }
    CheckFailedMerge(t, in, r.buffer->size, data[0] >> 2);
  }

  if (pbci_test::AnalyzeInput(t.desc, in).ProtobufCIsOracle()) {
    // Checks the options too.
    std::string diff = pbci_test::CheckAgainstProtobufC(t, in);
    if (!diff.empty()) Fail(t, diff, in);
  } else {
    // The options against the plain decode, with options picked by the
    // first byte's unused bits.
    std::string diff = pbci_test::CheckOptions(t, in, r, data[0] >> 2);
    if (!diff.empty()) Fail(t, diff, in);
  }
  return 0;
}
