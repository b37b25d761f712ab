// The inputs of the differential test, one list per kind, deterministic per
// type: differential_test.cc checks them on this host, and the cross test
// (tests/cross) writes them to a corpus that other architectures decode.
#ifndef PROTOBUF_C_ITER_TESTS_DIFFERENTIAL_INPUTS_H_
#define PROTOBUF_C_ITER_TESTS_DIFFERENTIAL_INPUTS_H_

#include <string>
#include <vector>

#include "iter_check.h"

namespace pbci_test {

// Random messages per type and list.
constexpr int kMessagesPerType = 150;

// Whether the message type named `full_name` (libprotobuf's generated pool)
// is a map entry.
bool IsMapEntry(const std::string& full_name);

// Random messages serialized by libprotobuf.
std::vector<std::string> LibprotobufInputs(const IterType& t);

// Random messages decoded and re-packed by protobuf-c (its field order).
std::vector<std::string> ProtobufCInputs(const IterType& t);

// Random messages with their top-level fields in another order: reversed
// (no field where the decoder predicts it) or shuffled, as any serializer
// may write them.
std::vector<std::string> ReorderedInputs(const IterType& t);

// Groups of two or three random messages, to decode concatenated
// (CheckMerged). None for map entry types: libprotobuf writes their zero
// keys and values, and a decoded proto3 struct cannot show whether a zero
// was on the wire, so the reference merge cannot judge them.
std::vector<std::vector<std::string>> MergedInputs(const IterType& t);

// A corrupted input, and whether it holds exactly one fault. A message cut
// short does: it fails at the outermost field the cut splits, or, cut
// between fields, at a required field then missing from the top level; so
// unpacked_size and unpack must report the same code at the same place. A
// flipped or inserted byte may make several faults, and the sizer, which
// sizes sub-messages after their parent's fields, may meet another first.
struct CorruptedInput {
  std::string bytes;
  bool single_fault;
};

// Random messages truncated, with a byte flipped or with a byte inserted,
// six variants each, kept where protobuf-c is the oracle on this host
// (InputFacts::ProtobufCIsOracle).
std::vector<CorruptedInput> CorruptedInputs(const IterType& t);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_DIFFERENTIAL_INPUTS_H_
