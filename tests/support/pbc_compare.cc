#include "pbc_compare.h"

#include <cstring>

namespace pbci_test {
namespace {

const char* At(const ProtobufCMessage* m, unsigned offset) {
  return reinterpret_cast<const char*>(m) + offset;
}

template <typename T>
T Get(const ProtobufCMessage* m, unsigned offset) {
  T v;
  std::memcpy(&v, At(m, offset), sizeof v);
  return v;
}

bool IsOneof(const ProtobufCFieldDescriptor* f) {
  return (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0;
}

// Where a string or bytes value points, as far as its owner can tell:
// nothing, protoc-c's static default or empty string, or a copy (or, with
// PROTOBUF_C_ITER_ALIAS_BYTES, the input). The decoders must leave a
// static pointer exactly where protobuf-c does.
enum class Storage { kNull, kDefault, kEmptyString, kCopy };

const char* StorageName(Storage s) {
  static const char* const kNames[] = {"NULL", "the static default", "protobuf_c_empty_string",
                                       "a copy"};
  return kNames[static_cast<int>(s)];
}

Storage StringStorage(const ProtobufCFieldDescriptor* f, const char* s) {
  if (s == nullptr) return Storage::kNull;
  if (s == f->default_value) return Storage::kDefault;
  if (s == protobuf_c_empty_string) return Storage::kEmptyString;
  return Storage::kCopy;
}

Storage BytesStorage(const ProtobufCFieldDescriptor* f, const ProtobufCBinaryData& b) {
  const auto* def = static_cast<const ProtobufCBinaryData*>(f->default_value);
  if (b.data == nullptr) return Storage::kNull;
  if (def != nullptr && b.data == def->data) return Storage::kDefault;
  return Storage::kCopy;
}

std::string DiffStorage(Storage a, Storage b, const std::string& path) {
  if (a == b) return "";
  return path + ": points to " + StorageName(a) + " vs " + StorageName(b);
}

// Compares one value of field `f` stored at a and b.
std::string DiffValue(const ProtobufCFieldDescriptor* f, const char* a,
                      const char* b, const std::string& path) {
  switch (f->type) {
    case PROTOBUF_C_TYPE_STRING: {
      const char* sa;
      const char* sb;
      std::memcpy(&sa, a, sizeof sa);
      std::memcpy(&sb, b, sizeof sb);
      std::string d = DiffStorage(StringStorage(f, sa), StringStorage(f, sb), path);
      if (!d.empty()) return d;
      if (sa != nullptr && std::strcmp(sa, sb) != 0) {
        return path + ": \"" + sa + "\" vs \"" + sb + "\"";
      }
      return "";
    }
    case PROTOBUF_C_TYPE_BYTES: {
      ProtobufCBinaryData da, db;
      std::memcpy(&da, a, sizeof da);
      std::memcpy(&db, b, sizeof db);
      if (da.len != db.len) {
        return path + ": bytes len " + std::to_string(da.len) + " vs " +
               std::to_string(db.len);
      }
      std::string d = DiffStorage(BytesStorage(f, da), BytesStorage(f, db), path);
      if (!d.empty()) return d;
      if (da.len != 0 && std::memcmp(da.data, db.data, da.len) != 0) {
        return path + ": bytes differ";
      }
      return "";
    }
    case PROTOBUF_C_TYPE_MESSAGE: {
      const ProtobufCMessage* ma;
      const ProtobufCMessage* mb;
      std::memcpy(&ma, a, sizeof ma);
      std::memcpy(&mb, b, sizeof mb);
      if ((ma == nullptr) != (mb == nullptr)) {
        return path + ": message NULL vs non-NULL";
      }
      if (ma == nullptr) return "";
      std::string d = Diff(ma, mb);
      return d.empty() ? "" : path + "." + d;
    }
    default:
      // Scalars compare by bits, so NaNs of equal payload are equal.
      if (std::memcmp(a, b, ElemSize(f->type)) != 0)
        return path + ": values differ";
      return "";
  }
}

std::string DiffUnknown(const ProtobufCMessageUnknownField* a,
                        const ProtobufCMessageUnknownField* b,
                        const std::string& path) {
  if (a->tag != b->tag || a->wire_type != b->wire_type || a->len != b->len) {
    return path + ": unknown field tag/wire type/len " +
           std::to_string(a->tag) + "/" + std::to_string(a->wire_type) + "/" +
           std::to_string(a->len) + " vs " + std::to_string(b->tag) + "/" +
           std::to_string(b->wire_type) + "/" + std::to_string(b->len);
  }
  if (a->len != 0 && std::memcmp(a->data, b->data, a->len) != 0) {
    return path + ": unknown field data differs";
  }
  return "";
}

// Whether field f (not repeated, not in a oneof) was on the wire of copy m.
bool Present(const ProtobufCFieldDescriptor* f, const ProtobufCMessage* m) {
  const char* member = At(m, f->offset);
  if (f->label == PROTOBUF_C_LABEL_REQUIRED) return true;
  if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
    return Get<const void*>(m, f->offset) != nullptr;
  }
  if (f->label == PROTOBUF_C_LABEL_OPTIONAL) {
    if (f->type == PROTOBUF_C_TYPE_STRING) {
      const char* s = Get<const char*>(m, f->offset);
      return s != nullptr && s != f->default_value;
    }
    return Get<protobuf_c_boolean>(m, f->quantifier_offset) != 0;
  }
  // proto3 implicit presence: a value is on the wire when not zero.
  if (f->type == PROTOBUF_C_TYPE_STRING) {
    const char* s = Get<const char*>(m, f->offset);
    return s != nullptr && s[0] != '\0';
  }
  if (f->type == PROTOBUF_C_TYPE_BYTES) {
    return Get<ProtobufCBinaryData>(m, f->offset).len != 0;
  }
  static const char kZero[8] = {0};
  return std::memcmp(member, kZero, ElemSize(f->type)) != 0;
}

std::string DiffMergedAt(const ProtobufCMessage* actual,
                         const std::vector<const ProtobufCMessage*>& copies,
                         const std::string& path);

std::string DiffOneofMerged(const ProtobufCMessageDescriptor* desc,
                            const ProtobufCFieldDescriptor* first,
                            const ProtobufCMessage* actual,
                            const std::vector<const ProtobufCMessage*>& copies,
                            const std::string& path) {
  // Follow the oneof through the copies: a new member replaces, the same
  // message member merges.
  uint32_t expected_case = 0;
  std::vector<const ProtobufCMessage*> run;  // copies holding the last member
  for (const ProtobufCMessage* c : copies) {
    uint32_t c_case = Get<uint32_t>(c, first->quantifier_offset);
    if (c_case == 0) continue;
    const ProtobufCFieldDescriptor* f =
        protobuf_c_message_descriptor_get_field(desc, c_case);
    if (c_case != expected_case || f->type != PROTOBUF_C_TYPE_MESSAGE) {
      run.clear();
    }
    expected_case = c_case;
    run.push_back(c);
  }
  uint32_t actual_case = Get<uint32_t>(actual, first->quantifier_offset);
  if (actual_case != expected_case) {
    return path + "." + first->name + ": oneof case " +
           std::to_string(actual_case) + " vs expected " +
           std::to_string(expected_case);
  }
  if (expected_case == 0) return "";
  const ProtobufCFieldDescriptor* f =
      protobuf_c_message_descriptor_get_field(desc, expected_case);
  const std::string fpath = path + "." + f->name;
  if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
    std::vector<const ProtobufCMessage*> subs;
    for (const ProtobufCMessage* c : run) {
      subs.push_back(Get<const ProtobufCMessage*>(c, f->offset));
    }
    return DiffMergedAt(Get<const ProtobufCMessage*>(actual, f->offset), subs,
                        fpath);
  }
  return DiffValue(f, At(actual, f->offset), At(run.back(), f->offset), fpath);
}

std::string DiffMergedAt(const ProtobufCMessage* actual,
                         const std::vector<const ProtobufCMessage*>& copies,
                         const std::string& path) {
  const ProtobufCMessageDescriptor* desc = actual->descriptor;
  for (unsigned i = 0; i < desc->n_fields; i++) {
    const ProtobufCFieldDescriptor* f = &desc->fields[i];
    const std::string fpath = path + "." + f->name;
    if (IsOneof(f)) {
      // Handle each oneof once, at its first member.
      bool first = true;
      for (unsigned j = 0; j < i; j++) {
        if (IsOneof(&desc->fields[j]) &&
            desc->fields[j].quantifier_offset == f->quantifier_offset) {
          first = false;
        }
      }
      if (!first) continue;
      std::string d = DiffOneofMerged(desc, f, actual, copies, path);
      if (!d.empty()) return d;
      continue;
    }
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t n = Get<size_t>(actual, f->quantifier_offset);
      size_t total = 0;
      for (const ProtobufCMessage* c : copies) {
        total += Get<size_t>(c, f->quantifier_offset);
      }
      if (n != total) {
        return fpath + ": " + std::to_string(n) + " elements vs expected " +
               std::to_string(total);
      }
      const char* arr = Get<const char*>(actual, f->offset);
      size_t k = 0;
      for (const ProtobufCMessage* c : copies) {
        size_t nc = Get<size_t>(c, f->quantifier_offset);
        const char* carr = Get<const char*>(c, f->offset);
        for (size_t e = 0; e < nc; e++, k++) {
          std::string d = DiffValue(f, arr + k * ElemSize(f->type),
                                    carr + e * ElemSize(f->type),
                                    fpath + "[" + std::to_string(k) + "]");
          if (!d.empty()) return d;
        }
      }
      continue;
    }
    std::vector<const ProtobufCMessage*> present;
    for (const ProtobufCMessage* c : copies) {
      if (Present(f, c)) present.push_back(c);
    }
    if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
      const ProtobufCMessage* sub =
          Get<const ProtobufCMessage*>(actual, f->offset);
      if (present.empty()) {
        if (sub != nullptr) return fpath + ": message present, expected absent";
        continue;
      }
      if (sub == nullptr) return fpath + ": message absent, expected present";
      std::vector<const ProtobufCMessage*> subs;
      for (const ProtobufCMessage* c : present) {
        subs.push_back(Get<const ProtobufCMessage*>(c, f->offset));
      }
      std::string d = DiffMergedAt(sub, subs, fpath);
      if (!d.empty()) return d;
      continue;
    }
    // The last copy that has the field wins; with none, any copy holds the
    // default.
    const ProtobufCMessage* source =
        present.empty() ? copies.back() : present.back();
    if (f->label == PROTOBUF_C_LABEL_OPTIONAL &&
        f->type != PROTOBUF_C_TYPE_STRING) {
      if (Get<protobuf_c_boolean>(actual, f->quantifier_offset) !=
          Get<protobuf_c_boolean>(source, f->quantifier_offset)) {
        return fpath + ": has_ flag differs";
      }
    }
    std::string d =
        DiffValue(f, At(actual, f->offset), At(source, f->offset), fpath);
    if (!d.empty()) return d;
  }
  size_t total = 0;
  for (const ProtobufCMessage* c : copies) total += c->n_unknown_fields;
  if (actual->n_unknown_fields != total) {
    return path + ": " + std::to_string(actual->n_unknown_fields) +
           " unknown fields vs expected " + std::to_string(total);
  }
  size_t k = 0;
  for (const ProtobufCMessage* c : copies) {
    for (size_t e = 0; e < c->n_unknown_fields; e++, k++) {
      std::string d =
          DiffUnknown(&actual->unknown_fields[k], &c->unknown_fields[e], path);
      if (!d.empty()) return d;
    }
  }
  return "";
}

}  // namespace

