// Decoding semantics case by case: the original project's test messages,
// each deviation from protobuf-c 1.4.1 (with protobuf-c's behaviour asserted
// next to ours), and the API's edge cases.
#include <gtest/gtest.h>
#include <protobuf-c-iter/internal/decode.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "defaults.pb-iter.h"
#include "init_helpers.pb-iter.h"
#include "keywords.pb-iter.h"
#include "merge.pb-iter.h"
#include "merge3.pb-iter.h"
#include "options.pb-iter.h"
#include "scalars2.pb-iter.h"
#include "scalars3.pb-iter.h"
#include "support/iter_check.h"
#include "support/pbc_compare.h"
#include "support/wire.h"

namespace pbci_test {
namespace {

std::string Bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s += static_cast<char>(c);
  return s;
}

const uint8_t* Data(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// Decodes with the generated decoder into an exact buffer and fails the
// test on any disagreement between unpacked_size and unpack.
template <typename T>
class Decoded {
 public:
  Decoded(const char* full_name, const std::string& bytes) {
    std::string problems;
    result_ = DecodeWithIter(TypeNamed(full_name), bytes, &problems);
    EXPECT_EQ(problems, "");
  }
  ptrdiff_t code() const { return result_.code; }
  const T* operator->() const {
    return static_cast<const T*>(result_.buffer->data);
  }
  const ProtobufCMessage* base() const { return result_.message(); }

 private:
  IterResult result_;
};

template <typename T>
T* PbcUnpack(const ProtobufCMessageDescriptor* desc, const std::string& bytes) {
  return reinterpret_cast<T*>(
      protobuf_c_message_unpack(desc, nullptr, bytes.size(), Data(bytes)));
}

void PbcFree(void* m) {
  if (m)
    protobuf_c_message_free_unpacked(static_cast<ProtobufCMessage*>(m),
                                     nullptr);
}

// ---- the original project's messages, rebuilt byte for byte ----

TEST(SeedMessages, MergeTestMergesTheRepeatedSubMessage) {
  // MergeTest.plain = {a: 7, list: [1, 2]} then {list: [3]}.
  const std::string in = Bytes(
      {0x2a, 0x06, 0x10, 0x07, 0x18, 0x01, 0x18, 0x02, 0x2a, 0x02, 0x18, 0x03});
  Decoded<Iter__Merge__MergeTest> m("iter.merge.MergeTest", in);
  ASSERT_GE(m.code(), 0);
  ASSERT_NE(m->plain, nullptr);
  EXPECT_EQ(m->plain->a, 7);
  ASSERT_EQ(m->plain->n_list, 3u);
  EXPECT_EQ(m->plain->list[0], 1);
  EXPECT_EQ(m->plain->list[1], 2);
  EXPECT_EQ(m->plain->list[2], 3);
  EXPECT_EQ(CheckAgainstProtobufC(TypeNamed("iter.merge.MergeTest"), in), "");
}

TEST(SeedMessages, RepeatedPacked) {
  // PackedField: packed [10, 42, 777, 15, 63, 408].
  const std::string in =
      Bytes({0x0a, 0x08, 0x0a, 0x2a, 0x89, 0x06, 0x0f, 0x3f, 0x98, 0x03});
  Decoded<Iter__Merge__PackedField> m("iter.merge.PackedField", in);
  ASSERT_GE(m.code(), 0);
  const std::vector<int32_t> expected = {10, 42, 777, 15, 63, 408};
  ASSERT_EQ(m->n_values, expected.size());
  for (size_t i = 0; i < expected.size(); i++)
    EXPECT_EQ(m->values[i], expected[i]);
  EXPECT_EQ(CheckAgainstProtobufC(TypeNamed("iter.merge.PackedField"), in), "");
}

// Regression (found by fuzz_scalars2 after the packed-run rewrite): an
// empty packed run of a field with no array yet computed NULL + 0, which is
// undefined in C (clang's UBSan reports it). Every packed kind, empty, then
// one element after an empty run.
TEST(Regression, NullArrayPlusZeroForEmptyPackedRun) {
  for (int number : {41, 42, 43, 44, 45, 46}) {
    const std::string in = Bytes({((number << 3 | 2) & 0x7f) | 0x80, number >> 4, 0x00});
    Decoded<Iter__Test__Scalars2> m("iter.test.Scalars2", in);
    ASSERT_GE(m.code(), 0) << number;
    EXPECT_EQ(CheckAgainstProtobufC(TypeNamed("iter.test.Scalars2"), in), "") << number;
  }
  // A non-empty run without a last byte (count 0): malformed, no NULL + 0.
  const std::string unterminated = Bytes({0xf2, 0x02, 0x02, 0xff, 0xff});
  Decoded<Iter__Test__Scalars2> bad("iter.test.Scalars2", unterminated);
  EXPECT_EQ(bad.code(), PROTOBUF_C_ITER_ERR_MALFORMED);
  EXPECT_EQ(CheckAgainstProtobufC(TypeNamed("iter.test.Scalars2"), unterminated), "");
  // p_fixed32 (43): empty, then one element.
  const std::string in = Bytes({0xda, 0x02, 0x00, 0xda, 0x02, 0x04, 1, 0, 0, 0});
  Decoded<Iter__Test__Scalars2> m("iter.test.Scalars2", in);
  ASSERT_GE(m.code(), 0);
  ASSERT_EQ(m->n_p_fixed32, 1u);
  EXPECT_EQ(m->p_fixed32[0], 1u);
  EXPECT_EQ(CheckAgainstProtobufC(TypeNamed("iter.test.Scalars2"), in), "");
}

// Regression (found by fuzz_scalars2 after open runs): the packed-run case
// of an unpacked repeated field also tried its self-prediction as the next
// element of an open run, so an unpacked element right after a packed run
// of the same field took pbci_extend_run's path: after an empty run with no
// array yet, it read the header of a NULL array; after an empty run
// following an open run, it extended that array in place, where the sizers
// start a new run (a size off by the difference). Both forms, for a 4-byte
// (r_int32, 21), an 8-byte (r_int64, 22) and a 1-byte key (Plain.list, 3).
TEST(Regression, PackedRunCaseExtendedAnOpenRunOrANullArray) {
  const IterType& s2 = TypeNamed("iter.test.Scalars2");
  const IterType& plain = TypeNamed("iter.merge.Plain");
  for (uint32_t number : {21u, 22u}) {
    const std::string element = VarintField(number, 5);
    const std::string empty_run = LenField(number, "");
    for (const std::string& in :
         {empty_run + element, element + element + empty_run + element,
          element + empty_run + element + element + LenField(number, "\x07") +
              element}) {
      Decoded<Iter__Test__Scalars2> m("iter.test.Scalars2", in);
      ASSERT_GE(m.code(), 0) << number << ": " << Hex(in);
      EXPECT_EQ(CheckAgainstProtobufC(s2, in), "") << number << ": " << Hex(in);
    }
  }
  const std::string element = VarintField(3, 9);
  for (const std::string& in :
       {LenField(3, "") + element,
        element + element + LenField(3, "") + element + element}) {
    Decoded<Iter__Merge__Plain> m("iter.merge.Plain", in);
    ASSERT_GE(m.code(), 0) << Hex(in);
    EXPECT_EQ(CheckAgainstProtobufC(plain, in), "") << Hex(in);
  }
}

// Regression (found in review): counting packed varints eight bytes at a
// time no longer noticed a varint over 10 bytes, so the array-sizing scan
// (since replaced by sizing each run) went on and reserved the arrays of
// every later field: a tight buffer gave NO_MEMORY before decoding reached
// the fault. Each packed run is still counted before its array grows. Runs of 10 continuation
// bytes inside a word, across two words, and at the end.
TEST(Regression, OverlongVarintInPackedRunStopsTheReserveScan) {
  std::string strings;
  for (int i = 0; i < 50; i++) strings += Bytes({0x92, 0x02, 0x03, 'a', 'b', 'c'});  // r_string
  for (const std::string& run :
       {std::string(10, '\x80') + "\x01", "\x01" + std::string(10, '\x80') + "\x01",
        "\x01" + std::string(10, '\x80') + std::string(5, '\x01'),
        std::string(3, '\x01') + std::string(12, '\x80') + "\x01"}) {
    const std::string in = Bytes({0xca, 0x02, static_cast<int>(run.size())}) + run + strings;
    const IterType& t = TypeNamed("iter.test.Scalars2");
    EXPECT_EQ(t.unpacked_size(Data(in), in.size()), PROTOBUF_C_ITER_ERR_MALFORMED);
    // Room for the struct only: the fault is found before any array.
    ExactBuffer tight((sizeof(Iter__Test__Scalars2) + 7) & ~size_t{7});
    EXPECT_EQ(t.unpack(Data(in), in.size(), tight.data, tight.size),
              PROTOBUF_C_ITER_ERR_MALFORMED)
        << Hex(run);
    EXPECT_EQ(CheckAgainstProtobufC(t, in), "") << Hex(run);
  }
}

// The decoder counts a packed run of varints by its last bytes alone and
// finds a varint over 10 bytes while reading the run (the sizer still looks
// for one as it counts). Random runs of every varint kind, each checked
// against protobuf-c (same acceptance, equal contents, unpacked_size exact):
// mostly one-byte values so that whole words of them occur, varints of 2 to
// 11 bytes (11 is over-long), sometimes a cut last varint; lengths up to 80
// bytes, and around 2040 and 4080 bytes, where the count's word lanes are
// summed and start again (also with every other byte a continuation byte).
// In one case of five the values are long (3 to 10 bytes, sometimes 11),
// as random 64-bit values are: runs of them are read a word a value; in
// another mostly two bytes (small deltas), read four at once.
TEST(PackedRuns, RandomVarintRunsMatchProtobufC) {
  const IterType& t = TypeNamed("iter.test.Scalars2");
  std::mt19937 rng(2026);
  auto below = [&rng](uint32_t bound) { return static_cast<uint32_t>(rng() % bound); };
  size_t malformed = 0, cases = 0;
  for (uint32_t field : {41u, 42u, 45u, 46u}) {  // int32, sint64, bool, enum
    for (int i = 0; i < 600; i++) {
      size_t length = below(81);
      if (i % 50 == 0) length = 2030 + below(20);
      if (i % 50 == 1 || i % 50 == 2) length = 4075 + below(20);
      std::string run;
      // Two-byte values only, in one case of 50: every other byte lane of
      // each word counts a continuation byte, the most a lane can hold.
      const bool two_byte = i % 50 == 2;
      const bool long_values = i % 5 == 4, deltas = i % 5 == 3;
      auto value_bytes = [&]() -> uint32_t {
        if (two_byte) return 2;
        if (long_values) return below(40) == 0 ? 11 : 3 + below(8);
        if (deltas) return below(8) != 0 ? 2 : 1;
        return below(4) != 0 ? 1 : 2 + below(10);
      };
      while (run.size() < length) {
        const uint32_t bytes = value_bytes();
        for (uint32_t b = 0; b + 1 < bytes; b++) run += static_cast<char>(0x80 | below(128));
        run += static_cast<char>(below(field == 45u ? 2 : 128));
      }
      if (below(8) != 0) run.resize(length);  // else keep the last varint whole
      const std::string in = VarintField(1, 7) + LenField(field, run) + VarintField(13, 1);
      const std::string problems = CheckAgainstProtobufC(t, in);
      ASSERT_EQ(problems, "") << "field " << field << ", case " << i << ": " << Hex(run);
      malformed += t.unpacked_size(Data(in), in.size()) == PROTOBUF_C_ITER_ERR_MALFORMED;
      cases++;
    }
  }
  // Both outcomes were exercised.
  EXPECT_GT(malformed, cases / 10);
  EXPECT_LT(malformed, cases * 9 / 10);
}

// An over-long varint after a whole word of one-byte values, after a
// multi-byte one and as the run's first, among long values, in each varint
// kind: malformed with room to spare, as with room for the struct alone. Runs
// over 16 bytes (counted first), and the same shapes in short ones.
TEST(PackedRuns, OverlongVarintIsMalformedWhereverItIs) {
  const IterType& t = TypeNamed("iter.test.Scalars2");
  const std::string overlong = std::string(10, '\x81') + "\x01";
  const std::string tail(8, '\x01');
  // 9, 10 and 4 bytes: runs of them are read a word a value.
  const std::string long_values = "\x81\x82\x83\x84\x85\x86\x87\x88\x09" +
                                  std::string(9, '\xff') +
                                  "\x01\xff\xff\xff\x7f";
  for (uint32_t field : {41u, 42u, 45u, 46u}) {
    for (const std::string& run :
         {overlong + tail, std::string(8, '\x01') + overlong + "\x01",
          "\x96\x01" + overlong + tail,
          std::string(3, '\x00') + overlong + std::string(20, '\x01'), overlong,
          "\x96\x01" + overlong, long_values + overlong + "\x01",
          long_values + long_values + overlong, overlong + long_values}) {
      const std::string in = LenField(field, run);
      EXPECT_EQ(t.unpacked_size(Data(in), in.size()), PROTOBUF_C_ITER_ERR_MALFORMED);
      std::vector<uint64_t> big(1024);
      EXPECT_EQ(t.unpack(Data(in), in.size(), big.data(), big.size() * 8),
                PROTOBUF_C_ITER_ERR_MALFORMED)
          << field << ": " << Hex(run);
      ExactBuffer tight((sizeof(Iter__Test__Scalars2) + 7) & ~size_t{7});
      EXPECT_EQ(t.unpack(Data(in), in.size(), tight.data, tight.size),
                PROTOBUF_C_ITER_ERR_MALFORMED)
          << field << ": " << Hex(run);
      EXPECT_EQ(CheckAgainstProtobufC(t, in), "") << Hex(run);
    }
  }
}

// A predicted fixed-width field is entered past its bounds check when the
// key and all its value bytes are in the input. Fields 6-12 of Scalars2 in
// order (a varint, then fixed32, fixed64, sfixed32, sfixed64, float,
// double: each predicted by the one before), cut at every length, so that
// each value is whole, one byte short or cut elsewhere: every prefix as
// protobuf-c reads it, and the whole message with each value right.
TEST(Prediction, FixedFieldsCutAtEveryLength) {
  const IterType& t = TypeNamed("iter.test.Scalars2");
  auto fixed = [](uint32_t number, uint32_t wire_type, uint64_t v, int size) {
    std::string s = Key(number, wire_type);
    for (int i = 0; i < size; i++) s += static_cast<char>(v >> (8 * i));
    return s;
  };
  const std::string in = VarintField(6, 3) + fixed(7, 5, 0x89abcdefu, 4) +
                         fixed(8, 1, 0x0123456789abcdefu, 8) + fixed(9, 5, 0xfffffffeu, 4) +
                         fixed(10, 1, 0x8000000000000001u, 8) + fixed(11, 5, 0x3fc00000u, 4) +
                         fixed(12, 1, 0xc004000000000000u, 8);
  for (size_t len = 0; len <= in.size(); len++) {
    ASSERT_EQ(CheckAgainstProtobufC(t, in.substr(0, len)), "") << len << " bytes";
  }
  Decoded<Iter__Test__Scalars2> m("iter.test.Scalars2", in);
  ASSERT_GE(m.code(), 0);
  EXPECT_EQ(m->f_fixed32, 0x89abcdefu);
  EXPECT_EQ(m->f_fixed64, 0x0123456789abcdefu);
  EXPECT_EQ(m->f_sfixed32, -2);
  EXPECT_EQ(m->f_sfixed64, static_cast<int64_t>(0x8000000000000001u));
  EXPECT_EQ(m->f_float, 1.5f);
  EXPECT_EQ(m->f_double, -2.5);
  EXPECT_TRUE(m->has_f_fixed32 && m->has_f_fixed64 && m->has_f_sfixed32 &&
              m->has_f_sfixed64 && m->has_f_float && m->has_f_double);
}

// A contiguous run of elements gets one array of exactly its length (after
// its header): no slack in the common layout.
TEST(Arrays, AContiguousRunIsOneExactArray) {
  std::string in;
  for (int i = 0; i < 101; i++) in += VarintField(21, static_cast<uint64_t>(i));  // r_int32
  const IterType& t = TypeNamed("iter.test.Scalars2");
  const size_t want = ((sizeof(Iter__Test__Scalars2) + 7) & ~size_t{7}) +
                      PROTOBUF_C_ITER_ARRAY_HEADER + ((101 * 4 + 7) & ~size_t{7});
  EXPECT_EQ(t.unpacked_size(Data(in), in.size()), static_cast<ptrdiff_t>(want));
  Decoded<Iter__Test__Scalars2> m("iter.test.Scalars2", in);
  ASSERT_EQ(m.code(), static_cast<ptrdiff_t>(want));
  ASSERT_EQ(m->n_r_int32, 101u);
  EXPECT_EQ(m->r_int32[100], 100);
}

// A first run of sub-messages keeps its elements' pointers on the decoder's
// stack and gets its array, exact, when it ends (pbci_close_run); one
// longer than that buffer (PBCI_RUN_SLOTS) moves to an array counted for
// all of it (pbci_spill_run). The sizers count runs ahead, so a different
// array shows against protobuf-c in the exact buffer: runs of 1 to 20
// elements with a one-byte key (All3.r_leaf) and a two-byte one
// (Scalars2.r_self), elements with arrays of their own (between the
// structs), ending at the message's end or at another field, and followed
// by a second run, which grows the array as before.
TEST(Arrays, RunsOfSubMessagesGetExactArraysWhenTheyEnd) {
  const IterType& all3 = TypeNamed("iter.test3.All3");
  const IterType& scalars2 = TypeNamed("iter.test.Scalars2");
  for (uint64_t n = 1; n <= 20; n++) {
    std::string leaves, selves;
    for (uint64_t i = 0; i < n; i++) {
      const std::string values =
          i % 3 == 0 ? VarintField(3, i) + VarintField(3, i + 1) : "";
      leaves += LenField(30, VarintField(1, i) + LenField(2, "leaf") + values);
      selves += LenField(
          37, VarintField(1, i) + (i % 2 == 1 ? VarintField(21, i) : ""));
    }
    for (const std::string& after : {std::string(), VarintField(1, 7)}) {
      for (const std::string& again :
           {std::string(), LenField(30, VarintField(1, 9))}) {
        ASSERT_EQ(CheckAgainstProtobufC(all3, leaves + after + again), "") << n;
      }
      ASSERT_EQ(CheckAgainstProtobufC(scalars2, selves + after + selves), "")
          << n;
      Decoded<Iter__Test3__All3> m("iter.test3.All3", leaves + after);
      ASSERT_GE(m.code(), 0) << n;
      ASSERT_EQ(m->n_r_leaf, n);
      const PbciArrayHeader* h = pbci_array_header(m->r_leaf);
      EXPECT_EQ(h->cap, n);
      EXPECT_EQ(h->owner, &m->n_r_leaf);
    }
  }
}

// A run of sub-messages that fails leaves no pointer into the decoder's
// stack, which held the run's pointers, in the struct merged into: its
// contents are unspecified after a failure, but it may be looked at.
TEST(Arrays, AFailedRunOfSubMessagesLeavesNoPointerIntoTheStack) {
  for (int failing = 0; failing < 12; failing++) {
    std::string in;
    for (int i = 0; i < failing; i++) in += LenField(30, VarintField(1, 1));
    in += LenField(30, Bytes({0x08}));  // a varint cut short: malformed
    Iter__Test3__All3 msg;
    // protoc-c's init: its INIT macro leaves members out in C++ (1.5.2).
    iter__test3__all3__init(&msg);
    ExactBuffer buf(4096);
    ASSERT_EQ(iter__test3__all3__iter_unpack_merge(&msg, Data(in), in.size(),
                                                   buf.data, buf.size),
              PROTOBUF_C_ITER_ERR_MALFORMED);
    const unsigned char* array = reinterpret_cast<unsigned char*>(msg.r_leaf);
    const unsigned char* start = static_cast<unsigned char*>(buf.data);
    EXPECT_TRUE(array == nullptr ||
                (array >= start && array < start + buf.size))
        << failing;
  }
}

// An open run (strings, bytes and scalars whose elements follow each other
// with the field's usual key) grows its new array one element at a time
// where counting would have put it, so that the sizers, which count, agree
// (pbci_start_run). Each layout below is what counting gives, byte for byte.
TEST(Arrays, OpenRunsLayOutAsCountedRuns) {
  const IterType& plain = TypeNamed("iter.merge.Plain");
  const IterType& outer = TypeNamed("iter.merge.MergeTest");
  const size_t h = PROTOBUF_C_ITER_ARRAY_HEADER;
  auto round = [](size_t n) { return (n + 7) & ~size_t{7}; };
  auto list = [](std::initializer_list<int> values) {
    std::string s;
    for (int v : values) s += VarintField(3, static_cast<uint64_t>(v));
    return s;
  };
  // A run alone, of every length up to 9 (4-byte elements: every other
  // one adds a word): one exact array.
  for (int k = 1; k <= 9; k++) {
    std::string in;
    for (int i = 0; i < k; i++) in += VarintField(3, static_cast<uint64_t>(i));
    EXPECT_EQ(plain.unpacked_size(Data(in), in.size()),
              static_cast<ptrdiff_t>(round(sizeof(Iter__Merge__Plain)) + h +
                                     round(4 * k)));
    EXPECT_EQ(CheckAgainstProtobufC(plain, in), "") << k;
  }
  // Two runs apart: the second moves to a new array of twice the first's
  // capacity, as a counted array would, although the open one is still the
  // last thing in the buffer.
  const std::string apart = list({1, 2, 3}) + VarintField(2, 7) + list({4});
  EXPECT_EQ(plain.unpacked_size(Data(apart), apart.size()),
            static_cast<ptrdiff_t>(round(sizeof(Iter__Merge__Plain)) + h +
                                   round(12) + h + round(4 * 6)));
  EXPECT_EQ(CheckAgainstProtobufC(plain, apart), "");
  // The same message again (merged): its run fills the room the moved
  // array left (6 - 4), and its next element, predicted, finds the array
  // full and the last thing in the buffer, but not open: it moves to
  // 2 * 6 elements rather than taking one more slot in place.
  const std::string merged =
      LenField(5, apart) + LenField(5, list({5, 6, 7, 8}));
  EXPECT_EQ(
      outer.unpacked_size(Data(merged), merged.size()),
      static_cast<ptrdiff_t>(round(sizeof(Iter__Merge__MergeTest)) +
                             round(sizeof(Iter__Merge__Plain)) + h + round(12) +
                             h + round(4 * 6) + h + round(4 * 12)));
  EXPECT_EQ(CheckAgainstProtobufC(outer, merged), "");
  {
    Decoded<Iter__Merge__MergeTest> m("iter.merge.MergeTest", merged);
    ASSERT_GE(m.code(), 0);
    ASSERT_EQ(m->plain->n_list, 8u);
    for (int i = 0; i < 8; i++) EXPECT_EQ(m->plain->list[i], i + 1);
  }
  // A key written long (0x98 0x00 for 0x18) is not the usual key: its run
  // is counted, by its own bytes, and the usual keys after it are another
  // run; as the second of a run, it ends the open run there.
  const std::string long_key = Bytes({0x98, 0x00, 0x01});
  for (const std::string& in :
       {long_key + list({2, 3}), list({1, 2}) + long_key + list({4}),
        long_key + long_key + list({3}) + long_key}) {
    EXPECT_EQ(CheckAgainstProtobufC(plain, in), "") << Hex(in);
  }
  // Strings, bytes and 8-byte scalars open runs too (2-byte keys).
  const IterType& s2 = TypeNamed("iter.test.Scalars2");
  std::string mixed;
  for (int i = 0; i < 5; i++) {
    mixed += LenField(34, std::string(static_cast<size_t>(i * 7), 's'));
  }
  for (int i = 0; i < 3; i++)
    mixed += LenField(35, std::string(static_cast<size_t>(i), 'b'));
  for (int i = 0; i < 4; i++)
    mixed += VarintField(22, static_cast<uint64_t>(1) << (9 * i));
  mixed += LenField(34, "again");
  EXPECT_EQ(CheckAgainstProtobufC(s2, mixed), "");
  Decoded<Iter__Test__Scalars2> m("iter.test.Scalars2", mixed);
  ASSERT_GE(m.code(), 0);
  ASSERT_EQ(m->n_r_string, 6u);
  EXPECT_STREQ(m->r_string[4], std::string(28, 's').c_str());
  EXPECT_STREQ(m->r_string[5], "again");
  ASSERT_EQ(m->n_r_bytes, 3u);
  EXPECT_EQ(m->r_bytes[2].len, 2u);
  ASSERT_EQ(m->n_r_int64, 4u);
  EXPECT_EQ(m->r_int64[3], int64_t{1} << 27);
}

// Regression (found by fuzz_defaults): an open run takes every element
// with its key, whatever its length's width, but pbci_count_run stopped at
// the first length of 3 or more bytes (16 KiB and more, or a short one
// written long), so the sizers counted a shorter run and then grew a second
// array: unpacked_size said 32 bytes more than unpack used. Each run below
// is one exact array, as the decoder lays it out, in both sizers.
TEST(Arrays, ARunCountsElementsWithLongLengthsAsAnOpenRunTakesThem) {
  const size_t h = PROTOBUF_C_ITER_ARRAY_HEADER;
  auto round = [](size_t n) { return (n + 7) & ~size_t{7}; };
  // raw_tags (field 5, bytes): empty values, their lengths written long in
  // 2, 3 or 5 bytes or short, in every order.
  const IterType& conf = TypeNamed("iter.opts.HTTPServer_conf");
  // After host_name sent twice (a oneof set again), the fast sizer gives up
  // and the general one sizes the run.
  const std::string key = Key(5, 2);
  const std::string len0[] = {Bytes({0x00}), Bytes({0x80, 0x00}),
                              Bytes({0x80, 0x80, 0x00}),
                              Bytes({0x80, 0x80, 0x80, 0x80, 0x00})};
  const std::string hosts = LenField(6, "a") + LenField(6, "b");
  const ptrdiff_t hosts_size = conf.unpacked_size(Data(hosts), hosts.size());
  ASSERT_GT(hosts_size, 0);
  for (const std::string& a : len0) {
    for (const std::string& b : len0) {
      for (const std::string& c : len0) {
        const std::string run = key + a + key + b + key + c;
        const size_t array = h + round(3 * sizeof(ProtobufCBinaryData));
        for (const std::string& in : {run, hosts + run}) {
          std::string problems;
          IterResult r = DecodeWithIter(conf, in, &problems);
          EXPECT_EQ(problems, "") << Hex(in);
          EXPECT_EQ(static_cast<size_t>(r.code),
                    (in == run ? round(sizeof(Renamed__PkgC__HTTPServerConf))
                               : static_cast<size_t>(hosts_size)) +
                        array)
              << Hex(in);
          EXPECT_EQ(CheckAgainstProtobufC(conf, in), "") << Hex(in);
        }
      }
    }
  }
  // r_string (field 34, a 2-byte key) with values of 16 KiB and more
  // (3-byte lengths) between short ones.
  const IterType& s2 = TypeNamed("iter.test.Scalars2");
  const size_t lengths[] = {20007, 3, 16383, 16384, 4};
  std::string in;
  size_t copies = 0;
  for (size_t n : lengths) {
    in += LenField(34, std::string(n, 's'));
    copies += n + 1;
  }
  std::string problems;
  IterResult r = DecodeWithIter(s2, in, &problems);
  EXPECT_EQ(problems, "");
  EXPECT_EQ(r.code,
            static_cast<ptrdiff_t>(round(sizeof(Iter__Test__Scalars2)) + h +
                                   round(5 * sizeof(char*)) + copies));
  EXPECT_EQ(CheckAgainstProtobufC(s2, in), "");
}

// Runs of two repeated fields that interleave (a b a b ...) grow their
// arrays by doubling: the buffer stays linear in the input, where an array
// of exactly the running length per run would take 4 n^2 bytes (1.6 GB
// here).
TEST(Arrays, InterleavedRunsGrowLinearly) {
  const int n = 20000;
  std::string in;
  for (int i = 0; i < n; i++) {
    in += VarintField(21, static_cast<uint64_t>(i & 0x7f)) + VarintField(23, 1);  // r_int32, r_uint32
  }
  const IterType& t = TypeNamed("iter.test.Scalars2");
  const ptrdiff_t size = t.unpacked_size(Data(in), in.size());
  ASSERT_GT(size, 0);
  // Per field, capacities 1, 2, 4, ... up to under 2n: under 4n elements.
  ASSERT_LT(static_cast<size_t>(size), sizeof(Iter__Test__Scalars2) + 2 * 4 * n * 4);
  Decoded<Iter__Test__Scalars2> m("iter.test.Scalars2", in);
  ASSERT_EQ(m.code(), size);
  ASSERT_EQ(m->n_r_int32, static_cast<size_t>(n));
  ASSERT_EQ(m->n_r_uint32, static_cast<size_t>(n));
  EXPECT_EQ(m->r_int32[n - 1], (n - 1) & 0x7f);
  EXPECT_EQ(CheckAgainstProtobufC(t, in), "");
}

// The decoder reads parts of its input twice (runs are counted before
// they are stored), so a buffer overlapping the input, which decoding would
// overwrite, is refused.
// Bytes values and unknown fields of up to 16 bytes are copied as one
// 16-byte move ending where they end, when the input before that end and the
// room allow; byte by byte otherwise. Every length from 0 to 20, ending from
// 2 to 44 bytes into the input (a leading string field of 0 to 24 bytes),
// each field last or next to last, in the exact buffer DecodeWithIter gives
// (so the last copy has no room to spare): ASan reports a read before the
// input, and a move into the room below the copy overwrites what the decoder
// stored there, which the comparison with protobuf-c catches.
TEST(Copies, BytesAndUnknownFieldsNearTheInputsStartAndInExactBuffers) {
  const IterType& t = TypeNamed("iter.test.Scalars2");
  for (size_t n = 0; n <= 20; n++) {
    std::string value;
    for (size_t i = 0; i < n; i++) value += static_cast<char>('a' + i % 26);
    const std::string bytes = LenField(15, value);
    const std::string unknown = LenField(100, value);
    const std::string varint = VarintField(101, uint64_t{1} << (7 * (n % 10)));
    for (size_t lead = 0; lead <= 24; lead++) {
      const std::string head =
          lead == 0 ? "" : LenField(14, std::string(lead - 1, 'x'));
      for (const std::string& tail : {bytes + unknown, unknown + bytes,
                                      unknown + varint, varint + unknown}) {
        ASSERT_EQ(CheckAgainstProtobufC(t, head + tail), "")
            << n << " " << lead;
      }
    }
  }
}

TEST(Api, OverlappingInputAndBufferAreRejected) {
  ExactBuffer buf(4096);
  auto* bytes = static_cast<uint8_t*>(buf.data);
  const std::string in = Bytes({0x08, 0x05});
  std::memcpy(bytes + 1024, in.data(), in.size());
  const IterType& t = TypeNamed("iter.test.Scalars2");
  EXPECT_EQ(t.unpack(bytes + 1024, in.size(), buf.data, buf.size),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(t.unpack(bytes + 1024, in.size(), bytes + 1024 - 16, 1024),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  // Adjacent is fine.
  EXPECT_GT(t.unpack(bytes + 1024, in.size(), buf.data, 1024), 0);
}

TEST(SeedMessages, RequiredFieldMissingIsRejected) {
  // RequiredField2 with f1 = 10 and the required f2 missing (F1V10).
  const std::string in = Bytes({0x08, 0x0a});
  const IterType& t = TypeNamed("iter.merge.RequiredField2");
  EXPECT_EQ(t.unpacked_size(Data(in), in.size()),
            PROTOBUF_C_ITER_ERR_MISSING_REQUIRED);
  EXPECT_EQ(CheckAgainstProtobufC(t, in), "");  // protobuf-c rejects it too
}

TEST(SeedMessages, StringWithZeroByteIsCopiedWhole) {
  // StringField "hello\0world".
  const std::string in =
      Bytes({0x0a, 0x0b, 'h', 'e', 'l', 'l', 'o', 0, 'w', 'o', 'r', 'l', 'd'});
  Decoded<Iter__Merge__StringField> m("iter.merge.StringField", in);
  ASSERT_GE(m.code(), 0);
  EXPECT_EQ(std::memcmp(m->s, "hello\0world", 12), 0);  // NUL-terminated
  EXPECT_EQ(CheckAgainstProtobufC(TypeNamed("iter.merge.StringField"), in), "");
}

TEST(SeedMessages, NegativeLengthStringIsMalformed) {
  // Scalars2.f_string with a 10-byte length varint of -1.
  const std::string in = Bytes(
      {0x72, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 'x'});
  const IterType& t = TypeNamed("iter.test.Scalars2");
  EXPECT_EQ(t.unpacked_size(Data(in), in.size()),
            PROTOBUF_C_ITER_ERR_MALFORMED);
  EXPECT_EQ(CheckAgainstProtobufC(t, in), "");
}

TEST(SeedMessages, TruncatedVarintIsMalformed) {
  const std::string in = Bytes({0x08, 0x96});
  const IterType& t = TypeNamed("iter.test.Scalars2");
  EXPECT_EQ(t.unpacked_size(Data(in), in.size()),
            PROTOBUF_C_ITER_ERR_MALFORMED);
  EXPECT_EQ(CheckAgainstProtobufC(t, in), "");
}

// ---- merged occurrences ----

// A singular sub-message sent again and again: its decoder goes on into the
// parent's next occurrence itself (PbciNext) while the field comes again
// with its usual key. Runs broken every way a parent can break them merge
// as the specification says (each copy decoded alone by protobuf-c, then
// merged), with unpacked_size equal to unpack's use.
TEST(MergedOccurrences, RunsBrokenAnyWayMergeAsTheSpecificationSays) {
  std::vector<std::string> plain, merge_test, all3;
  for (int i = 0; i < 24; i++) {
    const uint64_t u = static_cast<uint64_t>(i);
    // Plain.child: list elements, bytes, an unknown field, its own child
    // (merging a level down) every third time.
    std::string part = VarintField(3, u) + VarintField(3, 1000 + u) +
                       LenField(1, std::string(u % 4, 'x')) +
                       VarintField(50 + i % 2, u);
    if (i % 3 == 0) part += LenField(4, VarintField(3, u) + VarintField(2, u));
    switch (i % 6) {
      case 1:  // a field of the parent between
        plain.push_back(VarintField(2, u));
        break;
      case 3:  // the field's key over-long (0xa2 0x00): not its usual key
        plain.push_back(Bytes({0xa2, 0x00}) + Delimited(part));
        continue;
      case 5:  // an unknown field of the parent between
        plain.push_back(LenField(77, "u"));
        break;
    }
    plain.push_back(LenField(4, part));
    // MergeTest.c_inner, with the oneof's other member now and then (a new
    // instance after it), and Inner's list.
    if (i % 5 == 4) merge_test.push_back(VarintField(4, u));
    merge_test.push_back(LenField(3, VarintField(3, u) + VarintField(1, u)));
    // All3.f_self: a two-byte key (0x92 0x01), a packed run and a string.
    all3.push_back(LenField(
        18, LenField(21, Varint(u) + Varint(300)) + LenField(14, "s")));
  }
  EXPECT_EQ(CheckMerged(TypeNamed("iter.merge.Plain"), plain), "");
  EXPECT_EQ(CheckMerged(TypeNamed("iter.merge.MergeTest"), merge_test), "");
  EXPECT_EQ(CheckMerged(TypeNamed("iter.test3.All3"), all3), "");
}

TEST(MergedOccurrences, AFieldWithAThreeByteKeyMergesEachOccurrenceInItsParent) {
  // FarField.far (field 3000): no usual key, so no PbciNext.
  std::vector<std::string> copies;
  for (int i = 0; i < 12; i++) {
    const uint64_t u = static_cast<uint64_t>(i);
    copies.push_back(LenField(3000, VarintField(3, u) + LenField(4, VarintField(3, u))));
    if (i % 4 == 3) copies.push_back(VarintField(2, u));
  }
  EXPECT_EQ(Key(3000, 2).size(), 3u);
  EXPECT_EQ(CheckMerged(TypeNamed("iter.merge.FarField"), copies), "");
}

// ---- deviations from protobuf-c 1.4.1, each asserting both behaviours ----

TEST(Deviation, Bug1MergingSubMessageWithUnsetOneofIsAccepted) {
  // MergeTest.sub = {a: 1} then {b: 2}; Inner has a oneof set in neither.
  const std::string in =
      Bytes({0x0a, 0x02, 0x08, 0x01, 0x0a, 0x02, 0x10, 0x02});
  auto* ref = PbcUnpack<Iter__Merge__MergeTest>(
      &iter__merge__merge_test__descriptor, in);
  EXPECT_EQ(ref, nullptr) << "protobuf-c 1.4.1 rejects this valid input";
  PbcFree(ref);
  Decoded<Iter__Merge__MergeTest> m("iter.merge.MergeTest", in);
  ASSERT_GE(m.code(), 0);
  EXPECT_EQ(m->sub->a, 1);
  EXPECT_EQ(m->sub->b, 2);
  EXPECT_EQ(m->sub->unset_choice_case,
            ITER__MERGE__INNER__UNSET_CHOICE__NOT_SET);
}

TEST(Deviation, Bug2SameOneofMessageMemberTwiceMerges) {
  // MergeTest.c_inner = {a: 1} then {b: 2}.
  const std::string in =
      Bytes({0x1a, 0x02, 0x08, 0x01, 0x1a, 0x02, 0x10, 0x02});
  auto* ref = PbcUnpack<Iter__Merge__MergeTest>(
      &iter__merge__merge_test__descriptor, in);
  ASSERT_NE(ref, nullptr);
  EXPECT_FALSE(ref->c_inner->has_a)
      << "protobuf-c 1.4.1 replaces the first copy";
  PbcFree(ref);
  Decoded<Iter__Merge__MergeTest> m("iter.merge.MergeTest", in);
  ASSERT_GE(m.code(), 0);
  ASSERT_EQ(m->choice_case, ITER__MERGE__MERGE_TEST__CHOICE_C_INNER);
  EXPECT_TRUE(m->c_inner->has_a);
  EXPECT_EQ(m->c_inner->a, 1);
  EXPECT_EQ(m->c_inner->b, 2);
}

TEST(Deviation, Bug3Proto3MergeKeepsEarlierScalars) {
  // Outer3.sub = {a: 1} then {b: 2}.
  const std::string in =
      Bytes({0x0a, 0x02, 0x08, 0x01, 0x0a, 0x02, 0x10, 0x02});
  auto* ref =
      PbcUnpack<Iter__Merge3__Outer3>(&iter__merge3__outer3__descriptor, in);
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ(ref->sub->a, 0) << "protobuf-c 1.4.1 loses the earlier scalar";
  PbcFree(ref);
  Decoded<Iter__Merge3__Outer3> m("iter.merge3.Outer3", in);
  ASSERT_GE(m.code(), 0);
  EXPECT_EQ(m->sub->a, 1);
  EXPECT_EQ(m->sub->b, 2);
}

TEST(Deviation, Bug4EmptyBytesInEarlierCopyStaysPresent) {
  // MergeTest.plain = {data: ""} then {a: 1}.
  const std::string in =
      Bytes({0x2a, 0x02, 0x0a, 0x00, 0x2a, 0x02, 0x10, 0x01});
  auto* ref = PbcUnpack<Iter__Merge__MergeTest>(
      &iter__merge__merge_test__descriptor, in);
  ASSERT_NE(ref, nullptr);
  EXPECT_FALSE(ref->plain->has_data)
      << "protobuf-c 1.4.1 drops the empty bytes";
  PbcFree(ref);
  Decoded<Iter__Merge__MergeTest> m("iter.merge.MergeTest", in);
  ASSERT_GE(m.code(), 0);
  EXPECT_TRUE(m->plain->has_data);
  EXPECT_EQ(m->plain->data.len, 0u);
  EXPECT_EQ(m->plain->data.data, nullptr);
  EXPECT_EQ(m->plain->a, 1);
}

TEST(Deviation, Bug5UnknownFieldsOfEarlierCopyAreKept) {
  // MergeTest.plain = {field 99: 1} then {a: 1}.
  const std::string in =
      Bytes({0x2a, 0x03, 0x98, 0x06, 0x01, 0x2a, 0x02, 0x10, 0x01});
  auto* ref = PbcUnpack<Iter__Merge__MergeTest>(
      &iter__merge__merge_test__descriptor, in);
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ(ref->plain->base.n_unknown_fields, 0u)
      << "protobuf-c 1.4.1 drops them";
  PbcFree(ref);
  Decoded<Iter__Merge__MergeTest> m("iter.merge.MergeTest", in);
  ASSERT_GE(m.code(), 0);
  ASSERT_EQ(m->plain->base.n_unknown_fields, 1u);
  EXPECT_EQ(m->plain->base.unknown_fields[0].tag, 99u);
  EXPECT_EQ(m->plain->base.unknown_fields[0].len, 1u);
  EXPECT_EQ(m->plain->a, 1);
}

// Plain nested `levels` deep through `child`, innermost a = 5.
std::string NestedPlain(int levels) {
  std::string body = Bytes({0x10, 0x05});
  for (int i = 0; i < levels; i++) {
    std::string len;
    size_t n = body.size();
    do {
      len += static_cast<char>((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
      n >>= 7;
    } while (n != 0);
    body = Bytes({0x22}) + len + body;
  }
  return body;
}

// Deviation 7: a type with gen_init_helpers = false has no x__init, and
// protobuf-c sets its new instances up from the descriptor, whose absent
// enum without a default reads 0 (no value of Level); X__INIT, which protoc-c
// emits either way and the specification agree on LOW, its first value.
TEST(Deviation, Bug7AbsentEnumWithoutInitHelpersReadsItsFirstValue) {
  // x: 5, child {}, children [{}], child_in_oneof {}.
  const std::string in =
      Bytes({0x10, 0x05, 0x1a, 0x00, 0x22, 0x00, 0x32, 0x00});
  ASSERT_EQ(iter__init__no_init_enum__descriptor.message_init, nullptr);
  auto* ref = PbcUnpack<Iter__Init__NoInitEnum>(
      &iter__init__no_init_enum__descriptor, in);
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ(ref->has_level, 0);
  EXPECT_EQ(static_cast<int>(ref->level), 0)
      << "protobuf-c 1.4.1: zeroed, not LOW";
  EXPECT_EQ(static_cast<int>(ref->child->level), 0);
  EXPECT_EQ(static_cast<int>(ref->children[0]->level), 0);
  EXPECT_EQ(static_cast<int>(ref->child_in_oneof->level), 0);
  PbcFree(&ref->base);
  const Iter__Init__NoInitEnum init = ITER__INIT__NO_INIT_ENUM__INIT;
  EXPECT_EQ(init.level, ITER__INIT__LEVEL__LOW);
  Decoded<Iter__Init__NoInitEnum> m("iter.init.NoInitEnum", in);
  ASSERT_GE(m.code(), 0);
  EXPECT_EQ(m->x, 5);
  EXPECT_EQ(m->has_level, 0);
  EXPECT_EQ(m->level, ITER__INIT__LEVEL__LOW);
  ASSERT_NE(m->child, nullptr);
  EXPECT_EQ(m->child->level, ITER__INIT__LEVEL__LOW);
  ASSERT_EQ(m->n_children, 1u);
  EXPECT_EQ(m->children[0]->level, ITER__INIT__LEVEL__LOW);
  ASSERT_EQ(m->o_case, ITER__INIT__NO_INIT_ENUM__O_CHILD_IN_ONEOF);
  EXPECT_EQ(m->child_in_oneof->level, ITER__INIT__LEVEL__LOW);
  // With that corrected, the rest is protobuf-c's.
  EXPECT_EQ(CheckAgainstProtobufC(TypeNamed("iter.init.NoInitEnum"), in), "");
}

TEST(Deviation, NestingBeyond100LevelsIsRejected) {
  // Plain at level 0 holding 100 levels of children: accepted by both.
  std::string ok = NestedPlain(100);
  std::string deep = NestedPlain(101);
  const ProtobufCMessageDescriptor* d = &iter__merge__plain__descriptor;
  ProtobufCMessage* ref =
      protobuf_c_message_unpack(d, nullptr, deep.size(), Data(deep));
  EXPECT_NE(ref, nullptr) << "protobuf-c 1.4.1 has no depth limit";
  PbcFree(ref);
  EXPECT_GE(iter__merge__plain__iter_unpacked_size(Data(ok), ok.size()), 0);
  EXPECT_EQ(iter__merge__plain__iter_unpacked_size(Data(deep), deep.size()),
            PROTOBUF_C_ITER_ERR_DEPTH);
  std::vector<max_align_t> buf(1 << 16);
  EXPECT_GE(iter__merge__plain__iter_unpack(Data(ok), ok.size(), buf.data(),
                                            buf.size() * sizeof buf[0]),
            0);
  EXPECT_EQ(iter__merge__plain__iter_unpack(Data(deep), deep.size(), buf.data(),
                                            buf.size() * sizeof buf[0]),
            PROTOBUF_C_ITER_ERR_DEPTH);
}

TEST(Deviation, NestingOf100000LevelsStopsAtTheLimit) {
  // Built from the inside out in one buffer: O(levels).
  const int kLevels = 100000;
  std::string buf(kLevels * 5 + 2, '\0');
  size_t start = buf.size() - 2;
  buf[start] = 0x10;  // a = 5
  buf[start + 1] = 0x05;
  for (int i = 0; i < kLevels; i++) {
    size_t len = buf.size() - start;
    char prefix[6];
    int n = 0;
    do {
      prefix[n++] = static_cast<char>((len & 0x7f) | (len > 0x7f ? 0x80 : 0));
      len >>= 7;
    } while (len != 0);
    start -= static_cast<size_t>(n) + 1;
    buf[start] = 0x22;  // child
    std::copy(prefix, prefix + n, buf.begin() + static_cast<long>(start) + 1);
  }
  const std::string deep = buf.substr(start);
  // protobuf-c 1.4.1 overflows its stack on this input: not called.
  EXPECT_EQ(iter__merge__plain__iter_unpacked_size(Data(deep), deep.size()),
            PROTOBUF_C_ITER_ERR_DEPTH);
  std::vector<max_align_t> out(1 << 16);
  EXPECT_EQ(iter__merge__plain__iter_unpack(Data(deep), deep.size(), out.data(),
                                            out.size() * sizeof out[0]),
            PROTOBUF_C_ITER_ERR_DEPTH);
}

// ---- protobuf-c options and names ----

TEST(Options, EveryNameAndTypeOptionIsHonoured) {
  using Conf = Renamed__PkgC__HTTPServerConf;  // (pb_c_file).c_package
  // (pb_c_file).const_strings, (pb_c_field).string_as_bytes,
  // (pb_c_msg).base_field_name: the generated decoder compiles against these.
  static_assert(std::is_same<decltype(Conf::name), const char*>::value, "");
  static_assert(std::is_same<decltype(Conf::tags), const char**>::value, "");
  static_assert(std::is_same<decltype(Conf::blob), ProtobufCBinaryData>::value,
                "");
  static_assert(
      std::is_same<decltype(Conf::raw_tags), ProtobufCBinaryData*>::value, "");
  static_assert(std::is_same<decltype(Conf::header), ProtobufCMessage>::value,
                "");
  static_assert(std::is_same<decltype(Conf::base), int32_t>::value, "");

  // gen_init_helpers = false: the macro, not an init function. protoc-c 1.5
  // puts host_blob (a ProtobufCBinaryData) first in the oneof's union and
  // sets it with a flat {0}, which -Wextra flags in C++.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wmissing-braces"
  Conf conf = RENAMED__PKG_C__HTTPSERVER_CONF__INIT;
#pragma GCC diagnostic pop
  Renamed__PkgC__HTTPServerConf__EnvEntry env =
      RENAMED__PKG_C__HTTPSERVER_CONF__ENV_ENTRY__INIT;
  Renamed__PkgC__HTTPServerConf__EnvEntry* envs[] = {&env};
  const char* tags[] = {"a", "bc"};
  uint8_t raw[] = {0, 1, 2};
  ProtobufCBinaryData raw_tags[] = {{sizeof raw, raw}};
  env.key = "PATH";
  env.value = "/bin";
  conf.has_base = 1;
  conf.base = -3;
  conf.name = "server";
  conf.has_blob = 1;
  conf.blob = {sizeof raw, raw};
  conf.n_tags = 2;
  conf.tags = tags;
  conf.n_raw_tags = 1;
  conf.raw_tags = raw_tags;
  conf.target__kind_case =
      RENAMED__PKG_C__HTTPSERVER_CONF__TARGET__KIND_HOST_BLOB;
  conf.host_blob = {sizeof raw, raw};
  conf.n_env = 1;
  conf.env = envs;
  const std::string in = Pack(&conf.header);

  Decoded<Conf> m("iter.opts.HTTPServer_conf", in);
  ASSERT_GE(m.code(), 0);
  EXPECT_EQ(m->base, -3);
  EXPECT_STREQ(m->name, "server");
  ASSERT_EQ(m->blob.len, sizeof raw);
  EXPECT_EQ(std::memcmp(m->blob.data, raw, sizeof raw), 0);
  ASSERT_EQ(m->n_tags, 2u);
  EXPECT_STREQ(m->tags[1], "bc");
  ASSERT_EQ(m->n_raw_tags, 1u);
  EXPECT_EQ(m->raw_tags[0].len, sizeof raw);
  EXPECT_EQ(m->target__kind_case,
            RENAMED__PKG_C__HTTPSERVER_CONF__TARGET__KIND_HOST_BLOB);
  EXPECT_EQ(m->host_blob.len, sizeof raw);
  ASSERT_EQ(m->n_env, 1u);
  EXPECT_STREQ(m->env[0]->value, "/bin");
  // Absent string_as_bytes with a default keeps protoc-c's default array.
  EXPECT_FALSE(m->has_blob_default);
  EXPECT_EQ(m->blob_default.len, 3u);
  EXPECT_EQ(CheckAgainstProtobufC(TypeNamed("iter.opts.HTTPServer_conf"), in),
            "");
}

TEST(Options, KeywordAndDeprecatedFieldsDecode) {
  Iter__Kw__Class k = ITER__KW__CLASS__INIT;
  int32_t fors[] = {1, 2};
  k.has_int_ = 1;
  k.int_ = 5;
  k.char_ = const_cast<char*>("c");
  k.n_for_ = 2;
  k.for_ = fors;
  k.switch_case = ITER__KW__CLASS__SWITCH_DEFAULT;
  k.default_ = const_cast<char*>("d");
  const std::string in = Pack(&k.base);
  Decoded<Iter__Kw__Class> m("iter.kw.class", in);
  ASSERT_GE(m.code(), 0);
  EXPECT_EQ(m->int_, 5);
  EXPECT_STREQ(m->char_, "c");
  EXPECT_EQ(m->for_[1], 2);
  EXPECT_STREQ(m->default_, "d");
}

// ---- the API ----

TEST(Api, EmptyInputGivesTheInitValues) {
  Decoded<Iter__Test__Scalars2> m("iter.test.Scalars2", "");
  ASSERT_EQ(m.code(),
            static_cast<ptrdiff_t>((sizeof(Iter__Test__Scalars2) + 7) / 8 * 8));
  const Iter__Test__Scalars2 init = ITER__TEST__SCALARS2__INIT;
  EXPECT_EQ(Diff(&init.base, m.base()), "");
  EXPECT_EQ(iter__test__scalars2__iter_unpack(nullptr, 0, nullptr, 0),
            PROTOBUF_C_ITER_ERR_NO_MEMORY);
}

// Every new struct (the top-level one, a singular and a repeated
// sub-message) starts as X__INIT, whichever way PBCI_SET_UP takes (with gcc
// on x86-64): Defaults (non-zero defaults) and Scalars2 are copied from
// their prototypes by memcpy, Inner by an inline copy, Plain assigned.
TEST(Api, NewStructsStartAsTheirInit) {
  // Each way's sizes, on 64-bit hosts: 32-bit ones have smaller structs,
  // and the checks below hold for every struct whichever way it takes.
  constexpr bool k64 = sizeof(void*) == 8;
  static_assert(
      !k64 || (sizeof(Iter__Defaults__Defaults) > PBCI_INLINE_COPY_MAX &&
               sizeof(Iter__Test__Scalars2) > PBCI_INLINE_COPY_MAX),
      "memcpy's size");
  static_assert(!k64 || (sizeof(Iter__Merge__Inner) >= 96 &&
                         sizeof(Iter__Merge__Inner) <= PBCI_INLINE_COPY_MAX),
                "the inline copy's size");
  static_assert(!k64 || sizeof(Iter__Merge__Plain) < 96,
                "the assignment's size");
  // The required fields only: req_plain 1, req_string "", req_sub { id 2 }.
  const std::string req =
      Bytes({0xa0, 0x01, 0x01, 0xaa, 0x01, 0x00, 0xba, 0x01, 0x02, 0x08, 0x02});
  Decoded<Iter__Defaults__Defaults> d("iter.defaults.Defaults", req);
  ASSERT_GE(d.code(), 0);
  // protoc-c's own set-up (X__INIT, expanded in its .pb-c.c: in C++,
  // protobuf-c 1.5's macro for this oneof draws -Wmissing-field-initializers).
  Iter__Defaults__Defaults defaults;
  iter__defaults__defaults__init(&defaults);
  defaults.req_plain = 1;
  defaults.req_string = d->req_string;  // a copy of ""
  defaults.req_sub = d->req_sub;        // checked as Diff descends
  EXPECT_STREQ(d->req_string, "");
  EXPECT_EQ(d->req_sub->id, 2u);
  EXPECT_EQ(Diff(&defaults.base, d.base()), "");
  EXPECT_EQ(d->d_int32, -42);
  EXPECT_EQ(d->d_enum, ITER__DEFAULTS__DEFAULTS__MODE__AUTO);

  // Empty sub-messages: f_self {}, r_self {}.
  Decoded<Iter__Test__Scalars2> m("iter.test.Scalars2",
                                  Bytes({0x8a, 0x01, 0x00, 0xaa, 0x02, 0x00}));
  ASSERT_GE(m.code(), 0);
  ASSERT_NE(m->f_self, nullptr);
  ASSERT_EQ(m->n_r_self, 1u);
  const Iter__Test__Scalars2 scalars2 = ITER__TEST__SCALARS2__INIT;
  EXPECT_EQ(Diff(&scalars2.base, &m->f_self->base), "");
  EXPECT_EQ(Diff(&scalars2.base, &m->r_self[0]->base), "");

  // sub {}, subs [{}], c_inner {}, plain {}.
  Decoded<Iter__Merge__MergeTest> t(
      "iter.merge.MergeTest",
      Bytes({0x0a, 0x00, 0x12, 0x00, 0x1a, 0x00, 0x2a, 0x00}));
  ASSERT_GE(t.code(), 0);
  ASSERT_EQ(t->n_subs, 1u);
  ASSERT_EQ(t->choice_case, ITER__MERGE__MERGE_TEST__CHOICE_C_INNER);
  const Iter__Merge__Inner inner_init = ITER__MERGE__INNER__INIT;
  const Iter__Merge__Plain plain_init = ITER__MERGE__PLAIN__INIT;
  EXPECT_EQ(Diff(&inner_init.base, &t->sub->base), "");
  EXPECT_EQ(Diff(&inner_init.base, &t->subs[0]->base), "");
  EXPECT_EQ(Diff(&inner_init.base, &t->c_inner->base), "");
  EXPECT_EQ(Diff(&plain_init.base, &t->plain->base), "");

  // The descriptors, which Diff takes from its first argument.
  const struct {
    const ProtobufCMessage* got;
    const ProtobufCMessageDescriptor* want;
  } descriptors[] = {
      {m.base(), &iter__test__scalars2__descriptor},
      {&m->f_self->base, &iter__test__scalars2__descriptor},
      {&m->r_self[0]->base, &iter__test__scalars2__descriptor},
      {&t->sub->base, &iter__merge__inner__descriptor},
      {&t->subs[0]->base, &iter__merge__inner__descriptor},
      {&t->c_inner->base, &iter__merge__inner__descriptor},
      {&t->plain->base, &iter__merge__plain__descriptor},
  };
  for (const auto& entry : descriptors) {
    EXPECT_EQ(entry.got->descriptor, entry.want) << entry.want->name;
  }

  Decoded<Iter__Merge__Inner> inner("iter.merge.Inner", Bytes({0x08, 0x04}));
  ASSERT_GE(inner.code(), 0);
  Iter__Merge__Inner top = ITER__MERGE__INNER__INIT;
  top.has_a = 1;
  top.a = 4;
  EXPECT_EQ(Diff(&top.base, inner.base()), "");
  EXPECT_EQ(inner.base()->descriptor, &iter__merge__inner__descriptor);
}

TEST(Api, InvalidArgumentsAreRejected) {
  alignas(max_align_t) unsigned char buf[1024];
  const uint8_t byte = 0;
  EXPECT_EQ(iter__test__scalars2__iter_unpack(nullptr, 1, buf, sizeof buf),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(iter__test__scalars2__iter_unpack(&byte, 0, nullptr, 8),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(iter__test__scalars2__iter_unpacked_size(nullptr, 1),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(iter__test__scalars2__iter_unpack_merge(nullptr, &byte, 0, buf,
                                                    sizeof buf),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
}

TEST(Api, MisalignedBufferIsAnError) {
  alignas(max_align_t) unsigned char buf[1024];
  const std::string in = Bytes({0x08, 0x01});
  for (size_t offset = 1; offset < PROTOBUF_C_ITER_BUF_ALIGN; offset++) {
    EXPECT_EQ(iter__test__scalars2__iter_unpack(
                  Data(in), in.size(), buf + offset, sizeof buf - offset),
              PROTOBUF_C_ITER_ERR_ALIGNMENT);
  }
}

TEST(Api, UnpackMergeAppendsFromASecondBuffer) {
  PROTOBUF_C_ITER_BUFFER(first, 512);
  PROTOBUF_C_ITER_BUFFER(second, 512);
  const std::string a =
      Bytes({0x2a, 0x04, 0x18, 0x01, 0x18, 0x02});  // plain.list 1,2
  const std::string b =
      Bytes({0x2a, 0x04, 0x10, 0x09, 0x18, 0x03});  // a 9, list 3
  ASSERT_GE(iter__merge__merge_test__iter_unpack(Data(a), a.size(), first.bytes,
                                                 sizeof first.bytes),
            0);
  auto* msg = reinterpret_cast<Iter__Merge__MergeTest*>(first.bytes);
  ptrdiff_t used = iter__merge__merge_test__iter_unpack_merge(
      msg, Data(b), b.size(), second.bytes, sizeof second.bytes);
  ASSERT_GT(used, 0);
  ASSERT_EQ(msg->plain->n_list, 3u);
  EXPECT_EQ(msg->plain->list[2], 3);
  EXPECT_EQ(msg->plain->a, 9);
  // The grown array lives in the second buffer.
  EXPECT_GE(reinterpret_cast<unsigned char*>(msg->plain->list), second.bytes);
  EXPECT_LT(reinterpret_cast<unsigned char*>(msg->plain->list),
            second.bytes + used);
}

// Bug found by review: an array's growth that failed for want of room
// stored its NULL in the message, so a failed merge left list NULL with
// n_list 1; packing the message, or merging into it again, then crashed.
TEST(Regression, FailedMergeLeftACountWithoutItsArray) {
  PROTOBUF_C_ITER_BUFFER(first, 256);
  PROTOBUF_C_ITER_BUFFER(second, 256);
  const std::string a = Bytes({0x18, 0x01});              // list 1
  const std::string b = Bytes({0x18, 0x02, 0x18, 0x03});  // list 2, 3
  ASSERT_GT(iter__merge__inner__iter_unpack(Data(a), a.size(), first.bytes,
                                            sizeof first.bytes),
            0);
  auto* msg = reinterpret_cast<Iter__Merge__Inner*>(first.bytes);
  // The array, exact, is full: it moves, but 8 bytes hold no new array.
  EXPECT_EQ(iter__merge__inner__iter_unpack_merge(msg, Data(b), b.size(),
                                                  second.bytes, 8),
            PROTOBUF_C_ITER_ERR_NO_MEMORY);
  ASSERT_EQ(msg->n_list, 1u);
  ASSERT_NE(msg->list, nullptr);
  EXPECT_EQ(msg->list[0], 1);
  ASSERT_GT(iter__merge__inner__iter_unpack_merge(
                msg, Data(b), b.size(), second.bytes, sizeof second.bytes),
            0);
  ASSERT_EQ(msg->n_list, 3u);
  EXPECT_EQ(msg->list[2], 3);
}

// Bug found by review: a oneof's new sub-message was stored in the union
// before it was decoded and its case set after, so a merge whose
// sub-message failed left the case naming host_name, a string, while the
// union pointed at a half-decoded HTTPServer_conf. The case now goes with
// the member.
TEST(Regression, FailedMergeLeftTheOneofCaseNamingAnotherMember) {
  PROTOBUF_C_ITER_BUFFER(first, 256);
  PROTOBUF_C_ITER_BUFFER(second, 256);
  const std::string a = Bytes({0x32, 0x03, 'a', 'b', 'c'});  // host_name
  // Fallback {base: a varint cut short}
  const std::string b = Bytes({0x42, 0x02, 0x08, 0x80});
  ASSERT_GT(renamed__pkg_c__httpserver_conf__iter_unpack(
                Data(a), a.size(), first.bytes, sizeof first.bytes),
            0);
  auto* msg = reinterpret_cast<Renamed__PkgC__HTTPServerConf*>(first.bytes);
  EXPECT_EQ(renamed__pkg_c__httpserver_conf__iter_unpack_merge(
                msg, Data(b), b.size(), second.bytes, sizeof second.bytes),
            PROTOBUF_C_ITER_ERR_MALFORMED);
  if (msg->target__kind_case ==
      RENAMED__PKG_C__HTTPSERVER_CONF__TARGET__KIND_HOST_NAME) {
    EXPECT_STREQ(msg->host_name, "abc");
  } else {
    ASSERT_EQ(msg->target__kind_case,
              RENAMED__PKG_C__HTTPSERVER_CONF__TARGET__KIND_FALLBACK);
    // (The struct's ProtobufCMessage: this message has a field named base.)
    EXPECT_EQ(
        reinterpret_cast<const ProtobufCMessage*>(msg->fallback)->descriptor,
        &renamed__pkg_c__httpserver_conf__descriptor);
  }
}

TEST(Api, MergeIntoAStructCopyLeavesTheOriginalsArrayAlone) {
  // Three runs of Plain.list: the third finds an array of capacity 2 full
  // and grows it to 4, leaving room for one more. A copy of the struct
  // shares that array but is not its owner: a merge into the copy must
  // move the elements rather than take the room, which the original's
  // next merge takes.
  PROTOBUF_C_ITER_BUFFER(buf, 512);
  PROTOBUF_C_ITER_BUFFER(for_copy, 256);
  PROTOBUF_C_ITER_BUFFER(for_original, 256);
  const std::string in = Bytes({0x18, 0x01, 0x10, 0x07, 0x18, 0x02, 0x10, 0x08,
                                0x18, 0x03});  // list 1, a, list 2, a, list 3
  ASSERT_GT(iter__merge__plain__iter_unpack(Data(in), in.size(), buf.bytes,
                                            sizeof buf.bytes),
            0);
  auto* original = reinterpret_cast<Iter__Merge__Plain*>(buf.bytes);
  ASSERT_EQ(original->n_list, 3u);
  Iter__Merge__Plain copy = *original;
  const std::string five = Bytes({0x18, 0x05}), six = Bytes({0x18, 0x06});
  ASSERT_GT(iter__merge__plain__iter_unpack_merge(&copy, Data(five),
                                                  five.size(), for_copy.bytes,
                                                  sizeof for_copy.bytes),
            0);
  ASSERT_GE(iter__merge__plain__iter_unpack_merge(
                original, Data(six), six.size(), for_original.bytes,
                sizeof for_original.bytes),
            0);
  ASSERT_EQ(copy.n_list, 4u);
  ASSERT_EQ(original->n_list, 4u);
  for (int i = 0; i < 3; i++) {
    EXPECT_EQ(copy.list[i], i + 1);
    EXPECT_EQ(original->list[i], i + 1);
  }
  EXPECT_EQ(copy.list[3], 5);
  EXPECT_EQ(original->list[3], 6);
  EXPECT_NE(copy.list, original->list);
}

TEST(Api, UnpackMergeIntoAnInitialisedStruct) {
  PROTOBUF_C_ITER_BUFFER(buf, 256);
  Iter__Merge__PackedField msg = ITER__MERGE__PACKED_FIELD__INIT;
  const std::string in = Bytes({0x0a, 0x02, 0x05, 0x06});
  ASSERT_GT(iter__merge__packed_field__iter_unpack_merge(
                &msg, Data(in), in.size(), buf.bytes, sizeof buf.bytes),
            0);
  ASSERT_EQ(msg.n_values, 2u);
  EXPECT_EQ(msg.values[1], 6);
}

TEST(Api, ResultIsAnOrdinaryProtobufCMessage) {
  const std::string in =
      Bytes({0x2a, 0x06, 0x10, 0x07, 0x18, 0x01, 0x18, 0x02});
  Decoded<Iter__Merge__MergeTest> m("iter.merge.MergeTest", in);
  ASSERT_GE(m.code(), 0);
  EXPECT_TRUE(protobuf_c_message_check(m.base()));
  EXPECT_EQ(protobuf_c_message_get_packed_size(m.base()), in.size());
  EXPECT_EQ(Pack(m.base()), in);
}

TEST(Api, StrerrorNamesEveryCode) {
  const ptrdiff_t codes[] = {PROTOBUF_C_ITER_ERR_MALFORMED,
                             PROTOBUF_C_ITER_ERR_NO_MEMORY,
                             PROTOBUF_C_ITER_ERR_MISSING_REQUIRED,
                             PROTOBUF_C_ITER_ERR_DEPTH,
                             PROTOBUF_C_ITER_ERR_ALIGNMENT,
                             PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT,
                             PROTOBUF_C_ITER_ERR_BAD_UTF8,
                             PROTOBUF_C_ITER_ERR_IO,
                             PROTOBUF_C_ITER_ERR_TOO_LARGE,
                             PROTOBUF_C_ITER_ERR_WORK_LIMIT};
  std::set<std::string> texts;
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    EXPECT_EQ(codes[i], -static_cast<ptrdiff_t>(i) - 1) << "codes are -1, -2, ... in order";
    const std::string text = protobuf_c_iter_strerror(codes[i]);
    EXPECT_NE(text, "unknown error") << codes[i];
    EXPECT_TRUE(texts.insert(text).second) << codes[i] << " shares its text: " << text;
  }
  EXPECT_STREQ(protobuf_c_iter_strerror(-11), "unknown error");
  EXPECT_STREQ(protobuf_c_iter_strerror(0), "success");
  EXPECT_STREQ(protobuf_c_iter_strerror(4096), "success");
  EXPECT_STREQ(protobuf_c_iter_strerror(-100), "unknown error");
}

// The runtime library, its header and the project agree on the version,
// and the number encodes the string.
TEST(Api, VersionAgreesEverywhere) {
  EXPECT_STREQ(protobuf_c_iter_version(), PBCI_PROJECT_VERSION) << "library vs CMake project";
  EXPECT_STREQ(PROTOBUF_C_ITER_VERSION, PBCI_PROJECT_VERSION) << "header vs CMake project";
  unsigned major = 0, minor = 0, patch = 0;
  ASSERT_EQ(std::sscanf(protobuf_c_iter_version(), "%u.%u.%u", &major, &minor, &patch), 3);
  EXPECT_EQ(PROTOBUF_C_ITER_VERSION_NUMBER, major * 1000000 + minor * 1000 + patch);
}

// Regression (found in review): the plugin read gen_init_helpers only from
// the file, so for a message whose own (pb_c_msg) option turns it off, or
// that inherits that from its enclosing message, the table said "new
// instances: message_init", which protoc-c leaves NULL: every top-level
// unpack called a NULL function pointer.
TEST(Regression, MessageLevelGenInitHelpersLeftANullMessageInit) {
  EXPECT_EQ(iter__init__no_init__descriptor.message_init, nullptr);
  EXPECT_EQ(iter__init__no_init__nested__descriptor.message_init, nullptr);
  EXPECT_EQ(iter__init__no_init__mentry__descriptor.message_init, nullptr);
  EXPECT_NE(iter__init__no_init__with_init__descriptor.message_init, nullptr);
  PROTOBUF_C_ITER_BUFFER(buf, 512);
  const std::string nested = std::string("\x1a\x00", 2);  // nested = {}
  ptrdiff_t n = iter__init__no_init__iter_unpack(
      reinterpret_cast<const uint8_t*>(nested.data()), nested.size(), buf.bytes,
      sizeof buf.bytes);
  ASSERT_GT(n, 0);
  const auto* msg = reinterpret_cast<const Iter__Init__NoInit*>(buf.bytes);
  EXPECT_EQ(msg->base.descriptor, &iter__init__no_init__descriptor);
  EXPECT_EQ(msg->x, 5);
  EXPECT_STREQ(msg->s, "d");
  ASSERT_NE(msg->nested, nullptr);
  EXPECT_EQ(msg->nested->y, 7);
  n = iter__init__no_init__nested__iter_unpack(nullptr, 0, buf.bytes, sizeof buf.bytes);
  ASSERT_GT(n, 0);
  EXPECT_EQ(reinterpret_cast<const Iter__Init__NoInit__Nested*>(buf.bytes)->y, 7);
  for (const char* name : {"iter.init.NoInit", "iter.init.NoInit.Nested",
                           "iter.init.NoInit.WithInit", "iter.init.NoInit.MEntry"}) {
    EXPECT_EQ(CheckAgainstProtobufC(TypeNamed(name), nested), "") << name;
  }
}

}  // namespace
}  // namespace pbci_test
