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

namespace {

// protoc-c 1.4.1 passes gen_init_helpers down to nested types (map entries
// included); a message's own setting overrides what it inherits.
bool GenInitHelpers(const google::protobuf::Descriptor* message) {
  for (const google::protobuf::Descriptor* m = message; m != nullptr;
       m = m->containing_type()) {
    const ProtobufCMessageOptions& options =
        m->options().GetExtension(pb_c_msg);
    if (options.has_gen_init_helpers()) return options.gen_init_helpers();
  }
  return ReadFileOptions(message->file()).gen_init_helpers;
}

}  // namespace

MessageOptionsView ReadMessageOptions(
    const google::protobuf::Descriptor* message) {
  MessageOptionsView view;
  view.base_field_name =
      message->options().GetExtension(pb_c_msg).base_field_name();
  view.gen_init_helpers = GenInitHelpers(message);
  return view;
}

bool ReadStringAsBytes(const google::protobuf::FieldDescriptor* field) {
  return field->options().GetExtension(pb_c_field).string_as_bytes();
}

}  // namespace protobuf_c_iter
