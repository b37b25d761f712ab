#ifndef PROTOBUF_C_ITER_PLUGIN_VERSION_H_
#define PROTOBUF_C_ITER_PLUGIN_VERSION_H_

// The plugin's version: the runtime's PROTOBUF_C_ITER_VERSION and
// PROTOBUF_C_ITER_VERSION_NUMBER (major * 1000000 + minor * 1000 + patch),
// which plugin/CMakeLists.txt checks against the project's. Generated
// headers refuse to compile against a runtime of another version.
#define PROTOC_GEN_ITER_VERSION "0.1.0"
#define PROTOC_GEN_ITER_VERSION_NUMBER 1000

#endif  // PROTOBUF_C_ITER_PLUGIN_VERSION_H_
