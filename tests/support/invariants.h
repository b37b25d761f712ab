// The security model's invariants after a successful decode
// (docs/SECURITY.md), checked on a decoded message through its descriptors.
#ifndef PROTOBUF_C_ITER_TESTS_INVARIANTS_H_
#define PROTOBUF_C_ITER_TESTS_INVARIANTS_H_

#include <protobuf-c/protobuf-c.h>

#include <cstddef>
#include <string>
#include <vector>

namespace pbci_test {

// "" when every invariant holds for message `m` decoded into the `used`
// bytes at `buf`; otherwise the first violation. With
// PROTOBUF_C_ITER_ALIAS_BYTES, pass the input as `alias`: bytes contents
// may then point into it.
std::string CheckInvariants(const ProtobufCMessage* m, const void* buf,
                            size_t used, const void* alias = nullptr,
                            size_t alias_len = 0);

// A block of memory a message may point into.
struct Span {
  const void* data;
  size_t size;
};

// "" when message `m`, which x__iter_unpack_merge calls left (the last of
// them may have failed), is whole: each pointer points into one of
// `buffers` (each taken whole: after a failure, what a call used is
// unknown) or to protoc-c's defaults, each count has its array, each oneof
// case names a member, and each struct has its type's descriptor. Unlike
// CheckInvariants, required fields may be missing (a merge may start from
// X__INIT), and an array may have no elements (a run that opened and
// failed at its first element).
std::string CheckMergedInvariants(const ProtobufCMessage* m,
                                  const std::vector<Span>& buffers);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_INVARIANTS_H_
