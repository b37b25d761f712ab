// The decode options (ALIAS_BYTES, VALIDATE_UTF8, DISCARD_UNKNOWN,
// max_depth), the status report of every error kind, and x__iter_type. The
// stream reader has stream_test.cc.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <protobuf-c-iter/internal/decode.h>
// White-box: the runtime's private functions (runtime/src).
#include "runtime.h"

#include "defaults.pb-iter.h"
#include "empty.pb-iter.h"
#include "merge.pb-iter.h"
#include "merge3.pb-iter.h"
#include "options.pb-iter.h"
#include "scalars3.pb-iter.h"
#include "wide.pb-iter.h"
#include "support/option_check.h"
#include "support/wire.h"

namespace pbci_test {
namespace {

const uint8_t* Data(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// A heap buffer of exactly the size asked, so ASan sees any overrun.
struct Buffer {
  explicit Buffer(size_t n) : bytes(new unsigned char[n == 0 ? 1 : n]), size(n) {}
  std::unique_ptr<unsigned char[]> bytes;
  size_t size;
};

ProtobufCIterOptions Opts(uint32_t flags, uint32_t max_depth = 0) {
  ProtobufCIterOptions o = {};
  o.flags = flags;
  o.max_depth = max_depth;
  return o;
}

// Plain (merge.proto) with bytes `data`, a = 7 and one unknown field 99.
std::string PlainWire() {
  return LenField(1, "some bytes") + VarintField(2, 7) + LenField(99, "unknown!");
}

// ---- ALIAS_BYTES ----

TEST(AliasBytes, BytesAndUnknownFieldsPointIntoTheInput) {
  const std::string in = PlainWire();
  ProtobufCIterOptions o = Opts(PROTOBUF_C_ITER_ALIAS_BYTES);
  ptrdiff_t size = iter__merge__plain__iter_unpacked_size_ex(Data(in), in.size(), &o, nullptr);
  ptrdiff_t copied = iter__merge__plain__iter_unpacked_size(Data(in), in.size());
  ASSERT_GT(size, 0);
  // The 10 bytes of `data` and the 9 of the unknown field (length prefix
  // and value) are not copied.
  EXPECT_EQ(copied - size, 10 + 9);
  Buffer buf(static_cast<size_t>(size));
  ASSERT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(), buf.size,
                                               &o, nullptr),
            size);
  auto* m = reinterpret_cast<Iter__Merge__Plain*>(buf.bytes.get());
  ASSERT_TRUE(m->has_data);
  EXPECT_EQ(m->data.data, Data(in) + 2);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(m->data.data), m->data.len), "some bytes");
  ASSERT_EQ(m->base.n_unknown_fields, 1u);
  EXPECT_EQ(m->base.unknown_fields[0].data, Data(in) + in.size() - 9);  // after the key
  EXPECT_EQ(m->base.unknown_fields[0].len, 9u);  // length prefix and value
  // One byte less is too little, as for every buffer.
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(),
                                               buf.size - 1, &o, nullptr),
            PROTOBUF_C_ITER_ERR_NO_MEMORY);
}

TEST(AliasBytes, StringAsBytesAliasesButStringsAreCopied) {
  const std::string in = LenField(2, "server") + LenField(3, "blob!") + LenField(5, "raw1") +
                         LenField(7, "host-blob");
  ProtobufCIterOptions o = Opts(PROTOBUF_C_ITER_ALIAS_BYTES);
  ptrdiff_t size =
      renamed__pkg_c__httpserver_conf__iter_unpacked_size_ex(Data(in), in.size(), &o, nullptr);
  ASSERT_GT(size, 0);
  Buffer buf(static_cast<size_t>(size));
  ASSERT_EQ(renamed__pkg_c__httpserver_conf__iter_unpack_ex(Data(in), in.size(),
                                                            buf.bytes.get(), buf.size, &o,
                                                            nullptr),
            size);
  auto* m = reinterpret_cast<Renamed__PkgC__HTTPServerConf*>(buf.bytes.get());
  // NUL-terminated strings live in the buffer.
  EXPECT_STREQ(m->name, "server");
  EXPECT_GE(reinterpret_cast<const unsigned char*>(m->name), buf.bytes.get());
  EXPECT_LT(reinterpret_cast<const unsigned char*>(m->name), buf.bytes.get() + buf.size);
  // string_as_bytes fields point into the input.
  EXPECT_EQ(m->blob.data, Data(in) + 10);
  ASSERT_EQ(m->n_raw_tags, 1u);
  EXPECT_EQ(m->raw_tags[0].data, Data(in) + 17);
  ASSERT_EQ(m->target__kind_case, RENAMED__PKG_C__HTTPSERVER_CONF__TARGET__KIND_HOST_BLOB);
  EXPECT_EQ(m->host_blob.data, Data(in) + 23);
  EXPECT_EQ(m->host_blob.len, 9u);
}

TEST(AliasBytes, EmptyBytesAreNullAsWithoutAliasing) {
  const std::string in = LenField(1, "");
  ProtobufCIterOptions o = Opts(PROTOBUF_C_ITER_ALIAS_BYTES);
  Buffer buf(256);
  ASSERT_GT(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(), buf.size,
                                               &o, nullptr),
            0);
  auto* m = reinterpret_cast<Iter__Merge__Plain*>(buf.bytes.get());
  EXPECT_TRUE(m->has_data);
  EXPECT_EQ(m->data.len, 0u);
  EXPECT_EQ(m->data.data, nullptr);
}

// ---- VALIDATE_UTF8 ----

ptrdiff_t DecodeString(const std::string& value, uint32_t flags, ProtobufCIterStatus* st) {
  const std::string in = VarintField(2, 1) + LenField(1, value);  // StringField.s is 1
  ProtobufCIterOptions o = Opts(flags);
  Buffer buf(256 + 2 * in.size());  // the struct, the unknown field's array, copies
  return iter__merge__string_field__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(),
                                                   buf.size, &o, st);
}

