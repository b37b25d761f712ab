#include "options.h"

#include "protobuf-c/protobuf-c.pb.h"

namespace protobuf_c_iter {

// The extensions are registered in the generated pool because protobuf-c.pb.cc
// is linked in; protoc's request parser then keeps them in the descriptors'
// options, as it does for protoc-c itself.

FileOptionsView ReadFileOptions(const google::protobuf::FileDescriptor* file) {
  FileOptionsView view;
  const ProtobufCFileOptions& options = file->options().GetExtension(pb_c_file);
  view.no_generate = options.no_generate();
  view.const_strings = options.const_strings();
  view.gen_init_helpers = options.gen_init_helpers();
  view.has_c_package = options.has_c_package();
  view.c_package = options.c_package();
  return view;
}

// protoc-c 1.4.1 passes gen_init_helpers down to nested types (map entries
// included); a message's own setting overrides what it inherits.
MessageOptionsView ReadMessageOptions(
    const google::protobuf::Descriptor* message,
    bool inherited_gen_init_helpers) {
  const ProtobufCMessageOptions& options =
      message->options().GetExtension(pb_c_msg);
  MessageOptionsView view;
  view.base_field_name = options.base_field_name();
  view.gen_init_helpers = options.has_gen_init_helpers()
                              ? options.gen_init_helpers()
                              : inherited_gen_init_helpers;
  return view;
}

bool ReadStringAsBytes(const google::protobuf::FieldDescriptor* field) {
  return field->options().GetExtension(pb_c_field).string_as_bytes();
}

}  // namespace protobuf_c_iter
