#include "differential_inputs.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

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

}  // namespace

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
