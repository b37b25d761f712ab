// Prints each message's decoder, x__iter_decode: one switch case per field
// and wire type.
#include "print_common.h"
#include "printers.h"

namespace protobuf_c_iter {
namespace {

using google::protobuf::io::Printer;

// "p = pbci_read_varint(p, end, &v);" for the field's scalar kind; a bool
// passes its key's wire type.
std::string ReadScalar(const FieldModel& f) {
  switch (f.read) {
    case ReadKind::kVarint:
      return "p = pbci_read_varint(p, end, &v);";
    case ReadKind::kFixed32:
      return "p = pbci_read_fixed32(p, end, &u32);";
    case ReadKind::kFixed64:
      return "p = pbci_read_fixed64(p, end, &u64);";
    default:
      return "p = pbci_read_bool(p, end, (uint32_t)(tag & 7), &b);";
  }
}

void PrintLabels(const FieldModel& f, Vars vars, Printer* p) {
  const std::vector<WireType>& wire_types = f.value_wire_types;
  for (size_t i = 0; i < wire_types.size(); i++) {
    vars["wt"] = WireTypeMacro(wire_types[i]);
    p->Print(vars, "    case PBCI_TAG($number$, $wt$):");
    p->Print(i + 1 == wire_types.size() ? " /* $comment$ */\n" : "\n",
             "comment", f.comment);
  }
  if (!f.label.empty()) p->Print("    $label$:\n", "label", f.label);
}

std::string Hex(uint8_t b) {
  static const char kDigits[] = "0123456789abcdef";
  return std::string("0x") + kDigits[b >> 4] + kDigits[b & 15];
}

// The end of a case: try the keys that usually come next and jump straight
// to their case; otherwise back to the switch. A fixed-width value is
// checked to be in the input with its key. After an unpacked element of an
// open-run field (`element`), its own key is the run's next element; after
// anything else (its packed run, say) that key starts a run. Each test is
// PBCI_USUALLY: the fall-through where the compiler needs telling (gcc).
void PrintNext(const FieldModel& f, bool element, Printer* p) {
  for (const Prediction& next : f.next) {
    Vars vars = {{"label", next.label},
                 {"b0", Hex(next.key[0])},
                 {"n", std::to_string(next.key.size())},
                 {"bytes", std::to_string(next.key.size() + next.value_size)},
                 {"tag", std::to_string(next.tag)}};
    std::string test;
    if (next.key.size() == 1 && next.value_size == 0) {
      test = "p < end && p[0] == $b0$";
    } else if (next.key.size() == 1) {
      test = "end - p >= $bytes$ && p[0] == $b0$";
    } else {
      vars["b1"] = Hex(next.key[1]);
      test = "end - p >= $bytes$ && pbci_key2(p) == PBCI_KEY2($b0$, $b1$)";
    }
    // (A C string: libprotoc 3.21's Printer takes no std::string.)
    const std::string line = "      if (PBCI_USUALLY(" + test + ")) {\n";
    p->Print(vars, line.c_str());
    p->Print(vars, "        field = p;\n        p += $n$;\n");
    if (next.sets_tag) p->Print(vars, "        tag = $tag$;\n");
    if (element && next.label == f.label && !f.more_label.empty()) {
      // The next element of a run: past the growth when it has a slot.
      vars["more"] = f.more_label;
      vars["member"] = f.member;
      vars["count"] = f.count_member;
      vars["cap"] = f.cap_local;
      p->Print(vars, R"(        if (msg->$count$ != $cap$ ||
            pbci_extend_run(arena, msg->$member$, &$cap$, sizeof *msg->$member$)) {
          goto $more$;
        }
)");
    }
    p->Print(vars, "        goto $label$;\n      }\n");
    if (element && f.buffered_run && next.label == f.label) {
      // Not the run's next element: a buffered run ends here.
      const Vars close_vars = {{"member", f.member},
                               {"count", f.count_member},
                               {"cap", f.cap_local}};
      p->Print(close_vars, R"(      if (msg->$member$ == buffered.$member$) {
        /* The run ended: its array, exact, after its structs. */
        msg->$member$ = pbci_close_run(arena, buffered.$member$, &msg->$count$, &$cap$,
            sizeof *msg->$member$);
        if (msg->$member$ == NULL) {
          msg->$member$ = buffered.$member$; /* dropped at fail */
          goto no_memory;
        }
      }
)");
    }
  }
  p->Print("      break;\n");
}

