// The length-delimited stream reader over memory, FILE * and file
// descriptors: every message decoded, clean and unclean ends, limits,
// decode errors that can be skipped, buffer growth through the allocator.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <protobuf-c-iter/stream.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "merge.pb-iter.h"
#include "merge3.pb-iter.h"
#include "support/wire.h"

namespace pbci_test {
namespace {

// Plain with a = i and `data` of i bytes (so later messages need more room).
std::string PlainWire(int i) {
  return std::string("\x10", 1) + Varint(static_cast<uint64_t>(i)) + "\x0a" + Varint(i) +
         std::string(static_cast<size_t>(i), static_cast<char>('a' + i % 26));
}

std::string Stream(int n) {
  std::string s;
  for (int i = 0; i < n; i++) s += Delimited(PlainWire(i));
  return s;
}

// Counts the allocator's calls, and checks every block is freed.
struct CountingAllocator {
  ProtobufCAllocator a{Alloc, Free, this};
  int allocs = 0, frees = 0;
  static void* Alloc(void* self, size_t n) {
    static_cast<CountingAllocator*>(self)->allocs++;
    return std::malloc(n);
  }
  static void Free(void* self, void* p) {
    static_cast<CountingAllocator*>(self)->frees++;
    std::free(p);
  }
};

// Fails the calls numbered [first, last), counting from 0; mallocs for the
// others.
struct FailingAllocator {
  FailingAllocator(int first, int last) : first(first), last(last) {}
  ProtobufCAllocator a{Alloc, Free, this};
  int first, last, calls = 0;
  static void* Alloc(void* self, size_t n) {
    auto* s = static_cast<FailingAllocator*>(self);
    const int call = s->calls++;
    return call >= s->first && call < s->last ? nullptr : std::malloc(n);
  }
  static void Free(void*, void* p) { std::free(p); }
};

// Reads every message; returns the final code and the values of `a`.
int ReadAll(ProtobufCIterReader* r, std::vector<int>* as, ProtobufCIterStatus* st = nullptr) {
  void* msg;
  int rc;
  while ((rc = protobuf_c_iter_reader_next(r, &iter__merge__plain__iter_type, nullptr, &msg,
                                           st)) == 1) {
    auto* m = static_cast<Iter__Merge__Plain*>(msg);
    EXPECT_EQ(m->data.len, static_cast<size_t>(m->a));
    as->push_back(m->a);
  }
  return rc;
}

std::vector<int> Upto(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; i++) v.push_back(i);
  return v;
}

// Each source kind over the same bytes: memory, FILE *, file descriptor.
void ForEachSource(const std::string& bytes,
                   const std::function<void(ProtobufCIterReader*, const char*)>& fn,
                   ProtobufCAllocator* allocator = nullptr) {
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_memory(&r, bytes.data(), bytes.size(), allocator);
  fn(&r, "memory");
  protobuf_c_iter_reader_destroy(&r);

  FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::rewind(f);
  protobuf_c_iter_reader_init_file(&r, f, allocator);
  fn(&r, "FILE");
  protobuf_c_iter_reader_destroy(&r);

  // Not rewind(): stdio may seek within its buffer without moving the fd.
  ASSERT_EQ(lseek(fileno(f), 0, SEEK_SET), 0);
  protobuf_c_iter_reader_init_fd(&r, fileno(f), allocator);
  fn(&r, "fd");
  protobuf_c_iter_reader_destroy(&r);
  std::fclose(f);
}

TEST(Stream, ReadsEveryMessageFromEachSource) {
  const std::string bytes = Stream(300);  // messages up to ~300 bytes
  ForEachSource(bytes, [](ProtobufCIterReader* r, const char* kind) {
    std::vector<int> as;
    ProtobufCIterStatus st;
    EXPECT_EQ(ReadAll(r, &as, &st), 0) << kind;
    EXPECT_EQ(as, Upto(300)) << kind;
    EXPECT_EQ(st.code, 0);
    EXPECT_STREQ(st.message, "ok");
  });
}

TEST(Stream, EmptyStreamEndsAtOnce) {
  ForEachSource("", [](ProtobufCIterReader* r, const char* kind) {
    std::vector<int> as;
    EXPECT_EQ(ReadAll(r, &as), 0) << kind;
    EXPECT_TRUE(as.empty());
  });
}

TEST(Stream, BufferGrowsOnlyWhenAMessageNeedsMore) {
  CountingAllocator memory_alloc;
  // Growing messages: the decode buffer at least doubles, so it is
  // reallocated O(log n) times, not per message.
  const std::string bytes = Stream(1000);
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_memory(&r, bytes.data(), bytes.size(), &memory_alloc.a);
  std::vector<int> as;
  EXPECT_EQ(ReadAll(&r, &as), 0);
  EXPECT_EQ(as.size(), 1000u);
  protobuf_c_iter_reader_destroy(&r);
  EXPECT_GE(memory_alloc.allocs, 1);
  EXPECT_LE(memory_alloc.allocs, 12);
  EXPECT_EQ(memory_alloc.frees, memory_alloc.allocs);
  // The same message again and again: one allocation for decoding.
  CountingAllocator same;
  std::string repeated;
  for (int i = 0; i < 100; i++) repeated += Delimited(PlainWire(50));
  protobuf_c_iter_reader_init_memory(&r, repeated.data(), repeated.size(), &same.a);
  as.clear();
  EXPECT_EQ(ReadAll(&r, &as), 0);
  protobuf_c_iter_reader_destroy(&r);
  EXPECT_EQ(same.allocs, 1);
  EXPECT_EQ(same.frees, 1);
}

TEST(Stream, TruncatedStreamsAreMalformed) {
  const std::string whole = Stream(3);
  const size_t last_start = Stream(2).size();
  // Cut inside the last message, and inside a two-byte length prefix.
  const std::string cut_message = whole.substr(0, whole.size() - 1);
  const std::string cut_prefix = Stream(2) + "\x80";
  for (const auto& [bytes, message] :
       {std::pair{cut_message, "stream ends inside a message"},
        std::pair{cut_prefix, "stream ends inside a length prefix"}}) {
    ForEachSource(bytes, [&, message = message](ProtobufCIterReader* r, const char* kind) {
      std::vector<int> as;
      ProtobufCIterStatus st;
      EXPECT_EQ(ReadAll(r, &as, &st), PROTOBUF_C_ITER_ERR_MALFORMED) << kind;
      EXPECT_EQ(as, Upto(2)) << kind;
      EXPECT_EQ(st.offset, last_start) << kind;
      EXPECT_STREQ(st.message, message) << kind;
      // The reader does not move: the same error again.
      void* msg;
      EXPECT_EQ(protobuf_c_iter_reader_next(r, &iter__merge__plain__iter_type, nullptr, &msg,
                                            nullptr),
                PROTOBUF_C_ITER_ERR_MALFORMED);
    });
  }
}

TEST(Stream, OverlongPrefixAndOversizeMessages) {
  const std::string overlong = Stream(1) + std::string(10, '\x80') + "\x01";
  ForEachSource(overlong, [](ProtobufCIterReader* r, const char* kind) {
    std::vector<int> as;
    ProtobufCIterStatus st;
    EXPECT_EQ(ReadAll(r, &as, &st), PROTOBUF_C_ITER_ERR_MALFORMED) << kind;
    EXPECT_STREQ(st.message, "length prefix longer than 10 bytes");
  });
  const std::string big = Stream(1) + Delimited(PlainWire(200));
  ForEachSource(big, [](ProtobufCIterReader* r, const char* kind) {
    r->max_message_size = 100;
    std::vector<int> as;
    ProtobufCIterStatus st;
    EXPECT_EQ(ReadAll(r, &as, &st), PROTOBUF_C_ITER_ERR_TOO_LARGE) << kind;
    EXPECT_EQ(as, Upto(1)) << kind;
    EXPECT_EQ(st.offset, Stream(1).size());
  });
  // A prefix claiming 2^63 bytes is refused before anything is read.
  const std::string huge = Varint(uint64_t{1} << 63);
  ForEachSource(huge, [](ProtobufCIterReader* r, const char* kind) {
    std::vector<int> as;
    EXPECT_EQ(ReadAll(r, &as), PROTOBUF_C_ITER_ERR_TOO_LARGE) << kind;
  });
}

TEST(Stream, ADecodeErrorCanBeSkipped) {
  // Message 1 has a truncated varint inside; 0 and 2 are fine.
  const std::string bad = std::string("\x10\x80", 2);
  const std::string bytes = Delimited(PlainWire(0)) + Delimited(bad) + Delimited(PlainWire(2));
  ForEachSource(bytes, [&](ProtobufCIterReader* r, const char* kind) {
    void* msg;
    ProtobufCIterStatus st;
    const ProtobufCIterType* t = &iter__merge__plain__iter_type;
    EXPECT_EQ(protobuf_c_iter_reader_next(r, t, nullptr, &msg, &st), 1) << kind;
    EXPECT_EQ(protobuf_c_iter_reader_next(r, t, nullptr, &msg, &st),
              PROTOBUF_C_ITER_ERR_MALFORMED)
        << kind;
    // Offset in the stream: message 1's prefix + 1, its first key.
    EXPECT_EQ(st.offset, Delimited(PlainWire(0)).size() + 1) << kind;
    EXPECT_EQ(st.field_number, 2u);
    EXPECT_EQ(protobuf_c_iter_reader_next(r, t, nullptr, &msg, &st), 1) << kind;
    EXPECT_EQ(static_cast<Iter__Merge__Plain*>(msg)->a, 2);
    EXPECT_EQ(protobuf_c_iter_reader_next(r, t, nullptr, &msg, &st), 0) << kind;
  });
}

TEST(Stream, OptionsApplyToEachMessage) {
  const std::string bytes = Stream(20);
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_memory(&r, bytes.data(), bytes.size(), nullptr);
  ProtobufCIterOptions o = {PROTOBUF_C_ITER_ALIAS_BYTES, 0};
  void* msg;
  int n = 0;
  while (protobuf_c_iter_reader_next(&r, &iter__merge__plain__iter_type, &o, &msg, nullptr) ==
         1) {
    auto* m = static_cast<Iter__Merge__Plain*>(msg);
    if (m->data.len != 0) {
      // Aliased: inside the stream's memory.
      EXPECT_GE(m->data.data, reinterpret_cast<const uint8_t*>(bytes.data()));
      EXPECT_LT(m->data.data, reinterpret_cast<const uint8_t*>(bytes.data()) + bytes.size());
    }
    n++;
  }
  EXPECT_EQ(n, 20);
  protobuf_c_iter_reader_destroy(&r);
}

TEST(Stream, ReadsAPipeAsItArrives) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const std::string bytes = Stream(50);
  // Small pipe writes, from this thread, before reading: under 64 KiB fits
  // the pipe buffer.
  for (size_t i = 0; i < bytes.size(); i += 7) {
    size_t n = std::min<size_t>(7, bytes.size() - i);
    ASSERT_EQ(write(fds[1], bytes.data() + i, n), static_cast<ssize_t>(n));
  }
  close(fds[1]);
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_fd(&r, fds[0], nullptr);
  std::vector<int> as;
  EXPECT_EQ(ReadAll(&r, &as), 0);
  EXPECT_EQ(as, Upto(50));
  protobuf_c_iter_reader_destroy(&r);
  close(fds[0]);
}