TEST(ValidateUtf8, RejectsEachInvalidFormAndOnlyWithTheFlag) {
  const std::vector<std::string> bad = {
      "\x80",              // lone continuation byte
      "\xC0\x80",          // overlong NUL
      "\xC1\xBF",          // overlong 2-byte
      "\xE0\x80\x80",      // overlong 3-byte
      "\xE0\x9F\xBF",      // overlong 3-byte, top
      "\xED\xA0\x80",      // surrogate U+D800
      "\xED\xBF\xBF",      // surrogate U+DFFF
      "\xF0\x8F\xBF\xBF",  // overlong 4-byte
      "\xF4\x90\x80\x80",  // U+110000
      "\xF5\x80\x80\x80",  // no such lead byte
      "\xFF",
      "\xE2\x82",          // truncated
      "\xF0\x9F\x98",      // truncated 4-byte
      "\xC3",              // truncated at the end
      "\xE2\x28\xA1",      // bad continuation
  };
  for (const std::string& b : bad) {
    ASSERT_FALSE(ReferenceUtf8(b));
    ProtobufCIterStatus st;
    EXPECT_EQ(DecodeString(b, PROTOBUF_C_ITER_VALIDATE_UTF8, &st), PROTOBUF_C_ITER_ERR_BAD_UTF8)
        << testing::PrintToString(b);
    EXPECT_EQ(st.code, PROTOBUF_C_ITER_ERR_BAD_UTF8);
    EXPECT_EQ(st.field_number, 1u);
    EXPECT_EQ(st.offset, 2u);  // after the 2-byte field 2
    EXPECT_STREQ(st.message, "invalid UTF-8 in a string field");
    EXPECT_GT(DecodeString(b, 0, nullptr), 0);  // protobuf-c never checks
  }
}

TEST(ValidateUtf8, AcceptsEveryValidForm) {
  const std::vector<std::string> good = {
      "", "plain ascii", std::string("nul\0inside", 10), "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80",
      "\xED\x9F\xBF", "\xEE\x80\x80", "\xEF\xBF\xBF", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF",
      "h\xC3\xA9llo w\xC3\xB6rld \xE2\x82\xAC \xF0\x9F\x98\x80"};
  for (const std::string& g : good) {
    ASSERT_TRUE(ReferenceUtf8(g));
    EXPECT_GT(DecodeString(g, PROTOBUF_C_ITER_VALIDATE_UTF8, nullptr), 0)
        << testing::PrintToString(g);
  }
}

// Short strings well past the input's start take the inline copy, whose
// input-start and flag tests are one compare with a bound set up per call
// (pbci_arena_set_floor): the flag must reach it through that bound.
TEST(ValidateUtf8, ChecksShortStringsPastTheInputsStart) {
  const std::string pad = LenField(1, std::string(24, 'a'));  // overwritten
  for (const std::string& value :
       {std::string("\xC3"), std::string("ok\xE2\x28\xA1")}) {
    const std::string in = pad + LenField(1, value);
    Buffer buf(256 + 2 * in.size());
    ProtobufCIterOptions o = Opts(PROTOBUF_C_ITER_VALIDATE_UTF8);
    EXPECT_EQ(iter__merge__string_field__iter_unpack_ex(
                  Data(in), in.size(), buf.bytes.get(), buf.size, &o, nullptr),
              PROTOBUF_C_ITER_ERR_BAD_UTF8)
        << testing::PrintToString(value);
    o = Opts(0);
    EXPECT_GT(iter__merge__string_field__iter_unpack_ex(
                  Data(in), in.size(), buf.bytes.get(), buf.size, &o, nullptr),
              0);
  }
}

// The ASCII fast path reads 8 bytes at a time: a bad byte at every position
// of long strings, and every 1-4 byte sequence at every alignment, agree
// with the reference.
TEST(ValidateUtf8, AgreesWithTheReferenceAtEveryPosition) {
  for (size_t len = 1; len <= 40; len++) {
    for (size_t pos = 0; pos < len; pos++) {
      for (const char* insert : {"\x80", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                 "\xED\xA0\x80", "\xC3"}) {
        std::string s(len, 'a');
        s.replace(pos, std::min(std::strlen(insert), len - pos), insert);
        s.resize(len);
        bool want = ReferenceUtf8(s);
        ptrdiff_t r = DecodeString(s, PROTOBUF_C_ITER_VALIDATE_UTF8, nullptr);
        EXPECT_EQ(r > 0, want) << testing::PrintToString(s);
        if (!want) {
          EXPECT_EQ(r, PROTOBUF_C_ITER_ERR_BAD_UTF8);
        }
      }
    }
  }
}

TEST(ValidateUtf8, BytesAndStringAsBytesAreNotChecked) {
  const std::string in = LenField(3, "\xFF\xFE") + LenField(5, "\xC0\x80");
  ProtobufCIterOptions o = Opts(PROTOBUF_C_ITER_VALIDATE_UTF8);
  Buffer buf(512);
  EXPECT_GT(renamed__pkg_c__httpserver_conf__iter_unpack_ex(Data(in), in.size(),
                                                            buf.bytes.get(), buf.size, &o,
                                                            nullptr),
            0);
  const std::string plain = LenField(1, "\xFF");
  EXPECT_GT(iter__merge__plain__iter_unpack_ex(Data(plain), plain.size(), buf.bytes.get(),
                                               buf.size, &o, nullptr),
            0);
}

