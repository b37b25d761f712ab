// The cross test's corpus: inputs this host's differential test decodes,
// with what iter made of each here, one text line per record, so that
// another architecture can decode the same inputs and compare (text, so
// that no byte order is involved in reading it).
//
//   S <type> <input> <outcome>          one message
//   M <type> <copy>,<copy>[,...] <outcome>   copies decoded concatenated
//
// <type> is a full message name (AllTypes); inputs are "x" and lower-case
// hex; <outcome> is "ok:" and the hex of the decoded message re-packed by
// protobuf-c, or "err:" and iter's negative code.
#ifndef PROTOBUF_C_ITER_TESTS_CROSS_CORPUS_H_
#define PROTOBUF_C_ITER_TESTS_CROSS_CORPUS_H_

#include <string>
#include <vector>

#include "support/iter_check.h"

namespace pbci_test {

struct CorpusRecord {
  char kind = 'S';  // 'S' or 'M'
  std::string type;
  std::vector<std::string> copies;  // one for 'S'
  std::string outcome;

  // The copies concatenated: what is decoded.
  std::string Input() const;
};

// The outcome of decoding `r` (DecodeWithIter's result).
std::string Outcome(const IterResult& r);

std::string FormatRecord(const CorpusRecord& r);

// False when `line` is not a record.
bool ParseRecord(const std::string& line, CorpusRecord* r);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_CROSS_CORPUS_H_