TEST(Stream, BadArguments) {
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_memory(&r, nullptr, 0, nullptr);
  void* msg;
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, nullptr, nullptr, &msg, nullptr),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, &iter__merge__plain__iter_type, nullptr, nullptr,
                                        nullptr),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, &iter__merge__plain__iter_type, nullptr, &msg,
                                        nullptr),
            0);
  protobuf_c_iter_reader_destroy(&r);
}

TEST(Stream, ReadErrorsAreIo) {
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_fd(&r, -1, nullptr);
  void* msg;
  ProtobufCIterStatus st;
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, &iter__merge__plain__iter_type, nullptr, &msg, &st),
            PROTOBUF_C_ITER_ERR_IO);
  EXPECT_EQ(errno, EBADF);
  EXPECT_STREQ(st.message, "read error");
  protobuf_c_iter_reader_destroy(&r);
}

// Regressions found in review of the reader.

// max_message_size = SIZE_MAX made prefix + length wrap, reading past the
// input and leaving the reader in place forever.
TEST(Stream, RegressionHugeLimitDoesNotWrapPrefixPlusLength) {
  const std::string bytes = std::string(9, '\xff') + "\x01" + std::string(16, 'x');
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_memory(&r, bytes.data(), bytes.size(), nullptr);
  r.max_message_size = SIZE_MAX;
  void* msg;
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, &iter__merge__plain__iter_type, nullptr, &msg,
                                        nullptr),
            PROTOBUF_C_ITER_ERR_TOO_LARGE);
  protobuf_c_iter_reader_destroy(&r);
}

