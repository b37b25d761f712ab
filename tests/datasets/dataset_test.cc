// The shared datasets: every message file decoded as its documented type
// (strictly compared with protobuf-c, with the documented outcome), and as
// every other dataset type (compared wherever protobuf-c is an oracle).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dataset_types.h"
#include "support/input_facts.h"
#include "support/iter_check.h"

namespace pbci_test {
namespace {

TEST(Datasets, DocumentedFilesDecodeAsDocumented) {
  for (const auto& [file, expect] : Documented()) {
    SCOPED_TRACE(file);
    const std::string bytes = ReadFile(std::string(DATASETS) + "/" + file);
    ASSERT_FALSE(bytes.empty());
    const IterType& t = DatasetType(expect.type);
    EXPECT_EQ(CheckAgainstProtobufC(t, bytes), "");
    ptrdiff_t size = t.unpacked_size(
        reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    EXPECT_EQ(size >= 0, expect.accepted) << size;
  }
}

TEST(Datasets, EveryFileAsEveryType) {
  std::vector<std::string> files = DatasetFiles(DATASETS);
  ASSERT_GE(files.size(), Documented().size());
  int compared = 0;
  for (const std::string& file : files) {
    const std::string bytes = ReadFile(file);
    for (const IterType& t : DatasetTypes()) {
      if (!AnalyzeInput(t.desc, bytes).ProtobufCIsOracle()) continue;
      compared++;
      EXPECT_EQ(CheckAgainstProtobufC(t, bytes), "")
          << file << " as " << t.full_name;
    }
  }
  EXPECT_GT(compared, 100);
}

}  // namespace
}  // namespace pbci_test
