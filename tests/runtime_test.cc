// The runtime's helpers on their own: overflow checks that real inputs
// cannot reach (counts are bounded by the input length), and the readers'
// bounds.
#include <gtest/gtest.h>
#include <protobuf-c-iter/internal/decode.h>
// White-box: the runtime's private functions (runtime/src).
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "measure_common.h"  // size_append
#include "runtime.h"

// tests/support/buf_align.c, built as C99 and as C11.
extern "C" {
size_t pbci_test_buf_align_c99(void);
size_t pbci_test_buffer_align_c99(void);
size_t pbci_test_buf_align_c11(void);
size_t pbci_test_buffer_align_c11(void);
}

namespace {

TEST(Runtime, GrowRefusesCountsWhoseByteSizeOverflows) {
  alignas(max_align_t) unsigned char buf[64];
  PbciArena a = {};
  ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
  EXPECT_EQ(pbci_grow(&a, nullptr, 0, SIZE_MAX / 4 + 1, 8, nullptr), nullptr);
  EXPECT_EQ(pbci_grow(&a, nullptr, SIZE_MAX, 2, 1, nullptr),
            nullptr);    // n_old + n_add wraps
  EXPECT_EQ(a.lo, buf);  // nothing was taken
}

// Bug found writing this test: pbci_alloc rounded the size up to 8 before
// comparing it with the room left, so a size within 7 of SIZE_MAX wrapped to
// 0 and "succeeded". Generated code never asks for such sizes (pbci_grow
// bounds them), but the helper must not rely on that.
TEST(Runtime, AllocOfSizeNearSizeMaxDoesNotWrap) {
  alignas(max_align_t) unsigned char buf[64];
  PbciArena a = {};
  ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
  EXPECT_EQ(pbci_alloc(&a, SIZE_MAX - 3), nullptr);
  EXPECT_EQ(pbci_alloc(&a, SIZE_MAX), nullptr);
  EXPECT_EQ(a.lo, buf);
}

// Bug found reviewing the docs: PROTOBUF_C_ITER_BUF_ALIGN was
// alignof(max_align_t) in C11 and C++, 16 on i386, but the union
// PROTOBUF_C_ITER_BUFFER declares is aligned to 4 there (the ABI places long
// long and long double in structs at 4), so such a buffer in a struct, after
// a char, failed with ERR_ALIGNMENT; and C99 asked 4, so a buffer a C99
// caller declared failed in a runtime built as C11. Both checked on i386 by
// runtime_test.m32.
TEST(Runtime, BufferMacroLessAlignedThanBufAlignOnI386) {
  struct Holder {
    char c;
    PROTOBUF_C_ITER_BUFFER(buf, 8);
  };
  // Each buffer after a char: at the least offset its alignment allows,
  // which the array's own alignment cannot round up.
  alignas(max_align_t) Holder holders[4];
  for (Holder& h : holders) {
    PbciArena a = {};
    EXPECT_EQ(pbci_arena_init(&a, nullptr, 0, h.buf.bytes, sizeof h.buf.bytes),
              0)
        << "buffer at offset "
        << (reinterpret_cast<const char*>(h.buf.bytes) - &holders[0].c);
  }
}

TEST(Runtime, BufAlignDifferedBetweenC99AndC11OnI386) {
  EXPECT_EQ(pbci_test_buf_align_c99(), PROTOBUF_C_ITER_BUF_ALIGN);
  EXPECT_EQ(pbci_test_buf_align_c11(), PROTOBUF_C_ITER_BUF_ALIGN);
  EXPECT_GE(pbci_test_buffer_align_c99(), PROTOBUF_C_ITER_BUF_ALIGN);
  EXPECT_GE(pbci_test_buffer_align_c11(), PROTOBUF_C_ITER_BUF_ALIGN);
  // What the header promises: malloc's alignment suffices.
  EXPECT_LE(PROTOBUF_C_ITER_BUF_ALIGN, alignof(max_align_t));
}

// Array byte sizes are n * elem_size with overflow turned into SIZE_MAX,
// which no room check passes.
TEST(Runtime, MulSizeSaturatesOnOverflow) {
  EXPECT_EQ(pbci_mul_size(0, 24), 0u);
  EXPECT_EQ(pbci_mul_size(SIZE_MAX, 0), 0u);
  EXPECT_EQ(pbci_mul_size(SIZE_MAX / 8, 8), SIZE_MAX / 8 * 8);
  EXPECT_EQ(pbci_mul_size(SIZE_MAX / 8 + 1, 8), SIZE_MAX);
  EXPECT_EQ(pbci_mul_size(SIZE_MAX / 24 + 1, 24), SIZE_MAX);
  EXPECT_EQ(pbci_mul_size(SIZE_MAX, SIZE_MAX), SIZE_MAX);
  EXPECT_EQ(pbci_mul_size(1000, 24), 24000u);
}

TEST(Runtime, SizeSumsRefuseToPassPtrdiffMax) {
  PbciSize s = {};
  EXPECT_EQ(pbci_size_bytes(&s, static_cast<size_t>(PTRDIFF_MAX)), 0);
  EXPECT_EQ(pbci_size_bytes(&s, 1), PROTOBUF_C_ITER_ERR_NO_MEMORY);
  EXPECT_EQ(pbci_size_struct(&s, 1), PROTOBUF_C_ITER_ERR_NO_MEMORY);
}

// The sizers' growth step (size_append) grows by the policy and refuses
// to pass its limit, an array too large for a size_t included.
TEST(Runtime, SizerGrowthRefusesToPassItsLimit) {
  const size_t limit = static_cast<size_t>(PTRDIFF_MAX);
  size_t n = 0, cap = 0, lo = 0;
  EXPECT_EQ(size_append(&n, &cap, 1, SIZE_MAX / 8 + 1, 8, &lo, limit), PBCI_DECLINED);
  n = cap = lo = 0;
  EXPECT_EQ(size_append(&n, &cap, 1, SIZE_MAX / 8, 8, &lo, limit), PBCI_DECLINED);
  n = cap = lo = 0;
  EXPECT_EQ(size_append(&n, &cap, 3, 3, 8, &lo, limit), 0);
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(cap, 3u);
  EXPECT_EQ(lo, pbci_array_bytes(3, 8));
  EXPECT_EQ(size_append(&n, &cap, 1, 4, 8, &lo, limit), 0);  // doubles to 6
  EXPECT_EQ(cap, 6u);
  EXPECT_EQ(lo, pbci_array_bytes(3, 8) + pbci_array_bytes(6, 8));
  EXPECT_EQ(size_append(&n, &cap, 2, 6, 8, &lo, limit), 0);  // fits: no bytes
  EXPECT_EQ(lo, pbci_array_bytes(3, 8) + pbci_array_bytes(6, 8));
  n = cap = lo = 0;
  EXPECT_EQ(size_append(&n, &cap, 1, 1, 8, &lo, pbci_array_bytes(1, 8) - 1), PBCI_DECLINED);
  EXPECT_EQ(lo, 0u);
}

// The allocation policy the decoder and both sizers share: a struct
// rounded to PBCI_ALIGN, an array its header and its elements rounded so,
// SIZE_MAX (which no room check passes) when that overflows.
TEST(Runtime, AllocationPolicyRoundsAndSaturates) {
  EXPECT_EQ(pbci_struct_bytes(1), size_t{PBCI_ALIGN});
  EXPECT_EQ(pbci_struct_bytes(PBCI_ALIGN), size_t{PBCI_ALIGN});
  EXPECT_EQ(pbci_array_bytes(0, 8), size_t{PROTOBUF_C_ITER_ARRAY_HEADER});
  EXPECT_EQ(pbci_array_bytes(3, 1), PROTOBUF_C_ITER_ARRAY_HEADER + PBCI_ALIGN);
  EXPECT_EQ(pbci_array_bytes(5, 8),
            PROTOBUF_C_ITER_ARRAY_HEADER + (40 + PBCI_ALIGN - 1) / PBCI_ALIGN * PBCI_ALIGN);
  EXPECT_EQ(pbci_array_bytes(SIZE_MAX / 8 + 1, 8), SIZE_MAX);
  EXPECT_EQ(pbci_array_bytes(SIZE_MAX / 8, 8), SIZE_MAX);  // no room for the header
  // What a decoder allocates for an array is what the policy counts.
  alignas(max_align_t) unsigned char buf[256];
  PbciArena a = {};
  ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
  ASSERT_NE(pbci_grow(&a, nullptr, 0, 5, 8, nullptr), nullptr);
  EXPECT_EQ(static_cast<size_t>(a.lo - buf), pbci_array_bytes(5, 8));
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

// Predicted two-byte keys are checked as pbci_key2(p) == PBCI_KEY2(b0, b1):
// the macro (the generator's constant) and the reader must agree on every
// byte pair, and no two pairs may read alike.
TEST(Runtime, Key2ReadsBothKeyBytesInWireOrder) {
  std::vector<bool> seen(1u << 16, false);
  for (unsigned b0 = 0; b0 < 256; b0++) {
    for (unsigned b1 = 0; b1 < 256; b1++) {
      const uint8_t key[] = {static_cast<uint8_t>(b0), static_cast<uint8_t>(b1)};
      const uint32_t v = pbci_key2(key);
      ASSERT_EQ(v, PBCI_KEY2(b0, b1)) << b0 << " " << b1;
      ASSERT_LT(v, seen.size());
      ASSERT_FALSE(seen[v]) << b0 << " " << b1;
      seen[v] = true;
    }
  }
}

TEST(Runtime, ArenaUsesBothEnds) {
  alignas(max_align_t) unsigned char buf[32];
  PbciArena a = {};
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
  for (size_t i = 0; i < bytes.size(); i++)
    v |= static_cast<uint64_t>(bytes[i] & 0x7f) << (7 * i);
  return v;
}

// Every length from 1 to 10 bytes, canonical or padded with zero groups,
// over random values, with the varint at the very end of the input or
// followed by other bytes: the unrolled reader (10 readable bytes), the
// bounded loop (fewer) and the packed-run reader must agree with the
// reference; cut short, or run past 10 bytes, each must fail.
TEST(Runtime, VarintReadersAgreeWithTheReference) {
  uint64_t state = 0x9e3779b97f4a7c15u;
  for (int round = 0; round < 20000; round++) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    const size_t len = 1 + state % 10;
    std::vector<uint8_t> bytes(len);
    for (size_t i = 0; i < len; i++) {
      bytes[i] = static_cast<uint8_t>((state >> (i * 6)) & 0x7f) |
                 (i + 1 < len ? 0x80 : 0);
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
      // As inside a packed run ending right after the varint, or with more
      // one-byte values (a run's last byte ends a varint).
      ASSERT_EQ(pbci_read_run_varint(in.data(), in.data() + len, &v),
                in.data() + len);
      ASSERT_EQ(v, want) << len;
      v = ~want;
      std::vector<uint8_t> run = bytes;
      run.insert(run.end(), trailing, 0x01);
      ASSERT_EQ(pbci_read_run_varint(run.data(), run.data() + run.size(), &v), run.data() + len);
      ASSERT_EQ(v, want) << len;
    }
    uint64_t v = 0;
    if (len > 1) {
      ASSERT_EQ(pbci_read_varint(bytes.data(), bytes.data() + len - 1, &v), nullptr) << len;
    }
    // Continuation bytes up to 10 (an 11-byte varint) or 11, then a last
    // byte, then slack.
    for (size_t continued : {10, 11}) {
      std::vector<uint8_t> overlong = bytes;
      overlong.back() |= 0x80;
      overlong.resize(continued, 0x80);
      overlong.insert(overlong.end(), {0x01, 0, 0, 0});
      const uint8_t* end = overlong.data() + overlong.size();
      ASSERT_EQ(pbci_read_varint(overlong.data(), end, &v), nullptr) << len;
      ASSERT_EQ(pbci_read_run_varint(overlong.data(), end - 3, &v), nullptr) << len;
    }
  }
}

}  // namespace