// The decode buffer grew to whatever unpacked_size asked: an 8 KB message of
// merged sub-messages, each with an unknown field, needed ~24 MB (since
// arrays keep their capacity across occurrences, about 100 KB, still over
// the 16 KiB limit set here).
TEST(Stream, RegressionDecodeBufferIsBounded) {
  std::string merged;
  for (int i = 0; i < 2000; i++) merged += std::string("\x0a\x02\x20\x01", 4);
  const std::string ok = std::string("\x0a\x02\x08\x05", 4);
  const std::string bytes = Delimited(merged) + Delimited(ok);
  ForEachSource(bytes, [&](ProtobufCIterReader* r, const char* kind) {
    r->max_buffer_size = 1 << 14;
    void* msg;
    ProtobufCIterStatus st;
    const ProtobufCIterType* t = &iter__merge3__outer3__iter_type;
    EXPECT_EQ(protobuf_c_iter_reader_next(r, t, nullptr, &msg, &st),
              PROTOBUF_C_ITER_ERR_TOO_LARGE)
        << kind;
    EXPECT_STREQ(st.message, "decoding needs more than max_buffer_size");
    EXPECT_LE(r->buf_cap, size_t{1} << 14);
    // The reader is past it: the next message decodes.
    ASSERT_EQ(protobuf_c_iter_reader_next(r, t, nullptr, &msg, &st), 1) << kind;
    EXPECT_EQ(static_cast<Iter__Merge3__Outer3*>(msg)->sub->a, 5);
  });
}

