// Random but deterministic libprotobuf messages of any type, for
// differential tests: every field kind, edge values, nested messages.
#ifndef PROTOBUF_C_ITER_TESTS_RANDOM_MESSAGE_H_
#define PROTOBUF_C_ITER_TESTS_RANDOM_MESSAGE_H_

#include <google/protobuf/message.h>

#include <cstdint>
#include <random>
#include <string>

namespace pbci_test {

// Fills `m` at random; required fields are always set so protobuf-c accepts
// the result. Nesting stops at `max_depth`.
void FillRandom(google::protobuf::Message* m, std::mt19937* rng,
                int max_depth = 3);

// Serializes a random message of the type named `full_name` (from the
// generated pool).
std::string RandomWire(const std::string& full_name, std::mt19937* rng);

}  // namespace pbci_test

#endif  // PROTOBUF_C_ITER_TESTS_RANDOM_MESSAGE_H_
