// The hostile inputs of the team's protobuf-c compatibility notes (section
// 6, "Hostile inputs every decoder here must survive"; docs/testing.md
// lists them), each with its expected result, checked against
// protobuf-c too. Where our result differs from protobuf-c's (nesting
// beyond 100 levels, merges) the case lives in decode_test.cc's Deviation
// tests, which say why.
#include <gtest/gtest.h>
#include <protobuf-c-iter/protobuf-c-iter.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/invariants.h"
#include "support/iter_check.h"

namespace pbci_test {
namespace {

std::string FromHex(std::string hex) {
  std::string out;
  hex.erase(std::remove(hex.begin(), hex.end(), ' '), hex.end());
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

struct Edge {
  const char* what;
  const char* hex;     // a Scalars2 (iter.test.Scalars2) message
  ptrdiff_t expected;  // 0: accepted, else the error code
};

// Scalars2: f_int32 = 1 (varint), f_fixed32 = 7, f_bool = 13, f_string = 14,
// r_int32 = 21 (packable), p_fixed32 = 43 (packed fixed32), f_self = 17.
const std::vector<Edge>& Edges() {
  static const std::vector<Edge> kEdges = {
      {"empty input", "", 0},
      {"field 0 in a one-byte key", "00 01", PROTOBUF_C_ITER_ERR_MALFORMED},
      {"field 0 in a two-byte key is an unknown field", "80 00 01", 0},
      {"field 2^29-1 is an unknown field", "f8 ff ff ff 0f 01", 0},
      {"field 2^29 (5-byte key) is an unknown field", "80 80 80 80 10 01", 0},
      {"field 2^32-1 (last key byte 0x7f) is an unknown field",
       "f8 ff ff ff 7f 01", 0},
      {"a 6-byte key", "88 80 80 80 80 00 01", PROTOBUF_C_ITER_ERR_MALFORMED},
      {"overlong 10-byte varint", "08 81 80 80 80 80 80 80 80 80 00", 0},
      {"11-byte varint", "08 81 80 80 80 80 80 80 80 80 80 00",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"truncated varint", "08 96", PROTOBUF_C_ITER_ERR_MALFORMED},
      {"truncated key", "f8", PROTOBUF_C_ITER_ERR_MALFORMED},
      {"wire type 3 on an unknown field", "9b 06",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"wire type 4 on an unknown field", "9c 06",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"wire type 6", "0e 00", PROTOBUF_C_ITER_ERR_MALFORMED},
      {"wire type 7 on an unknown field", "9f 06 00",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"known field, wrong wire type", "0d 01 00 00 00",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"string with a varint wire type", "70 01",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"bool as fixed32", "6d 00 00 00 80", 0},
      {"bool as fixed64", "69 01 00 00 00 00 00 00 00", 0},
      {"bool as length-delimited", "6a 02 00 00", 0},
      {"bool as a 10-byte varint whose bits fall past 64",
       "68 80 80 80 80 80 80 80 80 80 02", 0},
      {"length past the end", "72 05 61 62", PROTOBUF_C_ITER_ERR_MALFORMED},
      {"length of 2^31", "72 80 80 80 80 08", PROTOBUF_C_ITER_ERR_MALFORMED},
      {"6-byte length prefix", "72 80 80 80 80 80 00",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"overlong 5-byte length prefix", "72 82 80 80 80 00 61 62", 0},
      {"unpacked and packed encodings mixed", "a8 01 01 aa 01 02 02 03", 0},
      {"packed fixed32 of 6 bytes", "da 02 06 01 00 00 00 02 00",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"packed varints cut in the middle", "aa 01 02 01 81",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"empty packed run", "aa 01 00", 0},
      {"sub-message running past its parent", "8a 01 03 08 01",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"malformed sub-message", "8a 01 01 08", PROTOBUF_C_ITER_ERR_MALFORMED},
      {"unmatched end-group in a sub-message", "8a 01 02 0c 00",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"scalar repeated: last wins", "08 01 08 02", 0},
      {"string with invalid UTF-8 (not checked, as protobuf-c)", "72 02 c3 28",
       0},
      {"length 2^31-1 on a short input (no pointer overflow)",
       "72 ff ff ff ff 07 61", PROTOBUF_C_ITER_ERR_MALFORMED},
      {"10-byte length of -1", "72 ff ff ff ff ff ff ff ff ff 01 61",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"packed varint longer than 10 bytes",
       "aa 01 0b 81 80 80 80 80 80 80 80 80 80 00",
       PROTOBUF_C_ITER_ERR_MALFORMED},
      {"start-group on a known field", "0b 0c", PROTOBUF_C_ITER_ERR_MALFORMED},
      // Fields declared packed, sent unpacked (legal; decoded by the
      // runtime's pbci_append_element), then packed.
      {"packed int32 sent unpacked, then packed", "c8 02 01 c8 02 96 01 ca 02 01 05", 0},
      {"packed sint64 sent unpacked", "d0 02 03 d0 02 ff ff ff ff ff ff ff ff ff 01", 0},
      {"packed fixed32 and double sent unpacked",
       "dd 02 01 00 00 00 e1 02 00 00 00 00 00 00 f0 3f", 0},
      {"packed bool sent unpacked as varint, fixed32 and fixed64",
       "e8 02 00 ed 02 00 00 00 80 e9 02 00 00 00 00 00 00 00 02", 0},
      {"packed enum sent unpacked", "f0 02 02 f0 02 01", 0},
      {"packed int32 sent unpacked, cut", "c8 02 96", PROTOBUF_C_ITER_ERR_MALFORMED},
      {"packed double sent unpacked, cut", "e1 02 00 00 00", PROTOBUF_C_ITER_ERR_MALFORMED},
  };
  return kEdges;
}

TEST(Hostile, EachInputHasItsDocumentedResultAndMatchesProtobufC) {
  const IterType& t = TypeNamed("iter.test.Scalars2");
  for (const Edge& e : Edges()) {
    SCOPED_TRACE(e.what);
    const std::string in = FromHex(e.hex);
    ptrdiff_t size =
        t.unpacked_size(reinterpret_cast<const uint8_t*>(in.data()), in.size());
    if (e.expected == 0) {
      EXPECT_GE(size, 0);
    } else {
      EXPECT_EQ(size, e.expected);
    }
    EXPECT_EQ(CheckAgainstProtobufC(t, in), "");
  }
}

// Buffers: zero size, exact, one byte short, misaligned, for an input whose
// decoding allocates at both ends of the buffer.
TEST(Hostile, Buffers) {
  const IterType& t = TypeNamed("iter.test.Scalars2");
  // f_string "abc", r_int32 [1, 2], f_self {f_int32 7}.
  const std::string in =
      FromHex("72 03 61 62 63 a8 01 01 a8 01 02 8a 01 02 08 07");
  const uint8_t* data = reinterpret_cast<const uint8_t*>(in.data());
  const ptrdiff_t size = t.unpacked_size(data, in.size());
  ASSERT_GT(size, 0);
  EXPECT_EQ(t.unpack(data, in.size(), nullptr, 0),
            PROTOBUF_C_ITER_ERR_NO_MEMORY);
  ExactBuffer exact(static_cast<size_t>(size));
  EXPECT_EQ(t.unpack(data, in.size(), exact.data, exact.size), size);
  EXPECT_EQ(CheckInvariants(static_cast<ProtobufCMessage*>(exact.data),
                            exact.data, exact.size),
            "");
  for (ptrdiff_t n = 0; n < size; n++) {
    ExactBuffer small(static_cast<size_t>(n));
    EXPECT_EQ(t.unpack(data, in.size(), small.data, small.size),
              PROTOBUF_C_ITER_ERR_NO_MEMORY)
        << n;
  }
  ExactBuffer shifted(static_cast<size_t>(size) + 8);
  EXPECT_EQ(t.unpack(data, in.size(), static_cast<char*>(shifted.data) + 4,
                     static_cast<size_t>(size)),
            PROTOBUF_C_ITER_ERR_ALIGNMENT);
}

}  // namespace
}  // namespace pbci_test