TEST(ValidateUtf8, UnpackedSizeRejectsToo) {
  const std::string in = LenField(14, "ok") + LenField(27, "\xC0\xAF");  // All3 r_string
  ProtobufCIterOptions o = Opts(PROTOBUF_C_ITER_VALIDATE_UTF8);
  ProtobufCIterStatus st;
  EXPECT_EQ(iter__test3__all3__iter_unpacked_size_ex(Data(in), in.size(), &o, &st),
            PROTOBUF_C_ITER_ERR_BAD_UTF8);
  EXPECT_EQ(st.field_number, 27u);
  EXPECT_EQ(st.offset, 4u);
  EXPECT_GT(iter__test3__all3__iter_unpacked_size(Data(in), in.size()), 0);
}

TEST(ValidateUtf8, MapKeysAreStrings) {
  // All3.m_string_string (72): the entry's key, field 1, is invalid.
  const std::string in = LenField(72, LenField(1, "\xC0\xAF") + LenField(2, "v"));
  ProtobufCIterOptions o = Opts(PROTOBUF_C_ITER_VALIDATE_UTF8);
  ProtobufCIterStatus st;
  Buffer buf(4096);
  EXPECT_EQ(iter__test3__all3__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(), buf.size,
                                              &o, &st),
            PROTOBUF_C_ITER_ERR_BAD_UTF8);
  EXPECT_EQ(st.field_number, 1u);
  EXPECT_EQ(st.offset, Key(72, 2).size() + 1);
}

// ---- DISCARD_UNKNOWN ----

TEST(DiscardUnknown, SkipsUnknownFieldsKeepsTheRestAndTakesNoRoom) {
  const std::string in = LenField(98, "x") + PlainWire() + VarintField(100, 5);
  ProtobufCIterOptions o = Opts(PROTOBUF_C_ITER_DISCARD_UNKNOWN);
  ptrdiff_t size = iter__merge__plain__iter_unpacked_size_ex(Data(in), in.size(), &o, nullptr);
  ASSERT_GT(size, 0);
  Buffer buf(static_cast<size_t>(size));
  ASSERT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(), buf.size,
                                               &o, nullptr),
            size);
  auto* m = reinterpret_cast<Iter__Merge__Plain*>(buf.bytes.get());
  EXPECT_EQ(m->base.n_unknown_fields, 0u);
  EXPECT_EQ(m->base.unknown_fields, nullptr);
  EXPECT_EQ(m->a, 7);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(m->data.data), m->data.len), "some bytes");
  // The struct and the 10 data bytes only: nothing for unknown fields.
  EXPECT_EQ(static_cast<size_t>(size), ((sizeof(Iter__Merge__Plain) + 7) & ~size_t{7}) + 10);
}

TEST(DiscardUnknown, StillRejectsMalformedUnknownFields) {
  const std::string in = PlainWire() + Key(100, 2) + Varint(50) + "short";
  ProtobufCIterOptions o = Opts(PROTOBUF_C_ITER_DISCARD_UNKNOWN);
  Buffer buf(512);
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(), buf.size,
                                               &o, nullptr),
            PROTOBUF_C_ITER_ERR_MALFORMED);
  EXPECT_EQ(iter__merge__plain__iter_unpacked_size_ex(Data(in), in.size(), &o, nullptr),
            PROTOBUF_C_ITER_ERR_MALFORMED);
}

TEST(DiscardUnknown, MergeKeepsUnknownFieldsTheMessageHas) {
  const std::string first = PlainWire();
  const std::string second = VarintField(2, 9) + VarintField(97, 1);
  Buffer buf1(512), buf2(512);
  ASSERT_GT(iter__merge__plain__iter_unpack(Data(first), first.size(), buf1.bytes.get(),
                                            buf1.size),
            0);
  auto* m = reinterpret_cast<Iter__Merge__Plain*>(buf1.bytes.get());
  ProtobufCIterOptions o = Opts(PROTOBUF_C_ITER_DISCARD_UNKNOWN);
  ASSERT_GE(iter__merge__plain__iter_unpack_merge_ex(m, Data(second), second.size(),
                                                     buf2.bytes.get(), buf2.size, &o, nullptr),
            0);
  EXPECT_EQ(m->a, 9);
  ASSERT_EQ(m->base.n_unknown_fields, 1u);
  EXPECT_EQ(m->base.unknown_fields[0].tag, 99u);
}

// ---- unpacked_size's fast path and its limits ----

// What unpacked_size_ex and unpack_ex (in a buffer of exactly that size)
// disagree on under each combination of the flags, or "".
std::string SizeMismatches(const ProtobufCIterType* t, const std::string& in,
                           uint32_t max_depth = 0) {
  std::string out;
  for (uint32_t flags = 0; flags < 8; flags++) {
    ProtobufCIterOptions o = Opts(flags, max_depth);
    const ptrdiff_t size = protobuf_c_iter_unpacked_size(t, Data(in), in.size(), &o, nullptr);
    Buffer buf(size >= 0 ? static_cast<size_t>(size) : 64 * in.size() + 4096);
    const ptrdiff_t used =
        protobuf_c_iter_unpack(t, Data(in), in.size(), buf.bytes.get(), buf.size, &o, nullptr);
    if (used != size) {
      out += "flags " + std::to_string(flags) + ": size " + std::to_string(size) + ", unpack " +
             std::to_string(used) + "; ";
    }
  }
  return out;
}