namespace {

// A value's wire form: its length prefix (a varint), then its bytes.
std::vector<uint8_t> LengthPrefixed(const std::vector<uint8_t>& value) {
  std::vector<uint8_t> wire;
  size_t n = value.size();
  do {
    wire.push_back(static_cast<uint8_t>((n & 0x7f) | (n > 0x7f ? 0x80 : 0)));
    n >>= 7;
  } while (n != 0);
  wire.insert(wire.end(), value.begin(), value.end());
  return wire;
}

// Appends the packed run `run`, framed as on the wire (its length prefix,
// then one byte of the next field), and checks where the call stops.
PbciAppend AppendRun(PbciArena* a, void* array, size_t* n, size_t* cap,
                     const std::vector<uint8_t>& run, unsigned kind) {
  std::vector<uint8_t> wire = LengthPrefixed(run);
  wire.push_back(0x08);
  const uint8_t* end = wire.data() + wire.size();
  PbciAppend r = pbci_append_packed(a, array, n, cap, wire.data(), end, kind);
  EXPECT_EQ(r.next, r.err == 0 ? end - 1 : nullptr);
  return r;
}

// Appends `run` as `kind` to a new array (*n = *cap = 0) in an arena over
// buf's `size` bytes.
PbciAppend AppendToNewArray(unsigned char* buf, size_t size,
                            const std::vector<uint8_t>& run, unsigned kind,
                            size_t* n, size_t* cap) {
  PbciArena a = {};
  EXPECT_EQ(pbci_arena_init(&a, nullptr, 0, buf, size), 0);
  *n = 0;
  *cap = 0;
  return AppendRun(&a, nullptr, n, cap, run, kind);
}

// An arena over `buf` holding exactly `size` bytes, no options.
PbciArena ArenaOf(std::vector<unsigned char>* buf, size_t size) {
  PbciArena a = {};
  buf->assign(size + 16, 0xee);  // 0xee past the end: must stay untouched
  EXPECT_EQ(pbci_arena_init(&a, nullptr, 0, buf->data(), size), 0);
  return a;
}

// The short-string paths (one-byte length: copied inline or as fixed-size
// moves) and the general one (longer values, two-byte lengths)
// must copy every length exactly, take n + 1 bytes from the top and refuse a
// buffer one byte short without touching it.
TEST(Runtime, TakeStringCopiesEveryLengthAndItsNul) {
  for (size_t n = 0; n < 300; n++) {
    std::vector<uint8_t> value(n);
    for (size_t i = 0; i < n; i++)
      value[i] = static_cast<uint8_t>('a' + i % 26);
    const std::vector<uint8_t> wire = LengthPrefixed(value);
    const uint8_t* end = wire.data() + wire.size();
    std::vector<unsigned char> buf;
    PbciArena a = ArenaOf(&buf, n + 1);
    ptrdiff_t err = 0;
    PbciString s = pbci_take_string(&a, wire.data(), end, &err);
    ASSERT_EQ(s.next, end) << n;
    ASSERT_EQ(s.s, reinterpret_cast<char*>(buf.data())) << n;
    ASSERT_EQ(std::string(s.s), std::string(value.begin(), value.end())) << n;
    ASSERT_EQ(buf[n + 1], 0xee) << n;
    ASSERT_EQ(a.hi, a.lo) << n;

    a = ArenaOf(&buf, n);
    s = pbci_take_string(&a, wire.data(), end, &err);
    ASSERT_EQ(s.next, nullptr) << n;
    ASSERT_EQ(err, PROTOBUF_C_ITER_ERR_NO_MEMORY) << n;
    ASSERT_EQ(a.hi, buf.data() + n) << n;

    a = ArenaOf(&buf, n + 1);
    s = pbci_take_string(&a, wire.data(), end - 1, &err);  // truncated
    ASSERT_EQ(s.next, nullptr) << n;
    ASSERT_EQ(err, PROTOBUF_C_ITER_ERR_MALFORMED) << n;
  }
}

// Places each value of 0 to n_max bytes (letters) `before` bytes into its
// input and takes it with `take` into an arena of the `n + nul` bytes its
// copy needs and `spare` more, above an 8-byte allocation, for each `before`
// and `spare` in `steps`. `take(arena, value, end, &next)` returns the copy.
// Checks that the whole value is read, the copy is exact (with its NUL when
// nul is 1) at the top of the buffer, and nothing is written to the
// allocation below the free space or past the buffer (canary bytes); ASan
// reports a read before the input.
template <typename Take>
void CheckCopiesAtEveryPlace(size_t n_max, const std::vector<size_t>& steps,
                             size_t nul, Take take) {
  for (size_t n = 0; n <= n_max; n++) {
    std::vector<uint8_t> value(n);
    for (size_t i = 0; i < n; i++) value[i] = static_cast<uint8_t>('A' + i % 26);
    for (size_t before : steps) {
      std::vector<uint8_t> input(before, 0x55);
      const std::vector<uint8_t> wire = LengthPrefixed(value);
      input.insert(input.end(), wire.begin(), wire.end());
      const uint8_t* end = input.data() + input.size();
      for (size_t spare : steps) {
        SCOPED_TRACE(testing::Message() << n << " bytes, " << before
                                        << " before, " << spare << " spare");
        std::vector<unsigned char> buf;
        PbciArena a = ArenaOf(&buf, 8 + spare + n + nul);
        a.ctx.data = input.data();  // as unpack sets it
        pbci_arena_set_floor(&a, input.data());
        unsigned char* low = static_cast<unsigned char*>(pbci_alloc(&a, 8));
        ASSERT_NE(low, nullptr);
        memset(low, 0x77, 8);
        const uint8_t* next = nullptr;
        const unsigned char* copy = take(&a, input.data() + before, end, &next);
        ASSERT_EQ(next, end);
        ASSERT_EQ(copy, buf.data() + 8 + spare);
        ASSERT_EQ(std::vector<uint8_t>(copy, copy + n), value);
        if (nul != 0) {
          ASSERT_EQ(copy[n], 0);
        }
        for (size_t i = 0; i < 8; i++) ASSERT_EQ(low[i], 0x77);
        for (size_t i = 0; i < 16; i++) {
          ASSERT_EQ(buf[8 + spare + n + nul + i], 0xee);
        }
      }
    }
  }
}

// Strings anywhere in the input with any room to spare (values 0-130 bytes,
// 0-129 bytes of input before them and of room beyond the string). The
// steps straddle the blocks the short paths move (16, 64 and 128 bytes
// ending where the value ends): a block needs that many input bytes before
// the value's end and one more byte of room.
TEST(Runtime, TakeStringCopiesNearTheInputsStartAndWithLittleRoom) {
  CheckCopiesAtEveryPlace(
      130, {0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129}, 1,
      [](PbciArena* a, const uint8_t* p, const uint8_t* end,
         const uint8_t** next) {
        ptrdiff_t err = 0;
        PbciString s = pbci_take_string(a, p, end, &err);
        *next = s.next;
        return reinterpret_cast<const unsigned char*>(s.s);
      });
}

// Validation on whichever path copies the value: a short one with little
// room or near the input's start (out of line) and with both to spare (the
// inline 16-byte move).
TEST(Runtime, TakeStringValidatesUtf8WhenAsked) {
  for (size_t before : {0, 20}) {
    std::vector<uint8_t> input(before, 0x55);
    const std::vector<uint8_t> wire = LengthPrefixed({'o', 'k', 0xc3, 0x28});
    input.insert(input.end(), wire.begin(), wire.end());
    const uint8_t* value = input.data() + before;
    const uint8_t* end = input.data() + input.size();
    for (size_t room : {16, 64}) {
      std::vector<unsigned char> buf;
      PbciArena a = ArenaOf(&buf, room);
      a.ctx.data = input.data();
      pbci_arena_set_floor(&a, input.data());
      ptrdiff_t err = 0;
      EXPECT_EQ(pbci_take_string(&a, value, end, &err).next, end)
          << before << " " << room;
      a = ArenaOf(&buf, room);
      a.ctx.data = input.data();
      a.ctx.flags = PROTOBUF_C_ITER_VALIDATE_UTF8;
      pbci_arena_set_floor(&a, input.data());  // as unpack: flags first
      EXPECT_EQ(pbci_take_string(&a, value, end, &err).next, nullptr)
          << before << " " << room;
      EXPECT_EQ(err, PROTOBUF_C_ITER_ERR_BAD_UTF8) << before << " " << room;
    }
  }
}

TEST(Runtime, TakeBytesCopiesOrAliases) {
  for (size_t n : {0, 1, 5, 17, 32, 33, 200}) {
    const std::vector<uint8_t> value(n, 0x5a);
    const std::vector<uint8_t> wire = LengthPrefixed(value);
    const uint8_t* end = wire.data() + wire.size();
    std::vector<unsigned char> buf;
    PbciArena a = ArenaOf(&buf, n);
    ProtobufCBinaryData bd = {7, nullptr};
    ptrdiff_t err = 0;
    ASSERT_EQ(pbci_take_bytes(&a, &bd, wire.data(), end, &err), end) << n;
    ASSERT_EQ(bd.len, n);
    ASSERT_EQ(bd.data, n == 0 ? nullptr : buf.data()) << n;
    ASSERT_EQ(std::vector<uint8_t>(bd.data, bd.data + n), value) << n;
    a = ArenaOf(&buf, 0);
    a.ctx.flags = PROTOBUF_C_ITER_ALIAS_BYTES;
    ASSERT_EQ(pbci_take_bytes(&a, &bd, wire.data(), end, &err), end) << n;
    ASSERT_EQ(bd.data, n == 0 ? nullptr : wire.data() + wire.size() - n) << n;
    if (n == 0) continue;
    a = ArenaOf(&buf, n - 1);
    ASSERT_EQ(pbci_take_bytes(&a, &bd, wire.data(), end, &err), nullptr) << n;
    ASSERT_EQ(err, PROTOBUF_C_ITER_ERR_NO_MEMORY);
  }
}

// pbci_take_bytes' copy (put_value, which unknown fields share): a value of
// up to 16 bytes moves as 16 bytes ending where it ends, which needs 16 bytes
// of input before that end and 16 of room; byte-exact otherwise. Values of
// 1-20 bytes, 0-33 bytes of input before them and of room to spare.
TEST(Runtime, TakeBytesCopiesNearTheInputsStartAndWithLittleRoom) {
  CheckCopiesAtEveryPlace(20, {0, 1, 2, 13, 14, 15, 16, 17, 18, 31, 32, 33}, 0,
                          [](PbciArena* a, const uint8_t* p, const uint8_t* end,
                             const uint8_t** next) -> const unsigned char* {
                            ProtobufCBinaryData bd = {0, nullptr};
                            ptrdiff_t err = 0;
                            *next = pbci_take_bytes(a, &bd, p, end, &err);
                            if (bd.len != static_cast<size_t>(end - p - 1))
                              return nullptr;
                            // An empty value takes no room: the top, as an
                            // empty copy would be.
                            return bd.len == 0 ? a->hi : bd.data;
                          });
}

// An array as the decoder allocates it: a header (capacity, owner) before
// the elements. The tests' arrays name no owner, so the runtime treats them
// as full and copies them when they grow, as it does a struct copy's.
template <typename T, size_t N>
struct HeadedArray {
  PbciArrayHeader header = {N, nullptr};
  T elements[N];
};
using HeadedPair = HeadedArray<uint64_t, 2>;
static_assert(offsetof(HeadedPair, elements) == PROTOBUF_C_ITER_ARRAY_HEADER,
              "elements follow the header as in the decoder's arrays");

// Varints of every length a packed run holds, as bytes.
std::vector<std::vector<uint8_t>> VarintSamples() {
  return {{0x00},
          {0x01},
          {0x7f},
          {0x96, 0x01},
          {0xff, 0xff, 0xff, 0xff, 0x0f},
          // -2 as int32: ten bytes
          {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
          // Only bits beyond 64 set: 0 as a number, true as a bool.
          {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02},
          {0x81, 0x80, 0x80, 0x00}};
}

// Appends `run` with `append` to an array holding `n_old` elements of T
// (capacity n_old), and checks the elements against `convert`.
template <typename T, typename Convert>
void CheckPackedRun(unsigned kind,
                    const std::vector<std::vector<uint8_t>>& values,
                    Convert convert) {
  std::vector<uint8_t> run;
  for (int copy = 0; copy < 3; copy++) {  // past 8 one-byte values too
    for (const auto& v : values) run.insert(run.end(), v.begin(), v.end());
  }
  for (int i = 0; i < 9; i++) run.push_back(static_cast<uint8_t>(i));
  const size_t want_n = 3 * values.size() + 9;
  alignas(max_align_t) unsigned char buf[4096];
  PbciArena a = {};
  ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
  HeadedArray<T, 2> headed;
  T* old = headed.elements;
  old[0] = T(1);
  old[1] = T(0);
  size_t n = 2, cap = 2;
  PbciAppend r = AppendRun(&a, old, &n, &cap, run, kind);
  ASSERT_EQ(r.err, 0);
  ASSERT_EQ(n, 2 + want_n);
  ASSERT_GE(cap, n);
  const T* got = static_cast<const T*>(r.array);
  EXPECT_EQ(got[0], T(1));
  size_t k = 2;
  for (int copy = 0; copy < 3; copy++) {
    for (const auto& v : values) EXPECT_EQ(got[k++], convert(v)) << k;
  }
  for (int i = 0; i < 9; i++) {
    EXPECT_EQ(got[k++], convert(std::vector<uint8_t>{static_cast<uint8_t>(i)}));
  }
  // Failures leave the array and its count alone.
  r = AppendRun(&a, old, &n, &cap, {0x01, 0x80}, kind);  // ends inside a varint
  EXPECT_EQ(r.err, PROTOBUF_C_ITER_ERR_MALFORMED);
  EXPECT_EQ(r.array, static_cast<void*>(old));
  size_t n2 = 2, cap2 = 2;
  PbciArena full = {};
  ASSERT_EQ(pbci_arena_init(&full, nullptr, 0, buf, 8), 0);
  r = AppendRun(&full, old, &n2, &cap2, run, kind);
  EXPECT_EQ(r.err, PROTOBUF_C_ITER_ERR_NO_MEMORY);
  EXPECT_EQ(r.array, static_cast<void*>(old));
  EXPECT_EQ(n2, 2u);
}

// The count of a varint run (pbci_count_varints, eight bytes at a time),
// the check for over-long varints (pbci_varints_fit, eight at a time on
// little-endian hosts) and the sizer's checked count, against a byte at a
// time. Runs of random one-byte values, varints of 2 to 11 bytes (11 is
// over-long) and a cut last varint, at every length up to 80 bytes.
TEST(Runtime, CountVarintsMatchesAByteAtATimeCount) {
  constexpr size_t kBad = static_cast<size_t>(-1);
  struct Reference {
    size_t count = 0;  // last bytes; kBad when the run's last byte continues
    bool fit = true;   // no ten continuation bytes in a row
  };
  auto reference = [](const std::vector<uint8_t>& run) {
    Reference r;
    size_t continued = 0;
    for (uint8_t byte : run) {
      if (byte < 0x80) {
        r.count++;
        continued = 0;
      } else if (++continued == 10) {
        r.fit = false;
      }
    }
    if (!run.empty() && run.back() >= 0x80) r.count = kBad;
    return r;
  };
  uint32_t seed = 12345;
  auto next = [&seed](uint32_t bound) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % bound;
  };
  size_t over_long = 0, cut = 0;
  for (int i = 0; i < 20000; i++) {
    std::vector<uint8_t> run;
    const size_t length = next(81);
    while (run.size() < length) {
      // Mostly one-byte values, so that whole words of them occur.
      const size_t bytes = next(4) != 0 ? 1 : 2 + next(10);
      for (size_t b = 0; b + 1 < bytes; b++) run.push_back(static_cast<uint8_t>(0x80 | next(128)));
      run.push_back(static_cast<uint8_t>(next(128)));
    }
    run.resize(length);  // may cut the last varint
    const Reference want = reference(run);
    const uint8_t* const p = run.data();
    const uint8_t* const end = p + run.size();
    over_long += !want.fit;
    cut += want.count == kBad;
    EXPECT_EQ(pbci_count_varints(p, end), want.count) << "case " << i << ", " << run.size() << " bytes";
    EXPECT_EQ(pbci_varints_fit(p, end) != 0, want.fit) << "case " << i;
    EXPECT_EQ(pbci_count_checked_varints(p, end), want.fit ? want.count : kBad) << "case " << i;
  }
  // Every outcome was exercised.
  EXPECT_GT(over_long, 1000u);
  EXPECT_GT(cut, 1000u);
  EXPECT_LT(over_long + cut, 19000u);
}

TEST(Runtime, PackedVarintRunsConvertLikeSingleValues) {
  const auto values = VarintSamples();
  auto raw = [](const std::vector<uint8_t>& v) { return ReferenceVarint(v); };
  CheckPackedRun<int32_t>(
      PBCI_PACKED_VARINT32, values, [&](const std::vector<uint8_t>& v) {
        return static_cast<int32_t>(static_cast<uint32_t>(raw(v)));
      });
  CheckPackedRun<int32_t>(PBCI_PACKED_SINT32, values,
                          [&](const std::vector<uint8_t>& v) {
                            return pbci_zigzag32(static_cast<uint32_t>(raw(v)));
                          });
  CheckPackedRun<uint64_t>(PBCI_PACKED_VARINT64, values, raw);
  CheckPackedRun<int64_t>(
      PBCI_PACKED_SINT64, values,
      [&](const std::vector<uint8_t>& v) { return pbci_zigzag64(raw(v)); });
  // protobuf-c 1.4.1: true when any byte has a low bit set.
  CheckPackedRun<protobuf_c_boolean>(PBCI_PACKED_BOOL, values,
                                     [](const std::vector<uint8_t>& v) {
                                       protobuf_c_boolean b = 0;
                                       for (uint8_t byte : v)
                                         b |= (byte & 0x7f) != 0;
                                       return b;
                                     });
}

// Runs of one-byte values (eight and sixteen at a time, widened in vector
// registers on x86) hold every value 0-127 of each kind, after 0 to 17
// two-byte values that move them across word and vector boundaries, and
// before a tail of 0 to 16 more.
template <typename T, typename Convert>
void CheckOneByteRuns(unsigned kind, Convert convert) {
  for (int lead = 0; lead <= 17; lead++) {
    for (int tail = 0; tail <= 16; tail += 5) {
      std::vector<uint8_t> run;
      std::vector<T> want;
      for (int i = 0; i < lead; i++) {
        run.insert(run.end(), {0x81, 0x01});  // 129
        want.push_back(convert(129));
      }
      for (int i = 0; i < 128 + tail; i++) {
        const uint8_t v = static_cast<uint8_t>((i * 37 + lead) % 128);
        run.push_back(v);
        want.push_back(convert(v));
      }
      alignas(max_align_t) unsigned char buf[4096];
      size_t n, cap;
      PbciAppend r = AppendToNewArray(buf, sizeof buf, run, kind, &n, &cap);
      ASSERT_EQ(r.err, 0);
      ASSERT_EQ(n, want.size());
      const T* got = static_cast<const T*>(r.array);
      for (size_t i = 0; i < n; i++) {
        ASSERT_EQ(got[i], want[i]) << "kind " << kind << ", lead " << lead
                                   << ", tail " << tail << ", element " << i;
      }
    }
  }
}

TEST(Runtime, OneByteRunsWidenLikeSingleValues) {
  CheckOneByteRuns<int32_t>(PBCI_PACKED_VARINT32,
                            [](uint64_t v) { return static_cast<int32_t>(v); });
  CheckOneByteRuns<int32_t>(PBCI_PACKED_SINT32, [](uint64_t v) {
    return pbci_zigzag32(static_cast<uint32_t>(v));
  });
  CheckOneByteRuns<uint64_t>(PBCI_PACKED_VARINT64,
                             [](uint64_t v) { return v; });
  CheckOneByteRuns<int64_t>(PBCI_PACKED_SINT64,
                            [](uint64_t v) { return pbci_zigzag64(v); });
  CheckOneByteRuns<protobuf_c_boolean>(PBCI_PACKED_BOOL, [](uint64_t v) {
    return static_cast<protobuf_c_boolean>(v != 0);
  });
}

// Runs of long values (3 bytes or more on average: their ends found 64
// bytes at a time, and on x86 two values read at once): 1 to 60 values of
// 1 to 10 bytes with random bits, so that values start anywhere in a
// window and end in the next, in each kind; the same runs with an 11-byte
// varint in place of one value are malformed.
template <typename T, typename Convert>
void CheckLongRuns(unsigned kind, Convert convert) {
  std::mt19937_64 rng(kind);
  auto varint = [&rng](size_t len) {
    std::vector<uint8_t> v;
    for (size_t b = 0; b < len; b++) {
      v.push_back(
          static_cast<uint8_t>((rng() & 0x7f) | (b + 1 < len ? 0x80 : 0)));
    }
    return v;
  };
  int long_runs = 0;
  for (int trial = 0; trial < 400; trial++) {
    const size_t n = 1 + rng() % 60;
    std::vector<std::vector<uint8_t>> values;
    std::vector<uint8_t> run;
    for (size_t i = 0; i < n; i++) {
      values.push_back(varint(rng() % 4 == 0 ? 1 + rng() % 10 : 3 + rng() % 8));
      run.insert(run.end(), values.back().begin(), values.back().end());
    }
    long_runs += run.size() >= 3 * n && run.size() >= 80;
    alignas(max_align_t) unsigned char buf[4096];
    size_t got_n, cap;
    PbciAppend r = AppendToNewArray(buf, sizeof buf, run, kind, &got_n, &cap);
    ASSERT_EQ(r.err, 0) << "kind " << kind << ", trial " << trial;
    ASSERT_EQ(got_n, n);
    const T* got = static_cast<const T*>(r.array);
    for (size_t i = 0; i < n; i++) {
      ASSERT_EQ(got[i], convert(ReferenceVarint(values[i])))
          << "kind " << kind << ", trial " << trial << ", element " << i;
    }
    const size_t bad = rng() % n;
    run.clear();
    for (size_t i = 0; i < n; i++) {
      const std::vector<uint8_t> v = i == bad ? varint(11) : values[i];
      run.insert(run.end(), v.begin(), v.end());
    }
    r = AppendToNewArray(buf, sizeof buf, run, kind, &got_n, &cap);
    ASSERT_EQ(r.err, PROTOBUF_C_ITER_ERR_MALFORMED)
        << "kind " << kind << ", trial " << trial << ", bad " << bad;
    ASSERT_EQ(got_n, 0u);
  }
  EXPECT_GT(long_runs, 200);  // most runs take the windowed path
}

TEST(Runtime, LongValueRunsReadLikeSingleValues) {
  CheckLongRuns<int32_t>(PBCI_PACKED_VARINT32, [](uint64_t v) {
    return static_cast<int32_t>(static_cast<uint32_t>(v));
  });
  CheckLongRuns<int32_t>(PBCI_PACKED_SINT32, [](uint64_t v) {
    return pbci_zigzag32(static_cast<uint32_t>(v));
  });
  CheckLongRuns<uint64_t>(PBCI_PACKED_VARINT64, [](uint64_t v) { return v; });
  CheckLongRuns<int64_t>(PBCI_PACKED_SINT64,
                         [](uint64_t v) { return pbci_zigzag64(v); });
}

// A new array's run of varints is stored in place, uncounted, when the
// buffer has room for as many values as the run has bytes, and counted
// first with a byte less: the same array either way, at the same place,
// taking the same bytes (which unpacked_size counts).
TEST(Runtime, UncountedRunsLayOutAsCountedOnes) {
  for (unsigned kind :
       {PBCI_PACKED_VARINT32, PBCI_PACKED_SINT64, PBCI_PACKED_BOOL}) {
    const size_t size = kind == PBCI_PACKED_SINT64 ? 8 : 4;
    std::vector<uint8_t> run;
    for (int i = 0; i < 40; i++) {
      run.insert(run.end(), {0x81, 0x80, 0x01});  // 3 bytes
      run.push_back(static_cast<uint8_t>(i));     // 1 byte
    }
    const size_t in_place =
        PROTOBUF_C_ITER_ARRAY_HEADER + PBCI_ALIGN + run.size() * size;
    std::vector<unsigned char> layout[2];
    ptrdiff_t used[2];
    for (int counted = 0; counted < 2; counted++) {
      std::vector<unsigned char> buf;
      PbciArena a = ArenaOf(&buf, in_place - static_cast<size_t>(counted));
      memset(buf.data(), 0, in_place - static_cast<size_t>(counted));
      size_t n = 0, cap = 0;
      PbciAppend r = AppendRun(&a, nullptr, &n, &cap, run, kind);
      ASSERT_EQ(r.err, 0) << kind;
      ASSERT_EQ(n, 80u);
      ASSERT_EQ(cap, 80u);
      EXPECT_EQ(static_cast<unsigned char*>(r.array),
                buf.data() + PROTOBUF_C_ITER_ARRAY_HEADER);
      used[counted] = pbci_arena_used(&a);
      layout[counted].assign(buf.data() + PROTOBUF_C_ITER_ARRAY_HEADER,
                             buf.data() + used[counted]);
    }
    EXPECT_EQ(used[0], used[1]) << kind;
    EXPECT_EQ(used[0], static_cast<ptrdiff_t>(PROTOBUF_C_ITER_ARRAY_HEADER +
                                              PBCI_ROUND(80 * size)));
    EXPECT_EQ(layout[0], layout[1]) << kind;
  }
}

TEST(Runtime, PackedFixedRunsAreTheWireBytes) {
  const std::vector<uint8_t> run = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0};
  alignas(max_align_t) unsigned char buf[64];
  PbciArena a = {};
  ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
  size_t n = 0, cap = 0;
  PbciAppend r = AppendRun(&a, nullptr, &n, &cap, run, PBCI_PACKED_FIXED32);
  ASSERT_EQ(r.err, 0);
  ASSERT_EQ(n, 3u);
  const uint32_t* u32 = static_cast<const uint32_t*>(r.array);
  EXPECT_EQ(u32[0], 1u);
  EXPECT_EQ(u32[1], 0xffffffffu);
  EXPECT_EQ(u32[2], 2u);
  size_t n64 = 0, cap64 = 0;
  r = AppendRun(&a, nullptr, &n64, &cap64, {run.begin(), run.begin() + 8}, PBCI_PACKED_FIXED64);
  ASSERT_EQ(r.err, 0);
  ASSERT_EQ(n64, 1u);
  EXPECT_EQ(static_cast<const uint64_t*>(r.array)[0], 0xffffffff00000001u);
  // Not a whole number of values.
  r = AppendRun(&a, r.array, &n64, &cap64, run, PBCI_PACKED_FIXED64);
  EXPECT_EQ(r.err, PROTOBUF_C_ITER_ERR_MALFORMED);
  EXPECT_EQ(n64, 1u);
  // An empty run with no array yet: still no array, no arithmetic on NULL.
  size_t n0 = 0, cap0 = 0;
  r = AppendRun(&a, nullptr, &n0, &cap0, {}, PBCI_PACKED_FIXED32);
  EXPECT_EQ(r.err, 0);
  EXPECT_EQ(r.array, nullptr);
  EXPECT_EQ(n0, 0u);
}

}  // namespace

