#include "iter_check.h"

#include <protobuf-c-iter/protobuf-c-iter.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "invariants.h"
#include "option_check.h"
#include "pbc_compare.h"

namespace pbci_test {
namespace {

struct PbcFree {
  void operator()(ProtobufCMessage* m) const {
    if (m != nullptr) protobuf_c_message_free_unpacked(m, nullptr);
  }
};
using PbcMessage = std::unique_ptr<ProtobufCMessage, PbcFree>;

void* Member(ProtobufCMessage* m, unsigned offset) {
  return reinterpret_cast<char*>(m) + offset;
}

// Deviation 7 (docs/compat.md): protoc-c emits no x__init for a type with
// gen_init_helpers = false, and protobuf-c then sets its new instances up
// from the descriptor: zeroes, then the defaults it lists, which an enum
// field without an explicit default lacks. Such a field, absent, reads 0
// there (no value of the enum, unless it has one) and X__INIT's first value
// here. The reference gets X__INIT's value, taken from the type's own empty
// decode (Api.NewStructsStartAsTheirInit and Deviation.Bug7* hold that to
// the macro).
void ApplyInitDeviation(ProtobufCMessage* m) {
  const ProtobufCMessageDescriptor* d = m->descriptor;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor& f = d->fields[i];
    const bool in_oneof = (f.flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0;
    if (in_oneof &&
        *static_cast<uint32_t*>(Member(m, f.quantifier_offset)) != f.id) {
      continue;
    }
    if (f.type == PROTOBUF_C_TYPE_MESSAGE) {
      if (f.label == PROTOBUF_C_LABEL_REPEATED) {
        const size_t n = *static_cast<size_t*>(Member(m, f.quantifier_offset));
        auto* subs = *static_cast<ProtobufCMessage***>(Member(m, f.offset));
        for (size_t j = 0; j < n; j++) ApplyInitDeviation(subs[j]);
      } else if (auto* sub =
                     *static_cast<ProtobufCMessage**>(Member(m, f.offset))) {
        ApplyInitDeviation(sub);
      }
      continue;
    }
    if (d->message_init != nullptr || f.type != PROTOBUF_C_TYPE_ENUM ||
        f.default_value != nullptr || f.label != PROTOBUF_C_LABEL_OPTIONAL ||
        in_oneof ||
        *static_cast<protobuf_c_boolean*>(Member(m, f.quantifier_offset))) {
      continue;
    }
    ExactBuffer init(PROTOBUF_C_ITER_STRUCT_COST(d->sizeof_message));
    const IterType& t = TypeNamed(d->name);
    if (t.unpack(nullptr, 0, init.data, init.size) < 0) std::abort();
    std::memcpy(Member(m, f.offset),
                Member(static_cast<ProtobufCMessage*>(init.data), f.offset),
                sizeof(int));
  }
}

// protobuf-c's decode of `bytes`, with deviation 7 applied.
PbcMessage PbcUnpack(const IterType& t, const std::string& bytes) {
  PbcMessage m(protobuf_c_message_unpack(
      t.desc, nullptr, bytes.size(),
      reinterpret_cast<const uint8_t*>(bytes.data())));
  if (m != nullptr) ApplyInitDeviation(m.get());
  return m;
}

const uint8_t* Data(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

}  // namespace

ExactBuffer::ExactBuffer(size_t n) : size(n) {
  // posix_memalign, unlike aligned_alloc, takes any size: with the exact
  // size ASan sees every overrun.
  if (posix_memalign(&data, PROTOBUF_C_ITER_BUF_ALIGN, n == 0 ? 1 : n) != 0) {
    data = nullptr;
  }
}

ExactBuffer::~ExactBuffer() { std::free(data); }

std::string Hex(const std::string& bytes) {
  std::string out;
  char b[4];
  for (unsigned char c : bytes) {
    std::snprintf(b, sizeof b, "%02x", c);
    out += b;
  }
  return out;
}

ptrdiff_t UnpackRejected(const IterType& t, const std::string& bytes,
                         const ProtobufCIterOptions* o, ProtobufCIterStatus* status,
                         std::unique_ptr<ExactBuffer>* buffer) {
  const size_t bound = t.unpacked_size_bound(bytes.size());
  const size_t small = 4096 + 16 * bytes.size();
  ptrdiff_t r = PROTOBUF_C_ITER_ERR_NO_MEMORY;
  if (small < bound) {
    buffer->reset(new ExactBuffer(small));
    r = protobuf_c_iter_unpack(t.iter_type, Data(bytes), bytes.size(), (*buffer)->data, small, o,
                               status);
  }
  if (r == PROTOBUF_C_ITER_ERR_NO_MEMORY) {
    buffer->reset(new ExactBuffer(bound));
    r = protobuf_c_iter_unpack(t.iter_type, Data(bytes), bytes.size(), (*buffer)->data, bound, o,
                               status);
  }
  return r;
}

IterResult DecodeWithIter(const IterType& t, const std::string& bytes,
                          std::string* problems, Faults faults) {
  IterResult r;
  // Sizing that stops at its work limit (an input built against the sizer)
  // is sized again without it: that figure, exact, is what unpack uses.
  const ProtobufCIterOptions unlimited = {PROTOBUF_C_ITER_NO_WORK_LIMIT, 0};
  const ProtobufCIterOptions* sizing = nullptr;
  r.unpacked_size = t.unpacked_size(Data(bytes), bytes.size());
  if (r.unpacked_size == PROTOBUF_C_ITER_ERR_WORK_LIMIT) {
    r.work_limited = true;
    sizing = &unlimited;
    r.unpacked_size = protobuf_c_iter_unpacked_size(
        t.iter_type, Data(bytes), bytes.size(), sizing, nullptr);
  }
  if (r.unpacked_size < 0) {
    // In a buffer of the bound, which every input fits, unpack fails too,
    // not for memory. With one fault, both report it.
    ProtobufCIterStatus sized, unpacked;
    protobuf_c_iter_unpacked_size(t.iter_type, Data(bytes), bytes.size(),
                                  sizing, &sized);
    r.code = UnpackRejected(t, bytes, nullptr, &unpacked, &r.buffer);
    if (r.code >= 0 || r.code == PROTOBUF_C_ITER_ERR_NO_MEMORY || sized.code != r.unpacked_size ||
        (faults == Faults::kOne && r.code != r.unpacked_size)) {
      *problems += "unpacked_size said " + std::to_string(r.unpacked_size) + " (status " +
                   std::to_string(sized.code) + ") but unpack returned " +
                   std::to_string(r.code) + "; ";
    } else if (faults == Faults::kOne && (sized.offset != unpacked.offset ||
                                          sized.field_number != unpacked.field_number)) {
      *problems += "unpacked_size failed at offset " + std::to_string(sized.offset) +
                   " field " + std::to_string(sized.field_number) + ", unpack at " +
                   std::to_string(unpacked.offset) + " field " +
                   std::to_string(unpacked.field_number) + "; ";
    }
    return r;
  }
  const size_t size = static_cast<size_t>(r.unpacked_size);
  if (size > t.unpacked_size_bound(bytes.size())) {
    *problems += "unpacked_size " + std::to_string(size) + " is over the bound " +
                 std::to_string(t.unpacked_size_bound(bytes.size())) + "; ";
  }
  if (size > 1) {
    ExactBuffer short_buf(size - 1);
    ptrdiff_t code =
        t.unpack(Data(bytes), bytes.size(), short_buf.data, size - 1);
    if (code != PROTOBUF_C_ITER_ERR_NO_MEMORY) {
      *problems += "one byte short returned " + std::to_string(code) + "; ";
    }
  }
  r.buffer.reset(new ExactBuffer(size));
  r.code = t.unpack(Data(bytes), bytes.size(), r.buffer->data, size);
  if (r.code != r.unpacked_size) {
    *problems += "unpack used " + std::to_string(r.code) +
                 " but unpacked_size said " + std::to_string(r.unpacked_size) +
                 "; ";
  }
  return r;
}

std::string CheckAgainstProtobufC(const IterType& t, const std::string& bytes,
                                  Faults faults) {
  std::string problems;
  PbcMessage ref = PbcUnpack(t, bytes);
  IterResult got = DecodeWithIter(t, bytes, &problems, faults);
  if ((ref != nullptr) != (got.code >= 0)) {
    problems += std::string("protobuf-c ") + (ref ? "accepts" : "rejects") +
                " but iter returned " + std::to_string(got.code) + "; ";
  } else if (ref != nullptr) {
    std::string d = Diff(ref.get(), got.message());
    if (!d.empty()) problems += "structs differ at " + d + "; ";
    if (Pack(ref.get()) != Pack(got.message()))
      problems += "re-packed bytes differ; ";
    std::string broken =
        CheckInvariants(got.message(), got.buffer->data, got.buffer->size);
    if (!broken.empty()) problems += "invariant: " + broken + "; ";
  }
  for (int which = 0; which < 2; which++) {
    problems += CheckOptions(t, bytes, got, OptionSelector(bytes, which), faults);
  }
  if (!problems.empty()) problems += "input " + Hex(bytes);
  return problems;
}

std::string CheckMerged(const IterType& t,
                        const std::vector<std::string>& copies) {
  std::string problems, all;
  std::vector<PbcMessage> refs;
  std::vector<const ProtobufCMessage*> ptrs;
  for (const std::string& c : copies) {
    refs.push_back(PbcUnpack(t, c));
    if (refs.back() == nullptr)
      return "a copy does not decode alone: " + Hex(c);
    ptrs.push_back(refs.back().get());
    all += c;
  }
  IterResult got = DecodeWithIter(t, all, &problems);
  if (got.code < 0) {
    problems +=
        "iter rejects the merge with " + std::to_string(got.code) + "; ";
  } else {
    std::string d = DiffMerged(got.message(), ptrs);
    if (!d.empty()) problems += "merge differs at " + d + "; ";
    std::string broken =
        CheckInvariants(got.message(), got.buffer->data, got.buffer->size);
    if (!broken.empty()) problems += "invariant: " + broken + "; ";
  }
  for (int which = 0; which < 2; which++) {
    problems += CheckOptions(t, all, got, OptionSelector(all, which));
  }
  if (!problems.empty()) problems += "input " + Hex(all);
  return problems;
}

}  // namespace pbci_test