// One All3 level: a packed run, unpacked doubles, strings, bytes, map
// entries, repeated and singular Leafs, a oneof, an unknown field, then the
// level below as f_self.
std::string All3Level(int level, const std::string& below) {
  std::string leaf = VarintField(1, 7) + LenField(2, "leaf") + LenField(3, Varint(1) + Varint(300));
  std::string m = VarintField(1, static_cast<uint64_t>(level)) + LenField(14, "level string") +
                  LenField(15, "bytes") + LenField(17, leaf);
  if (!below.empty()) m += LenField(18, below);
  m += LenField(21, Varint(1) + Varint(2) + Varint(1u << 20));
  for (int i = 0; i < 3; i++) m += Key(32, 1) + std::string(8, '\x01');
  m += LenField(27, "one") + LenField(27, "two") + LenField(28, "b");
  m += LenField(30, leaf) + LenField(30, leaf);
  m += LenField(41, "oneof");
  m += LenField(60, VarintField(1, 1) + LenField(2, "v1"));
  m += LenField(60, VarintField(1, 2) + LenField(2, "v2"));
  m += VarintField(999, 5) + LenField(1000, "unknown");
  return m;
}

TEST(SizerFastPath, EqualsUnpackUnderEveryOptionWhenArrayCountsFillSegments) {
  // All3 has 25 repeated fields, 50 array counts: two levels nearly fill a
  // stack segment's 128, so the nesting keeps opening new segments.
  std::string in;
  for (int levels = 1; levels <= 24; levels++) {
    in = All3Level(levels, in);
    EXPECT_EQ(SizeMismatches(&iter__test3__all3__iter_type, in), "") << levels << " levels";
  }
}

TEST(SizerFastPath, EqualsUnpackAcrossSegmentsAndAtEveryNestingLimit) {
  // Its stack takes 16 levels per segment: nesting limits and depths on
  // both sides of segment boundaries.
  std::string body = VarintField(2, 5) + LenField(99, "unknown") + VarintField(3, 1);
  std::vector<std::string> nested = {body};
  for (int levels = 1; levels <= 70; levels++) {
    body = LenField(4, body) + LenField(1, "x");
    nested.push_back(body);
  }
  for (uint32_t limit : {14u, 15u, 16u, 17u, 30u, 31u, 32u, 33u, 47u, 48u, 49u}) {
    for (uint32_t levels : {limit - 1, limit, limit + 1}) {
      EXPECT_EQ(SizeMismatches(&iter__merge__plain__iter_type, nested[levels], limit), "")
          << levels << " levels, limit " << limit;
    }
  }
  EXPECT_EQ(SizeMismatches(&iter__merge__plain__iter_type, nested[70], 200), "");
}

TEST(SizerFastPath, EqualsUnpackForUnknownFieldsInMessagesWithoutFields) {
  // Every field of Empty is unknown: at the top, as a singular and as
  // repeated sub-messages, before and after known fields.
  const std::string unknown = VarintField(7, 300) + LenField(8, "eight") + Key(9, 5) + "abcd";
  EXPECT_EQ(SizeMismatches(&iter__empty__empty__iter_type, unknown), "");
  const std::string in = LenField(1, unknown) + LenField(2, unknown) + LenField(2, "") +
                         LenField(2, unknown) + VarintField(3, 1);
  EXPECT_EQ(SizeMismatches(&iter__empty__only_empty__iter_type, in), "");
}

TEST(SizerFastPath, FaultsDeepInsideAreReportedAsUnpackReportsThem) {
  // Bad UTF-8 (a fault only with VALIDATE_UTF8), a truncated varint: each
  // nested a few levels deep.
  std::string bad_utf8 = LenField(14, "\xff\xfe");
  for (int i = 0; i < 5; i++) bad_utf8 = All3Level(i, bad_utf8);
  EXPECT_EQ(SizeMismatches(&iter__test3__all3__iter_type, bad_utf8), "");
  std::string truncated = Key(1, 0) + "\x80";
  for (int i = 0; i < 5; i++) truncated = All3Level(i, truncated);
  EXPECT_EQ(SizeMismatches(&iter__test3__all3__iter_type, truncated), "");
}

// Whether unpacked_size's fast path (not the general sizer it leaves the
// input to when it gives up) sizes `in` with the options `flags`.
bool FastPathSizes(const ProtobufCIterType* t, const std::string& in,
                   uint32_t flags = 0) {
  PbciSize size = {};
  size.ctx.data = Data(in);
  size.ctx.flags = flags;
  size.ctx.max_depth = PROTOBUF_C_ITER_MAX_DEPTH;
  return pbci_measure_fast(t->impl, Data(in), Data(in) + in.size(), &size) == 0;
}

// Regression (found in review): the fast path tested (arrays | groups |
// required) <= 64 where it meant each <= 64, so a type with 64 arrays and
// a group (64 | 1 = 65) always went to the slower general sizer.
TEST(Regression, FastSizerGaveUpOnSixtyFourArraysAndAGroup) {
  const std::string in = Key(1, 0) + "\x01" + Key(64, 0) + "\x02" + LenField(65, "");
  EXPECT_TRUE(FastPathSizes(&iter__wide__sixty_four__iter_type, in));
  EXPECT_EQ(SizeMismatches(&iter__wide__sixty_four__iter_type, in), "");
}

TEST(SizerFastPath, EqualsUnpackForMapEntriesThatStopBeingPlain) {
  // Map entries are sized without a frame while their fields are plain;
  // each of these stops that part way (or never starts it), and the rest
  // of the entry goes through the frame path. The first six stay on the
  // fast path; the last three make it give up (the general sizer decides).
  const std::string entries[] = {
      LenField(1, "key") + LenField(2, "value"),          // plain
      LenField(2, "value") + LenField(1, "key"),          // out of order
      "",                                                 // empty
      LenField(2, "one") + LenField(2, "two"),            // a value twice
      LenField(1, "k") + VarintField(9, 3) + LenField(2, "v"),  // unknown
      LenField(1, std::string(200, 'k')) + LenField(2, "v"),    // long
      std::string("\x8a\x00", 2) + Varint(1) + "k",       // over-long key
      LenField(1, "k") + Key(2, 0) + Varint(5),           // other wire type
      LenField(1, "k") + Key(2, 2) + Varint(9) + "short", // truncated
  };
  for (const std::string& e : entries) {
    const std::string plain = LenField(1, "key") + LenField(2, "value");
    const std::string in = VarintField(1, 1) + LenField(72, plain) + LenField(72, e) +
                           LenField(72, e) + LenField(72, plain) + VarintField(3, 3) +
                           LenField(72, e) +
                           LenField(63, VarintField(1, 5) + LenField(2, VarintField(1, 3))) +
                           VarintField(2, 2);
    EXPECT_EQ(SizeMismatches(&iter__test3__all3__iter_type, in), "") << testing::PrintToString(e);
    EXPECT_EQ(FastPathSizes(&iter__test3__all3__iter_type, in), &e - entries < 6)
        << testing::PrintToString(e);
  }
}

