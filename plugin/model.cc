#include "model.h"

#include <algorithm>
#include <set>
#include <utility>

#include <protobuf-c-iter/internal/limits.h>

#include "compat.h"
#include "names.h"
#include "options.h"
#include "predict.h"
#include "validate.h"

namespace protobuf_c_iter {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;
using google::protobuf::OneofDescriptor;

// The C type and value conversion of one scalar wire value.
struct ScalarRule {
  ReadKind read;
  const char* elem_type;
  const char* value_expr;
  int fixed_size;
  const char* packed_kind;
};

ScalarRule RuleFor(FieldDescriptor::Type type) {
  switch (type) {
    case FieldDescriptor::TYPE_INT32:
      return {ReadKind::kVarint, "int32_t", "(int32_t)v", 0,
              "PBCI_PACKED_VARINT32"};
    case FieldDescriptor::TYPE_SINT32:
      return {ReadKind::kVarint, "int32_t", "pbci_zigzag32((uint32_t)v)", 0,
              "PBCI_PACKED_SINT32"};
    case FieldDescriptor::TYPE_UINT32:
      return {ReadKind::kVarint, "uint32_t", "(uint32_t)v", 0,
              "PBCI_PACKED_VARINT32"};
    case FieldDescriptor::TYPE_INT64:
      return {ReadKind::kVarint, "int64_t", "(int64_t)v", 0,
              "PBCI_PACKED_VARINT64"};
    case FieldDescriptor::TYPE_SINT64:
      return {ReadKind::kVarint, "int64_t", "pbci_zigzag64(v)", 0,
              "PBCI_PACKED_SINT64"};
    case FieldDescriptor::TYPE_UINT64:
      return {ReadKind::kVarint, "uint64_t", "v", 0, "PBCI_PACKED_VARINT64"};
    case FieldDescriptor::TYPE_FIXED32:
      return {ReadKind::kFixed32, "uint32_t", "u32", 4, "PBCI_PACKED_FIXED32"};
    case FieldDescriptor::TYPE_SFIXED32:
      return {ReadKind::kFixed32, "int32_t", "(int32_t)u32", 4,
              "PBCI_PACKED_FIXED32"};
    case FieldDescriptor::TYPE_FLOAT:
      return {ReadKind::kFixed32, "float", "pbci_float(u32)", 4,
              "PBCI_PACKED_FIXED32"};
    case FieldDescriptor::TYPE_FIXED64:
      return {ReadKind::kFixed64, "uint64_t", "u64", 8, "PBCI_PACKED_FIXED64"};
    case FieldDescriptor::TYPE_SFIXED64:
      return {ReadKind::kFixed64, "int64_t", "(int64_t)u64", 8,
              "PBCI_PACKED_FIXED64"};
    case FieldDescriptor::TYPE_DOUBLE:
      return {ReadKind::kFixed64, "double", "pbci_double(u64)", 8,
              "PBCI_PACKED_FIXED64"};
    case FieldDescriptor::TYPE_BOOL:
      return {ReadKind::kBool, "protobuf_c_boolean", "b", 0,
              "PBCI_PACKED_BOOL"};
    case FieldDescriptor::TYPE_BYTES:
      return {ReadKind::kBytes, "ProtobufCBinaryData", "", 0, ""};
    default:  // enum, string and message are resolved by the caller
      return {ReadKind::kVarint, "", "", 0, ""};
  }
}

// As the .proto declares it: a oneof member by its oneof, no label in
// proto3 otherwise.
std::string LabelName(const FieldDescriptor* field) {
  if (field->is_repeated()) return "repeated";
  if (field->is_required()) return "required";
  if (const OneofDescriptor* oneof = field->real_containing_oneof()) {
    return "oneof " + std::string(oneof->name()) + ":";
  }
  // Fields without presence are proto3's; a message field has presence in
  // both syntaxes.
  if (!field->has_presence() || IsProto3(field->file())) return "";
  return "optional";
}

std::string Comment(const FieldDescriptor* field) {
  std::string type(field->type_name());
  if (field->type() == FieldDescriptor::TYPE_MESSAGE) {
    type = field->message_type()->full_name();
  } else if (field->type() == FieldDescriptor::TYPE_ENUM) {
    type = field->enum_type()->full_name();
  }
  std::string label = LabelName(field);
  if (!label.empty()) label += " ";
  std::string comment = label + type + " " + std::string(field->name()) +
                        " = " + std::to_string(field->number());
  if (field->is_packed()) comment += " [packed]";
  return comment;
}

bool StoredAsBytes(const FieldDescriptor* field, const Options& options) {
  return field->type() == FieldDescriptor::TYPE_BYTES ||
         (field->type() == FieldDescriptor::TYPE_STRING &&
          options.string_as_bytes(field));
}

// protoc-c 1.5's place of a oneof member in its union: by this rank, then
// by name (MessageGenerator::GetOneofUnionOrder).
int UnionRank(const FieldDescriptor* field) {
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      return field->type() == FieldDescriptor::TYPE_BYTES ? 1 : 4;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return 2;
    case FieldDescriptor::CPPTYPE_INT64:
    case FieldDescriptor::CPPTYPE_UINT64:
      return 3;
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return 5;
    case FieldDescriptor::CPPTYPE_FLOAT:
      return 6;
    case FieldDescriptor::CPPTYPE_INT32:
    case FieldDescriptor::CPPTYPE_UINT32:
      return 7;
    case FieldDescriptor::CPPTYPE_ENUM:
      return 8;
    default:
      return 9;
  }
}

