// protoc-gen-iter: protoc plugin emitting arena decoders for protoc-c structs.
//
//   protoc --c_out=OUT --iter_out=OUT a.proto
//   protoc-gen-iter --version
#include <google/protobuf/compiler/plugin.h>

#include <cstdio>
#include <cstring>

#include "generator.h"
#include "version.h"

int main(int argc, char* argv[]) {
  if (argc == 2 && (std::strcmp(argv[1], "--version") == 0 ||
                    std::strcmp(argv[1], "-V") == 0)) {
    std::printf("protoc-gen-iter %s\n", PROTOC_GEN_ITER_VERSION);
    return 0;
  }
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 ||
                    std::strcmp(argv[1], "-h") == 0)) {
    std::printf(
        "protoc-gen-iter %s: a protoc plugin; run it through protoc:\n"
        "  protoc --c_out=OUT --iter_out=OUT [-I DIR] FILE.proto\n"
        "  protoc --plugin=protoc-gen-iter=PATH --c_out=OUT --iter_out=OUT "
        "...\n",
        PROTOC_GEN_ITER_VERSION);
    return 0;
  }
  protobuf_c_iter::IterGenerator generator;
  return google::protobuf::compiler::PluginMain(argc, argv, &generator);
}