TEST(SizerFastPath, EqualsUnpackForMapEntriesAtEveryNestingLimit) {
  // A chain of map<string, All3> entries ending in plain map entries: the
  // last entries' depth on both sides of each limit, and of the stack's
  // 16-level segments.
  std::string body = LenField(72, LenField(1, "k") + LenField(2, "v")) + VarintField(1, 1);
  std::vector<std::string> nested = {body};
  for (int levels = 1; levels <= 20; levels++) {
    body = LenField(71, LenField(1, "self") + LenField(2, body)) +
           LenField(60, VarintField(1, 7) + LenField(2, "seven"));
    nested.push_back(body);
  }
  for (uint32_t limit = 1; limit <= 42; limit++) {
    for (uint32_t levels : {limit / 2 - 1, limit / 2, limit / 2 + 1}) {
      if (levels >= nested.size()) continue;
      EXPECT_EQ(SizeMismatches(&iter__test3__all3__iter_type, nested[levels], limit), "")
          << levels << " levels, limit " << limit;
    }
  }
}

// A Plain (merge.proto) occurrence that adds to each of its fields: list
// elements, bytes, an unknown field, and `child` as its child.
std::string PlainPart(int i, const std::string& child = "") {
  std::string m = VarintField(3, static_cast<uint64_t>(i)) +
                  VarintField(3, 300) +
                  LenField(1, std::string(static_cast<size_t>(i % 5), 'b')) +
                  VarintField(90 + i % 3, 1);
  if (!child.empty()) m += LenField(4, child);
  return m;
}

TEST(SizerFastPath, FollowsMergesIntoTheInstanceSizedLast) {
  // A singular sub-message sent again and again, each occurrence adding
  // elements (bench's merged500): later occurrences reopen the frame the
  // first one left. Between them: nothing or plain fields; and merges two
  // levels deep.
  std::string again, between, nested;
  for (int i = 0; i < 40; i++) {
    again += LenField(4, PlainPart(i));
    between +=
        LenField(4, PlainPart(i)) + VarintField(2, static_cast<uint64_t>(i));
    nested += LenField(4, PlainPart(i, PlainPart(i + 1, PlainPart(i + 2))));
  }
  const ProtobufCIterType* plain = &iter__merge__plain__iter_type;
  for (const std::string* in : {&again, &between, &nested}) {
    EXPECT_TRUE(FastPathSizes(plain, *in)) << Hex(*in);
    EXPECT_EQ(SizeMismatches(plain, *in), "") << Hex(*in);
  }
  // All3's f_self merging around a map entry (sized without a frame), and
  // MergeTest's c_inner merging in its oneof.
  const std::string self = VarintField(1, 3) + LenField(14, "s") +
                           LenField(21, Varint(1) + Varint(300));
  const std::string entry = VarintField(1, 1) + LenField(2, "v");
  const std::string around_entry =
      LenField(18, self) + LenField(60, entry) + LenField(18, self);
  EXPECT_TRUE(FastPathSizes(&iter__test3__all3__iter_type, around_entry));
  EXPECT_EQ(SizeMismatches(&iter__test3__all3__iter_type, around_entry), "");
  const std::string inner =
      VarintField(1, 1) + VarintField(3, 2) + LenField(4, "d");
  const std::string oneof_again =
      LenField(3, inner) + LenField(3, inner) + LenField(3, inner);
  const ProtobufCIterType* merge_test = &iter__merge__merge_test__iter_type;
  EXPECT_TRUE(FastPathSizes(merge_test, oneof_again));
  EXPECT_EQ(SizeMismatches(merge_test, oneof_again), "");
}

TEST(SizerFastPath, ReopensTheFramesOfMergedTypesThatDoNotGoOn) {
  // Types that merging does not grow (no repeated or message field, so no
  // PBCI_FIELD_GOES_ON) close after each occurrence, and the next one
  // reopens their frame: Inner3 (in a frame when strings are checked) and
  // Empty (fields all unknown, in a frame always), each sent three times
  // in a row.
  const std::string inner = VarintField(1, 5) + LenField(3, "s");
  const std::string outer =
      LenField(1, inner) + LenField(1, VarintField(2, 7)) + LenField(1, inner);
  const ProtobufCIterType* outer3 = &iter__merge3__outer3__iter_type;
  EXPECT_TRUE(FastPathSizes(outer3, outer, PROTOBUF_C_ITER_VALIDATE_UTF8));
  EXPECT_EQ(SizeMismatches(outer3, outer), "");
  const std::string unknown = VarintField(7, 300);
  const std::string empties =
      LenField(1, unknown) + LenField(1, unknown + unknown) + LenField(1, "");
  const ProtobufCIterType* only_empty = &iter__empty__only_empty__iter_type;
  EXPECT_TRUE(FastPathSizes(only_empty, empties));
  EXPECT_EQ(SizeMismatches(only_empty, empties), "");
}