// Whether protoc-c's X__INIT sets a oneof's union with a flat { 0 } while
// the union's first member is a ProtobufCBinaryData struct. protoc-c 1.4
// puts the oneof's first field first and always writes { 0 }; 1.5 sorts the
// members (UnionRank, then name) and writes { { 0 } } only when the oneof
// has a bytes field (which then comes first), so a string stored as bytes
// that sorts first is set flat. The generated file must not depend on which
// protoc-c ran, so either counts.
bool InitSetsAStructFlat(const Descriptor* message, const Options& options) {
  for (int i = 0; i < message->real_oneof_decl_count(); i++) {
    const google::protobuf::OneofDescriptor* oneof = message->oneof_decl(i);
    const FieldDescriptor* sorted_first = oneof->field(0);
    for (int j = 1; j < oneof->field_count(); j++) {
      const FieldDescriptor* f = oneof->field(j);
      const int rank = UnionRank(f), first_rank = UnionRank(sorted_first);
      if (rank < first_rank ||
          (rank == first_rank && f->name() < sorted_first->name())) {
        sorted_first = f;
      }
    }
    if (StoredAsBytes(oneof->field(0), options) ||
        (StoredAsBytes(sorted_first, options) &&
         sorted_first->type() != FieldDescriptor::TYPE_BYTES)) {
      return true;
    }
  }
  return false;
}

std::vector<WireType> ValueWireTypes(ReadKind read, bool repeated) {
  switch (read) {
    case ReadKind::kVarint:
      return {kWireVarint};
    case ReadKind::kFixed32:
      return {kWire32Bit};
    case ReadKind::kFixed64:
      return {kWire64Bit};
    case ReadKind::kBool:
      if (repeated) return {kWireVarint, kWire64Bit, kWire32Bit};
      return {kWireVarint, kWire64Bit, kWireLen, kWire32Bit};
    default:
      return {kWireLen};
  }
}

SizerOp SizerOpOf(const FieldModel& f) {
  if (f.packable) {
    return f.fixed_size == 4   ? SizerOp::kPackedFixed32
           : f.fixed_size == 8 ? SizerOp::kPackedFixed64
                               : SizerOp::kPackedVarint;
  }
  if (f.repeated || f.group >= 0 || f.required_bit >= 0 ||
      f.usual_key.empty()) {
    return SizerOp::kOther;
  }
  switch (f.read) {
    case ReadKind::kFixed32:
      return SizerOp::kFixed32;
    case ReadKind::kFixed64:
      return SizerOp::kFixed64;
    case ReadKind::kString:
      return SizerOp::kString;
    case ReadKind::kBytes:
      return SizerOp::kBytes;
    case ReadKind::kMessage:
      return SizerOp::kOther;  // not reached: a singular message is a group
    default:
      return SizerOp::kVarint;
  }
}

