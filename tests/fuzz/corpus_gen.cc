// Writes a fuzz target's seed corpus (random messages of each of its types,
// built by libprotobuf, prefixed with the type-selector byte) and a libFuzzer
// dictionary of every key (field number and wire type) of those types.
//   corpus_gen OUT_DIR DICT_FILE FULL_NAME...
#include <google/protobuf/descriptor.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include "support/random_message.h"

namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

std::string Varint(uint64_t v) {
  std::string out;
  do {
    out += static_cast<char>((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v != 0);
  return out;
}

std::string Escaped(const std::string& bytes) {
  std::string out;
  char b[8];
  for (unsigned char c : bytes) {
    std::snprintf(b, sizeof b, "\\x%02x", c);
    out += b;
  }
  return out;
}

void AddKeys(const Descriptor* d, std::set<std::string>* keys,
             std::set<const Descriptor*>* seen) {
  if (!seen->insert(d).second) return;
  for (int i = 0; i < d->field_count(); i++) {
    const FieldDescriptor* f = d->field(i);
    for (uint64_t wt : {0, 1, 2, 5}) {
      keys->insert(Varint(static_cast<uint64_t>(f->number()) << 3 | wt));
    }
    if (f->message_type() != nullptr) AddKeys(f->message_type(), keys, seen);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: corpus_gen OUT_DIR DICT_FILE FULL_NAME...\n");
    return 2;
  }
  std::set<std::string> keys;
  std::set<const Descriptor*> seen;
  std::mt19937 rng(2026);
  int written = 0;
  for (int type = 0; type + 3 < argc; type++) {
    const std::string name = argv[type + 3];
    const Descriptor* d = google::protobuf::DescriptorPool::generated_pool()
                              ->FindMessageTypeByName(name);
    if (d == nullptr) {
      std::fprintf(stderr, "corpus_gen: unknown type %s\n", name.c_str());
      return 1;
    }
    AddKeys(d, &keys, &seen);
    for (int i = 0; i < 40; i++) {
      std::string input(1, static_cast<char>(type));
      input += pbci_test::RandomWire(name, &rng);
      std::ofstream(std::string(argv[1]) + "/seed-" + std::to_string(type) +
                        "-" + std::to_string(i),
                    std::ios::binary)
          << input;
      written++;
    }
  }
  std::ofstream dict(argv[2]);
  int n = 0;
  for (const std::string& k : keys)
    dict << "key" << n++ << "=\"" << Escaped(k) << "\"\n";
  std::printf("corpus_gen: %d seeds, %d dictionary keys\n", written, n);
  return 0;
}
