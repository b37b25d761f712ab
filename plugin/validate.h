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
class Options;

// Returns false and sets `error` for groups (protoc-c crashes), proto3
// `optional` (protoc-c does not support it), defaults protoc-c writes as C
// that does not compile (float/double inf or nan, doubles its 15 digits round
// past DBL_MAX, an int64 default of INT64_MIN, strings or bytes holding a
// trigraph), fields whose type is in a file with (pb_c_file).no_generate, and
// a (pb_c_file).c_package that is not dot-separated C identifiers.
bool ValidateFeatures(const google::protobuf::FileDescriptor* file,
                      const Options& options, std::string* error);

// Returns false and sets `error` for fields named as C keywords (or C11's
// static_assert macro) protoc-c does not escape (UnescapedCKeyword), struct
// members whose names collide (e.g. a field `base`, or fields `x` and
// `has_x`), a (pb_c_msg).base_field_name that is no C identifier, messages,
// enums or oneof cases whose protoc-c C names collide within the file, and
// messages or enums outside packages whose C type would start with Pbci or
// ProtobufCIter, as the runtime's do. (Messages too wide for the tables are
// refused by BuildFileModel.)
bool ValidateNames(const FileModel& model, std::string* error);

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_VALIDATE_H_