// Set while DiffKnown runs: unknown fields are not compared.
thread_local bool g_ignore_unknown = false;

size_t ElemSize(ProtobufCType type) {
  switch (type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_ENUM:
      return 4;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
      return 8;
    case PROTOBUF_C_TYPE_BOOL:
      return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_STRING:
      return sizeof(char*);
    case PROTOBUF_C_TYPE_BYTES:
      return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE:
      return sizeof(ProtobufCMessage*);
  }
  return 0;
}

std::string Diff(const ProtobufCMessage* a, const ProtobufCMessage* b) {
  if (a->descriptor != b->descriptor) return "descriptors differ";
  const ProtobufCMessageDescriptor* desc = a->descriptor;
  const std::string path = desc->short_name;
  for (unsigned i = 0; i < desc->n_fields; i++) {
    const ProtobufCFieldDescriptor* f = &desc->fields[i];
    const std::string fpath = path + "." + f->name;
    if (IsOneof(f)) {
      uint32_t ca = Get<uint32_t>(a, f->quantifier_offset);
      uint32_t cb = Get<uint32_t>(b, f->quantifier_offset);
      if (ca != cb) return fpath + ": oneof case differs";
      if (ca != f->id) continue;
    } else if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t na = Get<size_t>(a, f->quantifier_offset);
      size_t nb = Get<size_t>(b, f->quantifier_offset);
      if (na != nb) {
        return fpath + ": " + std::to_string(na) + " vs " + std::to_string(nb) +
               " elements";
      }
      const char* aa = Get<const char*>(a, f->offset);
      const char* ab = Get<const char*>(b, f->offset);
      for (size_t e = 0; e < na; e++) {
        std::string d =
            DiffValue(f, aa + e * ElemSize(f->type), ab + e * ElemSize(f->type),
                      fpath + "[" + std::to_string(e) + "]");
        if (!d.empty()) return d;
      }
      continue;
    } else if (f->label == PROTOBUF_C_LABEL_OPTIONAL &&
               f->type != PROTOBUF_C_TYPE_STRING &&
               f->type != PROTOBUF_C_TYPE_MESSAGE) {
      if (Get<protobuf_c_boolean>(a, f->quantifier_offset) !=
          Get<protobuf_c_boolean>(b, f->quantifier_offset)) {
        return fpath + ": has_ flag differs";
      }
    }
    std::string d = DiffValue(f, At(a, f->offset), At(b, f->offset), fpath);
    if (!d.empty()) return d;
  }
  if (g_ignore_unknown) return "";
  if (a->n_unknown_fields != b->n_unknown_fields) {
    return path + ": " + std::to_string(a->n_unknown_fields) + " vs " +
           std::to_string(b->n_unknown_fields) + " unknown fields";
  }
  for (size_t e = 0; e < a->n_unknown_fields; e++) {
    std::string d =
        DiffUnknown(&a->unknown_fields[e], &b->unknown_fields[e], path);
    if (!d.empty()) return d;
  }
  return "";
}

std::string DiffKnown(const ProtobufCMessage* a, const ProtobufCMessage* b) {
  // Diff recurses through sub-messages; the flag reaches every level.
  g_ignore_unknown = true;
  std::string d = Diff(a, b);
  g_ignore_unknown = false;
  return d;
}

std::string DiffMerged(const ProtobufCMessage* actual,
                       const std::vector<const ProtobufCMessage*>& copies) {
  return DiffMergedAt(actual, copies, actual->descriptor->short_name);
}

std::string Pack(const ProtobufCMessage* m) {
  std::string out(protobuf_c_message_get_packed_size(m), '\0');
  size_t n = protobuf_c_message_pack(
      m, reinterpret_cast<uint8_t*>(out.empty() ? nullptr : &out[0]));
  out.resize(n);
  return out;
}
}  // namespace pbci_test
