#include "differential_inputs.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "input_facts.h"
#include "pbc_compare.h"
#include "random_message.h"

namespace pbci_test {
namespace {

std::string RepackedByProtobufC(const IterType& t, const std::string& bytes) {
  ProtobufCMessage* m =
      protobuf_c_message_unpack(t.desc, nullptr, bytes.size(),
                                reinterpret_cast<const uint8_t*>(bytes.data()));
  if (m == nullptr) return bytes;
  std::string out = Pack(m);
  protobuf_c_message_free_unpacked(m, nullptr);
  return out;
}

// The top-level fields of a valid message, each with its key, in wire
// order.
std::vector<std::string> TopLevelFields(const std::string& bytes) {
  using google::protobuf::internal::WireFormatLite;
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t*>(bytes.data()),
      static_cast<int>(bytes.size()));
  std::vector<std::string> fields;
  int start = 0;
  while (uint32_t tag = in.ReadTag()) {
    if (!WireFormatLite::SkipField(&in, tag)) break;
    const int next = in.CurrentPosition();
    fields.push_back(bytes.substr(start, next - start));
    start = next;
  }
  // Every byte in some field, or the reordered input would test less.
  if (static_cast<size_t>(start) != bytes.size()) {
    std::fprintf(stderr, "TopLevelFields: %zu of %zu bytes split\n",
                 static_cast<size_t>(start), bytes.size());
    std::abort();
  }
  return fields;
}

}  // namespace

std::vector<std::string> ReorderedInputs(const IterType& t) {
  std::mt19937 rng(2468);
  std::vector<std::string> out;
  for (int i = 0; i < kMessagesPerType; i++) {
    std::vector<std::string> fields =
        TopLevelFields(RandomWire(t.full_name, &rng));
    if (i % 2 == 0) {
      std::reverse(fields.begin(), fields.end());
    } else {
      std::shuffle(fields.begin(), fields.end(), rng);
    }
    std::string bytes;
    for (const std::string& f : fields) bytes += f;
    out.push_back(bytes);
  }
  return out;
}

bool IsMapEntry(const std::string& full_name) {
  const google::protobuf::Descriptor* d =
      google::protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(full_name);
  return d != nullptr && d->options().map_entry();
}

std::vector<std::string> LibprotobufInputs(const IterType& t) {
  std::mt19937 rng(12345);
  std::vector<std::string> out;
  for (int i = 0; i < kMessagesPerType; i++) {
    out.push_back(RandomWire(t.full_name, &rng));
  }
  return out;
}

std::vector<std::string> ProtobufCInputs(const IterType& t) {
  std::mt19937 rng(777);
  std::vector<std::string> out;
  for (int i = 0; i < kMessagesPerType; i++) {
    out.push_back(RepackedByProtobufC(t, RandomWire(t.full_name, &rng)));
  }
  return out;
}

std::vector<std::vector<std::string>> MergedInputs(const IterType& t) {
  std::vector<std::vector<std::string>> out;
  if (IsMapEntry(t.full_name)) return out;
  std::mt19937 rng(4242);
  for (int i = 0; i < kMessagesPerType / 2; i++) {
    std::vector<std::string> copies;
    int n = 2 + static_cast<int>(rng() % 2);
    for (int k = 0; k < n; k++) copies.push_back(RandomWire(t.full_name, &rng));
    out.push_back(copies);
  }
  return out;
}

std::vector<CorruptedInput> CorruptedInputs(const IterType& t) {
  std::mt19937 rng(99);
  std::vector<CorruptedInput> out;
  for (int i = 0; i < kMessagesPerType; i++) {
    std::string bytes = RandomWire(t.full_name, &rng);
    for (int k = 0; k < 6; k++) {
      std::string bad = bytes;
      // An empty message (a type without fields) can only grow.
      const unsigned kind = bytes.empty() ? 3 : rng() % 3;
      switch (kind) {
        case 0:  // truncate
          bad.resize(rng() % bad.size());
          break;
        case 1:  // flip a byte
          bad[rng() % bad.size()] = static_cast<char>(rng() % 256);
          break;
        case 2:  // insert a byte
          bad.insert(bad.begin() + static_cast<long>(rng() % bad.size()),
                     static_cast<char>(rng() % 256));
          break;
        default:  // a byte for an empty message
          bad.push_back(static_cast<char>(rng() % 256));
          break;
      }
      if (AnalyzeInput(t.desc, bad).ProtobufCIsOracle()) out.push_back({bad, kind == 0});
    }
  }
  return out;
}

}  // namespace pbci_test
