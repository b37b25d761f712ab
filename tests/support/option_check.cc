#include "option_check.h"

#include <protobuf-c-iter/protobuf-c-iter.h>

#include <cstring>

#include "input_facts.h"
#include "invariants.h"
#include "pbc_compare.h"

namespace pbci_test {

namespace {

const char* MemberAt(const ProtobufCMessage* m, unsigned offset) {
  return reinterpret_cast<const char*>(m) + offset;
}

bool StringOk(const char* s) { return s == nullptr || ReferenceUtf8(s); }

// Calls fn(field, value) for each value of m's string and message fields
// that is set (each element of a repeated one, the current member of a
// oneof); false as soon as fn returns false.
template <typename Fn>
bool EachPointerValue(const ProtobufCMessage* m, Fn fn) {
  const ProtobufCMessageDescriptor* d = m->descriptor;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor* f = &d->fields[i];
    if (f->type != PROTOBUF_C_TYPE_STRING && f->type != PROTOBUF_C_TYPE_MESSAGE) continue;
    if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
        *reinterpret_cast<const uint32_t*>(MemberAt(m, f->quantifier_offset)) != f->id) {
      continue;
    }
    const void* v = *reinterpret_cast<const void* const*>(MemberAt(m, f->offset));
    if (f->label != PROTOBUF_C_LABEL_REPEATED) {
      if (!fn(f, v)) return false;
      continue;
    }
    size_t n = *reinterpret_cast<const size_t*>(MemberAt(m, f->quantifier_offset));
    for (size_t e = 0; e < n; e++) {
      if (!fn(f, static_cast<const void* const*>(v)[e])) return false;
    }
  }
  return true;
}

bool NoUnknownFields(const ProtobufCMessage* m) {
  return m->n_unknown_fields == 0 &&
         EachPointerValue(m, [](const ProtobufCFieldDescriptor* f, const void* v) {
           return f->type != PROTOBUF_C_TYPE_MESSAGE || v == nullptr ||
                  NoUnknownFields(static_cast<const ProtobufCMessage*>(v));
         });
}

}  // namespace

bool AllStringsUtf8(const ProtobufCMessage* m) {
  return EachPointerValue(m, [](const ProtobufCFieldDescriptor* f, const void* v) {
    return f->type == PROTOBUF_C_TYPE_STRING
               ? StringOk(static_cast<const char*>(v))
               : v == nullptr || AllStringsUtf8(static_cast<const ProtobufCMessage*>(v));
  });
}

unsigned OptionSelector(const std::string& bytes, int which) {
  unsigned h = 2166136261u;  // FNV-1a
  for (unsigned char c : bytes) h = (h ^ c) * 16777619u;
  return which == 0 ? h & 0x3f : (h >> 8 & 0x3f) ^ 7;
}