// The reader grows its decode buffer by doubling and decodes again, with no
// sizing pass (whose time is not linear on every merged input): the buffer
// ends at least what the message needs and under twice that (or the first
// try's twice the wire size plus 4 KiB), and the message decodes as unpack
// decodes it into a buffer of exactly unpacked_size bytes.
TEST(Stream, DecodeBufferDoublesUntilTheMessageFits) {
  for (int parts : {10, 2000, 20000}) {
    std::string merged;
    for (int i = 0; i < parts; i++) merged += std::string("\x0a\x02\x20\x01", 4);
    const auto* wire = reinterpret_cast<const uint8_t*>(merged.data());
    const ptrdiff_t need = iter__merge3__outer3__iter_unpacked_size(wire, merged.size());
    ASSERT_GT(need, 0);
    std::vector<uint8_t> exact(static_cast<size_t>(need));
    ASSERT_EQ(iter__merge3__outer3__iter_unpack(wire, merged.size(), exact.data(),
                                                exact.size()),
              need);
    const auto* expected = reinterpret_cast<const Iter__Merge3__Outer3*>(exact.data());
    ForEachSource(Delimited(merged), [&](ProtobufCIterReader* r, const char* kind) {
      void* msg;
      ASSERT_EQ(protobuf_c_iter_reader_next(r, &iter__merge3__outer3__iter_type, nullptr,
                                            &msg, nullptr),
                1)
          << kind << " " << parts;
      const size_t first = 2 * merged.size() + 4096;
      EXPECT_GE(r->buf_cap, static_cast<size_t>(need)) << kind << " " << parts;
      EXPECT_LT(r->buf_cap, std::max(2 * static_cast<size_t>(need), first + 1))
          << kind << " " << parts;
      const auto* got = static_cast<Iter__Merge3__Outer3*>(msg);
      ASSERT_NE(got->sub, nullptr);
      ASSERT_EQ(got->sub->base.n_unknown_fields, expected->sub->base.n_unknown_fields);
      EXPECT_EQ(got->sub->base.n_unknown_fields, static_cast<unsigned>(parts));
    });
  }
}