TEST(SizerFastPath, LeavesOtherRepeatedGroupsToTheGeneralSizer) {
  // A oneof's other member in between (a new instance, not a merge),
  // merges after another sub-message's frame (a repeated element, another
  // group), a type with required fields (checked in each occurrence): each
  // sized by the general sizer.
  // The instances between hold more elements than `inner`: a merge that
  // took their counts for its own would be sized wrong.
  const std::string inner = VarintField(1, 1) + VarintField(3, 2);
  const std::string longer = VarintField(3, 1) + VarintField(3, 2) +
                             VarintField(3, 3) + LenField(4, "data");
  const std::string member_between =
      LenField(3, inner) + VarintField(4, 9) + LenField(3, inner);
  const std::string element_between =
      LenField(1, inner) + LenField(2, longer) + LenField(1, inner);
  const std::string group_between = LenField(1, inner) +
                                    LenField(3, longer + LenField(5, longer)) +
                                    LenField(1, inner);
  const ProtobufCIterType* merge_test = &iter__merge__merge_test__iter_type;
  for (const std::string* in :
       {&member_between, &element_between, &group_between}) {
    EXPECT_FALSE(FastPathSizes(merge_test, *in)) << Hex(*in);
    EXPECT_EQ(SizeMismatches(merge_test, *in), "") << Hex(*in);
  }
  const std::string sub = VarintField(1, 5) + LenField(3, "blob");
  const std::string required = VarintField(20, 1) + LenField(21, "s") +
                               LenField(23, sub) + LenField(24, sub) +
                               LenField(24, sub);
  const std::string missing = VarintField(20, 1) + LenField(21, "s") +
                              LenField(23, sub) + LenField(24, sub) +
                              LenField(24, LenField(3, "no id"));
  const ProtobufCIterType* defaults = &iter__defaults__defaults__iter_type;
  for (const std::string* in : {&required, &missing}) {
    EXPECT_FALSE(FastPathSizes(defaults, *in)) << Hex(*in);
    EXPECT_EQ(SizeMismatches(defaults, *in), "") << Hex(*in);
  }
}

// ---- max_depth ----

std::string NestedPlain(int levels) {
  std::string body = VarintField(2, 5);
  for (int i = 0; i < levels; i++) body = LenField(4, body);
  return body;
}

TEST(MaxDepth, AnyLimitAndZeroMeansTheDefault) {
  for (uint32_t limit : {1u, 2u, 7u, 100u, 250u}) {
    for (int levels : {static_cast<int>(limit), static_cast<int>(limit) + 1}) {
      const std::string in = NestedPlain(levels);
      ProtobufCIterOptions o = Opts(0, limit);
      ProtobufCIterStatus st;
      const bool ok = levels <= static_cast<int>(limit);
      ptrdiff_t size = iter__merge__plain__iter_unpacked_size_ex(Data(in), in.size(), &o, &st);
      EXPECT_EQ(size > 0, ok) << limit << " " << levels;
      Buffer buf(ok ? static_cast<size_t>(size) : 64 * in.size());
      ptrdiff_t r = iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(),
                                                       buf.size, &o, &st);
      if (ok) {
        EXPECT_EQ(r, size);
      } else {
        EXPECT_EQ(r, PROTOBUF_C_ITER_ERR_DEPTH);
        EXPECT_EQ(st.code, PROTOBUF_C_ITER_ERR_DEPTH);
        EXPECT_EQ(st.field_number, 4u);
        // The key of the field at the limit: 2 bytes (key, 1-3 byte length)
        // per level before it.
        EXPECT_LT(st.offset, in.size());
        EXPECT_EQ(static_cast<unsigned char>(in[st.offset]), 0x22);
      }
    }
  }
  const std::string deep = NestedPlain(101);
  ProtobufCIterOptions zero = Opts(0, 0);
  EXPECT_EQ(iter__merge__plain__iter_unpacked_size_ex(Data(deep), deep.size(), &zero, nullptr),
            PROTOBUF_C_ITER_ERR_DEPTH);
}

// ---- arguments ----

TEST(Options, UnknownFlagsAreInvalidArguments) {
  const std::string in = PlainWire();
  Buffer buf(512);
  ProtobufCIterOptions o = Opts(0x80);
  ProtobufCIterStatus st;
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(), buf.size,
                                               &o, &st),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(st.code, PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(st.offset, 0u);
  EXPECT_EQ(iter__merge__plain__iter_unpacked_size_ex(Data(in), in.size(), &o, nullptr),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
}

TEST(Options, NullOptionsAndStatusAreTheDefaults) {
  const std::string in = PlainWire();
  Buffer a(512), b(512);
  ptrdiff_t plain = iter__merge__plain__iter_unpack(Data(in), in.size(), a.bytes.get(), a.size);
  ASSERT_GT(plain, 0);
  ProtobufCIterOptions zero = Opts(0, 0);
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), b.bytes.get(), b.size,
                                               nullptr, nullptr),
            plain);
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), b.bytes.get(), b.size,
                                               &zero, nullptr),
            plain);
  auto* m = reinterpret_cast<Iter__Merge__Plain*>(b.bytes.get());
  EXPECT_EQ(m->a, 7);
  EXPECT_EQ(m->base.n_unknown_fields, 1u);
  EXPECT_NE(m->data.data, Data(in) + 2);  // copied
}

// ---- status of each error kind ----

struct StatusCase {
  const char* name;
  std::string input;
  int code;
  size_t offset;
  uint32_t field;
  const char* message;
};

