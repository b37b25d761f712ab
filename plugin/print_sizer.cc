// Prints each message's sizer, behind x__iter_unpacked_size: it adds up
// what x__iter_decode would allocate, without writing anything.
//
// Allocation depends on sub-message merging (a repeated field of a merged
// sub-message is re-allocated per occurrence at its running length), so
// the sizer measures a message instance over the list of all occurrences
// that decode into it (PbciList): one range normally, several after a merge.
#include "print_common.h"
#include "printers.h"

namespace protobuf_c_iter {
namespace {

using google::protobuf::io::Printer;

void PrintSizerState(const MessageModel& m, Printer* p) {
  p->Print(R"(
/* What sizing one $full_name$ instance carries from one of its occurrences
 * to the next. */
struct $lower$__iter_sizer {
  PbciSize *size;
  const PbciList *list; /* the instance's occurrences */
  uint32_t depth;
  size_t n_unknown;     /* unknown fields so far */
)",
           "full_name", m.full_name, "lower", m.lower);
  for (const FieldModel& f : m.fields) {
    if (f.repeated) {
      p->Print("  size_t $count$; /* elements so far */\n", "count",
               f.count_member);
    }
  }
  if (!m.groups.empty()) {
    p->Print("  PbciRun runs[$n$]; /* current run of each group */\n", "n",
             std::to_string(m.groups.size()));
  }
  p->Print("};\n");
}

void PrintGroups(const MessageModel& m, Printer* p) {
  if (m.groups.empty()) return;
  for (const GroupModel& g : m.groups) {
    std::string numbers;
    for (int n : g.numbers) {
      if (!numbers.empty()) numbers += ", ";
      numbers += std::to_string(n);
    }
    p->Print("static const uint32_t $name$[] = {$numbers$};\n", "name",
             g.array_name, "numbers", numbers);
  }
  p->Print(R"(
/* Sizes the sub-message instance a finished run of a group decodes into. */
static ptrdiff_t $lower$__iter_close_run(struct $lower$__iter_sizer *s,
    const uint32_t *members, size_t n_members, const PbciRun *run) {
  PbciList list = pbci_run_list(run, s->list, members, n_members);
  switch (run->member) {
)",
           "lower", m.lower);
  for (const FieldModel& f : m.fields) {
    if (f.group < 0 || f.read != ReadKind::kMessage) continue;
    p->Print(FieldVars(m, f), R"(    case $number$: /* $comment$ */
      return $sub_lower$__iter_measure(&list, s->size, s->depth + 1);
)");
  }
  p->Print(R"(    default: /* a oneof member that is not a message */
      return 0;
  }
}
)");
}

void PrintFieldCase(const MessageModel& m, const FieldModel& f, Printer* p) {
  Vars vars = FieldVars(m, f);
  std::vector<std::string> wire_types = ValueWireTypes(f);
  if (f.packable) wire_types.push_back("PBCI_WT_LEN");
  for (size_t i = 0; i < wire_types.size(); i++) {
    vars["wt"] = wire_types[i];
    p->Print(vars, "      case PBCI_TAG($number$, $wt$):");
    p->Print(i + 1 == wire_types.size() ? " /* $comment$ */\n" : "\n",
             "comment", f.comment);
  }
  if (f.read == ReadKind::kMessage) {
    p->Print(R"(        if (s->depth >= s->size->ctx.max_depth) {
          r = PROTOBUF_C_ITER_ERR_DEPTH;
          goto fail;
        }
)");
  }
  if (f.repeated) {
    vars["elem_size"] = std::to_string(f.packable ? f.fixed_size : -1);
    p->Print(vars, R"(        n = pbci_count_elements(&f, $elem_size$);
        if (n == (size_t)-1) goto malformed;
        $count$ += n;
)");
  }
  if (f.read == ReadKind::kString) {
    p->Print("        r = pbci_size_string(s->size, f.value, f.end);\n");
    p->Print("        if (r < 0) goto fail;\n");
  } else if (f.read == ReadKind::kBytes) {
    p->Print(
        "        r = pbci_size_binary(s->size, (size_t)(f.end - f.value));\n");
    p->Print("        if (r < 0) goto fail;\n");
  } else if (f.read == ReadKind::kMessage && f.repeated) {
    p->Print(vars, R"(        one = pbci_list_single(f.value, f.end);
        r = $sub_lower$__iter_measure(&one, s->size, s->depth + 1);
        if (r < 0) goto fail;
)");
  }
  if (f.group >= 0) {
    vars["group"] = std::to_string(f.group);
    vars["members"] = m.groups[f.group].array_name;
    vars["n_members"] = std::to_string(m.groups[f.group].numbers.size());
    p->Print(
        vars,
        R"(        if (pbci_run_add(&s->runs[$group$], $number$, &f, &closing)) {
          r = $lower$__iter_close_run(s, $members$, $n_members$, &closing);
          if (r < 0) goto fail;
        }
)");
  }
  if (f.required_bit >= 0) p->Print(vars, "        $required_set$\n");
  p->Print("        break;\n");
}

