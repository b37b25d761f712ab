// protobuf-c.proto options ((pb_c_file), (pb_c_msg), (pb_c_field)) as plain
// values, resolved with protoc-c 1.4.1's defaults.
#ifndef PROTOBUF_C_ITER_PLUGIN_OPTIONS_H_
#define PROTOBUF_C_ITER_PLUGIN_OPTIONS_H_

#include <google/protobuf/descriptor.h>

#include <map>
#include <set>
#include <string>

namespace protobuf_c_iter {

struct FileOptionsView {
  bool no_generate = false;      // no .pb-c files: generate nothing either
  bool const_strings = false;    // strings are `const char *`
  bool has_c_package = false;    // c_package replaces the package in names
  std::string c_package;
};

struct MessageOptionsView {
  std::string base_field_name = "base";  // name of the ProtobufCMessage member
};

// Every protobuf-c option the generator uses, read once when a file's
// generation starts: the options of that file and of each file it imports
// (types of imported files are named with their file's c_package), each of
// their messages' and each string field's string_as_bytes. (gen_init_helpers
// changes nothing here: generated code sets new instances up from X__INIT,
// which protoc-c emits either way.)
class Options {
 public:
  explicit Options(const google::protobuf::FileDescriptor* file);

  // The options of `file`: the generated file or one it imports.
  const FileOptionsView& file(
      const google::protobuf::FileDescriptor* file) const;
  const MessageOptionsView& message(
      const google::protobuf::Descriptor* message) const;
  // (pb_c_field).string_as_bytes: a string field stored as ProtobufCBinaryData.
  bool string_as_bytes(const google::protobuf::FieldDescriptor* field) const;

 private:
  void AddFile(const google::protobuf::FileDescriptor* file);
  void AddMessage(const google::protobuf::Descriptor* message);

  std::map<const google::protobuf::FileDescriptor*, FileOptionsView> files_;
  std::map<const google::protobuf::Descriptor*, MessageOptionsView> messages_;
  std::set<const google::protobuf::FieldDescriptor*> string_as_bytes_;
};

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_OPTIONS_H_
