// What a wire input holds, found by walking it with protobuf-c's
// descriptors: used to tell which inputs protobuf-c 1.4.1 is expected to
// decode correctly.
#ifndef PROTOBUF_C_ITER_TESTS_INPUT_FACTS_H_
#define PROTOBUF_C_ITER_TESTS_INPUT_FACTS_H_

#include <protobuf-c/protobuf-c.h>

#include <string>

namespace pbci_test {

struct InputFacts {
  bool merges = false;  // a sub-message instance occurs more than once
  int max_depth = 0;    // deepest sub-message level reached (top level 0)
};

InputFacts AnalyzeInput(const ProtobufCMessageDescriptor* desc,
                        const std::string& bytes);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_INPUT_FACTS_H_
