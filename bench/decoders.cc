#include "decoders.h"

#include <protobuf-c-iter/protobuf-c-iter.h>

#include <cstdlib>

namespace pbci_bench {
namespace {

PROTOBUF_C_ITER_BUFFER(g_iter_buffer, kBlockSize);
PROTOBUF_C_ITER_BUFFER(g_iter_alias_buffer, kBlockSize);

// A protobuf-c message's content, as libprotobuf sees its wire form.
bool PackInto(const ProtobufCMessage* msg, google::protobuf::Message* out) {
  return msg != nullptr && out->ParseFromString(Repack(msg));
}

}  // namespace

std::string Repack(const ProtobufCMessage* msg) {
  std::string wire(protobuf_c_message_get_packed_size(msg), '\0');
  protobuf_c_message_pack(msg, reinterpret_cast<uint8_t*>(&wire[0]));
  return wire;
}

unsigned char* const IterDecoder::buffer_ = g_iter_buffer.bytes;

bool IterDecoder::Content(google::protobuf::Message* out) const {
  return used_ >= 0 && PackInto(message(), out);
}

unsigned char* const IterAliasDecoder::buffer_ = g_iter_alias_buffer.bytes;

bool IterAliasDecoder::Content(google::protobuf::Message* out) const {
  return used_ >= 0 && PackInto(message(), out);
}

ProtobufCLinearDecoder::ProtobufCLinearDecoder(const Codec& codec)
    : codec_(codec), block_(new unsigned char[kBlockSize]) {
  allocator_.alloc = Alloc;
  allocator_.free = Free;
  allocator_.allocator_data = this;
}

void* ProtobufCLinearDecoder::Alloc(void* self, size_t size) {
  auto* d = static_cast<ProtobufCLinearDecoder*>(self);
  size = (size + 15) & ~size_t{15};  // malloc's alignment on x86-64
  if (size > kBlockSize - d->used_) return nullptr;
  void* p = d->block_.get() + d->used_;
  d->used_ += size;
  return p;
}

void ProtobufCLinearDecoder::Free(void*, void*) {}

bool ProtobufCLinearDecoder::Content(google::protobuf::Message* out) const {
  return PackInto(msg_, out);
}

bool ProtobufCMallocDecoder::Content(google::protobuf::Message* out) const {
  return PackInto(msg_, out);
}

bool LibprotobufDecoder::Content(google::protobuf::Message* out) const {
  if (!msg_) return false;
  out->CopyFrom(*msg_);
  return true;
}

LibprotobufArenaDecoder::LibprotobufArenaDecoder(const Codec& codec)
    : codec_(codec), block_(new char[kBlockSize]) {
  google::protobuf::ArenaOptions options;
  options.initial_block = block_.get();
  options.initial_block_size = kBlockSize;
  arena_ = std::make_unique<google::protobuf::Arena>(options);
}

bool LibprotobufArenaDecoder::Content(google::protobuf::Message* out) const {
  if (msg_ == nullptr) return false;
  out->CopyFrom(*msg_);
  return true;
}

bool LibprotobufReuseDecoder::Content(google::protobuf::Message* out) const {
  out->CopyFrom(*msg_);
  return true;
}

#ifdef PBCI_BENCH_HAVE_UPB
UpbDecoder::UpbDecoder(const Codec& codec, bool alias, bool plain)
    : table_(
          codec.cpp != nullptr
              ? pbci_upb_table(codec.cpp->GetDescriptor()->full_name().c_str())
              : nullptr),
      alias_(alias),
      block_(new unsigned char[kBlockSize]) {
  if (plain && table_ != nullptr) table_ = pbci_upb_plain_table(table_);
}

bool UpbDecoder::Content(google::protobuf::Message* out) const {
  size_t len = 0;
  if (msg_ == nullptr) return false;
  std::unique_ptr<char, void (*)(void*)> wire(
      pbci_upb_encode(table_, msg_, &len), std::free);
  return wire != nullptr &&
         out->ParseFromArray(wire.get(), static_cast<int>(len));
}
#endif

}  // namespace pbci_bench