// Whether the decoder checks that `field` is present: required without a
// default (a default stands in for a missing one, as protobuf-c does).
bool RequiredChecked(const FieldDescriptor* field) {
  return field->is_required() && !field->has_default_value();
}

// DecoderShape::goes_on for `message`, from its descriptor, so that a field
// of that type can say it too (PBCI_FIELD_GOES_ON): instances that grow as
// occurrences merge (arrays, sub-messages) and hold no required field,
// which each occurrence must hold.
bool GoesOn(const Descriptor* message) {
  bool grows = false, required = false;
  for (int i = 0; i < message->field_count(); i++) {
    const FieldDescriptor* field = message->field(i);
    grows = grows || field->is_repeated() ||
            field->type() == FieldDescriptor::TYPE_MESSAGE;
    required = required || RequiredChecked(field);
  }
  return grows && !required;
}

FieldModel BuildField(const FieldDescriptor* field, const Options& options) {
  FieldModel f;
  f.number = field->number();
  f.name = field->name();
  f.comment = Comment(field);
  f.member = FieldMemberName(field);
  f.has_member = HasMemberName(field, options);
  f.count_member = CountMemberName(field);
  f.cap_local = CapacityLocalName(field);
  f.repeated = field->is_repeated();

  const ScalarRule rule = RuleFor(field->type());
  f.read = rule.read;
  f.elem_type = rule.elem_type;
  f.value_expr = rule.value_expr;
  f.fixed_size = rule.fixed_size;
  f.packed_kind = rule.packed_kind;
  switch (field->type()) {
    case FieldDescriptor::TYPE_ENUM:
      f.elem_type = EnumTypeName(field->enum_type(), options);
      f.value_expr = "(" + f.elem_type + ")(int32_t)v";
      f.packed_kind = "PBCI_PACKED_VARINT32";
      break;
    case FieldDescriptor::TYPE_STRING:
      if (options.string_as_bytes(field)) {
        f.read = ReadKind::kBytes;
        f.elem_type = "ProtobufCBinaryData";
      } else {
        f.read = ReadKind::kString;
        f.elem_type = options.file(field->file()).const_strings ? "const char *"
                                                                : "char *";
      }
      break;
    case FieldDescriptor::TYPE_MESSAGE: {
      const IterSymbols sub =
          MessageIterSymbols(field->message_type(), options);
      f.read = ReadKind::kMessage;
      f.sub_struct = MessageStructName(field->message_type(), options);
      f.sub_decode = sub.decode;
      f.sub_message = sub.message;
      f.sub_init = MessageInitMacro(field->message_type(), options);
      f.sub_init_flat_union =
          InitSetsAStructFlat(field->message_type(), options);
      f.sub_prototype = sub.prototype;
      f.sub_goes_on = GoesOn(field->message_type());
      f.elem_type = f.sub_struct;
      break;
    }
    default:
      break;
  }
  f.packable = f.repeated && f.read != ReadKind::kString &&
               f.read != ReadKind::kBytes && f.read != ReadKind::kMessage;
  f.packed = f.packable && field->is_packed();
  f.array_elem =
      f.read == ReadKind::kMessage ? f.elem_type + " *" : f.elem_type;
  f.value_wire_types = ValueWireTypes(f.read, f.repeated);
  f.wire_types = f.value_wire_types;
  if (f.packable) f.wire_types.push_back(kWireLen);
  if (const OneofDescriptor* oneof = field->real_containing_oneof()) {
    f.case_member = OneofCaseMember(oneof);
    f.case_value = OneofCaseValue(field, options);
    f.new_instance_on_other_member = f.read == ReadKind::kMessage;
  }
  return f;
}

