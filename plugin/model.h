// The plain model of a .proto file that the printers render.
//
// Everything the generated decoder needs is resolved here once: protoc-c
// names, C types, presence, wire types, packedness, required bits, oneofs
// and options. Printers only walk this model; they make no decisions about
// protobuf semantics.
#ifndef PROTOBUF_C_ITER_PLUGIN_MODEL_H_
#define PROTOBUF_C_ITER_PLUGIN_MODEL_H_

#include <google/protobuf/descriptor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bound.h"
#include "names.h"
#include "options.h"

namespace protobuf_c_iter {

// How a field's value is read from the wire.
enum class ReadKind {
  kVarint,   // uint64_t v: int32/64, uint32/64, sint32/64, enum
  kFixed32,  // uint32_t u32: fixed32, sfixed32, float
  kFixed64,  // uint64_t u64: fixed64, sfixed64, double
  kBool,     // protobuf_c_boolean b: any non-zero bit in the value bytes
  kString,   // NUL-terminated copy
  kBytes,    // ProtobufCBinaryData copy (also string_as_bytes strings)
  kMessage,  // sub-message
};

// Wire types, as the key's low 3 bits hold them.
enum WireType { kWireVarint = 0, kWire64Bit = 1, kWireLen = 2, kWire32Bit = 5 };

// How the runtime's sizer takes a field (PbciFieldInfo::op): a plain field
// (no array, group or required bit, a short usual key) in its tightest
// loop; a packed run of a repeated scalar by counting; the rest generally.
enum class SizerOp {
  kOther,
  kVarint,
  kFixed64,
  kFixed32,
  kString,
  kBytes,
  kPackedVarint,
  kPackedFixed32,
  kPackedFixed64,
};

struct FieldModel {
  int number = 0;
  std::string name;          // as declared: "a"
  std::string comment;       // "optional int32 a = 1", for the reader
  std::string member;        // struct member, e.g. "a" or "class_"
  std::string has_member;    // "has_a" when protoc-c emits one, else ""
  std::string count_member;  // "n_a" for repeated fields, else ""
  std::string cap_local;     // "cap_a": the decoder's local holding the
                             // capacity of a repeated field's array
  bool repeated = false;
  bool packable = false;  // repeated scalar: packed runs are accepted
  ReadKind read = ReadKind::kVarint;
  std::string elem_type;   // C type of one value: "int32_t", "char *",
                           // "Foo__E", "ProtobufCBinaryData", "Foo__Sub"
  std::string array_elem;  // C type of a repeated field's array element:
                           // elem_type, "Foo__Sub *" for messages
  // The wire types its single values may come with: its type's, except
  // that protobuf-c 1.4.1 reads a bool from any (a repeated bool's
  // elements from any but length-delimited, which is a packed run).
  std::vector<WireType> value_wire_types;
  // Every wire type the field takes: value_wire_types, and for a packable
  // field its packed runs (PbciFieldInfo::wire_types).
  std::vector<WireType> wire_types;
  std::string value_expr;   // C expression turning the raw read into
                            // elem_type, e.g. "(int32_t)v"
  int fixed_size = 0;       // 4 or 8 for fixed-width kinds, else 0
  std::string packed_kind;  // packable: how the runtime's
                            // pbci_append_packed/_element convert its
                            // values, "PBCI_PACKED_SINT32"

  // kMessage: the sub-message type.
  std::string sub_struct;            // "Foo__Sub"
  std::string sub_decode;            // "foo__sub__iter_decode": its decoder
  std::string sub_message;           // "foo__sub__iter_message": its table
  std::string sub_init;              // "FOO__SUB__INIT"
  bool sub_init_flat_union = false;  // that macro sets a struct in a union
                                     // with { 0 } (InitSetsAStructFlat)
  std::string sub_prototype;         // "foo__sub__iter_prototype": that
                                     // macro's object (PBCI_SET_UP)
  bool sub_goes_on = false;          // its DecoderShape::goes_on

  // Oneof members.
  std::string case_member;  // "my_choice_case", or "" outside a oneof
  std::string case_value;   // "FOO__M__MY_CHOICE_A"
  // A singular message's occurrence starts a new instance when the member
  // is NULL; a oneof member's also when the oneof holds another member
  // (whose union bytes the pointer shares). Later ones merge into it.
  bool new_instance_on_other_member = false;

  int group = -1;         // its group, below MessageModel::n_groups
                          // (singular messages and members of oneofs
                          // holding a message)
  int count_slot = -1;    // repeated: index of its element count in the
                          // scans' scratch (PbciFieldInfo::slot)
  int required_bit = -1;  // bit in the "required seen" mask, or -1

  bool packed = false;  // repeated and declared packed: written as one run

