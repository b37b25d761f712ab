// protoc-gen-iter's CodeGenerator: for dir/a.proto writes dir/a.pb-iter.h
// and dir/a.pb-iter.c beside protoc-c's dir/a.pb-c.*.
#ifndef PROTOBUF_C_ITER_PLUGIN_GENERATOR_H_
#define PROTOBUF_C_ITER_PLUGIN_GENERATOR_H_

#include <google/protobuf/compiler/code_generator.h>

#include <string>

namespace protobuf_c_iter {

class IterGenerator : public google::protobuf::compiler::CodeGenerator {
 public:
  bool Generate(const google::protobuf::FileDescriptor* file,
                const std::string& parameter,
                google::protobuf::compiler::GeneratorContext* context,
                std::string* error) const override;

  // Declared so that protoc hands us proto3 `optional` fields, which we then
  // reject with an error naming the field (protoc's own error names none).
  uint64_t GetSupportedFeatures() const override {
    return FEATURE_PROTO3_OPTIONAL;
  }
};

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_GENERATOR_H_
