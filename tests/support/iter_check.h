// Runs a generated decoder on an input and checks it against protobuf-c.
#ifndef PROTOBUF_C_ITER_TESTS_ITER_CHECK_H_
#define PROTOBUF_C_ITER_TESTS_ITER_CHECK_H_

#include <protobuf-c-iter/protobuf-c-iter.h>
#include <protobuf-c/protobuf-c.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace pbci_test {

// One generated message type, seen generically.
struct IterType {
  const char* full_name;
  const ProtobufCMessageDescriptor* desc;
  ptrdiff_t (*unpack)(const uint8_t*, size_t, void*, size_t);
  ptrdiff_t (*unpacked_size)(const uint8_t*, size_t);
  ptrdiff_t (*unpack_merge)(ProtobufCMessage*, const uint8_t*, size_t, void*,
                            size_t);
  const ProtobufCIterType* iter_type;  // the _ex functions
  size_t (*unpacked_size_bound)(size_t);
};

// gtest prints a type by its name.
inline void PrintTo(const IterType& t, std::ostream* os) { *os << t.full_name; }

// An IterType for generated type `Struct` with lower-case name `lower`.
#define PBCI_TEST_ITER_TYPE(Struct, lower, name)                             \
  ::pbci_test::IterType {                                                    \
    name, &lower##__descriptor, &lower##__iter_unpack,                       \
        &lower##__iter_unpacked_size,                                        \
        [](ProtobufCMessage* m, const uint8_t* d, size_t n, void* b,         \
           size_t s) {                                                       \
          return lower##__iter_unpack_merge(reinterpret_cast<Struct*>(m), d, \
                                            n, b, s);                        \
        },                                                                   \
        &lower##__iter_type, &lower##__iter_unpacked_size_bound              \
  }

// Every message type of the test protos: top-level, nested, map entries.
const std::vector<IterType>& AllTypes();
const IterType& TypeNamed(const std::string& full_name);

// A heap buffer of exactly the requested size, aligned for any type, so
// that ASan reports any access past its end.
struct ExactBuffer {
  explicit ExactBuffer(size_t size);
  ~ExactBuffer();
  ExactBuffer(const ExactBuffer&) = delete;
  ExactBuffer& operator=(const ExactBuffer&) = delete;
  void* data = nullptr;
  size_t size = 0;
};

// The result of decoding with the generated decoder.
struct IterResult {
  ptrdiff_t unpacked_size = 0;  // what x__iter_unpacked_size said, or
                                // without the work limit where it
                                // stopped at that (work_limited)
  bool work_limited = false;
  ptrdiff_t code = 0;           // what x__iter_unpack returned
  std::unique_ptr<ExactBuffer> buffer;
  const ProtobufCMessage* message() const {
    return code >= 0 ? static_cast<const ProtobufCMessage*>(buffer->data)
                     : nullptr;
  }
};

// unpack_ex (options `o`, NULL for the defaults) of an input its sizer
// rejects, as in a buffer of the bound, which every input fits, so that it
// can fail only for a reason other than memory. A small buffer is tried
// first and the bound only when that runs out: the outcome is the same (a
// larger buffer changes nothing before a fault but NO_MEMORY), and large
// bounds (K * len) do not slow the fuzzers. The buffer used is left in
// *buffer.
ptrdiff_t UnpackRejected(const IterType& t, const std::string& bytes,
                         const ProtobufCIterOptions* o, ProtobufCIterStatus* status,
                         std::unique_ptr<ExactBuffer>* buffer);

// What a test knows of an input's faults: kOne when it holds at most one
// (differential_inputs.h: a truncated message), so that every function
// must report that one; kAny otherwise.
enum class Faults { kAny, kOne };

// Sizes the input with unpacked_size, decodes it into a buffer of exactly
// that size, and checks that the two agree: the size used equals the size
// predicted, which is at most unpacked_size_bound, and one byte less fails
// with NO_MEMORY; or, when unpacked_size fails, unpack fails too in a
// buffer of the bound, not for memory, and for Faults::kOne with the same
// code at the same offset and field (statuses of the _ex forms). Failures
// go to `problems`.
IterResult DecodeWithIter(const IterType& t, const std::string& bytes,
                          std::string* problems, Faults faults = Faults::kAny);

// The whole differential check of one input against
// protobuf_c_message_unpack: same acceptance, equal structs, equal re-packed
// bytes, protobuf_c_message_check() true; and the decode options against the
// plain decode (option_check.h, two selectors per input). Returns "" or the
// problems.
std::string CheckAgainstProtobufC(const IterType& t, const std::string& bytes,
                                  Faults faults = Faults::kAny);

// Decodes the concatenation of `copies` and checks the result against the
// protobuf specification's merge of each copy decoded alone by protobuf-c.
std::string CheckMerged(const IterType& t,
                        const std::vector<std::string>& copies);

// Hex dump, for failure messages.
std::string Hex(const std::string& bytes);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_ITER_CHECK_H_