// Decodes c.input as a Plain and checks the status; unpacked_size must name
// the same fault (every case has one).
void ExpectPlainStatus(const StatusCase& c) {
  ProtobufCIterStatus st;
  Buffer buf(4096);
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(c.input), c.input.size(),
                                               buf.bytes.get(), buf.size,
                                               nullptr, &st),
            c.code)
      << c.name;
  EXPECT_EQ(st.code, c.code) << c.name;
  EXPECT_EQ(st.offset, c.offset) << c.name;
  EXPECT_EQ(st.field_number, c.field) << c.name;
  EXPECT_STREQ(st.message, c.message) << c.name;
  ProtobufCIterStatus size_st;
  EXPECT_EQ(iter__merge__plain__iter_unpacked_size_ex(
                Data(c.input), c.input.size(), nullptr, &size_st),
            c.code)
      << c.name;
  EXPECT_EQ(size_st.offset, c.offset) << c.name;
  EXPECT_EQ(size_st.field_number, c.field) << c.name;
}

TEST(Status, EachErrorKindSaysWhereAndWhy) {
  const std::string sub = VarintField(2, 1) + Key(3, 0) + "\xff";  // truncated in Plain.child
  const std::vector<StatusCase> cases = {
      {"truncated varint", VarintField(2, 1) + Key(2, 0) + "\x80", PROTOBUF_C_ITER_ERR_MALFORMED,
       2, 2, "truncated field, over-long varint or length past the end"},
      {"wrong wire type", VarintField(2, 1) + Key(2, 5) + "abcd", PROTOBUF_C_ITER_ERR_MALFORMED,
       2, 2, "value does not match the field's type"},
      {"field 0", VarintField(2, 1) + std::string("\x00\x01", 2), PROTOBUF_C_ITER_ERR_MALFORMED,
       2, 0, "invalid field key"},
      {"group", VarintField(2, 1) + Key(9, 3), PROTOBUF_C_ITER_ERR_MALFORMED, 2, 9,
       "group wire type (3 or 4): groups are not supported"},
      {"wire type 7", Key(12, 7), PROTOBUF_C_ITER_ERR_MALFORMED, 0, 12, "invalid wire type"},
      {"length past end", LenField(1, "abc").substr(0, 4), PROTOBUF_C_ITER_ERR_MALFORMED, 0, 1,
       "truncated field, over-long varint or length past the end"},
      // The innermost field: inside child (field 4) at offset 2 + 2 + 2.
      {"nested", VarintField(2, 1) + LenField(4, sub), PROTOBUF_C_ITER_ERR_MALFORMED, 6, 3,
       "truncated field, over-long varint or length past the end"},
      // A bad packed run in `list` (field 3): 0x80 ends without a last byte.
      {"packed run", Key(3, 2) + Varint(2) + "\x01\x80", PROTOBUF_C_ITER_ERR_MALFORMED, 0, 3,
       "value does not match the field's type"},
  };
  for (const StatusCase& c : cases) ExpectPlainStatus(c);
}

// A Plain occurrence for `child` (field 4, key 0x22) with two list elements.
const std::string kChildPart =
    LenField(4, VarintField(3, 1) + VarintField(3, 2));

TEST(Status, FaultsInLaterMergedOccurrencesAreReportedWhereTheyAre) {
  // Plain.child sent again and again: its decoder goes on into the next
  // occurrences itself (PbciNext), a fault in the third is the third's.
  const size_t third = 2 * kChildPart.size();
  const std::string twice = kChildPart + kChildPart;
  const std::vector<StatusCase> cases = {
      // Its length past the end: left to the parent, which names field 4.
      {"length past end", twice + Key(4, 2) + Varint(9) + "abc",
       PROTOBUF_C_ITER_ERR_MALFORMED, third, 4,
       "truncated field, over-long varint or length past the end"},
      {"length over-long", twice + Key(4, 2) + std::string(11, '\x80'),
       PROTOBUF_C_ITER_ERR_MALFORMED, third, 4,
       "truncated field, over-long varint or length past the end"},
      // Inside it: the innermost field, past the key and length.
      {"truncated inside",
       twice + LenField(4, VarintField(3, 5) + Key(3, 0) + "\x80"),
       PROTOBUF_C_ITER_ERR_MALFORMED, third + 4, 3,
       "truncated field, over-long varint or length past the end"},
      {"wrong wire type inside", twice + LenField(4, Key(2, 5) + "abcd"),
       PROTOBUF_C_ITER_ERR_MALFORMED, third + 2, 2,
       "value does not match the field's type"},
      // A field of the parent between, then the bad one.
      {"after a parent field",
       twice + VarintField(2, 7) + LenField(4, Key(2, 0) + "\x80"),
       PROTOBUF_C_ITER_ERR_MALFORMED, third + 4, 2,
       "truncated field, over-long varint or length past the end"},
  };
  for (const StatusCase& c : cases) ExpectPlainStatus(c);
}

TEST(Status, MissingRequiredInALaterMergedOccurrence) {
  // Defaults.opt_sub (field 24) again and again; Sub requires `id`, which
  // each occurrence must hold (as protobuf-c checks): the second lacks it.
  const std::string required =
      VarintField(20, 1) + LenField(21, "s") + LenField(23, VarintField(1, 5));
  const std::string first = LenField(24, VarintField(1, 6));
  const std::string second = LenField(24, LenField(2, "no id"));
  const std::string in = required + first + second + first;
  for (bool size : {false, true}) {
    ProtobufCIterStatus st;
    Buffer buf(4096);
    const ptrdiff_t r = size ? iter__defaults__defaults__iter_unpacked_size_ex(
                                   Data(in), in.size(), nullptr, &st)
                             : iter__defaults__defaults__iter_unpack_ex(
                                   Data(in), in.size(), buf.bytes.get(),
                                   buf.size, nullptr, &st);
    EXPECT_EQ(r, PROTOBUF_C_ITER_ERR_MISSING_REQUIRED) << size;
    EXPECT_EQ(st.field_number, 1u) << size;
    EXPECT_EQ(st.offset, required.size() + first.size() + second.size())
        << size;
  }
}

