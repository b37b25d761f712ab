#include "verify.h"

#include <google/protobuf/util/message_differencer.h>

#include <memory>

#include "decoders.h"

namespace pbci_bench {
namespace {

const uint8_t* Data(const Input& in) { return reinterpret_cast<const uint8_t*>(in.bytes.data()); }

// Decodes `in` twice with one `D` and compares each result with `want`.
template <class D>
std::string Check(const char* name, D* decoder, const Input& in,
                  const google::protobuf::Message& want) {
  for (int round = 1; round <= 2; round++) {
    if (!decoder->Decode(Data(in), in.bytes.size())) {
      return std::string(name) + " rejected the input";
    }
    std::unique_ptr<google::protobuf::Message> got(want.New());
    if (!decoder->Content(got.get())) {
      return std::string(name) + ": its result does not re-encode";
    }
    std::string diff;
    google::protobuf::util::MessageDifferencer differencer;
    differencer.ReportDifferencesToString(&diff);
    if (!differencer.Compare(want, *got)) {
      return std::string(name) + " (decode " + std::to_string(round) +
             ") differs from libprotobuf: " + diff;
    }
  }
  return "";
}

}  // namespace

std::string Verify(const Input& in) {
  if (in.codec.cpp == nullptr) {
    return std::string("no libprotobuf class is linked for ") + in.codec.pbc->name;
  }
  std::unique_ptr<google::protobuf::Message> want(in.codec.cpp->New());
  if (!want->ParseFromString(in.bytes)) return "libprotobuf rejected the input";

  IterDecoder iter(in.codec);
  IterAliasDecoder iter_alias(in.codec);
  ProtobufCMallocDecoder pbc_malloc(in.codec);
  ProtobufCLinearDecoder pbc_linear(in.codec);
  LibprotobufDecoder cpp(in.codec);
  LibprotobufArenaDecoder cpp_arena(in.codec);
  LibprotobufReuseDecoder cpp_reuse(in.codec);
  for (const std::string& error : {
           Check("iter", &iter, in, *want),
           Check("iter_alias", &iter_alias, in, *want),
           Check("protobuf_c_malloc", &pbc_malloc, in, *want),
           Check("protobuf_c_linear", &pbc_linear, in, *want),
           Check("libprotobuf", &cpp, in, *want),
           Check("libprotobuf_arena", &cpp_arena, in, *want),
           Check("libprotobuf_reuse", &cpp_reuse, in, *want),
       }) {
    if (!error.empty()) return error;
  }
#ifdef PBCI_BENCH_HAVE_UPB
  UpbDecoder upb(in.codec);
  UpbAliasDecoder upb_alias(in.codec);
  UpbPlainDecoder upb_plain(in.codec);
  if (upb.table() == nullptr) {
    return "upb has no table for " +
           in.codec.cpp->GetDescriptor()->full_name() + " (bench/upb_shim.c)";
  }
  for (const std::string& error :
       {Check("upb", &upb_plain, in, *want), Check("upb_fast", &upb, in, *want),
        Check("upb_fast_alias", &upb_alias, in, *want)}) {
    if (!error.empty()) return error;
  }
#endif
  // Wire-level agreement cannot tell a wrong schema whose fields all land
  // in unknown fields and re-pack verbatim: check the type itself.
  if (iter.message()->descriptor != in.codec.pbc) {
    return std::string("iter decoded the input as ") + iter.message()->descriptor->name +
           ", not " + in.codec.pbc->name;
  }
  if (iter.message()->n_unknown_fields != pbc_malloc.message()->n_unknown_fields) {
    return "iter and protobuf-c keep different unknown fields";
  }
  if (Repack(iter.message()) != Repack(pbc_malloc.message())) {
    return "iter's and protobuf-c's structs re-pack differently";
  }
  IterSizeDecoder size(in.codec);
  if (!size.Decode(Data(in), in.bytes.size()) || size.size() != iter.used()) {
    return "iter_unpacked_size says " + std::to_string(size.size()) + ", unpack used " +
           std::to_string(iter.used());
  }
  return "";
}

std::string VerifyUpbFasttable(const std::vector<Input>& inputs) {
#ifdef PBCI_BENCH_HAVE_UPB
  // A type's table has no fast entries (mask 255) when upb's generator finds
  // none of its fields fit one (a message of maps, say); tables generated
  // without `fasttable` have none at all. (A runtime without fasttable does
  // not link: the tables name its fast parsers.)
  for (const Input& in : inputs) {
    const void* table =
        pbci_upb_table(in.codec.cpp->GetDescriptor()->full_name().c_str());
    if (table != nullptr && pbci_upb_table_mask(table) != 255) return "";
  }
  return "upb's tables have no fasttable entries for any input: generated "
         "without "
         "`--upb_out=fasttable:`?";
#else
  (void)inputs;
  return "";
#endif
}

}  // namespace pbci_bench
