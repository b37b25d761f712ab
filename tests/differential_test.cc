// Differential tests: the generated decoder against protobuf_c_message_unpack
// on messages built by libprotobuf and by protobuf-c, on their merges, and on
// corrupted variants of them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/differential_inputs.h"
#include "support/iter_check.h"

namespace pbci_test {
namespace {

class Differential : public ::testing::TestWithParam<IterType> {};

TEST_P(Differential, LibprotobufMessages) {
  const IterType& t = GetParam();
  std::vector<std::string> inputs = LibprotobufInputs(t);
  for (size_t i = 0; i < inputs.size(); i++) {
    ASSERT_EQ(CheckAgainstProtobufC(t, inputs[i]), "") << "message " << i;
  }
}

TEST_P(Differential, ProtobufCMessages) {
  const IterType& t = GetParam();
  std::vector<std::string> inputs = ProtobufCInputs(t);
  for (size_t i = 0; i < inputs.size(); i++) {
    ASSERT_EQ(CheckAgainstProtobufC(t, inputs[i]), "") << "message " << i;
  }
}

TEST_P(Differential, MergedMessages) {
  const IterType& t = GetParam();
  std::vector<std::vector<std::string>> merges = MergedInputs(t);
  if (merges.empty()) GTEST_SKIP() << "map entry merged at top level";
  for (size_t i = 0; i < merges.size(); i++) {
    ASSERT_EQ(CheckMerged(t, merges[i]), "") << "merge " << i;
  }
}

TEST_P(Differential, CorruptedMessages) {
  const IterType& t = GetParam();
  std::vector<std::string> inputs = CorruptedInputs(t);
  for (size_t i = 0; i < inputs.size(); i++) {
    ASSERT_EQ(CheckAgainstProtobufC(t, inputs[i]), "") << "input " << i;
  }
  EXPECT_GT(inputs.size(), size_t{kMessagesPerType});
}

INSTANTIATE_TEST_SUITE_P(AllTypes, Differential,
                         ::testing::ValuesIn(AllTypes()),
                         [](const ::testing::TestParamInfo<IterType>& info) {
                           std::string name = info.param.full_name;
                           for (char& c : name) {
                             if (c == '.') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace pbci_test