namespace {

// pbci_find_field: dense numbers at once, others by binary search, and
// numbers past the last field (the usual unknown field) without one.
TEST(Runtime, FindFieldFindsEachNumberAndNothingElse) {
  const uint32_t numbers[] = {1, 2, 3, 10, 100, 536870911};
  PbciFieldInfo fields[6] = {};
  for (size_t i = 0; i < 6; i++) fields[i].number = numbers[i];
  PbciMessage type = {};
  type.fields = fields;
  for (uint32_t n = 0; n <= 6; n++) {
    type.n_fields = n;
    for (uint64_t number : {uint64_t{0}, uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{4},
                            uint64_t{9}, uint64_t{10}, uint64_t{11}, uint64_t{100},
                            uint64_t{101}, uint64_t{536870911}, uint64_t{536870912},
                            uint64_t{1} << 35}) {
      const PbciFieldInfo* want = nullptr;
      for (uint32_t i = 0; i < n; i++) {
        if (numbers[i] == number) want = &fields[i];
      }
      EXPECT_EQ(pbci_find_field(&type, number), want) << n << " fields, number " << number;
    }
  }
}

}  // namespace

namespace {

// A message table without a generated sizer whose scratch needs exceed the
// general sizer's (a table from another generator version) is refused, not
// sized in too small a scratch. The input, a truncated field, is one the
// fast path leaves to the general sizer: with scratch it can hold, the
// general sizer reads it and finds the fault.
TEST(Runtime, SizerRefusesTablesNeedingMoreScratchThanItHolds) {
  PbciMessage type = {};
  type.size = 8;
  type.n_counts = 9;  // one more than the runtime holds
  PbciSize size = {};
  const uint8_t truncated[2] = {0x08, 0x80};  // field 1, a varint cut short
  EXPECT_EQ(pbci_measure_top(&type, truncated, truncated + 2, &size),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  type.n_counts = 8;
  size = {};
  EXPECT_EQ(pbci_measure_top(&type, truncated, truncated + 2, &size),
            PROTOBUF_C_ITER_ERR_MALFORMED);
}

}  // namespace

namespace {

// Regression (found in review): with a 32-bit size_t, the fast sizer's
// array size, n * elem_size, wrapped. A packed run of 2^29 uint64 zeros
// (512 MiB) was sized as an empty array, where the decoder and the general
// sizer report NO_MEMORY. With a wider size_t the run sizes exactly: the
// struct and 2^32 bytes of array.
TEST(Regression, FastSizerArrayBytesWrappedWithA32BitSizeT) {
  PbciFieldInfo field = {};
  field.number = 2;
  field.key = 0x12;
  field.kind = PBCI_KIND_SCALAR;
  field.wire_types = PBCI_WT_BIT(PBCI_WT_VARINT) | PBCI_WT_BIT(PBCI_WT_LEN);
  field.flags = PBCI_FIELD_REPEATED;
  field.op = PBCI_OP_PACKED_VARINT;
  field.elem_size = sizeof(uint64_t);
  PbciMessage type = {};
  type.size = 32;
  type.fields = &field;
  type.n_fields = 1;
  type.n_counts = 1;
  const size_t n = size_t{1} << 29;
  std::vector<uint8_t> input(6 + n, 0);  // key, 5-byte length, n zeros
  const uint8_t head[6] = {0x12, 0x80, 0x80, 0x80, 0x80, 0x02};
  std::memcpy(input.data(), head, sizeof head);
  PbciSize size = {};
  size.ctx.max_depth = PROTOBUF_C_ITER_MAX_DEPTH;
  const ptrdiff_t r = pbci_measure_top(&type, input.data(), input.data() + input.size(), &size);
  if (n > static_cast<size_t>(PTRDIFF_MAX) / 8 - 32) {
    EXPECT_EQ(r, PROTOBUF_C_ITER_ERR_NO_MEMORY);
  } else {
    ASSERT_EQ(r, 0);
    EXPECT_EQ(size.lo + size.hi, 32 + PROTOBUF_C_ITER_ARRAY_HEADER + n * 8);
  }
}

}  // namespace

namespace {

// Regression (found in review): pbci_append_element, failing after its
// array grew, returned the caller's old array with the grown capacity
// (harmless in generated decoders, which drop both on failure, but not the
// documented state). A failed append now leaves the count as it was and an
// array that holds those elements within the capacity it reports. Also
// for long packed runs, which are counted by their last bytes and grow
// before an over-long varint is found, for every varint kind; appending
// again from that state (into too small a buffer) stays inside it.
TEST(Regression, FailedAppendReturnedTheOldArrayWithTheGrownCapacity) {
  std::vector<uint8_t> run(8, 0x01);
  run.insert(run.end(), 10, 0x81);  // continues for 11 bytes
  run.insert(run.end(), {0x01, 0x01});
  for (unsigned kind : {PBCI_PACKED_VARINT32, PBCI_PACKED_SINT32, PBCI_PACKED_VARINT64,
                        PBCI_PACKED_SINT64, PBCI_PACKED_BOOL}) {
    std::vector<unsigned char> buf;
    PbciArena a = ArenaOf(&buf, 256);
    HeadedArray<uint64_t, 2> headed;  // full: two of capacity two
    uint64_t* old_array = headed.elements;
    old_array[0] = old_array[1] = 7;
    size_t n = 2, cap = 2;
    PbciAppend r = AppendRun(&a, old_array, &n, &cap, run, kind);
    EXPECT_EQ(r.err, PROTOBUF_C_ITER_ERR_MALFORMED) << kind;
    EXPECT_EQ(n, 2u) << kind;
    // Grown inside the buffer for the whole run (ten last bytes, so ten
    // values counted), the two elements copied.
    const size_t size =
        kind == PBCI_PACKED_VARINT64 || kind == PBCI_PACKED_SINT64 ? 8 : 4;
    ASSERT_NE(r.array, static_cast<void*>(old_array)) << kind;
    ASSERT_GE(cap, 12u) << kind;
    ASSERT_GE(static_cast<unsigned char*>(r.array), buf.data()) << kind;
    ASSERT_LE(static_cast<unsigned char*>(r.array) + cap * size, a.lo) << kind;
    EXPECT_EQ(std::memcmp(r.array, old_array, 2 * size), 0) << kind;
    // Without room to grow, the fault is still reported as such.
    std::vector<unsigned char> small;
    PbciArena tight = ArenaOf(&small, 8);
    void* array = r.array;
    const size_t cap_before = cap;
    r = AppendRun(&tight, array, &n, &cap, run, kind);
    EXPECT_EQ(r.err, PROTOBUF_C_ITER_ERR_MALFORMED) << kind;
    EXPECT_EQ(n, 2u) << kind;
    EXPECT_EQ(r.array, array) << kind;
    EXPECT_EQ(cap, cap_before) << kind;
  }
  // The same for one unpacked element of a packed field (field 41, int32)
  // whose varint is cut short after its full array grew.
  const uint8_t element[] = {0xc8, 0x02, 0x96};
  std::vector<unsigned char> buf;
  PbciArena a = ArenaOf(&buf, 256);
  HeadedArray<uint32_t, 2> headed;
  uint32_t* old_array = headed.elements;
  old_array[0] = old_array[1] = 7;
  size_t n = 2, cap = 2;
  PbciAppend r = pbci_append_element(&a, old_array, &n, &cap, element, element + 3,
                                     PBCI_PACKED_VARINT32);
  EXPECT_EQ(r.err, PROTOBUF_C_ITER_ERR_MALFORMED);
  EXPECT_EQ(r.next, nullptr);
  EXPECT_EQ(n, 2u);
  ASSERT_NE(r.array, static_cast<void*>(old_array));
  ASSERT_GE(cap, 3u);
  ASSERT_LE(static_cast<unsigned char*>(r.array) + cap * 4, a.lo);
  EXPECT_EQ(std::memcmp(r.array, old_array, 2 * sizeof *old_array), 0);
}

}  // namespace

namespace {

// The conversions of packed runs of varints, and the array element size
// each stores.
const unsigned kVarintKinds[] = {PBCI_PACKED_VARINT32, PBCI_PACKED_SINT32, PBCI_PACKED_VARINT64,
                                 PBCI_PACKED_SINT64};
size_t VarintKindSize(unsigned kind) {
  return kind == PBCI_PACKED_VARINT32 || kind == PBCI_PACKED_SINT32 ? 4 : 8;
}

// Runs of up to 16 bytes take another path (read once into a local array,
// not counted first): every sample alone and in pairs, for every varint
// conversion, must give what the reference gives; a run ending inside a
// varint, or holding one of 11 bytes, is malformed and stores nothing.
TEST(Runtime, ShortPackedRunsMatchTheReference) {
  const auto values = VarintSamples();
  for (unsigned kind : kVarintKinds) {
    const size_t size = VarintKindSize(kind);
    for (size_t i = 0; i < values.size(); i++) {
      for (size_t j = 0; j <= values.size(); j++) {
        std::vector<std::vector<uint8_t>> run_values = {values[i]};
        if (j < values.size()) run_values.push_back(values[j]);
        std::vector<uint8_t> run;
        for (const auto& v : run_values) run.insert(run.end(), v.begin(), v.end());
        if (run.size() > 16) continue;
        alignas(max_align_t) unsigned char buf[256];
        PbciArena a = {};
        ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
        size_t n = 0, cap = 0;
        PbciAppend r = AppendRun(&a, nullptr, &n, &cap, run, kind);
        ASSERT_EQ(r.err, 0) << kind << " " << i << " " << j;
        ASSERT_EQ(n, run_values.size());
        for (size_t k = 0; k < n; k++) {
          const uint64_t raw = ReferenceVarint(run_values[k]);
          const unsigned char* at = static_cast<const unsigned char*>(r.array) + k * size;
          if (size == 4) {
            int32_t got;
            memcpy(&got, at, 4);
            const int32_t want = kind == PBCI_PACKED_SINT32
                                     ? pbci_zigzag32(static_cast<uint32_t>(raw))
                                     : static_cast<int32_t>(static_cast<uint32_t>(raw));
            EXPECT_EQ(got, want) << kind << " " << k;
          } else {
            int64_t got;
            memcpy(&got, at, 8);
            const int64_t want =
                kind == PBCI_PACKED_SINT64 ? pbci_zigzag64(raw) : static_cast<int64_t>(raw);
            EXPECT_EQ(got, want) << kind << " " << k;
          }
        }
      }
    }
    const std::vector<std::vector<uint8_t>> bad = {
        {0x01, 0x80},                                                        // ends inside
        {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},  // 11 bytes
    };
    for (const auto& run : bad) {
      alignas(max_align_t) unsigned char buf[64];
      PbciArena a = {};
      ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
      size_t n = 0, cap = 0;
      PbciAppend r = AppendRun(&a, nullptr, &n, &cap, run, kind);
      EXPECT_EQ(r.err, PROTOBUF_C_ITER_ERR_MALFORMED);
      EXPECT_EQ(n, 0u);
      EXPECT_EQ(a.lo, buf);  // nothing allocated
    }
    // A length prefix past the end of the message.
    const uint8_t cut[] = {0x05, 0x01, 0x02};
    alignas(max_align_t) unsigned char buf[64];
    PbciArena a = {};
    ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, buf, sizeof buf), 0);
    size_t n = 0, cap = 0;
    PbciAppend r = pbci_append_packed(&a, nullptr, &n, &cap, cut, cut + 3, kind);
    EXPECT_EQ(r.next, nullptr);
    EXPECT_EQ(r.err, PROTOBUF_C_ITER_ERR_MALFORMED);
  }
}

