// The shared datasets' message types and files (dataset_test.cc, and the
// cross test's corpus).
#ifndef PROTOBUF_C_ITER_TESTS_DATASETS_DATASET_TYPES_H_
#define PROTOBUF_C_ITER_TESTS_DATASETS_DATASET_TYPES_H_

#include <map>
#include <string>
#include <vector>

#include "support/iter_check.h"

namespace pbci_test {

// Every dataset message type; "GoogleMessage1/proto2" and "/proto3" name
// the two google_message1 schemas.
const std::vector<IterType>& DatasetTypes();
const IterType& DatasetType(const std::string& name);

// File (relative to the datasets directory) -> its type, and whether a
// protobuf-c 1.4.1 compatible decoder must accept it.
struct Expectation {
  const char* type;
  bool accepted;
};
const std::map<std::string, Expectation>& Documented();

// Every message file (*.bin) of the datasets at `dir`, sorted.
std::vector<std::string> DatasetFiles(const std::string& dir);

std::string ReadFile(const std::string& path);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_DATASETS_DATASET_TYPES_H_