  // In-order prediction (predict.h): C labels of this field's usual case
  // and of its packed-run case, set when another case jumps there; for a
  // singular fixed-width field, the label past its bounds check, which a
  // prediction that found the whole value in the input jumps to; and the
  // keys to try after one of its values, in order.
  std::string label;
  std::string packed_label;
  std::string value_label;
  std::vector<struct Prediction> next;
  // An unpacked repeated string, bytes or scalar (not bool) field whose
  // key is predicted after each element: its runs are open runs
  // (pbci_start_run), the elements after the first entering at more_label,
  // past the array's growth, once pbci_extend_run gave them a slot.
  std::string more_label;
  // An unpacked repeated message field whose key is predicted after each
  // element: a first run keeps its pointers in the decoder's `buffered` union
  // until it ends (pbci_message_room, pbci_close_run).
  bool buffered_run = false;
  // The bytes of its usual key (1 or 2; empty from field number 2048), for
  // the sizer's table (PbciFieldInfo::key).
  std::vector<uint8_t> usual_key;
  SizerOp sizer_op = SizerOp::kOther;  // set once usual_key is known
};

// "After this value, the next key is probably `key`": serializers write
// fields in number order, so a decoder can check the next field's key bytes
// and jump straight to its case instead of dispatching.
struct Prediction {
  std::vector<uint8_t> key;  // the key's 1 or 2 bytes
  uint64_t tag = 0;          // what it decodes to
  std::string label;         // the case to jump to
  bool sets_tag = false;     // the case reads `tag` (a bool's wire type)
  int value_size = 0;        // 4 or 8: a singular fixed-width field, whose
                             // value_label the key jumps to when the input
                             // holds the key and all its value bytes
};

// A real oneof (not a proto3 optional's) of a message.
struct OneofModel {
  std::string name;         // as declared: "choice"
  std::string case_member;  // "choice_case"
};

// An enum type, for the checks on C names (validate.h).
struct EnumModel {
  std::string full_name;  // "foo.M.Mode"
  std::string c_type;     // protoc-c's typedef: "Foo__M__Mode"
};

// What a message's decoder (x__iter_decode) declares and which exits it
// has, from its fields: the printer only spells them.
struct DecoderShape {
  bool varint = false;        // uint64_t v: a varint scalar read inline
  bool fixed32 = false;       // uint32_t u32
  bool fixed64 = false;       // uint64_t u64
  bool boolean = false;       // protobuf_c_boolean b
  bool sub_messages = false;  // value_end, the depth check and too_deep:
                              // otherwise depth is unused
  bool no_memory = false;     // arrays grown or sub-messages allocated inline
  bool run_buffer = false;    // a field with buffered_run: the `buffered`
                              // union
  // Whether it goes on into the parent's next occurrence of the same field
  // (PbciNext): for types whose instances grow as occurrences merge
  // (arrays, sub-messages); not with required fields, which each
  // occurrence must hold (checked at its end, as protobuf-c does). Others
  // return after each occurrence, without the test. Computed from the
  // descriptor (GoesOn in model.cc), as the fields of this type say it too.
  bool goes_on = false;
  // A small leaf (at most two fields, none repeated or a message): its
  // decoder is copied into its callers (PBCI_LEAF_DECODER), whose call
  // would cost more than the decode. No message field, so no recursion.
  bool leaf = false;
};

struct MessageModel {
  std::string full_name;           // "foo.HTTPServer_conf"
  std::string struct_name;         // "Foo__HTTPServerConf"
  std::string init_macro;          // "FOO__HTTPSERVER_CONF__INIT"
  std::string descriptor;          // "foo__httpserver_conf__descriptor"
  IterSymbols sym;                 // "foo__httpserver_conf__iter_decode", ...
  std::string base_member;         // "base" unless (pb_c_msg).base_field_name
  std::vector<FieldModel> fields;  // declaration order
  std::vector<OneofModel> oneofs;  // declaration order
  DecoderShape decoder;
  std::vector<int> by_number;  // indices into `fields`, by field number
  // Occurrences of a group's members decode into one sub-message instance
  // until a different member of the group appears: a singular message
  // field is a group of one; a oneof with message members is a group of
  // all its members. unpacked_size tracks these runs to size merged
  // sub-messages (FieldModel::group, PbciFieldInfo::slot).
  int n_groups = 0;
  int n_required_bits = 0;  // required fields without a default
  int n_counts = 0;         // repeated fields
  // Whether it needs a generated sizer (x__iter_measure) to hold the
  // sizer's scratch: the runtime holds it for messages within
  // PBCI_LOCAL_COUNTS repeated fields, PBCI_LOCAL_GROUPS groups and
  // PBCI_LOCAL_REQUIRED required fields (internal/limits.h).
  bool own_sizer = false;
  // Whether protoc-c's X__INIT (1.4's or 1.5's) may set a oneof's union
  // whose first member is a struct (bytes) with a flat { 0 }, which gcc's
  // -Wmissing-braces flags wherever the macro is expanded.
  bool init_flat_union = false;
  // x__iter_unpacked_size_bound's K: the largest of these terms, over the
  // fields of every message type this one can reach (bound.h).
  std::vector<BoundTerm> bound_terms;
};

struct FileModel {
  std::string proto_name;   // "dir/a.proto"
  std::string iter_header;  // "dir/a.pb-iter.h"
  std::string iter_source;  // "dir/a.pb-iter.c"
  std::string header_guard;
  std::string pbc_header;                     // "dir/a.pb-c.h"
  std::vector<std::string> dep_iter_headers;  // "dep/b.pb-iter.h" for
                                              // imported message types
  std::vector<MessageModel> messages;         // nested types first, then outer
  std::vector<EnumModel> enums;               // every enum type, nested too
  // Whether the .c expands an X__INIT with init_flat_union (a message's
  // prototype and init function, a sub-message's set-up), so that it must
  // quiet -Wmissing-braces: the macro is protoc-c's, and its own .pb-c.c draws
  // the same warning.
  bool expands_flat_union_init = false;
};

// Builds the model of `file` with the options read for it (Options), and
// validates it (validate.h). Returns false and sets `error` (naming the
// field or type) when protoc-c 1.4.1 cannot handle the file.
bool BuildFileModel(const google::protobuf::FileDescriptor* file,
                    const Options& options, FileModel* model,
                    std::string* error);

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_MODEL_H_