// Regression (found designing the status): decode sizes arrays by scanning
// ahead, and used to fail at the first repeated field when the scan met a
// later malformed field, naming the wrong field and skipping earlier
// faults. Now the first fault in input order is reported.
TEST(Status, UnpackReportsTheFirstFaultInInputOrder) {
  const std::string bad_child = LenField(4, Key(2, 0) + "\x80");  // truncated inside
  const std::string in = VarintField(3, 1) + bad_child + Key(3, 0) + "\x80";
  ProtobufCIterStatus st;
  Buffer buf(4096);
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(), buf.size,
                                               nullptr, &st),
            PROTOBUF_C_ITER_ERR_MALFORMED);
  EXPECT_EQ(st.offset, 4u);  // the key inside the child
  EXPECT_EQ(st.field_number, 2u);
}

TEST(Status, FaultAfterARepeatedFieldIsReportedWhereItIs) {
  const std::string in = VarintField(3, 1) + VarintField(3, 2) + VarintField(2, 1) +
                         Key(3, 0) + "\x80";
  ProtobufCIterStatus st;
  Buffer buf(4096);
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(), buf.size,
                                               nullptr, &st),
            PROTOBUF_C_ITER_ERR_MALFORMED);
  EXPECT_EQ(st.offset, 6u);
  EXPECT_EQ(st.field_number, 3u);
  EXPECT_STREQ(st.message, "truncated field, over-long varint or length past the end");
}

TEST(Status, MissingRequiredNamesTheField) {
  const std::string in = VarintField(1, 5);  // RequiredField2 without f2
  ProtobufCIterStatus st;
  Buffer buf(256);
  EXPECT_EQ(iter__merge__required_field2__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(),
                                                         buf.size, nullptr, &st),
            PROTOBUF_C_ITER_ERR_MISSING_REQUIRED);
  EXPECT_EQ(st.field_number, 2u);
  EXPECT_EQ(st.offset, in.size());
  EXPECT_STREQ(st.message, "missing required field");
  EXPECT_EQ(iter__merge__required_field2__iter_unpacked_size_ex(Data(in), in.size(), nullptr,
                                                                &st),
            PROTOBUF_C_ITER_ERR_MISSING_REQUIRED);
  EXPECT_EQ(st.field_number, 2u);
}

TEST(Status, BufferErrorsAndSuccess) {
  const std::string in = PlainWire();
  ProtobufCIterStatus st;
  Buffer buf(512);
  // Too small for the struct itself: no field yet.
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(), 8, nullptr,
                                               &st),
            PROTOBUF_C_ITER_ERR_NO_MEMORY);
  EXPECT_EQ(st.code, PROTOBUF_C_ITER_ERR_NO_MEMORY);
  EXPECT_EQ(st.offset, 0u);
  EXPECT_STREQ(st.message, "buffer too small");
  // Room for the struct but not the bytes of field 1.
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(),
                                               sizeof(Iter__Merge__Plain) + 4, nullptr, &st),
            PROTOBUF_C_ITER_ERR_NO_MEMORY);
  EXPECT_EQ(st.offset, 0u);
  EXPECT_EQ(st.field_number, 1u);
  EXPECT_EQ(iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get() + 1,
                                               buf.size - 1, nullptr, &st),
            PROTOBUF_C_ITER_ERR_ALIGNMENT);
  EXPECT_EQ(st.code, PROTOBUF_C_ITER_ERR_ALIGNMENT);
  EXPECT_EQ(iter__merge__plain__iter_unpack_merge_ex(nullptr, Data(in), in.size(),
                                                     buf.bytes.get(), buf.size, nullptr, &st),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(st.code, PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  ptrdiff_t used = iter__merge__plain__iter_unpack_ex(Data(in), in.size(), buf.bytes.get(),
                                                      buf.size, nullptr, &st);
  ASSERT_GT(used, 0);
  EXPECT_EQ(st.code, 0);
  EXPECT_EQ(st.offset, in.size());
  EXPECT_EQ(st.field_number, 0u);
  EXPECT_STREQ(st.message, "ok");
}

TEST(IterType, HoldsTheDescriptorAndDecodesThroughTheGenericFunctions) {
  const ProtobufCIterType* t = &iter__merge__plain__iter_type;
  EXPECT_EQ(t->descriptor, &iter__merge__plain__descriptor);
  const std::string in = PlainWire();
  ptrdiff_t size = protobuf_c_iter_unpacked_size(t, Data(in), in.size(), nullptr, nullptr);
  ASSERT_GT(size, 0);
  EXPECT_EQ(size, iter__merge__plain__iter_unpacked_size(Data(in), in.size()));
  Buffer buf(static_cast<size_t>(size));
  EXPECT_EQ(protobuf_c_iter_unpack(t, Data(in), in.size(), buf.bytes.get(), buf.size, nullptr,
                                   nullptr),
            size);
  // Merging the same input again appends its repeated elements.
  Buffer more(static_cast<size_t>(size));
  EXPECT_GT(protobuf_c_iter_unpack_merge(t, buf.bytes.get(), Data(in), in.size(), more.bytes.get(),
                                         more.size, nullptr, nullptr),
            0);
}

TEST(IterType, NullTypeOrMessageIsAnInvalidArgument) {
  const std::string in = PlainWire();
  Buffer buf(256);
  ProtobufCIterStatus st;
  EXPECT_EQ(protobuf_c_iter_unpack(nullptr, Data(in), in.size(), buf.bytes.get(), buf.size,
                                   nullptr, &st),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(st.code, PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(protobuf_c_iter_unpacked_size(nullptr, Data(in), in.size(), nullptr, nullptr),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(protobuf_c_iter_unpack_merge(&iter__merge__plain__iter_type, nullptr, Data(in),
                                         in.size(), buf.bytes.get(), buf.size, nullptr, nullptr),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace pbci_test
