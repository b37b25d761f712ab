// Differential tests: the generated decoder against protobuf_c_message_unpack
// on messages built by libprotobuf and by protobuf-c, on their merges, and on
// corrupted variants of them.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "support/input_facts.h"
#include "support/iter_check.h"
#include "support/pbc_compare.h"
#include "support/random_message.h"

namespace pbci_test {
namespace {

constexpr int kMessagesPerType = 150;

class Differential : public ::testing::TestWithParam<IterType> {};

std::string RepackedByProtobufC(const IterType& t, const std::string& bytes) {
  ProtobufCMessage* m =
      protobuf_c_message_unpack(t.desc, nullptr, bytes.size(),
                                reinterpret_cast<const uint8_t*>(bytes.data()));
  if (m == nullptr) return bytes;
  std::string out = Pack(m);
  protobuf_c_message_free_unpacked(m, nullptr);
  return out;
}

// protobuf-c 1.4.1 is only the oracle where it follows the specification
// (InputFacts::ProtobufCIsOracle).
bool ProtobufCIsOracle(const IterType& t, const std::string& bytes) {
  return AnalyzeInput(t.desc, bytes).ProtobufCIsOracle();
}

TEST_P(Differential, LibprotobufMessages) {
  const IterType& t = GetParam();
  std::mt19937 rng(12345);
  for (int i = 0; i < kMessagesPerType; i++) {
    std::string bytes = RandomWire(t.full_name, &rng);
    ASSERT_EQ(CheckAgainstProtobufC(t, bytes), "") << "message " << i;
  }
}

TEST_P(Differential, ProtobufCMessages) {
  const IterType& t = GetParam();
  std::mt19937 rng(777);
  for (int i = 0; i < kMessagesPerType; i++) {
    std::string bytes = RepackedByProtobufC(t, RandomWire(t.full_name, &rng));
    ASSERT_EQ(CheckAgainstProtobufC(t, bytes), "") << "message " << i;
  }
}

TEST_P(Differential, MergedMessages) {
  const IterType& t = GetParam();
  // libprotobuf writes map entries' zero keys and values, and a decoded
  // proto3 struct cannot show whether a zero was on the wire: the reference
  // merge (DiffMerged) cannot judge entries merged at the top level.
  if (std::string(t.desc->name).find("Entry") != std::string::npos) {
    GTEST_SKIP() << "map entry merged at top level";
  }
  std::mt19937 rng(4242);
  for (int i = 0; i < kMessagesPerType / 2; i++) {
    std::vector<std::string> copies;
    int n = 2 + static_cast<int>(rng() % 2);
    for (int k = 0; k < n; k++) copies.push_back(RandomWire(t.full_name, &rng));
    ASSERT_EQ(CheckMerged(t, copies), "") << "merge " << i;
  }
}

TEST_P(Differential, CorruptedMessages) {
  const IterType& t = GetParam();
  std::mt19937 rng(99);
  int compared = 0;
  for (int i = 0; i < kMessagesPerType; i++) {
    std::string bytes = RandomWire(t.full_name, &rng);
    for (int k = 0; k < 6 && !bytes.empty(); k++) {
      std::string bad = bytes;
      switch (rng() % 3) {
        case 0:  // truncate
          bad.resize(rng() % bad.size());
          break;
        case 1:  // flip a byte
          bad[rng() % bad.size()] = static_cast<char>(rng() % 256);
          break;
        default:  // insert a byte
          bad.insert(bad.begin() + static_cast<long>(rng() % bad.size()),
                     static_cast<char>(rng() % 256));
          break;
      }
      if (!ProtobufCIsOracle(t, bad)) continue;
      compared++;
      ASSERT_EQ(CheckAgainstProtobufC(t, bad), "") << "message " << i;
    }
  }
  EXPECT_GT(compared, kMessagesPerType);
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
