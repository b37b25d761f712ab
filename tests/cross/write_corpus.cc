// Writes the cross test's corpus (corpus.h): every input of the
// differential test, for every test type, and every dataset file as every
// dataset type (when built with them and given their directory), with what
// iter decodes each to on this host.
//   cross_write_corpus FILE [DATASETS]
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "corpus.h"
#include "support/differential_inputs.h"
#include "support/iter_check.h"
#ifdef PBCI_WITH_DATASETS
#include "dataset_types.h"
#endif

namespace pbci_test {
namespace {

CorpusRecord Record(const IterType& t, char kind,
                    std::vector<std::string> copies) {
  CorpusRecord r;
  r.kind = kind;
  r.type = t.full_name;
  r.copies = std::move(copies);
  std::string problems;  // the differential test reports them
  r.outcome = Outcome(DecodeWithIter(t, r.Input(), &problems));
  return r;
}

int Main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s FILE [DATASETS]\n", argv[0]);
    return 2;
  }
  std::ofstream out(argv[1], std::ios::binary);
  size_t records = 0;
  for (const IterType& t : AllTypes()) {
    std::vector<CorpusRecord> rs;
    for (const std::string& in : LibprotobufInputs(t)) {
      rs.push_back(Record(t, 'S', {in}));
    }
    for (const std::string& in : ProtobufCInputs(t)) {
      rs.push_back(Record(t, 'S', {in}));
    }
    for (const std::string& in : ReorderedInputs(t)) {
      rs.push_back(Record(t, 'S', {in}));
    }
    for (const std::vector<std::string>& copies : MergedInputs(t)) {
      rs.push_back(Record(t, 'M', copies));
    }
    for (const CorruptedInput& in : CorruptedInputs(t)) {
      rs.push_back(Record(t, 'S', {in.bytes}));
    }
    for (const CorpusRecord& r : rs) out << FormatRecord(r) << '\n';
    records += rs.size();
  }
  if (argc == 3) {
#ifdef PBCI_WITH_DATASETS
    for (const std::string& file : DatasetFiles(argv[2])) {
      const std::string bytes = ReadFile(file);
      for (const IterType& t : DatasetTypes()) {
        out << FormatRecord(Record(t, 'S', {bytes})) << '\n';
        records++;
      }
    }
#else
    std::fprintf(stderr, "built without the datasets: %s ignored\n", argv[2]);
#endif
  }
  out.close();
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf("%zu records in %s\n", records, argv[1]);
  return 0;
}

}  // namespace
}  // namespace pbci_test

int main(int argc, char** argv) { return pbci_test::Main(argc, argv); }
