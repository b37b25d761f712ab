// Field-by-field comparison of protobuf-c messages through their
// descriptors, exact or against the protobuf specification's merge of
// several decoded copies.
#ifndef PROTOBUF_C_ITER_TESTS_PBC_COMPARE_H_
#define PROTOBUF_C_ITER_TESTS_PBC_COMPARE_H_

#include <protobuf-c/protobuf-c.h>

#include <string>
#include <vector>

namespace pbci_test {

// "" when a and b hold the same content (every member, presence flags,
// oneof cases, unknown fields) and their strings and bytes point to the
// same kind of storage (NULL, protoc-c's static default or empty string, or
// a copy of their own); otherwise where they first differ.
std::string Diff(const ProtobufCMessage* a, const ProtobufCMessage* b);

// Diff without the unknown fields, at every level.
std::string DiffKnown(const ProtobufCMessage* a, const ProtobufCMessage* b);

// "" when `actual` is what parsing the concatenation of the copies' wire
// forms must give per the protobuf specification: later scalars win,
// sub-messages merge, repeated fields and unknown fields concatenate, a
// oneof takes its last member (merging a repeated message member).
std::string DiffMerged(const ProtobufCMessage* actual,
                       const std::vector<const ProtobufCMessage*>& copies);

// Bytes of one element of a repeated field of `type` in a protobuf-c array.
size_t ElemSize(ProtobufCType type);

// Packs `m` with protobuf-c.
std::string Pack(const ProtobufCMessage* m);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_PBC_COMPARE_H_