// Before an unpacked element is appended: a full array grows for the run of
// elements that starts here (see the runtime's internal/arrays.h).
// An open run's first element opens a new array when its key is the usual
// one, which the elements after it are predicted by. When the buffer has
// no room, the array goes back where the growth's NULL was stored, here and
// where a buffered run closes: a merge that fails leaves each count with
// its array (docs/SECURITY.md). (Tested before it is stored, the result
// made gcc 12 lay the decoders out anew: 8 more taken jumps a decode of
// OpenX's BidRequest, 6% of its time.)
void PrintGrowRun(const FieldModel& f, Vars vars, Printer* p) {
  vars["key_len"] = std::to_string(f.usual_key.size());
  p->Print(vars, R"(      if (msg->$count$ == $cap$) {
        void *old = msg->$member$;
        msg->$member$ = )");
  if (f.buffered_run) {
    // A first run of sub-messages: buffered until it ends (see "runs of
    // sub-messages" in the runtime's internal/arrays.h).
    p->Print(vars, R"(pbci_message_room(arena, old, &msg->$count$, &$cap$,
            sizeof *msg->$member$, buffered.$member$, field, p, end, p - field == $key_len$);
)");
  } else if (f.more_label.empty()) {
    p->Print(vars, R"(pbci_grow_run(arena, old, &msg->$count$, &$cap$,
            sizeof *msg->$member$, field, p, end);
)");
  } else {
    p->Print(vars, R"(pbci_start_run(arena, old, &msg->$count$, &$cap$,
            sizeof *msg->$member$, field, p, end, p - field == $key_len$);
)");
  }
  p->Print(vars, R"(        if (msg->$member$ == NULL) {
          msg->$member$ = old;
          goto no_memory;
        }
      }
)");
  if (!f.buffered_run && !f.more_label.empty()) {
    p->Print("    $more$:\n", "more", f.more_label);
  }
}

// After a singular value is stored: presence, oneof case (unless set with
// the member already), required bit.
void PrintSingularMarks(const FieldModel& f, const Vars& vars, Printer* p,
                        bool case_set = false) {
  if (!f.has_member.empty()) p->Print(vars, "      msg->$has$ = 1;\n");
  if (!f.case_member.empty() && !case_set) {
    p->Print(vars, "      msg->$case_member$ = $case_value$;\n");
  }
  if (f.required_bit >= 0) p->Print(vars, "      $required_set$\n");
}

void PrintReadLen(Printer* p, const char* reader = "pbci_read_len") {
  p->Print(R"(      p = $reader$(p, end, &value_end);
      if (p == NULL) goto malformed;
)",
           "reader", reader);
}

