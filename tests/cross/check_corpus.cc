// Decodes the cross test's corpus (corpus.h) on this machine and checks
// every record as the differential test does on the host that wrote it:
// against protobuf-c here (CheckAgainstProtobufC where protobuf-c is the
// oracle on this machine, CheckMerged for merges), the decode options
// against the plain decode, and the outcome against the host's.
//   cross_check_corpus FILE
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "corpus.h"
#include "support/input_facts.h"
#include "support/iter_check.h"
#include "support/option_check.h"
#ifdef PBCI_WITH_DATASETS
#include "dataset_types.h"
#endif

namespace pbci_test {
namespace {

// A test type or, when built with them, a dataset type.
const IterType& CorpusType(const std::string& name) {
#ifdef PBCI_WITH_DATASETS
  for (const IterType& t : DatasetTypes()) {
    if (name == t.full_name) return t;
  }
#endif
  return TypeNamed(name);
}

// The problems of one record, "" when none.
std::string Check(const CorpusRecord& r) {
  const IterType& t = CorpusType(r.type);
  const std::string input = r.Input();
  std::string problems;
  IterResult got = DecodeWithIter(t, input, &problems);
  std::string outcome = Outcome(got);
  if (outcome != r.outcome) {
    problems +=
        "decoded to " + outcome + " where the host had " + r.outcome + "; ";
  }
  if (r.kind == 'M') {
    problems += CheckMerged(t, r.copies);
  } else if (AnalyzeInput(t.desc, input).ProtobufCIsOracle()) {
    problems += CheckAgainstProtobufC(t, input);
  } else {
    for (int which = 0; which < 2; which++) {
      problems += CheckOptions(t, input, got, OptionSelector(input, which));
    }
  }
  return problems;
}

int Main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  size_t records = 0, merges = 0, failed = 0, line_no = 0;
  std::string line;
  while (std::getline(in, line)) {
    line_no++;
    CorpusRecord r;
    if (!ParseRecord(line, &r)) {
      std::fprintf(stderr, "%s:%zu: not a record\n", argv[1], line_no);
      return 2;
    }
    records++;
    if (r.kind == 'M') merges++;
    std::string problems = Check(r);
    if (!problems.empty() && ++failed <= 10) {
      std::fprintf(stderr, "%s:%zu: %s: %s\n", argv[1], line_no, r.type.c_str(),
                   problems.c_str());
    }
  }
  const uint16_t one = 1;
  const bool big_endian = *reinterpret_cast<const uint8_t*>(&one) == 0;
  std::printf("%zu records (%zu merges), %zu failed; %zu-bit, %s-endian\n",
              records, merges, failed, sizeof(void*) * 8,
              big_endian ? "big" : "little");
  return failed == 0 && records > 0 ? 0 : 1;
}

}  // namespace
}  // namespace pbci_test

int main(int argc, char** argv) { return pbci_test::Main(argc, argv); }
