// The runtime's helpers on their own: overflow checks that real inputs
// cannot reach (counts are bounded by the input length), and the readers'
// bounds.
#include <gtest/gtest.h>
#include <protobuf-c-iter/internal/decode.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace {

TEST(Runtime, GrowRefusesCountsWhoseByteSizeOverflows) {
  alignas(max_align_t) unsigned char buf[64];
  PbciArena a;
  ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
  EXPECT_EQ(pbci_grow(&a, nullptr, 0, SIZE_MAX / 4 + 1, 8), nullptr);
  EXPECT_EQ(pbci_grow(&a, nullptr, SIZE_MAX, 2, 1),
            nullptr);    // n_old + n_add wraps
  EXPECT_EQ(a.lo, buf);  // nothing was taken
}

// Bug found writing this test: pbci_alloc rounded the size up to 8 before
// comparing it with the room left, so a size within 7 of SIZE_MAX wrapped to
// 0 and "succeeded". Generated code never asks for such sizes (pbci_grow
// bounds them), but the helper must not rely on that.
TEST(Runtime, AllocOfSizeNearSizeMaxDoesNotWrap) {
  alignas(max_align_t) unsigned char buf[64];
  PbciArena a;
  ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
  EXPECT_EQ(pbci_alloc(&a, SIZE_MAX - 3), nullptr);
  EXPECT_EQ(pbci_alloc(&a, SIZE_MAX), nullptr);
  EXPECT_EQ(a.lo, buf);
}

TEST(Runtime, SizeSumsRefuseToPassPtrdiffMax) {
  PbciSize s = {};
  EXPECT_EQ(pbci_size_array(&s, SIZE_MAX / 8, 8),
            PROTOBUF_C_ITER_ERR_NO_MEMORY);
  EXPECT_EQ(pbci_size_bytes(&s, static_cast<size_t>(PTRDIFF_MAX)), 0);
  EXPECT_EQ(pbci_size_bytes(&s, 1), PROTOBUF_C_ITER_ERR_NO_MEMORY);
  EXPECT_EQ(pbci_size_array(&s, 1, 1), PROTOBUF_C_ITER_ERR_NO_MEMORY);
}

TEST(Runtime, ReadersStopAtTheEnd) {
  const uint8_t bytes[] = {0x96, 0x01, 0xff};
  uint64_t v = 0;
  EXPECT_EQ(pbci_read_varint(bytes, bytes + 2, &v), bytes + 2);
  EXPECT_EQ(v, 150u);
  EXPECT_EQ(pbci_read_varint(bytes, bytes + 1, &v), nullptr);
  EXPECT_EQ(pbci_read_varint(bytes + 2, bytes + 3, &v), nullptr);
  uint32_t u32;
  EXPECT_EQ(pbci_read_fixed32(bytes, bytes + 3, &u32), nullptr);
  const uint8_t* value_end;
  const uint8_t len[] = {0x02, 0x61};
  EXPECT_EQ(pbci_read_len(len, len + 2, &value_end), nullptr);
}

TEST(Runtime, ArenaUsesBothEnds) {
  alignas(max_align_t) unsigned char buf[32];
  PbciArena a;
  ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
  EXPECT_EQ(pbci_alloc(&a, 3), buf);             // rounded to 8
  EXPECT_EQ(pbci_alloc_bytes(&a, 5), buf + 27);  // from the top, unpadded
  EXPECT_EQ(pbci_arena_used(&a), 13);
  EXPECT_EQ(pbci_alloc(&a, 16), buf + 8);
  EXPECT_EQ(pbci_alloc(&a, 8), nullptr);  // 3 bytes left
  EXPECT_EQ(pbci_alloc_bytes(&a, 3), buf + 24);
  EXPECT_EQ(pbci_alloc_bytes(&a, 1), nullptr);
  EXPECT_EQ(pbci_arena_used(&a), 32);
}

}  // namespace

namespace {

// The reference: one byte at a time, bits beyond 64 dropped.
uint64_t ReferenceVarint(const std::vector<uint8_t>& bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes.size(); i++) v |= static_cast<uint64_t>(bytes[i] & 0x7f) << (7 * i);
  return v;
}

// Every length from 1 to 10 bytes, canonical or padded with zero groups,
// over random values, with the varint at the very end of the input or
// followed by other bytes: the word-at-a-time reader (8 readable bytes) and
// the byte loop must agree with the reference.
TEST(Runtime, VarintReadersAgreeWithTheReference) {
  uint64_t state = 0x9e3779b97f4a7c15u;
  for (int round = 0; round < 20000; round++) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    const size_t len = 1 + state % 10;
    std::vector<uint8_t> bytes(len);
    for (size_t i = 0; i < len; i++) {
      bytes[i] = static_cast<uint8_t>((state >> (i * 6)) & 0x7f) | (i + 1 < len ? 0x80 : 0);
    }
    const uint64_t want = ReferenceVarint(bytes);
    for (size_t trailing : {0, 1, 9}) {
      std::vector<uint8_t> in = bytes;
      in.insert(in.end(), trailing, 0xff);
      const uint8_t* end = in.data() + in.size();
      uint64_t v = ~want;
      ASSERT_EQ(pbci_read_varint(in.data(), end, &v), in.data() + len) << len;
      ASSERT_EQ(v, want) << len;
      v = ~want;
      // As inside a counted packed run ending right after the varint.
      ASSERT_EQ(pbci_read_counted_varint(in.data(), in.data() + len, &v), in.data() + len);
      ASSERT_EQ(v, want) << len;
      v = ~want;
      ASSERT_EQ(pbci_read_counted_varint(in.data(), end, &v), in.data() + len);
      ASSERT_EQ(v, want) << len;
    }
  }
}

}  // namespace