void PrintSizeRange(const MessageModel& m, Printer* p) {
  p->Print(R"(
/* Sizes one occurrence of $full_name$, [p, end), with the same checks as
 * $lower$__iter_decode, reporting failures the same way. */
static ptrdiff_t $lower$__iter_size_range(void *ctx, const uint8_t *p,
    const uint8_t *end) {
  struct $lower$__iter_sizer *s = ctx;
  const uint8_t *field = p; /* key of the field being sized */
  PbciField f;
  ptrdiff_t r;
  size_t n_unknown = 0;
)",
           "full_name", m.full_name, "lower", m.lower);
  bool any_message_repeated = false;
  for (const FieldModel& f : m.fields) {
    if (f.repeated) {
      p->Print("  size_t $count$ = 0;\n", "count", f.count_member);
    }
    any_message_repeated =
        any_message_repeated || (f.repeated && f.read == ReadKind::kMessage);
  }
  if (m.has_repeated) p->Print("  size_t n;\n");
  if (any_message_repeated) p->Print("  PbciList one;\n");
  if (!m.groups.empty()) p->Print("  PbciRun closing;\n");
  if (m.n_required_bits > 0) {
    p->Print("  uint64_t required[$n$] = {0};\n", "n",
             std::to_string(RequiredWords(m)));
  }
  p->Print(R"(  while (p < end) {
    field = p;
    p = pbci_next_field(p, end, &f);
    if (p == NULL) goto malformed;
    switch (f.tag) {
)");
  for (const FieldModel& f : m.fields) PrintFieldCase(m, f, p);
  p->Print(R"(      default:
        if ($lower$__iter_is_field(f.tag >> 3)) goto malformed;
        r = pbci_size_unknown(s->size, &f);
        if (r < 0) goto fail;
        n_unknown += (size_t)r;
        break;
    }
  }
)",
           "lower", m.lower);
  PrintRequiredCheck(m, "&s->size->ctx", p);
  p->Print(
      "  /* Each array grows once per occurrence, to its running length. */\n");
  for (const FieldModel& f : m.fields) {
    if (!f.repeated) continue;
    p->Print(FieldVars(m, f), R"(  if ($count$ != 0) {
    s->$count$ += $count$;
    r = pbci_size_array(s->size, s->$count$, sizeof($array_elem$));
    if (r < 0) goto fail;
  }
)");
  }
  p->Print(R"(  if (n_unknown != 0) {
    s->n_unknown += n_unknown;
    r = pbci_size_array(s->size, s->n_unknown, sizeof(ProtobufCMessageUnknownField));
    if (r < 0) goto fail;
  }
  return 0;
malformed:
  r = PROTOBUF_C_ITER_ERR_MALFORMED;
fail:
  return pbci_fail(&s->size->ctx, r, field, end);
}
)");
}

void PrintMeasure(const MessageModel& m, Printer* p) {
  p->Print(R"(
/* Adds to `size` what decoding the occurrences in `list` into one new
 * $full_name$ allocates. */
ptrdiff_t $lower$__iter_measure(const PbciList *list, PbciSize *size,
    uint32_t depth) {
  struct $lower$__iter_sizer s;
  ptrdiff_t r;
  memset(&s, 0, sizeof s);
  s.size = size;
  s.list = list;
  s.depth = depth;
  r = pbci_size_array(size, 1, sizeof($struct$));
  if (r < 0) return r;
  /* One range (no merge) is the common case: no iteration. */
  r = list->parent == NULL ? $lower$__iter_size_range(&s, list->p, list->end)
                           : pbci_list_each(list, $lower$__iter_size_range, &s);
  if (r < 0) return r;
)",
           "full_name", m.full_name, "lower", m.lower, "struct", m.struct_name);
  for (size_t g = 0; g < m.groups.size(); g++) {
    p->Print(R"(  if (s.runs[$g$].count != 0) {
    r = $lower$__iter_close_run(&s, $members$, $n_members$, &s.runs[$g$]);
    if (r < 0) return r;
  }
)",
             "g", std::to_string(g), "lower", m.lower, "members",
             m.groups[g].array_name, "n_members",
             std::to_string(m.groups[g].numbers.size()));
  }
  p->Print("  return 0;\n}\n");
}

}  // namespace

void PrintSizer(const MessageModel& m, Printer* p) {
  PrintSizerState(m, p);
  PrintGroups(m, p);
  PrintSizeRange(m, p);
  PrintMeasure(m, p);
}

}  // namespace protobuf_c_iter