// The input buffer doubled past max_message_size plus the prefix, the bound
// stream.h gives: under a 70,000-byte limit a 69,980-byte message took a
// 128 KiB buffer, and under a 100-byte limit every reader took 64 KiB.
TEST(Stream, RegressionInputBufferGrewPastMaxMessageSize) {
  for (int max : {100, 70000}) {
    const std::string bytes = Delimited(PlainWire(50)) + Delimited(PlainWire(max - 20));
    ASSERT_LE(PlainWire(max - 20).size(), static_cast<size_t>(max));
    ForEachSource(bytes, [&](ProtobufCIterReader* r, const char* kind) {
      r->max_message_size = static_cast<size_t>(max);
      std::vector<int> as;
      EXPECT_EQ(ReadAll(r, &as), 0) << kind << " " << max;
      EXPECT_EQ(as, (std::vector<int>{50, max - 20})) << kind << " " << max;
      EXPECT_LE(r->in_cap, static_cast<size_t>(max) + 10) << kind << " " << max;
    });
  }
}

// An error flag left on the FILE made every later end of file an I/O error.
TEST(Stream, RegressionFileErrorFlagDoesNotMaskEof) {
  std::string bytes = Stream(3);
  FILE* f = fmemopen(&bytes[0], bytes.size(), "r");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(std::fputc('x', f), EOF);  // sets the error indicator
  ASSERT_TRUE(std::ferror(f));
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_file(&r, f, nullptr);
  std::vector<int> as;
  EXPECT_EQ(ReadAll(&r, &as), 0);
  EXPECT_EQ(as, Upto(3));
  protobuf_c_iter_reader_destroy(&r);
  std::fclose(f);
}

// An allocator failure consumed the message it was growing the buffer for.
TEST(Stream, RegressionAllocatorFailureDoesNotSkipTheMessage) {
  FailingAllocator allocator(0, 1);
  const std::string bytes = Stream(2);
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_memory(&r, bytes.data(), bytes.size(), &allocator.a);
  void* msg;
  const ProtobufCIterType* t = &iter__merge__plain__iter_type;
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, t, nullptr, &msg, nullptr),
            PROTOBUF_C_ITER_ERR_NO_MEMORY);
  ASSERT_EQ(protobuf_c_iter_reader_next(&r, t, nullptr, &msg, nullptr), 1);
  EXPECT_EQ(static_cast<Iter__Merge__Plain*>(msg)->a, 0);
  protobuf_c_iter_reader_destroy(&r);
}

