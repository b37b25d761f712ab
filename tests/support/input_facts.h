// What a wire input holds, found by walking it with protobuf-c's
// descriptors: used to tell which inputs protobuf-c 1.4.1 is expected to
// decode correctly, and which faults the decode options must find.
#ifndef PROTOBUF_C_ITER_TESTS_INPUT_FACTS_H_
#define PROTOBUF_C_ITER_TESTS_INPUT_FACTS_H_

#include <protobuf-c-iter/protobuf-c-iter.h>
#include <protobuf-c/protobuf-c.h>

#include <string>

namespace pbci_test {

struct InputFacts {
  bool merges = false;  // a sub-message instance occurs more than once
  int max_depth = 0;    // deepest sub-message level reached (top level 0)
  // A length prefix of 2^32 or more: with a 32-bit size_t, protobuf-c reads
  // it modulo 2^32 (1.4.1's scan_length_prefixed_data shifts in size_t), so
  // it may accept what it must reject.
  bool wide_length = false;
  // A string field (not string_as_bytes) occurs with bytes that are not
  // UTF-8 (RFC 3629), NULs and overwritten occurrences included: what
  // PROTOBUF_C_ITER_VALIDATE_UTF8 must reject, read from the wire because
  // the decoded C string ends at its first NUL.
  bool bad_utf8 = false;

  // Whether protobuf-c 1.4.1 decodes the input correctly on this host, so
  // that its result is the oracle: no merges (docs: where it is wrong), no
  // nesting past our limit (it overflows its stack), no wrapped length.
  bool ProtobufCIsOracle() const {
    return !merges && max_depth <= PROTOBUF_C_ITER_MAX_DEPTH &&
           !(wide_length && sizeof(size_t) < 8);
  }
};

// The protobuf-c releases whose behaviour ProtobufCIsOracle describes:
// 1.4.1 (Debian 12) and 1.5.2, each run as the oracle of the whole suite
// (README: Supported versions). Another release must be checked the same
// way first; Oracle.ProtobufCIsAReleaseTheFactsDescribe fails until then.
constexpr uint32_t kOracleVersions[] = {1004001, 1005002};

// RFC 3629, read independently of the runtime: each code point decoded,
// its length minimal, not a surrogate, at most U+10FFFF.
bool ReferenceUtf8(const std::string& s);

InputFacts AnalyzeInput(const ProtobufCMessageDescriptor* desc,
                        const std::string& bytes);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_INPUT_FACTS_H_
