#include "corpus.h"

#include <sstream>

#include "support/pbc_compare.h"

namespace pbci_test {
namespace {

std::string EncodeHex(const std::string& bytes) { return "x" + Hex(bytes); }

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool DecodeHex(const std::string& text, std::string* bytes) {
  if (text.empty() || text[0] != 'x' || text.size() % 2 != 1) return false;
  bytes->clear();
  for (size_t i = 1; i < text.size(); i += 2) {
    int hi = HexDigit(text[i]), lo = HexDigit(text[i + 1]);
    if (hi < 0 || lo < 0) return false;
    bytes->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

}  // namespace

std::string CorpusRecord::Input() const {
  std::string all;
  for (const std::string& c : copies) all += c;
  return all;
}

std::string Outcome(const IterResult& r) {
  if (r.code < 0) return "err:" + std::to_string(r.code);
  return "ok:" + Hex(Pack(r.message()));
}

std::string FormatRecord(const CorpusRecord& r) {
  std::string line = std::string(1, r.kind) + " " + r.type + " ";
  for (size_t i = 0; i < r.copies.size(); i++) {
    if (i > 0) line += ",";
    line += EncodeHex(r.copies[i]);
  }
  return line + " " + r.outcome;
}

bool ParseRecord(const std::string& line, CorpusRecord* r) {
  std::istringstream in(line);
  std::string kind, copies, extra;
  if (!(in >> kind >> r->type >> copies >> r->outcome) || (in >> extra) ||
      (kind != "S" && kind != "M")) {
    return false;
  }
  r->kind = kind[0];
  r->copies.clear();
  std::istringstream parts(copies);
  std::string part;
  while (std::getline(parts, part, ',')) {
    r->copies.emplace_back();
    if (!DecodeHex(part, &r->copies.back())) return false;
  }
  return r->kind == 'M' ? r->copies.size() >= 2 : r->copies.size() == 1;
}

}  // namespace pbci_test
