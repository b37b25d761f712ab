// The decoders in the race. Each is a class with the same two calls:
//
//   bool Decode(const uint8_t* data, size_t len);  // one unpack, timed
//   bool Content(google::protobuf::Message* out);  // the last result, for checks
//
// The bench times Decode in a loop; the verifier compares Content across
// decoders. Every decoder keeps its memory between calls the way a
// production user of that library would: nothing is timed that a server
// decoding message after message would not pay.
#ifndef PROTOBUF_C_ITER_BENCH_DECODERS_H_
#define PROTOBUF_C_ITER_BENCH_DECODERS_H_

#include <google/protobuf/arena.h>
#include <google/protobuf/message.h>
#include <protobuf-c/protobuf-c.h>

#include <memory>
#include <string>

#include "inputs.h"
#ifdef PBCI_BENCH_HAVE_UPB
#include "upb_shim.h"
#endif

namespace pbci_bench {

// A protobuf-c message's wire form, packed by protobuf-c.
std::string Repack(const ProtobufCMessage* msg);

// Bytes of the reused block given to iter, the linear allocator and the
// libprotobuf arena; large enough for every bench input.
constexpr size_t kBlockSize = size_t{1} << 20;

// Our generated decoder into one reused static buffer.
class IterDecoder {
 public:
  explicit IterDecoder(const Codec& codec) : codec_(codec) {}
  bool Decode(const uint8_t* data, size_t len) {
    used_ = codec_.iter_unpack(data, len, buffer_, kBlockSize);
    return used_ >= 0;
  }
  bool Content(google::protobuf::Message* out) const;
  const ProtobufCMessage* message() const {
    return reinterpret_cast<const ProtobufCMessage*>(buffer_);
  }
  ptrdiff_t used() const { return used_; }

 private:
  Codec codec_;
  ptrdiff_t used_ = -1;
  static unsigned char* const buffer_;
};

// Our decoder with PROTOBUF_C_ITER_ALIAS_BYTES: bytes (and string_as_bytes)
// values point into the input instead of being copied; strings, which
// protoc-c's structs hold NUL-terminated, are still copied.
class IterAliasDecoder {
 public:
  explicit IterAliasDecoder(const Codec& codec) : codec_(codec) {}
  bool Decode(const uint8_t* data, size_t len) {
    used_ = protobuf_c_iter_unpack(codec_.iter_type, data, len, buffer_,
                                   kBlockSize, &kOptions, nullptr);
    return used_ >= 0;
  }
  bool Content(google::protobuf::Message* out) const;
  const ProtobufCMessage* message() const {
    return reinterpret_cast<const ProtobufCMessage*>(buffer_);
  }

 private:
  static constexpr ProtobufCIterOptions kOptions = {PROTOBUF_C_ITER_ALIAS_BYTES,
                                                    0};
  Codec codec_;
  ptrdiff_t used_ = -1;
  static unsigned char* const buffer_;  // not iter's: the verifier keeps both
};

// Only x__iter_unpacked_size: what sizing a buffer costs.
class IterSizeDecoder {
 public:
  explicit IterSizeDecoder(const Codec& codec) : codec_(codec) {}
  bool Decode(const uint8_t* data, size_t len) {
    size_ = codec_.iter_unpacked_size(data, len);
    return size_ >= 0;
  }
  ptrdiff_t size() const { return size_; }

 private:
  Codec codec_;
  ptrdiff_t size_ = -1;
};

// protobuf_c_message_unpack with the default (malloc) allocator, then
// protobuf_c_message_free_unpacked: what `x__unpack(NULL, ...)` costs.
class ProtobufCMallocDecoder {
 public:
  explicit ProtobufCMallocDecoder(const Codec& codec) : codec_(codec) {}
  ~ProtobufCMallocDecoder() { Release(); }
  bool Decode(const uint8_t* data, size_t len) {
    Release();
    msg_ = protobuf_c_message_unpack(codec_.pbc, nullptr, len, data);
    return msg_ != nullptr;
  }
  bool Content(google::protobuf::Message* out) const;
  const ProtobufCMessage* message() const { return msg_; }

