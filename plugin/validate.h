// Rejects what protoc-c 1.4.1 cannot turn into compiling C, or what would
// not compile beside our runtime, with an error that names the field or
// type (protoc adds the file's name), before anything is generated. Two
// passes: the features the model cannot represent, on the descriptors
// before the model is built; the C names, on the model that computed them.
#ifndef PROTOBUF_C_ITER_PLUGIN_VALIDATE_H_
#define PROTOBUF_C_ITER_PLUGIN_VALIDATE_H_

#include <google/protobuf/descriptor.h>

#include <string>

namespace protobuf_c_iter {

struct FileModel;

// Returns false and sets `error` for groups (protoc-c crashes), proto3
// `optional` (protoc-c does not support it) and float/double defaults of
// inf or nan (protoc-c prints `inf`).
bool ValidateFeatures(const google::protobuf::FileDescriptor* file,
                      std::string* error);

// Returns false and sets `error` for fields named after the C keyword
// `restrict` (protoc-c does not escape it), struct members whose names
// collide (e.g. a field `base`, or fields `x` and `has_x`), and messages or
// enums outside packages whose C type would start with Pbci or
// ProtobufCIter, as the runtime's do. (Messages too wide for the tables are
// refused by BuildFileModel.)
bool ValidateNames(const FileModel& model, std::string* error);

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_VALIDATE_H_
