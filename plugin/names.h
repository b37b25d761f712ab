// protoc-c 1.4.1's naming rules, in one place.
//
// Every C identifier that protoc-gen-iter prints and that protoc-c also
// defines (struct typedefs, INIT macros, members, oneof case values) is
// computed here, so the generated decoder names exactly what protoc-c emits.
// Each function documents its mapping with an example. Names of types take
// the options read for the generated file (Options): c_package, and for a
// presence flag string_as_bytes.
#ifndef PROTOBUF_C_ITER_PLUGIN_NAMES_H_
#define PROTOBUF_C_ITER_PLUGIN_NAMES_H_

#include <google/protobuf/descriptor.h>

#include <string>

#include "options.h"

namespace protobuf_c_iter {

// "foo_bar_baz" -> "FooBarBaz"; "HTTPServer_conf" -> "HTTPServerConf".
std::string ToCamel(const std::string& name);
// "HTTPServer_conf" -> "httpserver_conf"; "MpEntry" -> "mp_entry".
std::string CamelToLower(const std::string& name);
// "HTTPServer_conf" -> "HTTPSERVER_CONF"; "MyChoice" -> "MY_CHOICE".
std::string CamelToUpper(const std::string& name);
// "foo.bar_baz.HTTPServer_conf" -> "Foo__BarBaz__HTTPServerConf".
std::string FullNameToC(const std::string& full_name);
// "foo.bar_baz.HTTPServer_conf" -> "foo__bar_baz__httpserver_conf".
std::string FullNameToLower(const std::string& full_name);
// "foo.bar_baz.HTTPServer_conf" -> "FOO__BAR_BAZ__HTTPSERVER_CONF".
std::string FullNameToUpper(const std::string& full_name);

// The dotted name protoc-c converts for a type: its full name, with the
// package replaced by (pb_c_file).c_package when that option is set.
// package foo; option c_package = "my.pkg"; message A.B -> "my.pkg.A.B".
std::string CFullName(const std::string& full_name,
                      const google::protobuf::FileDescriptor* file,
                      const Options& options);

// Message struct typedef: foo.HTTPServer_conf -> "Foo__HTTPServerConf".
std::string MessageStructName(const google::protobuf::Descriptor* message,
                              const Options& options);
// Function prefix: foo.HTTPServer_conf -> "foo__httpserver_conf".
std::string MessageLowerName(const google::protobuf::Descriptor* message,
                             const Options& options);
// Init macro: foo.HTTPServer_conf -> "FOO__HTTPSERVER_CONF__INIT".
std::string MessageInitMacro(const google::protobuf::Descriptor* message,
                             const Options& options);
// protoc-c's descriptor object: "foo__bar__descriptor".
std::string MessageDescriptorName(const google::protobuf::Descriptor* message,
                                  const Options& options);

// The C symbols generated for a message: protoc-c's lower-case name and an
// "__iter_" role, foo.Bar -> "foo__bar__iter_decode". Decoders and tables
// of other files use `decode` and `message`, so they are computed here only.
struct IterSymbols {
  std::string type;           // its ProtobufCIterType (public)
  std::string unpack;         // the header's inline functions (each with an
  std::string unpack_merge;   // "_ex" form too)
  std::string unpacked_size;  //
  std::string unpacked_size_bound;  // its O(1) bound (public)
  std::string decode;         // the decoder of one occurrence
  std::string message;        // its PbciMessage table
  std::string fields;         // its PbciFieldInfo table
  std::string required;       // the numbers of its required fields
  std::string measure;        // its generated sizer
  std::string init;           // sets up a new instance: X__INIT
  std::string prototype;      // X__INIT as a constant object, copied into
                              // each new instance
};
IterSymbols MessageIterSymbols(const google::protobuf::Descriptor* message,
                               const Options& options);

// Enum typedef: foo.M.Mode -> "Foo__M__Mode".
std::string EnumTypeName(const google::protobuf::EnumDescriptor* e,
                         const Options& options);

// Struct member of a field: lower-cased, "_" appended to C++ keywords.
// "Foo_Bar" -> "foo_bar"; "class" -> "class_".
std::string FieldMemberName(const google::protobuf::FieldDescriptor* field);
// Presence flag of a field: "has_x" for proto2 optional scalars, enums and
// bytes (and string_as_bytes strings) outside oneofs, else "".
std::string HasMemberName(const google::protobuf::FieldDescriptor* field,
                          const Options& options);
// Element count of a repeated field: "n_x", else "".
std::string CountMemberName(const google::protobuf::FieldDescriptor* field);
// The decoder's local holding a repeated field's array capacity: "cap_x",
// else "". No other local of a decoder starts with "cap_".
std::string CapacityLocalName(const google::protobuf::FieldDescriptor* field);
// True when protoc-c appends "_" to `lower_name` (its C++ keyword list).
bool IsProtocCKeyword(const std::string& lower_name);
// What `lower_name` is to a C compiler when it is a name protoc-c does not
// escape but its output cannot use as a struct member ("a C99 keyword" for
// "restrict"; also static_assert, a macro of the <assert.h> protobuf-c.h
// includes in C11, and GNU C's typeof); else nullptr.
const char* UnescapedCKeyword(const std::string& lower_name);

// Oneof case member: oneof "MyChoice" -> "my_choice_case".
std::string OneofCaseMember(const google::protobuf::OneofDescriptor* oneof);
// Oneof case value of a member field:
// message foo.M, oneof my_choice, field Foo_Bar ->
// "FOO__M__MY_CHOICE_FOO__BAR".
std::string OneofCaseValue(const google::protobuf::FieldDescriptor* field,
                           const Options& options);

// Output base path: "dir/a.proto" -> "dir/a" (".protodevel" also stripped).
std::string StripProto(const std::string& filename);
// Our header: "dir/a.proto" -> "dir/a.pb-iter.h" (and "dir/a.pb-iter.c").
std::string IterHeaderName(const std::string& filename);
std::string IterSourceName(const std::string& filename);
// protoc-c's header: "dir/a.proto" -> "dir/a.pb-c.h".
std::string PbcHeaderName(const std::string& filename);
// Header guard: "dir/a.proto" -> "PROTOBUF_C_ITER_dir_2fa_2eproto__INCLUDED".
std::string HeaderGuard(const std::string& filename);

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_NAMES_H_
