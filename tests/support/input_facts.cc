#include "input_facts.h"

#include <map>
#include <set>

namespace pbci_test {
namespace {

constexpr int kWalkLimit = 200;  // deeper than any decoder accepts

bool ReadVarint(const uint8_t** p, const uint8_t* end, int max_bytes,
                uint64_t* v) {
  *v = 0;
  for (int i = 0; i < max_bytes && *p < end; i++) {
    uint8_t b = *(*p)++;
    *v |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
    if (b < 0x80) return true;
  }
  return false;
}

// Walks [p, end) as a `desc` message; stops quietly at malformed data.
void Walk(const ProtobufCMessageDescriptor* desc, const uint8_t* p,
          const uint8_t* end, int depth, InputFacts* facts) {
  if (depth > facts->max_depth) facts->max_depth = depth;
  if (depth >= kWalkLimit) return;
  std::set<unsigned> seen_messages;
  std::map<unsigned, uint32_t> oneof_last;  // case offset -> last member
  while (p < end) {
    uint64_t key, len = 0;
    if (!ReadVarint(&p, end, 5, &key)) return;
    const uint8_t* value = p;
    switch (key & 7) {
      case 0:
        if (!ReadVarint(&p, end, 10, &len)) return;
        break;
      case 1:
        if (end - p < 8) return;
        p += 8;
        break;
      case 5:
        if (end - p < 4) return;
        p += 4;
        break;
      case 2:
        if (!ReadVarint(&p, end, 5, &len)) return;
        if (len >> 32 != 0) facts->wide_length = true;
        if (len > static_cast<uint64_t>(end - p)) return;
        value = p;
        p += len;
        break;
      default:
        return;
    }
    const ProtobufCFieldDescriptor* f = protobuf_c_message_descriptor_get_field(
        desc, static_cast<unsigned>(key >> 3));
    if (f == nullptr) continue;
    const bool oneof = (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0;
    if (f->type == PROTOBUF_C_TYPE_STRING && (key & 7) == 2 &&
        !ReferenceUtf8(std::string(reinterpret_cast<const char*>(value), len))) {
      facts->bad_utf8 = true;
    }
    if (f->type == PROTOBUF_C_TYPE_MESSAGE && (key & 7) == 2) {
      if (oneof) {
        auto it = oneof_last.find(f->quantifier_offset);
        if (it != oneof_last.end() && it->second == f->id) facts->merges = true;
      } else if (f->label != PROTOBUF_C_LABEL_REPEATED) {
        if (!seen_messages.insert(f->id).second) facts->merges = true;
      }
      Walk(static_cast<const ProtobufCMessageDescriptor*>(f->descriptor), value,
           p, depth + 1, facts);
    }
    if (oneof) oneof_last[f->quantifier_offset] = f->id;
  }
}

}  // namespace

bool ReferenceUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + static_cast<size_t>(len) > s.size()) return false;
    uint32_t cp = len == 1 ? c : c & (0x7fu >> len);
    for (int k = 1; k < len; k++) {
      unsigned cc = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((cc >> 6) != 2) return false;
      cp = cp << 6 | (cc & 0x3f);
    }
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += static_cast<size_t>(len);
  }
  return true;
}

InputFacts AnalyzeInput(const ProtobufCMessageDescriptor* desc,
                        const std::string& bytes) {
  InputFacts facts;
  const uint8_t* p = reinterpret_cast<const uint8_t*>(bytes.data());
  Walk(desc, p, p + bytes.size(), 0, &facts);
  return facts;
}

}  // namespace pbci_test