// The first message's status came from unpacked_size, which checks merged
// sub-messages after later fields: a different fault than unpack's.
TEST(Stream, RegressionStatusIsUnpacksFirstFault) {
  // Outer3: sub = {s = "\xff"}, then field 1 with the wrong wire type.
  const std::string bad = std::string("\x0a\x03\x1a\x01\xff\x08\x00", 7);
  const std::string bytes = Delimited(bad);
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_memory(&r, bytes.data(), bytes.size(), nullptr);
  ProtobufCIterOptions o = {PROTOBUF_C_ITER_VALIDATE_UTF8, 0};
  ProtobufCIterStatus st;
  void* msg;
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, &iter__merge3__outer3__iter_type, &o, &msg, &st),
            PROTOBUF_C_ITER_ERR_BAD_UTF8);
  EXPECT_EQ(st.field_number, 3u);
  EXPECT_EQ(st.offset, 1u + 2u);  // the prefix, then the key of s
  protobuf_c_iter_reader_destroy(&r);
}

// A stream that ended, inside a message or between two, stayed ended: the
// reader remembered the end, so a retry (as stream.h promised) never read
// the bytes that came later, and a message cut at the end was lost.
TEST(Stream, RegressionRetryAfterTheEndReadNothingMore) {
  const std::string bytes = Stream(3);
  const size_t cut = Stream(2).size() + 3;  // inside the third message
  char path[] = "/tmp/pbci_stream_XXXXXX";
  const int out = mkstemp(path);
  ASSERT_GE(out, 0);
  for (const char* kind : {"FILE", "fd"}) {
    ASSERT_EQ(ftruncate(out, 0), 0);
    ASSERT_EQ(pwrite(out, bytes.data(), cut, 0), static_cast<ssize_t>(cut));
    const int in = open(path, O_RDONLY);
    ASSERT_GE(in, 0);
    FILE* file = fdopen(in, "r");
    ASSERT_NE(file, nullptr);
    ProtobufCIterReader r;
    if (std::string(kind) == "FILE") {
      protobuf_c_iter_reader_init_file(&r, file, nullptr);
    } else {
      protobuf_c_iter_reader_init_fd(&r, in, nullptr);
    }
    std::vector<int> as;
    EXPECT_EQ(ReadAll(&r, &as), PROTOBUF_C_ITER_ERR_MALFORMED) << kind;
    EXPECT_EQ(as, Upto(2)) << kind;
    // The rest arrives: the retry decodes the third message, then ends.
    const size_t rest = bytes.size() - cut;
    ASSERT_EQ(pwrite(out, bytes.data() + cut, rest, static_cast<off_t>(cut)),
              static_cast<ssize_t>(rest));
    EXPECT_EQ(ReadAll(&r, &as), 0) << kind;
    EXPECT_EQ(as, Upto(3)) << kind;
    // One more message after the clean end.
    const std::string more = Delimited(PlainWire(3));
    ASSERT_EQ(pwrite(out, more.data(), more.size(), static_cast<off_t>(bytes.size())),
              static_cast<ssize_t>(more.size()));
    EXPECT_EQ(ReadAll(&r, &as), 0) << kind;
    EXPECT_EQ(as, Upto(4)) << kind;
    protobuf_c_iter_reader_destroy(&r);
    std::fclose(file);
  }
  close(out);
  unlink(path);
}

// A custom allocator's block not aligned as unpack asks (an arena's 8 bytes
// where it asks 16) became the decode buffer: every call failed with
// ALIGNMENT, and the reader never asked the allocator again.
TEST(Stream, RegressionMisalignedAllocatorBlockFailedEveryCall) {
  struct Misaligned {  // every block one byte past malloc's
    ProtobufCAllocator a{Alloc, Free, this};
    static void* Alloc(void*, size_t n) {
      auto* p = static_cast<char*>(std::malloc(n + 1));
      return p != nullptr ? p + 1 : nullptr;
    }
    static void Free(void*, void* p) { std::free(static_cast<char*>(p) - 1); }
  } allocator;
  ForEachSource(
      Stream(40),
      [](ProtobufCIterReader* r, const char* kind) {
        std::vector<int> as;
        EXPECT_EQ(ReadAll(r, &as), 0) << kind;
        EXPECT_EQ(as, Upto(40)) << kind;
      },
      &allocator.a);
}