// The decoder's locals and exits. Scalars are read inline, except the
// unpacked elements of packed fields, which the runtime reads
// (pbci_append_element); arrays of those and packed runs grow in the
// runtime too, which reports its own failures.
DecoderShape DecoderShapeOf(const std::vector<FieldModel>& fields) {
  DecoderShape d;
  for (const FieldModel& f : fields) {
    const bool inline_scalar = !f.packed;
    d.varint = d.varint || (f.read == ReadKind::kVarint && inline_scalar);
    d.fixed32 = d.fixed32 || (f.read == ReadKind::kFixed32 && inline_scalar);
    d.fixed64 = d.fixed64 || (f.read == ReadKind::kFixed64 && inline_scalar);
    d.boolean = d.boolean || (f.read == ReadKind::kBool && inline_scalar);
    d.sub_messages = d.sub_messages || f.read == ReadKind::kMessage;
    d.run_buffer = d.run_buffer || f.buffered_run;
    d.no_memory = d.no_memory || (f.repeated && !f.packed) ||
                  f.read == ReadKind::kMessage;
  }
  d.leaf = fields.size() <= 2 && !d.sub_messages &&
           std::none_of(fields.begin(), fields.end(),
                        [](const FieldModel& f) { return f.repeated; });
  return d;
}

// The terms of K (bound.h) over every message type `message` can reach,
// itself included, in this file or an imported one.
std::vector<BoundTerm> ReachableBoundTerms(const Descriptor* message,
                                           const Options& options) {
  std::vector<BoundTerm> terms;
  std::vector<const Descriptor*> todo = {message};
  std::set<const Descriptor*> seen = {message};
  while (!todo.empty()) {
    const Descriptor* d = todo.back();
    todo.pop_back();
    for (int i = 0; i < d->field_count(); i++) {
      const FieldDescriptor* field = d->field(i);
      AddFieldBoundTerms(BuildField(field, options),
                         std::string(d->full_name()), &terms);
      const Descriptor* sub = field->message_type();
      if (sub != nullptr && seen.insert(sub).second) todo.push_back(sub);
    }
  }
  return FinishBoundTerms(std::move(terms));
}

MessageModel BuildMessage(const Descriptor* message, const Options& all) {
  const MessageOptionsView& options = all.message(message);
  MessageModel m;
  m.full_name = message->full_name();
  m.struct_name = MessageStructName(message, all);
  m.init_macro = MessageInitMacro(message, all);
  m.descriptor = MessageDescriptorName(message, all);
  m.sym = MessageIterSymbols(message, all);
  m.base_member = options.base_field_name;
  m.init_flat_union = InitSetsAStructFlat(message, all);
  for (int i = 0; i < message->real_oneof_decl_count(); i++) {
    const OneofDescriptor* oneof = message->oneof_decl(i);
    m.oneofs.push_back({std::string(oneof->name()), OneofCaseMember(oneof)});
  }
  for (int i = 0; i < message->field_count(); i++) {
    const FieldDescriptor* field = message->field(i);
    FieldModel f = BuildField(field, all);
    if (RequiredChecked(field)) {
      f.required_bit = m.n_required_bits++;
    }
    if (f.repeated) f.count_slot = m.n_counts++;
    const OneofDescriptor* oneof = field->real_containing_oneof();
    if (oneof == nullptr && !f.repeated && f.read == ReadKind::kMessage) {
      f.group = m.n_groups++;
    }
    m.fields.push_back(f);
  }
  // A oneof holding a message is one group of all its members: any member
  // ends a run of another.
  for (int i = 0; i < message->real_oneof_decl_count(); i++) {
    const OneofDescriptor* oneof = message->oneof_decl(i);
    bool has_message = false;
    for (int j = 0; j < oneof->field_count(); j++) {
      has_message = has_message ||
                    oneof->field(j)->type() == FieldDescriptor::TYPE_MESSAGE;
    }
    if (!has_message) continue;
    for (int j = 0; j < oneof->field_count(); j++) {
      for (FieldModel& f : m.fields) {
        if (f.number == oneof->field(j)->number()) f.group = m.n_groups;
      }
    }
    m.n_groups++;
  }
  m.own_sizer = m.n_counts > PBCI_LOCAL_COUNTS || m.n_groups > PBCI_LOCAL_GROUPS ||
                m.n_required_bits > PBCI_LOCAL_REQUIRED;
  for (size_t i = 0; i < m.fields.size(); i++) {
    m.by_number.push_back(static_cast<int>(i));
  }
  std::sort(m.by_number.begin(), m.by_number.end(), [&m](int a, int b) {
    return m.fields[a].number < m.fields[b].number;
  });
  AddPredictions(&m);
  for (FieldModel& f : m.fields) f.sizer_op = SizerOpOf(f);
  m.decoder = DecoderShapeOf(m.fields);
  m.decoder.goes_on = GoesOn(message);
  m.bound_terms = ReachableBoundTerms(message, all);
  return m;
}