void PrintSingular(const FieldModel& f, Vars vars, Printer* p) {
  PrintLabels(f, vars, p);
  switch (f.read) {
    case ReadKind::kString:
      p->Print(vars, R"(      {
        PbciString s = pbci_take_string(arena, p, end, &r);
        if (s.next == NULL) goto fail;
        msg->$member$ = s.s;
        p = s.next;
      }
)");
      PrintSingularMarks(f, vars, p);
      break;
    case ReadKind::kBytes:
      p->Print(vars,
               R"(      p = pbci_take_bytes(arena, &msg->$member$, p, end, &r);
      if (p == NULL) goto fail;
)");
      PrintSingularMarks(f, vars, p);
      break;
    case ReadKind::kMessage:
      vars["fresh"] = f.new_instance_on_other_member
                          ? "msg->" + f.case_member + " != " + f.case_value +
                                " || msg->" + f.member + " == NULL"
                          : "msg->" + f.member + " == NULL";
      PrintReadLen(p, "pbci_read_nested_len");
      p->Print(vars,
               R"(      if (depth >= arena->ctx.max_depth) goto too_deep;
      if ($fresh$) {
        /* The first occurrence; later ones merge into it. */
)");
      if (f.case_member.empty()) {
        // The member is NULL: a failed allocation leaves it so.
        p->Print(
            vars,
            R"(        msg->$member$ = pbci_alloc(arena, sizeof *msg->$member$);
        if (msg->$member$ == NULL) goto no_memory;
        PBCI_SET_UP(msg->$member$, $sub_struct$, $sub_init$, $sub_prototype$);
)");
      } else {
        // A oneof's union may hold another member: it is replaced, with
        // the case, only by a sub-message, so that a merge that fails here
        // or in its decode leaves the case naming what the union holds.
        p->Print(vars,
                 R"(        $sub_struct$ *sub = pbci_alloc(arena, sizeof *sub);
        if (sub == NULL) goto no_memory;
        PBCI_SET_UP(sub, $sub_struct$, $sub_init$, $sub_prototype$);
        msg->$member$ = sub;
        msg->$case_member$ = $case_value$;
)");
      }
      if (f.usual_key.empty()) {
        // No key for PbciNext to hold: each occurrence comes back here.
        p->Print(vars, R"(      }
      r = $sub_decode$(msg->$member$, p, value_end, arena, depth + 1, NULL);
)");
      } else {
        // A merge: the decoder may go on into the occurrences after it, and
        // say where they end (PbciNext). Only merges pass it, so that the
        // usual path, a field sent once, pays no more than a NULL.
        vars["key"] = UsualKey(f);
        p->Print(
            vars,
            R"(        r = $sub_decode$(msg->$member$, p, value_end, arena, depth + 1, NULL);
      } else {
        /* A merge: the occurrences right after it may merge there too. */
        PbciNext merge = {end, $key$, value_end};
        r = $sub_decode$(msg->$member$, p, value_end, arena, depth + 1, &merge);
        value_end = merge.stop;
      }
)");
      }
      p->Print("      if (r < 0) goto fail;\n");
      PrintSingularMarks(f, vars, p, /*case_set=*/true);
      p->Print("      p = value_end;\n");
      break;
    default:
      if (!f.value_label.empty()) {
        // Entered at $value_label$ by the prediction that found the key and
        // all the value's bytes in the input.
        vars["size"] = std::to_string(f.fixed_size);
        vars["value_label"] = f.value_label;
        vars["raw"] = f.fixed_size == 4 ? "u32" : "u64";
        p->Print(vars, R"(      if (end - p < $size$) goto malformed;
    $value_label$:
      $raw$ = pbci_fixed$size$_at(p);
      p += $size$;
      msg->$member$ = $value$;
)");
      } else {
        vars["read"] = ReadScalar(f);
        p->Print(vars, R"(      $read$
      if (p == NULL) goto malformed;
      msg->$member$ = $value$;
)");
      }
      PrintSingularMarks(f, vars, p);
      break;
  }
  PrintNext(f, /*element=*/false, p);
}

// A call of the runtime's pbci_append_packed or pbci_append_element
// ($append$), which append to the field's array from $from$ and say where
// decoding goes on.
void PrintAppend(const Vars& vars, Printer* p) {
  p->Print(vars, R"(      {
        PbciAppend run = $append$(arena, msg->$member$, &msg->$count$,
            &$cap$, $from$, end, $packed_kind$);
        if (run.next == NULL) {
          r = run.err;
          goto fail;
        }
        msg->$member$ = run.array;
        p = run.next;
      }
)");
}

// An unpacked element of a field declared packed: legal, but every
// conforming serializer writes such fields packed, so one runtime call
// instead of an inline case.
void PrintRareElement(const FieldModel& f, Vars vars, Printer* p) {
  PrintLabels(f, vars, p);
  p->Print("      /* Rare: serializers write this field packed. */\n");
  vars["append"] = "pbci_append_element";
  vars["from"] = "field";
  PrintAppend(vars, p);
  p->Print("      break;\n");
}

