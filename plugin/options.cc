#include "options.h"

#include "protobuf-c/protobuf-c.pb.h"

namespace protobuf_c_iter {

// The extensions are registered in the generated pool because protobuf-c.pb.cc
// is linked in; protoc's request parser then keeps them in the descriptors'
// options, as it does for protoc-c itself.

namespace {

FileOptionsView ReadFileOptions(const google::protobuf::FileDescriptor* file) {
  FileOptionsView view;
  const ProtobufCFileOptions& options = file->options().GetExtension(pb_c_file);
  view.no_generate = options.no_generate();
  view.const_strings = options.const_strings();
  view.has_c_package = options.has_c_package();
  view.c_package = options.c_package();
  return view;
}

MessageOptionsView ReadMessageOptions(
    const google::protobuf::Descriptor* message) {
  const ProtobufCMessageOptions& options =
      message->options().GetExtension(pb_c_msg);
  MessageOptionsView view;
  view.base_field_name = options.base_field_name();
  return view;
}

}  // namespace

Options::Options(const google::protobuf::FileDescriptor* file) {
  AddFile(file);
}

void Options::AddFile(const google::protobuf::FileDescriptor* file) {
  if (files_.count(file) != 0) return;
  files_[file] = ReadFileOptions(file);
  for (int i = 0; i < file->message_type_count(); i++) {
    AddMessage(file->message_type(i));
  }
  for (int i = 0; i < file->dependency_count(); i++)
    AddFile(file->dependency(i));
}

void Options::AddMessage(const google::protobuf::Descriptor* message) {
  messages_[message] = ReadMessageOptions(message);
  for (int i = 0; i < message->field_count(); i++) {
    const google::protobuf::FieldDescriptor* field = message->field(i);
    if (field->options().GetExtension(pb_c_field).string_as_bytes()) {
      string_as_bytes_.insert(field);
    }
  }
  for (int i = 0; i < message->nested_type_count(); i++) {
    AddMessage(message->nested_type(i));
  }
}

const FileOptionsView& Options::file(
    const google::protobuf::FileDescriptor* file) const {
  return files_.at(file);
}

const MessageOptionsView& Options::message(
    const google::protobuf::Descriptor* message) const {
  return messages_.at(message);
}

bool Options::string_as_bytes(
    const google::protobuf::FieldDescriptor* field) const {
  return string_as_bytes_.count(field) != 0;
}

}  // namespace protobuf_c_iter