// Adds `message` and its nested types (first) to `out`.
void AddMessages(const Descriptor* message, const Options& options,
                 std::vector<MessageModel>* out) {
  for (int i = 0; i < message->nested_type_count(); i++) {
    AddMessages(message->nested_type(i), options, out);
  }
  out->push_back(BuildMessage(message, options));
}

EnumModel BuildEnum(const google::protobuf::EnumDescriptor* e,
                    const Options& options) {
  return {std::string(e->full_name()), EnumTypeName(e, options)};
}

void AddEnums(const Descriptor* message, const Options& options,
              std::vector<EnumModel>* out) {
  for (int i = 0; i < message->enum_type_count(); i++) {
    out->push_back(BuildEnum(message->enum_type(i), options));
  }
  for (int i = 0; i < message->nested_type_count(); i++) {
    AddEnums(message->nested_type(i), options, out);
  }
}

void AddDependencyHeaders(const Descriptor* message, FileModel* model) {
  for (int i = 0; i < message->field_count(); i++) {
    const Descriptor* sub = message->field(i)->message_type();
    if (sub == nullptr || sub->file() == message->file()) continue;
    const std::string header = IterHeaderName(std::string(sub->file()->name()));
    auto& deps = model->dep_iter_headers;
    if (std::find(deps.begin(), deps.end(), header) == deps.end()) {
      deps.push_back(header);
    }
  }
  for (int i = 0; i < message->nested_type_count(); i++) {
    AddDependencyHeaders(message->nested_type(i), model);
  }
}

}  // namespace

bool BuildFileModel(const FileDescriptor* file, const Options& options,
                    FileModel* model, std::string* error) {
  if (!ValidateFeatures(file, options, error)) return false;
  model->proto_name = file->name();
  model->iter_header = IterHeaderName(std::string(file->name()));
  model->iter_source = IterSourceName(std::string(file->name()));
  model->header_guard = HeaderGuard(std::string(file->name()));
  model->pbc_header = PbcHeaderName(std::string(file->name()));
  for (int i = 0; i < file->message_type_count(); i++) {
    AddMessages(file->message_type(i), options, &model->messages);
    AddDependencyHeaders(file->message_type(i), model);
    AddEnums(file->message_type(i), options, &model->enums);
  }
  for (int i = 0; i < file->enum_type_count(); i++) {
    model->enums.push_back(BuildEnum(file->enum_type(i), options));
  }
  for (const MessageModel& m : model->messages) {
    bool flat = m.init_flat_union;
    for (const FieldModel& f : m.fields) flat = flat || f.sub_init_flat_union;
    model->expands_flat_union_init = model->expands_flat_union_init || flat;
  }
  for (const MessageModel& m : model->messages) {
    // PbciFieldInfo::slot and ::required_bit are 16 bits wide.
    const char* what = m.n_required_bits > PBCI_MAX_SLOTS ? "required fields"
                       : m.n_counts > PBCI_MAX_SLOTS      ? "repeated fields"
                       : m.n_groups > PBCI_MAX_SLOTS      ? "message fields and oneofs"
                                                          : nullptr;
    if (what != nullptr) {
      *error = "message " + m.full_name + " has more than " + std::to_string(PBCI_MAX_SLOTS) +
               " " + what;
      return false;
    }
  }
  return ValidateNames(*model, error);
}

}  // namespace protobuf_c_iter