// pbci_count_run as its contract in runtime.h reads: the fields from `key`
// on with the same key bytes whose values frame as the decoder reads them
// (a varint of at most 10 bytes, 4 or 8 bytes, a length of at most 5 bytes
// and INT_MAX that fits); at least 1.
size_t ReferenceCountRun(const std::vector<uint8_t>& in, size_t key_len) {
  const size_t wire_type = in[0] & 7;
  size_t at = 0, n = 0;
  for (;;) {
    if (in.size() - at <= key_len || memcmp(&in[at], &in[0], key_len) != 0) break;
    size_t v = at + key_len, next = 0;
    const size_t avail = in.size() - v;
    if (wire_type == PBCI_WT_VARINT) {
      for (size_t i = 0; i < 10 && i < avail && next == 0; i++) {
        if (in[v + i] < 0x80) next = v + i + 1;
      }
    } else if (wire_type == PBCI_WT_32BIT || wire_type == PBCI_WT_64BIT) {
      const size_t size = wire_type == PBCI_WT_32BIT ? 4 : 8;
      if (avail >= size) next = v + size;
    } else if (wire_type == PBCI_WT_LEN) {
      uint64_t len = 0;
      size_t prefix = 0;
      for (size_t i = 0; i < 5 && i < avail && prefix == 0; i++) {
        len |= uint64_t{in[v + i] & 0x7fu} << (7 * i);
        if (in[v + i] < 0x80) prefix = i + 1;
      }
      if (prefix != 0 && len <= INT_MAX && avail - prefix >= len) {
        next = v + prefix + static_cast<size_t>(len);
      }
    }
    if (next == 0) break;
    at = next;
    n++;
  }
  return n != 0 ? n : 1;
}

