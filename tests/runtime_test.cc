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
