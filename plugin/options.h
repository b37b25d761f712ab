// protobuf-c.proto options ((pb_c_file), (pb_c_msg), (pb_c_field)) as plain
// values, resolved with protoc-c 1.4.1's defaults.
#ifndef PROTOBUF_C_ITER_PLUGIN_OPTIONS_H_
#define PROTOBUF_C_ITER_PLUGIN_OPTIONS_H_

#include <google/protobuf/descriptor.h>

#include <string>

namespace protobuf_c_iter {

struct FileOptionsView {
  bool no_generate = false;      // no .pb-c files: generate nothing either
  bool const_strings = false;    // strings are `const char *`
  bool gen_init_helpers = true;  // x__init() exists, as message_init
  bool has_c_package = false;    // c_package replaces the package in names
  std::string c_package;
};

struct MessageOptionsView {
  std::string base_field_name = "base";  // name of the ProtobufCMessage member
  // x__init() exists, as message_init: the message's own (pb_c_msg) setting,
  // else its enclosing message's, else the file's, as protoc-c resolves it.
  bool gen_init_helpers = true;
};

FileOptionsView ReadFileOptions(const google::protobuf::FileDescriptor* file);
// A message's options; `inherited_gen_init_helpers` is its enclosing
// message's resolved setting, or for a top-level message the file's.
MessageOptionsView ReadMessageOptions(
    const google::protobuf::Descriptor* message,
    bool inherited_gen_init_helpers);
// (pb_c_field).string_as_bytes: a string field stored as ProtobufCBinaryData.
bool ReadStringAsBytes(const google::protobuf::FieldDescriptor* field);

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_OPTIONS_H_
