#include "invariants.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "pbc_compare.h"

namespace pbci_test {
namespace {

constexpr uintptr_t kAlign = 8;  // PBCI_ALIGN

class Checker {
 public:
  // Storage may be in any of `buffers`; bytes contents may also point
  // into [alias, alias + alias_len).
  Checker(const std::vector<Span>& buffers, const void* alias, size_t alias_len,
          bool empty_arrays)
      : alias_begin_(reinterpret_cast<uintptr_t>(alias)),
        alias_end_(alias_begin_ + alias_len),
        empty_arrays_(empty_arrays) {
    for (const Span& b : buffers) {
      const uintptr_t begin = reinterpret_cast<uintptr_t>(b.data);
      regions_.push_back({begin, begin + b.size});
    }
  }

  std::string Message(const ProtobufCMessage* m, const std::string& path) {
    const ProtobufCMessageDescriptor* d = m->descriptor;
    std::string e = Object(m, d->sizeof_message, path, true);
    if (!e.empty()) return e;
    for (unsigned i = 0; i < d->n_fields; i++) {
      e = Field(m, &d->fields[i], path + "." + d->fields[i].name);
      if (!e.empty()) return e;
    }
    e = Array(m->unknown_fields, m->n_unknown_fields,
              sizeof(ProtobufCMessageUnknownField), path + ".unknown_fields");
    if (!e.empty()) return e;
    for (size_t i = 0; i < m->n_unknown_fields; i++) {
      const ProtobufCMessageUnknownField& u = m->unknown_fields[i];
      if (u.len == 0) return path + ": unknown field with no data";
      e = Object(u.data, u.len, path + ".unknown_fields[].data", false);
      if (!e.empty()) return e;
      if (u.wire_type > PROTOBUF_C_WIRE_TYPE_32BIT || u.wire_type == 3 ||
          u.wire_type == 4) {
        return path + ": unknown field wire type " +
               std::to_string(u.wire_type);
      }
    }
    return "";
  }

 private:
  struct Region {
    uintptr_t begin, end;
  };

  // The region holding [p, p + n), or nullptr.
  const Region* Holding(uintptr_t p, size_t n) const {
    for (const Region& r : regions_) {
      if (p >= r.begin && p <= r.end && n <= r.end - p) return &r;
    }
    return nullptr;
  }

  bool Inside(uintptr_t p, size_t n) const { return Holding(p, n) != nullptr; }

  std::string Object(const void* p, size_t n, const std::string& path,
                     bool aligned) {
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    // Byte contents (not structs or arrays) may alias the input.
    const bool aliased = !aligned && alias_begin_ != 0 && a >= alias_begin_ &&
                         a <= alias_end_ && n <= alias_end_ - a;
    if (!aliased && !Inside(a, n)) return path + ": points outside the buffer";
    if (aligned && a % kAlign != 0) return path + ": misaligned";
    return "";
  }

  std::string Array(const void* p, size_t n, size_t elem,
                    const std::string& path) {
    if (n == 0 && p != nullptr && empty_arrays_)
      return Object(p, 0, path, true);
    if ((n == 0) != (p == nullptr)) return path + ": count and array disagree";
    if (n == 0) return "";
    if (n > SIZE_MAX / elem) return path + ": count too large";
    return Object(p, n * elem, path, true);
  }

  std::string String(const char* s, const ProtobufCFieldDescriptor* f,
                     const std::string& path) {
    if (s == nullptr || s == f->default_value || s == protobuf_c_empty_string) {
      return "";
    }
    uintptr_t a = reinterpret_cast<uintptr_t>(s);
    const Region* r = Holding(a, 1);
    if (r == nullptr) return path + ": string outside the buffer";
    if (std::memchr(s, '\0', r->end - a) == nullptr) {
      return path + ": string not NUL-terminated in the buffer";
    }
    return "";
  }

