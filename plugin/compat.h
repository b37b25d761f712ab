// What differs between the libprotoc versions the plugin builds against
// (protobuf 3.21 to 36), kept in this one place.
//
// Descriptor names (name(), full_name(), package(), ...) are
// `const std::string&` up to protobuf 29 and `absl::string_view` since 30.
// The plugin copies them into std::string (`std::string(d->name())`), which
// compiles against both; it keeps no reference to them.
#ifndef PROTOBUF_C_ITER_PLUGIN_COMPAT_H_
#define PROTOBUF_C_ITER_PLUGIN_COMPAT_H_

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#if GOOGLE_PROTOBUF_VERSION < 3021000
#error "protoc-gen-iter needs protobuf 3.21 or newer"
#endif

namespace protobuf_c_iter {

// Whether `file` says `syntax = "proto3"`. FileDescriptor::syntax() is gone
// since protobuf 26 and edition() is not in 3.21; the FileDescriptorProto's
// syntax field says it in every version (as protoc-c 1.5 reads it). It copies
// the file, so callers ask only where presence does not already tell.
inline bool IsProto3(const google::protobuf::FileDescriptor* file) {
  google::protobuf::FileDescriptorProto proto;
  file->CopyTo(&proto);
  return proto.syntax() == "proto3";
}

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_COMPAT_H_
