// Prints each message's field table and type object (PbciMessage), which
// the runtime's table-driven sizer reads, and the message's sizer: a call
// into pbci_measure with scratch sized for the message.
//
// The decoder is generated code because it runs per field and benefits from
// knowing each field at compile time; unpacked_size only classifies fields
// (skip, count, add a length, recurse), which one runtime loop over a table
// does in a fraction of the code.
#include <cstdio>

#include "print_common.h"
#include "printers.h"

namespace protobuf_c_iter {
namespace {

using google::protobuf::io::Printer;

std::string Kind(const FieldModel& f) {
  switch (f.read) {
    case ReadKind::kString:
      return "PBCI_KIND_STRING";
    case ReadKind::kBytes:
      return "PBCI_KIND_BYTES";
    case ReadKind::kMessage:
      return "PBCI_KIND_MESSAGE";
    default:
      return "PBCI_KIND_SCALAR";
  }
}

std::string WireTypes(const FieldModel& f) {
  std::string bits;
  for (WireType wt : f.wire_types) {
    if (!bits.empty()) bits += " | ";
    bits += "PBCI_WT_BIT(" + WireTypeMacro(wt) + ")";
  }
  return bits;
}

std::string Op(SizerOp op) {
  switch (op) {
    case SizerOp::kVarint:
      return "PBCI_OP_VARINT";
    case SizerOp::kFixed64:
      return "PBCI_OP_FIXED64";
    case SizerOp::kFixed32:
      return "PBCI_OP_FIXED32";
    case SizerOp::kString:
      return "PBCI_OP_STRING";
    case SizerOp::kBytes:
      return "PBCI_OP_BYTES";
    case SizerOp::kPackedVarint:
      return "PBCI_OP_PACKED_VARINT";
    case SizerOp::kPackedFixed32:
      return "PBCI_OP_PACKED_FIXED32";
    case SizerOp::kPackedFixed64:
      return "PBCI_OP_PACKED_FIXED64";
    default:
      return "PBCI_OP_OTHER";
  }
}

std::string Flags(const FieldModel& f) {
  std::string flags;
  auto add = [&flags](const char* flag) {
    if (!flags.empty()) flags += " | ";
    flags += flag;
  };
  if (f.repeated) add("PBCI_FIELD_REPEATED");
  if (f.group >= 0) add("PBCI_FIELD_GROUP");
  if (f.required_bit >= 0) add("PBCI_FIELD_REQUIRED");
  if (f.group >= 0 && f.sub_goes_on) add("PBCI_FIELD_GOES_ON");
  return flags.empty() ? "0" : flags;
}

void PrintFieldInfo(const MessageModel& m, const FieldModel& f, Printer* p) {
  Vars vars = FieldVars(m, f);
  vars["key"] = UsualKey(f);
  vars["kind"] = Kind(f);
  vars["wire_types"] = WireTypes(f);
  vars["flags"] = Flags(f);
  vars["op"] = Op(f.sizer_op);
  p->Print(vars, R"(  { /* $comment$ */
    .number = $number$, .key = $key$, .kind = $kind$,
    .wire_types = $wire_types$,
    .flags = $flags$, .op = $op$)");
  if (f.repeated) {
    vars["slot"] = std::to_string(f.count_slot);
    p->Print(vars, ", .slot = $slot$, .elem_size = sizeof($array_elem$)");
  } else if (f.group >= 0) {
    p->Print(", .slot = $group$", "group", std::to_string(f.group));
  }
  if (f.required_bit >= 0) {
    p->Print(", .required_bit = $bit$", "bit", std::to_string(f.required_bit));
  }
  if (f.read == ReadKind::kMessage) {
    p->Print(vars, ",\n    .sub = &$sub_message$");
  }
  p->Print("},\n");
}

}  // namespace

void PrintTable(const MessageModel& m, Printer* p) {
  Vars vars = {{"full_name", m.full_name},
               {"fields_table", m.sym.fields},
               {"measure_fn", m.sym.measure},
               {"init", m.sym.init},
               {"message", m.sym.message},
               {"decode", m.sym.decode},
               {"struct", m.struct_name},
               {"descriptor", m.descriptor},
               {"init_macro", m.init_macro},
               {"prototype", m.sym.prototype},
               {"n_fields", std::to_string(m.fields.size())},
               {"n_counts", std::to_string(m.n_counts)},
               {"n_groups", std::to_string(m.n_groups)},
               {"n_required", std::to_string(m.n_required_bits)}};
  vars["fields"] = m.fields.empty() ? "NULL" : m.sym.fields;
  vars["required"] = m.n_required_bits == 0 ? "NULL" : m.sym.required;

  if (!m.fields.empty()) {
    p->Print(vars, R"(
/* The fields of $full_name$ by number, for the runtime's table-driven
 * sizer (pbci_measure, behind unpacked_size). */
static const PbciFieldInfo $fields_table$[] = {
)");
    for (int i : m.by_number) PrintFieldInfo(m, m.fields[i], p);
    p->Print("};\n");
  }
  if (m.own_sizer) {
    vars["measure"] = m.sym.measure + ",";
    p->Print(vars, R"(
static ptrdiff_t $measure_fn$(const PbciList *list, PbciSize *size,
    uint32_t depth);
)");
  } else {
    vars["measure"] = "NULL, /* sizer: the runtime's scratch suffices */";
  }
  p->Print(vars, R"(
/* $init_macro$ as an object, for PBCI_SET_UP. */
const $struct$ $prototype$ = $init_macro$;

/* Sets up a new top-level instance. */
static void $init$(void *msg) {
  PBCI_SET_UP(msg, $struct$, $init_macro$, $prototype$);
}

const PbciMessage $message$ = {
  sizeof($struct$), &$descriptor$,
  $init$,
  $decode$,
  $measure$
  $fields$, $n_fields$, /* fields */
  $n_counts$, /* repeated fields */
  $n_groups$, /* groups of merging sub-message occurrences */
  $n_required$, $required$ /* required fields without a default */
};
)");
}

void PrintSizer(const MessageModel& m, Printer* p) {
  if (!m.own_sizer) return;
  Vars vars = {{"full_name", m.full_name},
               {"measure_fn", m.sym.measure},
               {"message", m.sym.message}};
  p->Print(vars, R"(
/* Adds to `size` what decoding the occurrences in `list` into one new
 * $full_name$ allocates: pbci_measure, with scratch for this type (more
 * than the runtime holds itself). */
static ptrdiff_t $measure_fn$(const PbciList *list, PbciSize *size,
    uint32_t depth) {
)");
  std::vector<std::string> args;
  if (m.n_counts > 0) {
    p->Print(
        "  size_t counts[2 * $n$]; /* per repeated field: length, capacity "
        "*/\n",
        "n", std::to_string(m.n_counts));
    args.push_back("counts");
  } else {
    args.push_back("NULL");
  }
  if (m.n_groups > 0) {
    p->Print("  PbciRun runs[$n$]; /* per group: whether it occurred */\n", "n",
             std::to_string(m.n_groups));
    args.push_back("runs");
  } else {
    args.push_back("NULL");
  }
  if (m.n_required_bits > 0) {
    p->Print("  uint64_t required[$n$]; /* required fields seen */\n", "n",
             std::to_string(RequiredWords(m)));
    args.push_back("required");
  } else {
    args.push_back("NULL");
  }
  vars["args"] = args[0] + ", " + args[1] + ", " + args[2];
  p->Print(vars,
           R"(  return pbci_measure(&$message$, $args$, list, size, depth);
}
)");
}

}  // namespace protobuf_c_iter
