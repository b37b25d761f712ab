#include "dataset_types.h"

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "benchmark_message1_proto2.pb-iter.h"
#include "benchmark_message1_proto3.pb-iter.h"
#include "ssrtb_v6.pb-iter.h"
#include "test.pb-iter.h"

namespace pbci_test {

const std::vector<IterType>& DatasetTypes() {
  static const std::vector<IterType> kTypes = {
      PBCI_TEST_ITER_TYPE(Types, types, "Types"),
      PBCI_TEST_ITER_TYPE(BenchmarkUINT32, benchmark_uint32, "BenchmarkUINT32"),
      PBCI_TEST_ITER_TYPE(BenchmarkFixed32, benchmark_fixed32,
                          "BenchmarkFixed32"),
      PBCI_TEST_ITER_TYPE(BenchmarkFixed64, benchmark_fixed64,
                          "BenchmarkFixed64"),
      PBCI_TEST_ITER_TYPE(BenchmarkString, benchmark_string, "BenchmarkString"),
      PBCI_TEST_ITER_TYPE(RequiredField2, required_field2, "RequiredField2"),
      PBCI_TEST_ITER_TYPE(StringField, string_field, "StringField"),
      PBCI_TEST_ITER_TYPE(PackedField, packed_field, "PackedField"),
      PBCI_TEST_ITER_TYPE(MergeTest, merge_test, "MergeTest"),
      PBCI_TEST_ITER_TYPE(BidRequest, bid_request, "BidRequest"),
      PBCI_TEST_ITER_TYPE(Benchmarks__Proto2__GoogleMessage1,
                          benchmarks__proto2__google_message1,
                          "GoogleMessage1/proto2"),
      PBCI_TEST_ITER_TYPE(Benchmarks__Proto3__GoogleMessage1,
                          benchmarks__proto3__google_message1,
                          "GoogleMessage1/proto3"),
  };
  return kTypes;
}

const IterType& DatasetType(const std::string& name) {
  for (const IterType& t : DatasetTypes()) {
    if (name == t.full_name) return t;
  }
  throw std::runtime_error(name);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::map<std::string, Expectation>& Documented() {
  static const std::map<std::string, Expectation> kFiles = {
      {"seed/messages/BENCMARK_UINT32_DATA_1.bin", {"BenchmarkUINT32", true}},
      {"seed/messages/BENCMARK_UINT32_DATA_2.bin", {"BenchmarkUINT32", true}},
      {"seed/messages/BENCMARK_FIXED32_DATA_1.bin", {"BenchmarkFixed32", true}},
      {"seed/messages/BENCMARK_FIXED32_DATA_2.bin", {"BenchmarkFixed32", true}},
      {"seed/messages/BENCMARK_FIXED64_DATA_1.bin", {"BenchmarkFixed64", true}},
      {"seed/messages/BENCMARK_FIXED64_DATA_2.bin", {"BenchmarkFixed64", true}},
      {"seed/messages/BENCMARK_STRING_DATA_1.bin", {"BenchmarkString", true}},
      {"seed/messages/BENCMARK_STRING_DATA_2.bin", {"BenchmarkString", true}},
      {"seed/messages/OPENX_1.bin", {"BidRequest", true}},
      {"seed/messages/OPENX_2.bin", {"BidRequest", true}},
      {"seed/messages/MERGE_TEST.bin", {"MergeTest", true}},
      {"seed/messages/REPEATED_PACKED.bin", {"PackedField", true}},
      {"seed/messages/F1V10.bin", {"RequiredField2", false}},
      {"seed/messages/ZERO_BYTE_STRING.bin", {"StringField", true}},
      {"seed/messages/NEGATIVE_LENGTH_STRING.bin", {"Types", false}},
      {"seed/messages/TRUNCATED_VARINT.bin", {"Types", false}},
      {"google_message1/google_message1_proto2.payload0.bin",
       {"GoogleMessage1/proto2", true}},
      {"google_message1/google_message1_proto3.payload0.bin",
       {"GoogleMessage1/proto3", true}},
  };
  return kFiles;
}

std::vector<std::string> DatasetFiles(const std::string& dir) {
  std::vector<std::string> files;
  for (const char* sub : {"seed/messages", "google_message1"}) {
    const std::string path = dir + "/" + sub;
    DIR* d = opendir(path.c_str());
    if (d == nullptr) continue;
    while (const dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name.size() > 4 && name.substr(name.size() - 4) == ".bin") {
        files.push_back(path + "/" + name);
      }
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace pbci_test
