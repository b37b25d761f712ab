#include "print_common.h"

#include <cstdint>
#include <cstdio>

namespace protobuf_c_iter {

Vars FieldVars(const MessageModel& m, const FieldModel& f) {
  return Vars{{"number", std::to_string(f.number)},
              {"comment", f.comment},
              {"member", f.member},
              {"has", f.has_member},
              {"count", f.count_member},
              {"cap", f.cap_local},
              {"elem", f.elem_type},
              {"array_elem", f.array_elem},
              {"value", f.value_expr},
              {"case_member", f.case_member},
              {"case_value", f.case_value},
              {"sub_struct", f.sub_struct},
              {"sub_decode", f.sub_decode},
              {"sub_message", f.sub_message},
              {"sub_init", f.sub_init},
              {"sub_prototype", f.sub_prototype},
              {"packed_kind", f.packed_kind},
              {"required_set", RequiredSet(f)},
              {"struct", m.struct_name},
              {"base", m.base_member}};
}

std::string UsualKey(const FieldModel& f) {
  if (f.usual_key.empty()) return "PBCI_KEY_NONE";
  unsigned key = f.usual_key[0];
  if (f.usual_key.size() == 2) key |= unsigned{f.usual_key[1]} << 8;
  char hex[8];
  snprintf(hex, sizeof hex, "0x%02x", key);
  return hex;
}

std::string WireTypeMacro(WireType wt) {
  switch (wt) {
    case kWireVarint:
      return "PBCI_WT_VARINT";
    case kWire64Bit:
      return "PBCI_WT_64BIT";
    case kWireLen:
      return "PBCI_WT_LEN";
    default:
      return "PBCI_WT_32BIT";
  }
}

int RequiredWords(const MessageModel& m) {
  return (m.n_required_bits + 63) / 64;
}

std::string RequiredMask(const MessageModel& m, int word) {
  int bits = m.n_required_bits - word * 64;
  if (bits > 64) bits = 64;
  uint64_t mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
  char text[32];
  std::snprintf(text, sizeof text, "UINT64_C(0x%llx)",
                static_cast<unsigned long long>(mask));
  return text;
}

std::string RequiredSet(const FieldModel& f) {
  if (f.required_bit < 0) return "";
  return "required[" + std::to_string(f.required_bit / 64) +
         "] |= UINT64_C(1) << " + std::to_string(f.required_bit % 64) + ";";
}

void PrintRequiredTable(const MessageModel& m,
                        google::protobuf::io::Printer* p) {
  if (m.n_required_bits == 0) return;
  std::vector<int> numbers(m.n_required_bits);
  for (const FieldModel& f : m.fields) {
    if (f.required_bit >= 0) numbers[f.required_bit] = f.number;
  }
  std::string list;
  for (int n : numbers) list += (list.empty() ? "" : ", ") + std::to_string(n);
  p->Print(R"(
/* The field number of each bit of $full_name$'s "required seen" mask. */
static const uint32_t $required$[] = {$list$};
)",
           "full_name", m.full_name, "required", m.sym.required, "list", list);
}

void PrintRequiredCheck(const MessageModel& m, const std::string& ctx,
                        google::protobuf::io::Printer* p) {
  if (m.n_required_bits == 0) return;
  std::string cond;
  for (int w = 0; w < RequiredWords(m); w++) {
    if (!cond.empty()) cond += " ||\n      ";
    cond += "required[" + std::to_string(w) + "] != " + RequiredMask(m, w);
  }
  p->Print(R"(  if ($cond$) {
    return pbci_fail_required($ctx$, end, required, $table$, $n$);
  }
)",
           "cond", cond, "ctx", ctx, "table", m.sym.required, "n",
           std::to_string(m.n_required_bits));
}

}  // namespace protobuf_c_iter