std::string CheckOptions(const IterType& t, const std::string& bytes, const IterResult& plain,
                         unsigned selector, Faults faults) {
  const uint8_t* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t len = bytes.size();
  ProtobufCIterOptions o = {};
  o.flags = selector & 7;
  o.max_depth = (selector >> 3) & 7;
  // Sized as the plain decode was (DecodeWithIter).
  if (plain.work_limited) o.flags |= PROTOBUF_C_ITER_NO_WORK_LIMIT;
  const std::string tag = "options " + std::to_string(o.flags) + "/" +
                          std::to_string(o.max_depth) + ": ";
  std::string p;
  ProtobufCIterStatus st;
  const ptrdiff_t size = protobuf_c_iter_unpacked_size(t.iter_type, data, len, &o, &st);
  if (st.code != (size < 0 ? size : 0)) p += tag + "unpacked_size_ex status disagrees; ";
  const InputFacts facts = AnalyzeInput(t.desc, bytes);
  const bool bad_utf8 = (o.flags & PROTOBUF_C_ITER_VALIDATE_UTF8) && facts.bad_utf8;
  const bool too_deep = o.max_depth != 0 && facts.max_depth > static_cast<int>(o.max_depth);
  if (size < 0) {
    // The options add two faults to the plain decode's, BAD_UTF8 and
    // DEPTH. Each function reports the fault it meets first (unpack: the
    // first in input order; the sizer may meet a later one), so with
    // options it reports what its plain form reports or one of those two;
    // with one fault, that fault.
    const bool one = faults == Faults::kOne && !bad_utf8 && !too_deep;
    auto allowed = [&](ptrdiff_t code, ptrdiff_t plain_code) {
      if (one) return code == plain_code;
      return (code == PROTOBUF_C_ITER_ERR_BAD_UTF8 && bad_utf8) ||
             (code == PROTOBUF_C_ITER_ERR_DEPTH && too_deep) ||
             (plain_code < 0 && code == plain_code);
    };
    if (!allowed(size, plain.unpacked_size)) {
      p += tag + "unpacked_size_ex returned " + std::to_string(size) +
           " where the plain unpacked_size returned " + std::to_string(plain.unpacked_size) + "; ";
    }
    // unpack_ex, in a buffer of the bound, fails too, and with one fault
    // at the same place.
    std::unique_ptr<ExactBuffer> buf;
    ProtobufCIterStatus ust;
    ptrdiff_t r = UnpackRejected(t, bytes, &o, &ust, &buf);
    if (r == PROTOBUF_C_ITER_ERR_NO_MEMORY || !allowed(r, plain.code) || (one && r != size)) {
      p += tag + "unpack_ex returned " + std::to_string(r) + " where the plain unpack returned " +
           std::to_string(plain.code) + " and unpacked_size_ex " + std::to_string(size) + "; ";
    }
    if (ust.code != r || ust.offset > len || ust.message == nullptr ||
        (one && (ust.offset != st.offset || ust.field_number != st.field_number))) {
      p += tag + "unpack_ex failed at offset " + std::to_string(ust.offset) + " field " +
           std::to_string(ust.field_number) + ", unpacked_size_ex at " +
           std::to_string(st.offset) + " field " + std::to_string(st.field_number) + "; ";
    }
    return p;
  }
  if (plain.code < 0) return p + tag + "accepts what the plain decode rejects; ";
  if (bad_utf8) p += tag + "accepted a string that is not UTF-8 on the wire; ";
  if (too_deep) p += tag + "accepted nesting deeper than max_depth; ";
  ExactBuffer buf(static_cast<size_t>(size));
  ptrdiff_t r = protobuf_c_iter_unpack(t.iter_type, data, len, buf.data, buf.size, &o, &st);
  if (r != size) {
    return p + tag + "unpack_ex returned " + std::to_string(r) + " for unpacked_size " +
           std::to_string(size) + "; ";
  }
  if (st.code != 0 || st.offset != len || std::strcmp(st.message, "ok") != 0) {
    p += tag + "success status wrong; ";
  }
  if (size > 1) {
    ExactBuffer short_buf(static_cast<size_t>(size) - 1);
    if (protobuf_c_iter_unpack(t.iter_type, data, len, short_buf.data, short_buf.size, &o, nullptr) !=
        PROTOBUF_C_ITER_ERR_NO_MEMORY) {
      p += tag + "one byte short did not fail with NO_MEMORY; ";
    }
  }
  if (size > plain.unpacked_size) p += tag + "needs more buffer than the plain decode; ";
  const auto* m = static_cast<const ProtobufCMessage*>(buf.data);
  const bool alias = o.flags & PROTOBUF_C_ITER_ALIAS_BYTES;
  std::string broken = CheckInvariants(m, buf.data, buf.size, alias ? data : nullptr,
                                       alias ? len : 0);
  if (!broken.empty()) p += tag + "invariant: " + broken + "; ";
  if (o.flags & PROTOBUF_C_ITER_DISCARD_UNKNOWN) {
    std::string d = DiffKnown(plain.message(), m);
    if (!d.empty()) p += tag + "known fields differ at " + d + "; ";
    if (!NoUnknownFields(m)) p += tag + "unknown fields kept; ";
  } else {
    std::string d = Diff(plain.message(), m);
    if (!d.empty()) p += tag + "content differs at " + d + "; ";
  }
  if ((o.flags & PROTOBUF_C_ITER_VALIDATE_UTF8) && !AllStringsUtf8(m)) {
    p += tag + "accepted an invalid string; ";
  }
  return p;
}

}  // namespace pbci_test
