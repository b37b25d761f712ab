// Rejects what protoc-c 1.4.1 cannot turn into compiling C, with an error
// that names the file and the field, before anything is generated.
#ifndef PROTOBUF_C_ITER_PLUGIN_VALIDATE_H_
#define PROTOBUF_C_ITER_PLUGIN_VALIDATE_H_

#include <google/protobuf/descriptor.h>

#include <string>

namespace protobuf_c_iter {

// Returns false and sets `error` for: groups (protoc-c crashes), proto3
// `optional` (protoc-c does not support it), fields named after the C
// keyword `restrict` (protoc-c does not escape it), float/double defaults of
// inf or nan (protoc-c prints `inf`), and struct members whose names collide
// (e.g. a field `base`, or fields `x` and `has_x`).
bool ValidateFile(const google::protobuf::FileDescriptor* file,
                  std::string* error);

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_VALIDATE_H_