void PrintUnpacked(const FieldModel& f, Vars vars, Printer* p) {
  PrintLabels(f, vars, p);
  PrintGrowRun(f, vars, p);
  switch (f.read) {
    case ReadKind::kString:
      p->Print(vars, R"(      {
        PbciString s = pbci_take_string(arena, p, end, &r);
        if (s.next == NULL) goto fail;
        msg->$member$[msg->$count$++] = s.s;
        p = s.next;
      }
)");
      break;
    case ReadKind::kBytes:
      p->Print(
          vars,
          R"(      p = pbci_take_bytes(arena, &msg->$member$[msg->$count$], p, end, &r);
      if (p == NULL) goto fail;
      msg->$count$++;
)");
      break;
    case ReadKind::kMessage:
      PrintReadLen(p);
      p->Print(vars,
               R"(      if (depth >= arena->ctx.max_depth) goto too_deep;
      {
        $sub_struct$ *sub = pbci_alloc(arena, sizeof *sub);
        if (sub == NULL) goto no_memory;
        PBCI_SET_UP(sub, $sub_struct$, $sub_init$, $sub_prototype$);
        msg->$member$[msg->$count$++] = sub;
        r = $sub_decode$(sub, p, value_end, arena, depth + 1, NULL);
        if (r < 0) goto fail;
      }
      p = value_end;
)");
      break;
    default:
      vars["read"] = ReadScalar(f);
      p->Print(vars, R"(      $read$
      if (p == NULL) goto malformed;
      msg->$member$[msg->$count$++] = $value$;
)");
      break;
  }
  PrintNext(f, /*element=*/true, p);
}

void PrintPackedRun(const FieldModel& f, const Vars& vars, Printer* p) {
  p->Print(vars,
           "    case PBCI_TAG($number$, PBCI_WT_LEN): /* $member$: a packed "
           "run */\n");
  if (!f.packed_label.empty())
    p->Print("    $label$:\n", "label", f.packed_label);
  // One runtime call per run: it reads the length, counts the run, grows a
  // full array for all of it (see the runtime's internal/arrays.h) and
  // converts.
  Vars append_vars = vars;
  append_vars["append"] = "pbci_append_packed";
  append_vars["from"] = "p";
  PrintAppend(append_vars, p);
  PrintNext(f, /*element=*/false, p);
}

void PrintRepeated(const FieldModel& f, Vars vars, Printer* p) {
  if (f.packed) {
    PrintRareElement(f, vars, p);
  } else {
    PrintUnpacked(f, vars, p);
  }
  if (f.packable) PrintPackedRun(f, vars, p);
}