// A ten-byte prefix whose last byte held more than bit 63 wrapped: a
// prefix claiming 2^64 bytes read as an empty message.
TEST(Stream, RegressionPrefixOf2To64ReadAsAnEmptyMessage) {
  const std::string wrapped = std::string(9, '\x80') + "\x02" + Stream(1);
  ForEachSource(wrapped, [](ProtobufCIterReader* r, const char* kind) {
    std::vector<int> as;
    ProtobufCIterStatus st;
    EXPECT_EQ(ReadAll(r, &as, &st), PROTOBUF_C_ITER_ERR_MALFORMED) << kind;
    EXPECT_TRUE(as.empty()) << kind;
    EXPECT_STREQ(st.message, "length prefix over 64 bits") << kind;
  });
  // Bit 63 alone is a length, too large, not malformed.
  const std::string top = std::string(9, '\x80') + "\x01";
  ForEachSource(top, [](ProtobufCIterReader* r, const char* kind) {
    std::vector<int> as;
    EXPECT_EQ(ReadAll(r, &as), PROTOBUF_C_ITER_ERR_TOO_LARGE) << kind;
  });
}

// A memory reader of NULL with a length read as an empty stream, where
// x__iter_unpack refuses NULL data with a length.
TEST(Stream, RegressionNullMemoryWithALengthReadAsEmpty) {
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_memory(&r, nullptr, 100, nullptr);
  void* msg;
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, &iter__merge__plain__iter_type, nullptr, &msg,
                                        nullptr),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  protobuf_c_iter_reader_destroy(&r);
}

// The reader's own errors about a message (its decode buffer over the
// limit, the allocator failing) were reported at the message's first byte,
// the prefix's length past where every other error of the reader points:
// the message's length prefix.
TEST(Stream, RegressionReaderErrorsPointedPastThePrefix) {
  std::string merged;
  for (int i = 0; i < 2000; i++) merged += std::string("\x0a\x02\x20\x01", 4);
  const std::string first = Delimited(std::string("\x0a\x02\x08\x05", 4));
  const std::string bytes = first + Delimited(merged);
  const ProtobufCIterType* t = &iter__merge3__outer3__iter_type;
  ForEachSource(bytes, [&](ProtobufCIterReader* r, const char* kind) {
    r->max_buffer_size = 1 << 14;
    void* msg;
    ProtobufCIterStatus st;
    ASSERT_EQ(protobuf_c_iter_reader_next(r, t, nullptr, &msg, &st), 1) << kind;
    EXPECT_EQ(protobuf_c_iter_reader_next(r, t, nullptr, &msg, &st),
              PROTOBUF_C_ITER_ERR_TOO_LARGE)
        << kind;
    EXPECT_EQ(st.offset, first.size()) << kind;
  });
  FailingAllocator allocator(1, INT_MAX);  // the first block, then none
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_memory(&r, bytes.data(), bytes.size(), &allocator.a);
  void* msg;
  ProtobufCIterStatus st;
  ASSERT_EQ(protobuf_c_iter_reader_next(&r, t, nullptr, &msg, &st), 1);
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, t, nullptr, &msg, &st),
            PROTOBUF_C_ITER_ERR_NO_MEMORY);
  EXPECT_EQ(st.offset, first.size());
  protobuf_c_iter_reader_destroy(&r);
}

TEST(Stream, InvalidOptionsDoNotConsumeMessages) {
  const std::string bytes = Stream(1);
  ProtobufCIterReader r;
  protobuf_c_iter_reader_init_memory(&r, bytes.data(), bytes.size(), nullptr);
  ProtobufCIterOptions bad = {0x100, 0};
  void* msg;
  const ProtobufCIterType* t = &iter__merge__plain__iter_type;
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, t, &bad, &msg, nullptr),
            PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(protobuf_c_iter_reader_next(&r, t, nullptr, &msg, nullptr), 1);
  protobuf_c_iter_reader_destroy(&r);
}

}  // namespace
}  // namespace pbci_test