  std::string Bytes(const ProtobufCBinaryData& b,
                    const ProtobufCFieldDescriptor* f,
                    const std::string& path) {
    const auto* def = static_cast<const ProtobufCBinaryData*>(f->default_value);
    if (def != nullptr && b.data == def->data && b.len == def->len) return "";
    if (b.len == 0)
      return b.data == nullptr ? "" : path + ": empty bytes not NULL";
    return Object(b.data, b.len, path, false);
  }

  // One value of field f at `member`.
  std::string Value(const ProtobufCFieldDescriptor* f, const char* member,
                    const std::string& path) {
    switch (f->type) {
      case PROTOBUF_C_TYPE_STRING: {
        const char* s;
        std::memcpy(&s, member, sizeof s);
        return String(s, f, path);
      }
      case PROTOBUF_C_TYPE_BYTES: {
        ProtobufCBinaryData b;
        std::memcpy(&b, member, sizeof b);
        return Bytes(b, f, path);
      }
      case PROTOBUF_C_TYPE_MESSAGE: {
        const ProtobufCMessage* sub;
        std::memcpy(&sub, member, sizeof sub);
        if (sub == nullptr) return "";
        std::string e = Object(sub, sizeof(ProtobufCMessage), path, true);
        if (!e.empty()) return e;
        if (sub->descriptor != f->descriptor)
          return path + ": wrong descriptor";
        return Message(sub, path);
      }
      case PROTOBUF_C_TYPE_BOOL: {
        protobuf_c_boolean b;
        std::memcpy(&b, member, sizeof b);
        return b == 0 || b == 1 ? "" : path + ": bool not 0 or 1";
      }
      default:
        return "";
    }
  }

  std::string Field(const ProtobufCMessage* m,
                    const ProtobufCFieldDescriptor* f,
                    const std::string& path) {
    const char* base = reinterpret_cast<const char*>(m);
    const char* member = base + f->offset;
    if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
      uint32_t c;
      std::memcpy(&c, base + f->quantifier_offset, sizeof c);
      if (c != 0) {
        const ProtobufCFieldDescriptor* member_desc =
            protobuf_c_message_descriptor_get_field(m->descriptor, c);
        if (member_desc == nullptr ||
            !(member_desc->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) ||
            member_desc->quantifier_offset != f->quantifier_offset) {
          return path + ": oneof case " + std::to_string(c) + " is no member";
        }
      }
      return c == f->id ? Value(f, member, path) : "";
    }
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t n;
      const char* array;
      std::memcpy(&n, base + f->quantifier_offset, sizeof n);
      std::memcpy(&array, member, sizeof array);
      const size_t elem = ElemSize(f->type);
      std::string e = Array(array, n, elem, path);
      for (size_t i = 0; e.empty() && i < n; i++) {
        e = Value(f, array + i * elem, path + "[" + std::to_string(i) + "]");
      }
      return e;
    }
    if (f->label == PROTOBUF_C_LABEL_OPTIONAL &&
        f->type != PROTOBUF_C_TYPE_STRING &&
        f->type != PROTOBUF_C_TYPE_MESSAGE) {
      protobuf_c_boolean has;
      std::memcpy(&has, base + f->quantifier_offset, sizeof has);
      if (has != 0 && has != 1) return path + ": has_ flag not 0 or 1";
    }
    return Value(f, member, path);
  }

  std::vector<Region> regions_;
  uintptr_t alias_begin_, alias_end_;  // 0, 0 when nothing may alias
  bool empty_arrays_;                  // an array may have no elements
};

}  // namespace

std::string CheckInvariants(const ProtobufCMessage* m, const void* buf,
                            size_t used, const void* alias, size_t alias_len) {
  if (m != buf) return "message is not at the start of the buffer";
  Checker checker({{buf, used}}, alias, alias_len, false);
  std::string e = checker.Message(m, m->descriptor->short_name);
  if (e.empty() && !protobuf_c_message_check(m))
    e = "protobuf_c_message_check fails";
  return e;
}

std::string CheckMergedInvariants(const ProtobufCMessage* m,
                                  const std::vector<Span>& buffers) {
  return Checker(buffers, nullptr, 0, true)
      .Message(m, m->descriptor->short_name);
}

}  // namespace pbci_test