void PrintDecodeFunction(const MessageModel& m, Printer* p) {
  p->Print(R"(
/* Decodes one occurrence of $full_name$, [p, end), into `m`: scalars
 * overwrite, sub-messages merge, repeated fields append. Fields usually come
 * in number order, so after a value the keys of the next fields are tried
 * first and a match jumps straight to its case (field_N, packed_N; value_N,
 * past a fixed-width value's bounds check, found with the key). Arrays
 * grow when full, for the run of elements starting there. On failure,
 * reports the field being decoded (pbci_fail) unless a deeper call did. */
$attribute$ ptrdiff_t $decode$(void *m, const uint8_t *p,
    const uint8_t *end, PbciArena *arena, uint32_t depth, PbciNext *next) {
  $struct$ *msg = m;
  const uint8_t *field = p;   /* key of the field being decoded */
  ptrdiff_t r;
  uint64_t tag;
)",
           "full_name", m.full_name, "attribute",
           m.decoder.leaf ? "PBCI_LEAF_DECODER" : "PBCI_DECODER", "decode",
           m.sym.decode, "struct", m.struct_name);
  const DecoderShape& d = m.decoder;
  if (d.varint) p->Print("  uint64_t v;\n");
  if (d.fixed32) p->Print("  uint32_t u32;\n");
  if (d.fixed64) p->Print("  uint64_t u64;\n");
  if (d.boolean) p->Print("  protobuf_c_boolean b;\n");
  if (d.sub_messages) p->Print("  const uint8_t *value_end;\n");
  if (m.n_required_bits > 0) {
    p->Print("  uint64_t required[$n$] = {0}; /* required fields seen */\n",
             "n", std::to_string(RequiredWords(m)));
  }
  if (!d.sub_messages) p->Print("  (void)depth;\n");
  if (!d.goes_on) {
    p->Print(m.n_required_bits > 0
                 ? "  (void)next; /* each occurrence returns, its required "
                   "fields checked */\n"
                 : "  (void)next; /* each occurrence returns: merges grow "
                   "nothing here */\n");
  }
  for (const FieldModel& f : m.fields) {
    if (f.repeated) {
      p->Print("  size_t $cap$ = msg->$count$; /* capacity of $member$ */\n",
               "cap", f.cap_local, "count", f.count_member, "member", f.member);
    }
  }
  if (d.run_buffer) {
    p->Print(
        "  union { /* the pointers of a first run of sub-messages, until it "
        "ends */\n");
    for (const FieldModel& f : m.fields) {
      if (!f.buffered_run) continue;
      Vars vars = FieldVars(m, f);
      p->Print(vars, "    $sub_struct$ *$member$[PBCI_RUN_SLOTS];\n");
    }
    p->Print("  } buffered;\n");
  }
  if (d.goes_on) p->Print("occurrence:\n");
  p->Print(R"(  while (p < end) {
    field = p;
    p = pbci_read_key(p, end, &tag);
    if (p == NULL) goto malformed;
    switch (tag) {
)");
  // Field cases are written at switch level; indent them into the switch.
  p->Indent();
  for (const FieldModel& f : m.fields) {
    if (f.repeated) {
      PrintRepeated(f, FieldVars(m, f), p);
    } else {
      PrintSingular(f, FieldVars(m, f), p);
    }
  }
  p->Print(R"(    default:
      /* Unknown, or a field of this message with a wire type it does not
       * take (malformed). */
      p = pbci_store_unknown(arena, &$message$, &msg->$base$, field, end,
          &r);
      if (p == NULL) goto fail;
      break;
)",
           "message", m.sym.message, "base", m.base_member);
  p->Outdent();
  p->Print(R"(    }
  }
)");
  PrintRequiredCheck(m, "&arena->ctx", p);
  if (d.goes_on) {
    p->Print(R"(  if (PBCI_RARELY(next != NULL)) {
    /* The parent's next field may be this one's again (a sub-message sent
     * again and again): that occurrence merges into this instance, so it
     * is decoded here, without a return and a call, with the arrays'
     * capacities in hand (PbciNext). */
    const uint8_t *next_end;
    p = pbci_next_occurrence(next, end, &next_end);
    if (p != NULL) {
      end = next_end;
      goto occurrence;
    }
    next->stop = end;
  }
  return 0;
)");
  } else {
    p->Print("  return 0;\n");
  }
  if (d.sub_messages) {
    p->Print(R"(too_deep:
  r = PROTOBUF_C_ITER_ERR_DEPTH;
  goto fail;
)");
  }
  if (d.no_memory) {
    p->Print(R"(no_memory:
  r = PROTOBUF_C_ITER_ERR_NO_MEMORY;
  goto fail;
)");
  }
  p->Print(R"(malformed:
  r = PROTOBUF_C_ITER_ERR_MALFORMED;
fail:
)");
  for (const FieldModel& f : m.fields) {
    if (!f.buffered_run) continue;
    // No pointer into this stack frame outlives it.
    p->Print(FieldVars(m, f), R"(  if (msg->$member$ == buffered.$member$) {
    msg->$member$ = NULL;
    msg->$count$ = 0;
  }
)");
  }
  p->Print(R"(  return pbci_fail(&arena->ctx, r, field, end);
}
)");
}

}  // namespace

void PrintDecoder(const MessageModel& m, Printer* p) {
  PrintDecodeFunction(m, p);
}

}  // namespace protobuf_c_iter
