// libFuzzer target for the stream reader (stream.h). The first input bytes
// pick the message type, the limits and an allocator that hands out blocks
// at odd offsets and fails now and then; the rest is the stream. It is read
// through each source (memory, FILE * over the same bytes, a file
// descriptor), and the claims of stream.h are checked:
//  - every source returns the same results, statuses and messages;
//  - each message is what x__iter_unpack decodes from its bytes (found
//    again from the status offsets);
//  - after an error about the message itself the reader is past it and goes
//    on; after the allocator's failure it does not move, and the retry gives
//    what a reader with a working allocator gives;
//  - the reader's buffers stay within max_message_size and max_buffer_size.
#include <fcntl.h>
#include <protobuf-c-iter/stream.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "merge.pb-iter.h"
#include "merge3.pb-iter.h"
#include "support/iter_check.h"
#include "support/pbc_compare.h"

namespace {

using pbci_test::IterType;

const IterType kTypes[] = {
    PBCI_TEST_ITER_TYPE(Iter__Merge__Plain, iter__merge__plain,
                        "iter.merge.Plain"),
    PBCI_TEST_ITER_TYPE(Iter__Merge3__Outer3, iter__merge3__outer3,
                        "iter.merge3.Outer3"),
    PBCI_TEST_ITER_TYPE(Iter__Merge__MergeTest, iter__merge__merge_test,
                        "iter.merge.MergeTest"),
};

[[noreturn]] void Fail(const std::string& what, const std::string& in) {
  std::fprintf(stderr, "%s\ninput %s\n", what.c_str(),
               pbci_test::Hex(in).c_str());
  std::abort();
}

// Blocks at 1-15 bytes past malloc's (the reader must align within them),
// and a failure at every `fail_every`th call (0: never).
struct OddAllocator {
  ProtobufCAllocator a{Alloc, Free, this};
  unsigned calls = 0, fail_every = 0;
  static void* Alloc(void* self, size_t n) {
    auto* s = static_cast<OddAllocator*>(self);
    s->calls++;
    if (s->fail_every != 0 && s->calls % s->fail_every == 0) return nullptr;
    const unsigned skew = 1 + s->calls % 15;
    if (n > SIZE_MAX - 16) return nullptr;
    auto* p = static_cast<unsigned char*>(std::malloc(n + 16));
    if (p == nullptr) return nullptr;
    p[skew - 1] = static_cast<unsigned char>(skew);  // read back by Free
    return p + skew;
  }
  static void Free(void*, void* q) {
    auto* p = static_cast<unsigned char*>(q);
    std::free(p - p[-1]);
  }
};

// One result of reader_next, as the sources must all agree on it.
struct Step {
  int rc;
  ProtobufCIterStatus status;
  std::string packed;  // the message re-packed by protobuf-c
  bool operator!=(const Step& o) const {
    return rc != o.rc || status.code != o.status.code ||
           status.offset != o.status.offset ||
           status.field_number != o.status.field_number ||
           std::strcmp(status.message, o.status.message) != 0 ||
           packed != o.packed;
  }
};

struct Setup {
  const IterType* type;
  size_t max_message, max_buffer;
  unsigned fail_every;
};

// Reads the stream to its end (or 64 results), retrying after the
// allocator's failures, which are left out of the results; checks each
// message against unpack of its bytes, and that a reader an error leaves in
// place fails the same way again.
std::vector<Step> ReadAll(ProtobufCIterReader* r, const Setup& s,
                          const std::string& stream, const std::string& in) {
  std::vector<Step> steps;
  int retries = 0;
  r->max_message_size = s.max_message;
  r->max_buffer_size = s.max_buffer;
  while (steps.size() < 64) {
    Step step{};
    void* msg = nullptr;
    const uint64_t before = r->offset;
    step.rc = protobuf_c_iter_reader_next(r, s.type->iter_type, nullptr, &msg,
                                          &step.status);
    if (step.status.code != (step.rc == 1 ? 0 : step.rc)) {
      Fail("the status's code is not the result's", in);
    }
    if (r->in_cap > s.max_message + 10 && r->in_cap > (64u << 10)) {
      Fail("input buffer past max_message_size", in);
    }
    if (r->buf_cap > s.max_buffer)
      Fail("decode buffer past max_buffer_size", in);
    if (step.rc == PROTOBUF_C_ITER_ERR_NO_MEMORY) {
      if (r->offset != before)
        Fail("an allocator failure moved the reader", in);
      // The allocator fails only now and then, and a failed grow keeps the
      // last one's buffer: retries make progress.
      if (++retries > 1000) Fail("no progress over 1000 retries", in);
      continue;
    }
    steps.push_back(step);
    if (step.rc == 1) {
      const auto* m = static_cast<const ProtobufCMessage*>(msg);
      steps.back().packed = pbci_test::Pack(m);
      // [before, offset): the length prefix, then the message.
      if (r->offset != step.status.offset || r->offset > stream.size()) {
        Fail("message offsets", in);
      }
      size_t at = static_cast<size_t>(before);
      while ((static_cast<uint8_t>(stream[at]) & 0x80) != 0) at++;
      at++;
      const std::string bytes = stream.substr(at, r->offset - at);
      pbci_test::ExactBuffer buf(s.max_buffer);
      const ptrdiff_t n =
          s.type->unpack(reinterpret_cast<const uint8_t*>(bytes.data()),
                         bytes.size(), buf.data, buf.size);
      if (n < 0) Fail("unpack refuses a message the reader took", in);
      const std::string d =
          pbci_test::Diff(static_cast<const ProtobufCMessage*>(buf.data), m);
      if (!d.empty()) Fail("reader and unpack differ at " + d, in);
      continue;
    }
    if (step.rc == 0) break;
    if (step.rc != PROTOBUF_C_ITER_ERR_MALFORMED &&
        step.rc != PROTOBUF_C_ITER_ERR_MISSING_REQUIRED &&
        step.rc != PROTOBUF_C_ITER_ERR_DEPTH &&
        step.rc != PROTOBUF_C_ITER_ERR_TOO_LARGE) {
      Fail("unexpected code " + std::to_string(step.rc), in);
    }
    if (r->offset != before) continue;  // past the message: go on
    // In place (a bad prefix, the stream's end, over max_message_size): a
    // retry fails the same way, where it was.
    Step again{};
    void* m2 = nullptr;
    again.rc = protobuf_c_iter_reader_next(r, s.type->iter_type, nullptr, &m2,
                                           &again.status);
    if (again != step || r->offset != before) {
      Fail("a retry in place answered otherwise", in);
    }
    break;
  }
  return steps;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const std::string in(reinterpret_cast<const char*>(data), size);
  Setup s;
  s.type = &kTypes[data[0] % (sizeof kTypes / sizeof kTypes[0])];
  s.max_message = size_t{1} << (data[1] & 15);        // 1 B .. 32 KiB
  s.max_buffer = size_t{64} << ((data[1] >> 4) & 7);  // 64 B .. 8 KiB
  s.fail_every = data[2] % 8;                         // 0: never; else 1..7
  if (s.fail_every == 1) s.fail_every = 0;            // every call: no progress
  const std::string stream = in.substr(3);

  std::vector<std::vector<Step>> results;
  OddAllocator working;
  {  // memory, a working allocator: the reference
    ProtobufCIterReader r;
    protobuf_c_iter_reader_init_memory(&r, stream.data(), stream.size(),
                                       &working.a);
    Setup ok = s;
    ok.fail_every = 0;
    results.push_back(ReadAll(&r, ok, stream, in));
    protobuf_c_iter_reader_destroy(&r);
  }
  OddAllocator odd;
  odd.fail_every = s.fail_every;
  {  // memory, failing now and then
    ProtobufCIterReader r;
    protobuf_c_iter_reader_init_memory(&r, stream.data(), stream.size(),
                                       &odd.a);
    results.push_back(ReadAll(&r, s, stream, in));
    protobuf_c_iter_reader_destroy(&r);
  }
  std::string copy = stream;  // fmemopen wants a writable buffer
  FILE* f = fmemopen(copy.empty() ? nullptr : &copy[0], copy.size(), "r");
  if (f != nullptr) {  // FILE *
    ProtobufCIterReader r;
    protobuf_c_iter_reader_init_file(&r, f, &odd.a);
    results.push_back(ReadAll(&r, s, stream, in));
    protobuf_c_iter_reader_destroy(&r);
    std::fclose(f);
  }
  const int fd = memfd_create("fuzz_stream", 0);
  if (fd >= 0) {  // file descriptor
    if (write(fd, stream.data(), stream.size()) ==
            static_cast<ssize_t>(stream.size()) &&
        lseek(fd, 0, SEEK_SET) == 0) {
      ProtobufCIterReader r;
      protobuf_c_iter_reader_init_fd(&r, fd, &odd.a);
      results.push_back(ReadAll(&r, s, stream, in));
      protobuf_c_iter_reader_destroy(&r);
    }
    close(fd);
  }
  for (size_t i = 1; i < results.size(); i++) {
    if (results[i].size() != results[0].size()) {
      Fail("source " + std::to_string(i) + " took " +
               std::to_string(results[i].size()) + " steps, the reference " +
               std::to_string(results[0].size()),
           in);
    }
    for (size_t j = 0; j < results[0].size(); j++) {
      if (results[i][j] != results[0][j]) {
        Fail("source " + std::to_string(i) + " differs at step " +
                 std::to_string(j) + ": rc " +
                 std::to_string(results[i][j].rc) + " (" +
                 results[i][j].status.message + ") against " +
                 std::to_string(results[0][j].rc) + " (" +
                 results[0][j].status.message + ")",
             in);
      }
    }
  }
  return 0;
}
