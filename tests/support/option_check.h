// Checks the decode options against the plain decode of the same input:
// what each option may change and what it must not.
#ifndef PROTOBUF_C_ITER_TESTS_OPTION_CHECK_H_
#define PROTOBUF_C_ITER_TESTS_OPTION_CHECK_H_

#include <protobuf-c/protobuf-c.h>

#include <string>

#include "input_facts.h"  // ReferenceUtf8
#include "iter_check.h"

namespace pbci_test {

// Whether every string field (not string_as_bytes) of `m`, at every level,
// is valid UTF-8 as far as C sees it (up to its first NUL).
bool AllStringsUtf8(const ProtobufCMessage* m);

// Decodes `bytes` with options chosen by `selector` (bits 0-2: flags
// ALIAS_BYTES, VALIDATE_UTF8, DISCARD_UNKNOWN; bits 3-5: max_depth 0-7, 0
// the default) through x__iter_type, and checks against `plain`, the
// default decode of the same input:
//  - unpacked_size_ex equals what unpack_ex uses in a buffer of exactly
//    that size; one byte less is NO_MEMORY; the status matches the result;
//  - options never accept what the plain decode rejects; they reject what
//    it accepts exactly when a string field on the wire is not UTF-8
//    (BAD_UTF8, under VALIDATE_UTF8) or the input nests deeper than
//    max_depth (DEPTH); a rejected input fails with one of those codes or
//    the plain decode's (for Faults::kOne and neither of those, the plain
//    decode's), and unpack_ex in a buffer of the bound fails too, with the
//    same code at the same offset and field for Faults::kOne;
//  - accepted: the same content (without unknown fields under
//    DISCARD_UNKNOWN, which then leaves none), every invariant holding with
//    bytes allowed to point into the input under ALIAS_BYTES, no more buffer
//    than the plain decode, and valid strings under VALIDATE_UTF8.
// Returns "" or the problems.
std::string CheckOptions(const IterType& t, const std::string& bytes, const IterResult& plain,
                         unsigned selector, Faults faults = Faults::kAny);

// Two selectors derived from the input, for tests that check every input.
unsigned OptionSelector(const std::string& bytes, int which);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_OPTION_CHECK_H_
