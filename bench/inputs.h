// The bench's inputs: one encoded message each, with its type as every
// decoder in the race sees it.
#ifndef PROTOBUF_C_ITER_BENCH_INPUTS_H_
#define PROTOBUF_C_ITER_BENCH_INPUTS_H_

#include <google/protobuf/message.h>
#include <protobuf-c-iter/protobuf-c-iter.h>
#include <protobuf-c/protobuf-c.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pbci_bench {

// One message type, for each decoder.
struct Codec {
  const ProtobufCMessageDescriptor* pbc;  // protobuf-c
  ptrdiff_t (*iter_unpack)(const uint8_t* data, size_t len, void* buf, size_t buf_size);
  ptrdiff_t (*iter_unpacked_size)(const uint8_t* data, size_t len);
  const ProtobufCIterType* iter_type;    // for iter with options
  const google::protobuf::Message* cpp;  // libprotobuf's default instance
};

// The Codec of a protoc-c descriptor and our functions; the libprotobuf
// type is the generated class of the same full name (its .pb.cc must be
// linked). Without one, `cpp` is null and the input is refused at load.
Codec MakeCodec(const ProtobufCMessageDescriptor* pbc,
                ptrdiff_t (*iter_unpack)(const uint8_t*, size_t, void*, size_t),
                ptrdiff_t (*iter_unpacked_size)(const uint8_t*, size_t),
                const ProtobufCIterType* iter_type);

// The Codec of the type protoc-c calls `prefix`, e.g. pbci__bench__uint32_row.
// (A macro, not a template: protoc-c's and libprotobuf's names of a type in
// no package collide, so the two never meet in one translation unit.)
#define PBCI_BENCH_CODEC(prefix)                                        \
  ::pbci_bench::MakeCodec(&prefix##__descriptor, prefix##__iter_unpack, \
                          prefix##__iter_unpacked_size, &prefix##__iter_type)

struct Input {
  std::string name;    // the report's row name
  std::string origin;  // how it was made, or the file it was read from
  Codec codec;
  std::string bytes;   // the wire form
};

// Inputs the bench makes itself, deterministically (the same bytes on every
// machine and run), in report order. `descriptor_set` is the
// FileDescriptorSet of descriptor.proto made at build time.
bool GeneratedInputs(const std::string& descriptor_set, std::vector<Input>* out,
                     std::string* error);

// The shared dataset files under `dir` (the seed's rows and OpenX bid
// request, google_message1 proto2 and proto3). Returns true with nothing
// added when the build had no datasets; false when a file is unreadable.
bool DatasetInputs(const std::string& dir, std::vector<Input>* out, std::string* error);

// Reads a whole file.
bool ReadFile(const std::string& path, std::string* bytes);

// One field of an encoded message as it comes: its tag, and its value: a
// length-delimited one's bytes after the length, any other's bytes after
// the key.
struct WireField {
  uint32_t tag;
  std::string value;
};

// The fields of the message `wire`, in order, into *fields. Returns false
// when it is malformed.
bool SplitFields(const std::string& wire, std::vector<WireField>* fields);

}  // namespace pbci_bench

#endif  // PROTOBUF_C_ITER_BENCH_INPUTS_H_