// A length of three bytes is read whole and the run goes on after its
// value, as an open run does (Arrays.ARunCountsElementsWithLongLengthsAs
// AnOpenRunTakesThem): an element of 16,384 bytes, whose value is bytes
// that look like keys, between short ones. Before that fix the count
// stopped there, at 1.
TEST(Runtime, CountRunReadsAThreeByteLengthWhole) {
  std::vector<uint8_t> in = {0x0a, 0x01, 'a', 0x0a, 0x80, 0x80, 0x01};
  in.resize(in.size() + 16384, 0x0a);  // the value: bytes that look like keys
  for (int i = 0; i < 3; i++) in.insert(in.end(), {0x0a, 0x01, 'b'});
  EXPECT_EQ(pbci_count_run(in.data(), in.data() + 1, in.data() + in.size()), 5u);
  EXPECT_EQ(ReferenceCountRun(in, 1), 5u);
}

// Runs of each wire type with one- and two-byte keys, values of every
// framing the count takes (lengths of one to five bytes among them) and
// some it does not, each cut at every length, and followed by another key.

TEST(Runtime, CountRunMatchesTheReferenceAtEveryCut) {
  const std::vector<std::vector<uint8_t>> keys = {{0x0a}, {0x08}, {0x0d}, {0x09},
                                                  {0x82, 0x01}, {0x80, 0x01}};
  std::vector<uint8_t> long_value(300, 'x');
  for (const auto& key : keys) {
    const size_t wire_type = key[0] & 7;
    std::vector<std::vector<uint8_t>> values;
    if (wire_type == PBCI_WT_LEN) {
      values = {{0x00}, {0x03, 'a', 'b', 'c'}, {0x7f}, {0x80, 0x01}, {0xac, 0x02}, {0x85, 0x00},
                {0x80, 0x80, 0x01}, {0x80, 0x80, 0x00}, {0x82, 0x80, 0x80, 0x80, 0x00, 'a', 'b'},
                {0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, {0x80, 0x80, 0x80, 0x80, 0x08}};
      values[2].resize(1 + 127, 'y');  // 127 bytes: the longest one-byte length
      values[3].insert(values[3].end(), long_value.begin(), long_value.begin() + 128);
      values[4].insert(values[4].end(), long_value.begin(), long_value.end());  // 300
      values[5].insert(values[5].end(), 5, 'z');  // 5 in an over-long two bytes
      // values[6]: 16,384 bytes, never there; [7], [8]: 0 and 2 written in
      // three and five bytes; [9]: six bytes, too long; [10]: 2^31, past
      // INT_MAX.
    } else if (wire_type == PBCI_WT_VARINT) {
      values = {{0x01}, {0x96, 0x01}, {0xff, 0xff, 0xff, 0xff, 0x0f}, std::vector<uint8_t>(11, 0x80)};
      values[3].back() = 0x01;  // 11 bytes: over-long
    } else {
      values = {std::vector<uint8_t>(wire_type == PBCI_WT_32BIT ? 4 : 8, 0x11)};
    }
    for (size_t first = 0; first < values.size(); first++) {
      for (size_t second = 0; second < values.size(); second++) {
        std::vector<uint8_t> in;
        for (size_t i : {first, second, first, second}) {
          in.insert(in.end(), key.begin(), key.end());
          in.insert(in.end(), values[i].begin(), values[i].end());
        }
        in.push_back(0x10);  // another field's key
        in.push_back(0x01);
        for (size_t cut = key.size() + 1; cut <= in.size(); cut++) {
          std::vector<uint8_t> part(in.begin(), in.begin() + cut);
          EXPECT_EQ(pbci_count_run(part.data(), part.data() + key.size(), part.data() + cut),
                    ReferenceCountRun(part, key.size()))
              << "key " << int{key[0]} << ", values " << first << " " << second << ", cut "
              << cut;
        }
      }
    }
  }
}

// A short run into a new array is stored in place when the buffer has room
// for the longest short run (16 values), else read into a local array
// first. Both must leave the same array, count, capacity and buffer use,
// for every conversion, and fail alike on a malformed run.
TEST(Runtime, ShortPackedRunsInPlaceMatchTheStagedPath) {
  const auto values = VarintSamples();
  std::vector<std::vector<uint8_t>> runs = {{}};
  for (const auto& v : values) runs.push_back(v);
  for (size_t i = 0; i < values.size(); i++) {
    std::vector<uint8_t> run = values[i];
    run.insert(run.end(), values[(i + 3) % values.size()].begin(),
               values[(i + 3) % values.size()].end());
    if (run.size() <= 16) runs.push_back(run);
  }
  runs.push_back(std::vector<uint8_t>(16, 0x05));                // 16 one-byte values
  runs.push_back({0x01, 0x80});                                  // ends inside a varint
  runs.push_back({0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01});
  for (unsigned kind : kVarintKinds) {
    const size_t size = VarintKindSize(kind);
    for (const auto& run : runs) {
      // Room for a header and the longest short run (in place), and 8 bytes less
      // (staged); the bytes past each arena must stay as they are.
      alignas(max_align_t) unsigned char in_place[256], staged[256];
      memset(in_place, 0xee, sizeof in_place);
      memset(staged, 0xee, sizeof staged);
      PbciArena a = {}, b = {};
      const size_t room = PROTOBUF_C_ITER_ARRAY_HEADER + 16 * size;
      ASSERT_EQ(pbci_arena_init(&a, nullptr, 0, in_place, room), 0);
      ASSERT_EQ(pbci_arena_init(&b, nullptr, 0, staged, room - 8), 0);
      size_t na = 0, capa = 0, nb = 0, capb = 0;
      PbciAppend ra = AppendRun(&a, nullptr, &na, &capa, run, kind);
      PbciAppend rb = AppendRun(&b, nullptr, &nb, &capb, run, kind);
      const std::string what = std::to_string(kind) + " run of " + std::to_string(run.size());
      if (rb.err == PROTOBUF_C_ITER_ERR_NO_MEMORY) {
        // Only a run too long for the staged arena: 16 values.
        EXPECT_EQ(ra.err, 0) << what;
        EXPECT_GT(na * size, 16 * size - 8) << what;
        continue;
      }
      ASSERT_EQ(ra.err, rb.err) << what;
      EXPECT_EQ(na, nb) << what;
      EXPECT_EQ(capa, capb) << what;
      EXPECT_EQ(a.lo - in_place, b.lo - staged) << what;
      EXPECT_EQ(a.hi - in_place, static_cast<ptrdiff_t>(room)) << what;
      EXPECT_LE(a.lo, a.hi) << what;
      EXPECT_LE(b.lo, b.hi) << what;
      for (size_t i = room; i < sizeof in_place; i++) {
        ASSERT_EQ(in_place[i], 0xee) << what << ", byte " << i;
      }
      for (size_t i = room - 8; i < sizeof staged; i++) {
        ASSERT_EQ(staged[i], 0xee) << what << ", byte " << i;
      }
      if (ra.err == 0 && na != 0) {
        EXPECT_EQ(ra.array, in_place + PROTOBUF_C_ITER_ARRAY_HEADER) << what;
        EXPECT_EQ(memcmp(ra.array, rb.array, na * size), 0) << what;
      } else {
        EXPECT_EQ(ra.array, nullptr) << what;
      }
    }
  }
}

// pbci_next_field frames a varint value inline up to 8 bytes (one load, or
// a byte at a time where fewer than 8 bytes are left) and out of line
// beyond: each length from 1 to 11 bytes, at the end of the input and with
// bytes after it, must end where the varint ends, and 11 bytes or a cut
// varint nowhere.
TEST(Runtime, NextFieldFramesVarintsOfEveryLengthAnywhere) {
  for (size_t len = 1; len <= 11; len++) {
    std::vector<uint8_t> value(len, 0x80);
    value.back() = 0x01;
    for (size_t after : {0, 1, 7, 8, 16}) {
      std::vector<uint8_t> in = {0x28};  // field 5, varint
      in.insert(in.end(), value.begin(), value.end());
      in.insert(in.end(), after, 0x08);
      for (size_t cut = 1; cut <= in.size(); cut++) {
        PbciField f;
        const uint8_t* got = pbci_next_field(in.data(), in.data() + cut, &f);
        const bool frames = len <= 10 && cut >= 1 + len;
        EXPECT_EQ(got, frames ? in.data() + 1 + len : nullptr)
            << len << "-byte varint, " << after << " bytes after, cut at " << cut;
        if (frames) {
          EXPECT_EQ(f.tag, uint64_t{0x28});
          EXPECT_EQ(f.key, in.data());
          EXPECT_EQ(f.raw, in.data() + 1);
          EXPECT_EQ(f.end, got);
        }
      }
    }
  }
}

}  // namespace
