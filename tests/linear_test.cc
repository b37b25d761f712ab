// Buffer use stays linear in the input on the shapes an attacker would pick:
// a singular sub-message (or a oneof's message member) occurring many times,
// each occurrence appending to an array of the merged instance. Arrays keep
// their capacity in a header, so later occurrences append into the room
// earlier ones left instead of copying the array each time (which took
// 400 MB for a 40 KB input). Each shape is decoded at two sizes into a buffer
// of exactly unpacked_size (DecodeWithIter checks unpack agrees, and that
// one byte less fails), its merged contents are checked, and a small
// instance is compared with protobuf's merge semantics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "merge.pb-iter.h"
#include "protobuf-c-iter/internal/decode.h"
#include "runtime.h"  // pbci_measure_top, for the sizer's work
#include "scalars3.pb-iter.h"
#include "support/iter_check.h"
#include "support/pbc_compare.h"
#include "support/wire.h"

namespace pbci_test {
namespace {

const uint8_t* Data(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// One adversarial shape: the top-level type, the bytes of occurrence i, and
// what the decoded message must hold after n occurrences (a problem, or "").
struct Shape {
  const char* name;
  const char* type;
  std::function<std::string(int i)> occurrence;
  std::function<std::string(const void* msg, int n)> check;
};

// gtest prints a shape by its name.
void PrintTo(const Shape& s, std::ostream* os) { *os << s.name; }

std::string Expect(size_t got, size_t want, const char* what) {
  if (got == want) return "";
  return std::string(what) + " is " + std::to_string(got) + ", not " + std::to_string(want);
}

using MergeTest = Iter__Merge__MergeTest;
using All3 = Iter__Test3__All3;

const MergeTest* AsMergeTest(const void* m) { return static_cast<const MergeTest*>(m); }
const All3* AsAll3(const void* m) { return static_cast<const All3*>(m); }

std::vector<Shape> Shapes() {
  return {
      {"unpacked int32 in a merged proto2 message", "iter.merge.MergeTest",
       [](int i) { return LenField(5, VarintField(3, static_cast<uint64_t>(i))); },
       [](const void* m, int n) {
         const Iter__Merge__Plain* p = AsMergeTest(m)->plain;
         if (p == nullptr) return std::string("no plain");
         for (int i = 0; i < n; i++) {
           if (p->list[i] != i) return "list[" + std::to_string(i) + "] wrong";
         }
         return Expect(p->n_list, static_cast<size_t>(n), "n_list");
       }},
      {"unknown fields in a merged message", "iter.merge.MergeTest",
       [](int) { return LenField(5, VarintField(15, 1)); },
       [](const void* m, int n) {
         return Expect(AsMergeTest(m)->plain->base.n_unknown_fields, static_cast<size_t>(n),
                       "n_unknown_fields");
       }},
      {"a oneof's message member again", "iter.merge.MergeTest",
       [](int) { return LenField(3, VarintField(3, 1)); },
       [](const void* m, int n) {
         return Expect(AsMergeTest(m)->c_inner->n_list, static_cast<size_t>(n), "n_list");
       }},
      {"merges three levels deep", "iter.merge.MergeTest",
       [](int) { return LenField(1, LenField(5, LenField(5, VarintField(3, 1)))); },
       [](const void* m, int n) {
         return Expect(AsMergeTest(m)->sub->inner->inner->n_list, static_cast<size_t>(n),
                       "n_list");
       }},
      {"merges inside merges", "iter.merge.MergeTest",
       [](int) { return LenField(1, LenField(5, VarintField(3, 1)) + VarintField(3, 2)); },
       [](const void* m, int n) {
         const Iter__Merge__Inner* sub = AsMergeTest(m)->sub;
         return Expect(sub->n_list, static_cast<size_t>(n), "sub n_list") +
                Expect(sub->inner->n_list, static_cast<size_t>(n), "inner n_list");
       }},
      {"packed runs in a merged proto3 message", "iter.test3.All3",
       [](int) { return LenField(18, LenField(21, Varint(1))); },
       [](const void* m, int n) {
         return Expect(AsAll3(m)->f_self->n_r_int32, static_cast<size_t>(n), "n_r_int32");
       }},
      {"strings", "iter.test3.All3",
       [](int) { return LenField(18, LenField(27, "")); },
       [](const void* m, int n) {
         return Expect(AsAll3(m)->f_self->n_r_string, static_cast<size_t>(n), "n_r_string");
       }},
      {"bytes", "iter.test3.All3",
       [](int) { return LenField(18, LenField(28, "")); },
       [](const void* m, int n) {
         return Expect(AsAll3(m)->f_self->n_r_bytes, static_cast<size_t>(n), "n_r_bytes");
       }},
      {"repeated messages", "iter.test3.All3",
       [](int) { return LenField(18, LenField(30, "")); },
       [](const void* m, int n) {
         return Expect(AsAll3(m)->f_self->n_r_leaf, static_cast<size_t>(n), "n_r_leaf");
       }},
      {"map entries", "iter.test3.All3",
       [](int) { return LenField(18, LenField(60, "")); },
       [](const void* m, int n) {
         return Expect(AsAll3(m)->f_self->n_m_int32_string, static_cast<size_t>(n),
                       "n_m_int32_string");
       }},
      // Runs of a oneof's members inside a merged message: each run of two
      // occurrences is an instance of its own, merged from two occurrences
      // of the outer message.
      {"oneof runs inside a merged message", "iter.test3.All3",
       [](int i) {
         return LenField(18, i % 4 < 2 ? LenField(43, VarintField(3, 1))
                                       : LenField(47, LenField(21, Varint(1))));
       },
       [](const void* m, int n) {
         const All3* self = AsAll3(m)->f_self;
         const int last = (n - 1) % 4;  // its place in its group of four
         if (last < 2) {
           if (self->choice_case != ITER__TEST3__ALL3__CHOICE_C_LEAF) return std::string("not c_leaf");
           return Expect(self->c_leaf->n_values, static_cast<size_t>(last + 1), "n_values");
         }
         if (self->choice_case != ITER__TEST3__ALL3__CHOICE_C_SELF) return std::string("not c_self");
         return Expect(self->c_self->n_r_int32, static_cast<size_t>(last - 1), "n_r_int32");
       }},
  };
}

class Linear : public testing::TestWithParam<Shape> {};

// Decodes n occurrences; returns the bytes used (or a failure).
ptrdiff_t DecodeShape(const Shape& s, int n) {
  std::string in;
  for (int i = 0; i < n; i++) in += s.occurrence(i);
  std::string problems;
  IterResult r = DecodeWithIter(TypeNamed(s.type), in, &problems);
  EXPECT_EQ(problems, "") << s.name << ", " << n;
  if (r.code < 0) {
    ADD_FAILURE() << s.name << ": " << n << " occurrences give " << r.code;
    return r.code;
  }
  EXPECT_EQ(s.check(r.buffer->data, n), "") << s.name << ", " << n;
  return r.code;
}

TEST_P(Linear, TenTimesTheInputTakesAtMostTwentyTimesTheBuffer) {
  const Shape& s = GetParam();
  const ptrdiff_t small = DecodeShape(s, 2000);
  const ptrdiff_t large = DecodeShape(s, 20000);
  ASSERT_GT(small, 0);
  ASSERT_GT(large, 0);
  // Capacities double, so a tenfold input may cross one more doubling than
  // its tenth did: at most 20x, where copying every array per occurrence
  // took 100x.
  EXPECT_LE(large, 20 * small) << s.name << ": " << small << " then " << large;
}

// Arrays just past a doubling hold the most slack: unpacked_size stays under
// the published bound there too (DecodeWithIter checks it on every input).
TEST_P(Linear, BoundHoldsJustPastADoubling) {
  const Shape& s = GetParam();
  for (int n : {1, 2, 3, 5, 1025}) EXPECT_GT(DecodeShape(s, n), 0) << s.name << ", " << n;
}

// The merged result is protobuf's merge of the occurrences (protobuf-c
// decodes each alone), the decode options agree with the plain decode.
TEST_P(Linear, MergesAsTheSpecificationSays) {
  const Shape& s = GetParam();
  std::vector<std::string> copies;
  for (int i = 0; i < 40; i++) copies.push_back(s.occurrence(i));
  EXPECT_EQ(CheckMerged(TypeNamed(s.type), copies), "") << s.name;
}

INSTANTIATE_TEST_SUITE_P(Shapes, Linear, testing::ValuesIn(Shapes()),
                         [](const testing::TestParamInfo<Shape>& info) {
                           std::string name;
                           for (const char* c = info.param.name; *c; c++) {
                             if (std::isalnum(static_cast<unsigned char>(*c))) name += *c;
                           }
                           return name;
                         });

// The same occurrences merged a few at a time, each call with a buffer of
// its own, give what one unpack of them all gives: the calls append into
// the room the earlier calls' arrays left (their headers name this struct),
// or copy a full array once. Merging is decoding the concatenation.
TEST_P(Linear, MergeCallsEqualOneUnpack) {
  const Shape& s = GetParam();
  const IterType& t = TypeNamed(s.type);
  std::string all;
  std::vector<std::string> chunks(1);
  for (int i = 0; i < 300; i++) {
    const std::string o = s.occurrence(i);
    all += o;
    if (i % 7 == 6) chunks.emplace_back();
    chunks.back() += o;
  }
  std::string problems;
  IterResult whole = DecodeWithIter(t, all, &problems);
  ASSERT_EQ(problems, "");
  ASSERT_GT(whole.code, 0);
  std::vector<std::unique_ptr<max_align_t[]>> buffers;
  auto buffer = [&buffers](size_t n) {
    buffers.emplace_back(new max_align_t[n / sizeof(max_align_t) + 1]);
    return buffers.back().get();
  };
  // The struct from an unpack of nothing, then each chunk merged into it.
  void* first = buffer(4096);
  ASSERT_GT(t.unpack(nullptr, 0, first, 4096), 0);
  auto* msg = static_cast<ProtobufCMessage*>(first);
  size_t used = 0;
  for (const std::string& c : chunks) {
    // Room for the chunk and for copying the arrays once more.
    const size_t size = t.unpacked_size_bound(c.size()) + 2 * used + 4096;
    const ptrdiff_t r = t.unpack_merge(msg, Data(c), c.size(), buffer(size), size);
    ASSERT_GE(r, 0) << s.name;
    used += static_cast<size_t>(r);
  }
  EXPECT_EQ(Pack(msg), Pack(whole.message())) << s.name;
  EXPECT_EQ(s.check(msg, 300), "") << s.name;
}

// x__iter_unpacked_size_bound: the top-level struct for no input, K per
// byte after it, SIZE_MAX where that would wrap.
TEST(Bound, CountsTheStructAndSaturates) {
  const size_t top = PROTOBUF_C_ITER_STRUCT_COST(sizeof(MergeTest));
  EXPECT_EQ(iter__merge__merge_test__iter_unpacked_size_bound(0), top);
  const size_t k = iter__merge__merge_test__iter_unpacked_size_bound(1) - top;
  // At least an unknown field's entry per two bytes.
  EXPECT_GE(k, PROTOBUF_C_ITER_ARRAY_COST(sizeof(ProtobufCMessageUnknownField)) / 2);
  EXPECT_EQ(iter__merge__merge_test__iter_unpacked_size_bound(1000), 1000 * k + top);
  EXPECT_EQ(iter__merge__merge_test__iter_unpacked_size_bound(SIZE_MAX / k), SIZE_MAX);
  EXPECT_EQ(iter__merge__merge_test__iter_unpacked_size_bound(SIZE_MAX), SIZE_MAX);
  // A buffer of the bound decodes the worst shapes without a sizing pass.
  std::string in;
  for (int i = 0; i < 1025; i++) in += LenField(5, VarintField(15, 1));
  const size_t bound = iter__merge__merge_test__iter_unpacked_size_bound(in.size());
  std::unique_ptr<max_align_t[]> buf(new max_align_t[bound / sizeof(max_align_t) + 1]);
  const ptrdiff_t used = iter__merge__merge_test__iter_unpack(Data(in), in.size(), buf.get(), bound);
  ASSERT_GT(used, 0);
  EXPECT_LE(static_cast<size_t>(used), bound);
}

// A heap buffer that outlives the call that decoded into it.
struct Block {
  explicit Block(size_t n) : bytes(new max_align_t[(n + sizeof(max_align_t) - 1) /
                                                     sizeof(max_align_t)]),
                             size(n) {}
  std::unique_ptr<max_align_t[]> bytes;
  size_t size;
};

// N merge calls, each appending one element with a buffer of its own, take
// O(N) bytes in all: a call appends into the room an earlier call's array
// has, and a full array doubles. (Copying the array every call took N^2 / 2
// elements.)
TEST(Merge, RepeatedMergeCallsTakeLinearSpace) {
  const int n = 5000;
  Iter__Merge__Plain msg = ITER__MERGE__PLAIN__INIT;
  std::vector<Block> blocks;
  size_t used = 0;
  for (int i = 0; i < n; i++) {
    const std::string in = VarintField(3, static_cast<uint64_t>(i));
    // Room for a doubled copy of the array.
    blocks.emplace_back(PROTOBUF_C_ITER_ARRAY_HEADER + 8 * (msg.n_list + 1));
    const ptrdiff_t r = iter__merge__plain__iter_unpack_merge(
        &msg, Data(in), in.size(), blocks.back().bytes.get(), blocks.back().size);
    ASSERT_GE(r, 0) << i;
    used += static_cast<size_t>(r);
  }
  ASSERT_EQ(msg.n_list, static_cast<size_t>(n));
  for (int i = 0; i < n; i++) ASSERT_EQ(msg.list[i], i) << i;
  // Capacities 1, 2, 4, ..., 8192: 16383 elements (the first rounded up to
  // 8 bytes) and 14 headers.
  EXPECT_LE(used, 4 * 16384 + 14 * PROTOBUF_C_ITER_ARRAY_HEADER);
}

// Only the struct that owns an array appends into its room: a copy of the
// struct (sharing the array) copies it on its first growth, so merging into
// the copy never overwrites what the original holds past the copy's count,
// nor the other way round.
TEST(Merge, AStructCopyNeverWritesIntoTheOriginalsArray) {
  // list [1, 2, 3]: an array of capacity 4 after two calls (a run of two,
  // then one element, which doubles the full array).
  const std::string first = VarintField(3, 1) + VarintField(3, 2);
  const std::string second = VarintField(3, 3);
  Block b0(256), b1(256), b2(256), b3(256);
  Iter__Merge__Plain msg = ITER__MERGE__PLAIN__INIT;
  ASSERT_GE(iter__merge__plain__iter_unpack_merge(&msg, Data(first), first.size(),
                                                  b0.bytes.get(), b0.size),
            0);
  ASSERT_GE(iter__merge__plain__iter_unpack_merge(&msg, Data(second), second.size(),
                                                  b1.bytes.get(), b1.size),
            0);
  ASSERT_EQ(msg.n_list, 3u);
  Iter__Merge__Plain copy = msg;
  const std::string four = VarintField(3, 4), five = VarintField(3, 5);
  // The copy's append takes a new array from b2 (nothing from b1's room).
  ASSERT_GT(iter__merge__plain__iter_unpack_merge(&copy, Data(four), four.size(),
                                                  b2.bytes.get(), b2.size),
            0);
  EXPECT_NE(copy.list, msg.list);
  // The original's append uses its own room: nothing from b3.
  EXPECT_EQ(iter__merge__plain__iter_unpack_merge(&msg, Data(five), five.size(),
                                                  b3.bytes.get(), b3.size),
            0);
  ASSERT_EQ(msg.n_list, 4u);
  ASSERT_EQ(copy.n_list, 4u);
  const int32_t want_msg[] = {1, 2, 3, 5}, want_copy[] = {1, 2, 3, 4};
  EXPECT_EQ(std::memcmp(msg.list, want_msg, sizeof want_msg), 0);
  EXPECT_EQ(std::memcmp(copy.list, want_copy, sizeof want_copy), 0);
}

// ---- the sizer's work limit ----
//
// An exact sizer must find every occurrence of each merged instance. Its
// search re-reads the fields between its parents' occurrences, once per
// merged instance, so an input can make it read (merged instances) x
// (fields between) fields: the "self tree" below, two copies of a tree of
// sub-messages far apart. unpacked_size counts those reads against
// PROTOBUF_C_ITER_SIZE_WORK per byte and stops with WORK_LIMIT there.

// A tree of All3 through its two singular self fields, f_self and the
// oneof's c_self, `depth` levels deep.
std::string SelfTree(int depth) {
  if (depth == 0) return "";
  const std::string t = SelfTree(depth - 1);
  return LenField(18, t) + LenField(47, t);
}

// Two copies of SelfTree(depth) with `between` one-byte fields between
// them: every instance of the tree is merged from both copies.
std::string SelfTreesApart(int depth, int between) {
  std::string in = SelfTree(depth);
  for (int i = 0; i < between; i++) in += VarintField(1, 1);
  return in + SelfTree(depth);
}

// The limit on an input of `len` bytes, as protobuf-c-iter.h states it.
size_t WorkLimit(size_t len) {
  return PROTOBUF_C_ITER_SIZE_WORK *
         std::max<size_t>(len, PROTOBUF_C_ITER_SIZE_WORK_MIN_LEN);
}

// The reads the search for merged occurrences makes sizing `in` as a `t`
// when it may make `work` of them; sets *code to what sizing returns.
size_t SizingWork(const ProtobufCIterType& t, const std::string& in,
                  size_t work, ptrdiff_t* code) {
  PbciSize size = {};
  size.work = work;
  size.ctx.data = Data(in);
  size.ctx.max_depth = PROTOBUF_C_ITER_MAX_DEPTH;
  *code = pbci_measure_top(t.impl, Data(in), Data(in) + in.size(), &size);
  return work - size.work;
}

TEST(WorkLimit, SizingStopsAtTheLimitOnMergesFarApart) {
  const std::string in = SelfTreesApart(9, 10000);
  ptrdiff_t code;
  // Without a limit the search reads about 1,000 instances x 10,000 fields:
  // more than the limit, which is what the limit is for.
  const size_t unlimited =
      SizingWork(iter__test3__all3__iter_type, in, SIZE_MAX, &code);
  ASSERT_EQ(code, 0);
  ASSERT_GT(unlimited, WorkLimit(in.size()));
  // With it, the search stops after exactly the limit's reads.
  EXPECT_EQ(
      SizingWork(iter__test3__all3__iter_type, in, WorkLimit(in.size()), &code),
      WorkLimit(in.size()));
  EXPECT_EQ(code, PROTOBUF_C_ITER_ERR_WORK_LIMIT);
  // So does the generated sizer, with a status that says so.
  EXPECT_EQ(iter__test3__all3__iter_unpacked_size(Data(in), in.size()),
            PROTOBUF_C_ITER_ERR_WORK_LIMIT);
  ProtobufCIterStatus st;
  EXPECT_EQ(iter__test3__all3__iter_unpacked_size_ex(Data(in), in.size(),
                                                     nullptr, &st),
            PROTOBUF_C_ITER_ERR_WORK_LIMIT);
  EXPECT_EQ(st.code, PROTOBUF_C_ITER_ERR_WORK_LIMIT);
  EXPECT_STREQ(st.message, "sizing work limit reached");
  EXPECT_LT(st.offset, in.size());
  // The way on: unpack into a buffer of the bound, in linear time.
  const size_t bound = iter__test3__all3__iter_unpacked_size_bound(in.size());
  Block buf(bound);
  const ptrdiff_t used = iter__test3__all3__iter_unpack(Data(in), in.size(),
                                                        buf.bytes.get(), bound);
  ASSERT_GT(used, 0);
  // Without the limit the sizer is exact: DecodeWithIter sizes again with
  // PROTOBUF_C_ITER_NO_WORK_LIMIT, unpacks into exactly that and one byte
  // less, and compares.
  std::string problems;
  IterResult r = DecodeWithIter(TypeNamed("iter.test3.All3"), in, &problems);
  EXPECT_EQ(problems, "");
  EXPECT_TRUE(r.work_limited);
  EXPECT_EQ(r.code, used);
  EXPECT_EQ(
      CheckMerged(TypeNamed("iter.test3.All3"), {SelfTree(4), SelfTree(4)}),
      "");
}

// Inputs not built against the sizer stay well below the limit:
// concatenated copies of a message with nested singular sub-messages, and
// each adversarial shape above. (Merging M instances from copies F fields
// apart reads about M x F fields: the limit allows 16 per byte.)
TEST(WorkLimit, OrdinaryMergesStayWellBelowIt) {
  ptrdiff_t code;
  for (int copies : {2, 3, 10}) {
    std::string in;
    for (int i = 0; i < copies; i++) in += SelfTree(12);
    const size_t work =
        SizingWork(iter__test3__all3__iter_type, in, SIZE_MAX, &code);
    ASSERT_EQ(code, 0);
    EXPECT_LE(2 * work, WorkLimit(in.size())) << copies << " copies: " << work;
  }
  // Two copies of a message with 510 nested singular sub-messages and 500
  // scalars: about 2 x 510 x 500 reads.
  const std::string in = SelfTreesApart(8, 500);
  EXPECT_LE(2 * SizingWork(iter__test3__all3__iter_type, in, SIZE_MAX, &code),
            WorkLimit(in.size()));
  ASSERT_EQ(code, 0);
  for (const Shape& s : Shapes()) {
    std::string shape;
    for (int i = 0; i < 20000; i++) shape += s.occurrence(i);
    const size_t work =
        SizingWork(*TypeNamed(s.type).iter_type, shape, SIZE_MAX, &code);
    ASSERT_EQ(code, 0) << s.name;
    EXPECT_LE(2 * work, WorkLimit(shape.size())) << s.name << ": " << work;
  }
}

}  // namespace
}  // namespace pbci_test