 private:
  void Release() {
    if (msg_ != nullptr) protobuf_c_message_free_unpacked(msg_, nullptr);
    msg_ = nullptr;
  }
  Codec codec_;
  ProtobufCMessage* msg_ = nullptr;
};

// protobuf_c_message_unpack with a bump allocator over one reused block,
// reset per message; free is a no-op. protobuf-c's fastest setup.
class ProtobufCLinearDecoder {
 public:
  explicit ProtobufCLinearDecoder(const Codec& codec);
  bool Decode(const uint8_t* data, size_t len) {
    used_ = 0;
    msg_ = protobuf_c_message_unpack(codec_.pbc, &allocator_, len, data);
    return msg_ != nullptr;
  }
  bool Content(google::protobuf::Message* out) const;
  const ProtobufCMessage* message() const { return msg_; }

 private:
  static void* Alloc(void* self, size_t size);
  static void Free(void* self, void* ptr);
  Codec codec_;
  ProtobufCAllocator allocator_;
  std::unique_ptr<unsigned char[]> block_;
  size_t used_ = 0;
  ProtobufCMessage* msg_ = nullptr;
};

// A new libprotobuf message per parse, deleted before the next one.
class LibprotobufDecoder {
 public:
  explicit LibprotobufDecoder(const Codec& codec) : codec_(codec) {}
  bool Decode(const uint8_t* data, size_t len) {
    msg_.reset(codec_.cpp->New());
    return msg_->ParseFromArray(data, static_cast<int>(len));
  }
  bool Content(google::protobuf::Message* out) const;

 private:
  Codec codec_;
  std::unique_ptr<google::protobuf::Message> msg_;
};

// A message on a google::protobuf::Arena with a reused initial block,
// reset per message.
class LibprotobufArenaDecoder {
 public:
  explicit LibprotobufArenaDecoder(const Codec& codec);
  bool Decode(const uint8_t* data, size_t len) {
    arena_->Reset();
    msg_ = codec_.cpp->New(arena_.get());
    return msg_->ParseFromArray(data, static_cast<int>(len));
  }
  bool Content(google::protobuf::Message* out) const;

 private:
  Codec codec_;
  std::unique_ptr<char[]> block_;
  std::unique_ptr<google::protobuf::Arena> arena_;
  google::protobuf::Message* msg_ = nullptr;
};

// One message parsed into again and again (ParseFromArray clears it and
// reuses its strings and arrays): libprotobuf's fastest mode.
class LibprotobufReuseDecoder {
 public:
  explicit LibprotobufReuseDecoder(const Codec& codec) : msg_(codec.cpp->New()) {}
  bool Decode(const uint8_t* data, size_t len) {
    return msg_->ParseFromArray(data, static_cast<int>(len));
  }
  bool Content(google::protobuf::Message* out) const;

 private:
  std::unique_ptr<google::protobuf::Message> msg_;
};

#ifdef PBCI_BENCH_HAVE_UPB
// upb's fasttable decoder (bench/upb.cmake): a fresh arena over one reused
// block per message, as upb's own benchmark does. UpbAliasDecoder's strings
// and bytes point into the input (kUpb_DecodeOption_AliasString); `plain`
// turns fasttable off (UpbPlainDecoder).
class UpbDecoder {
 public:
  explicit UpbDecoder(const Codec& codec, bool alias = false,
                      bool plain = false);
  bool Decode(const uint8_t* data, size_t len) {
    msg_ = pbci_upb_decode(table_, data, len, alias_, block_.get(), kBlockSize);
    return msg_ != nullptr;
  }
  bool Content(google::protobuf::Message* out) const;
  // upb's table of the input's type: null when the bench has none.
  const void* table() const { return table_; }

 private:
  const void* table_;
  bool alias_;
  std::unique_ptr<unsigned char[]> block_;
  void* msg_ = nullptr;
};

class UpbAliasDecoder : public UpbDecoder {
 public:
  explicit UpbAliasDecoder(const Codec& codec) : UpbDecoder(codec, true) {}
};

// upb's table-driven decoder, without fasttable (as in builds without it,
// such as Debian's libupb): tables copied with fasttable off.
class UpbPlainDecoder : public UpbDecoder {
 public:
  explicit UpbPlainDecoder(const Codec& codec)
      : UpbDecoder(codec, false, true) {}
};
#endif

}  // namespace pbci_bench

#endif  // PROTOBUF_C_ITER_BENCH_DECODERS_H_
