// The bound on the buffer any input can need, x__iter_unpacked_size_bound:
// K * len + the top-level struct, where K is the most bytes of buffer one
// byte of input can cost. K is the largest of a few terms, each a C
// constant expression (sizeof the structs and array elements involved)
// over the fewest input bytes that can cost it, taken over every field of
// every message type the message can reach. The runtime's allocation
// policy, which these terms follow, is described in its
// <protobuf-c-iter/protobuf-c-iter.h> (PROTOBUF_C_ITER_ARRAY_COST) and
// internal/decode.h ("arrays").
#ifndef PROTOBUF_C_ITER_PLUGIN_BOUND_H_
#define PROTOBUF_C_ITER_PLUGIN_BOUND_H_

#include <google/protobuf/descriptor.h>

#include <string>
#include <vector>

namespace protobuf_c_iter {

struct FieldModel;

// "`cost` bytes of buffer for every `bytes` bytes of input, at most."
struct BoundTerm {
  std::string cost;  // a C constant expression, e.g.
                     // "PROTOBUF_C_ITER_ARRAY_COST(sizeof(int32_t))"
  int bytes = 1;     // the fewest input bytes that cost it
  std::string why;   // for the header comment: the field and its form
};

// The terms of one field `f` of message `owner` (its full name), appended
// to `terms`: the struct a sub-message occurrence creates, the array slot
// (and copy) a repeated element takes. Singular scalars, strings and bytes
// cost at most a byte per byte, which the final list always holds.
void AddFieldBoundTerms(const FieldModel& f, const std::string& owner,
                        std::vector<BoundTerm>* terms);

// The terms every message has (copies of strings and bytes, unknown
// fields) followed by `terms` without repeats: for one cost, the term with
// the fewest bytes; in a stable order.
std::vector<BoundTerm> FinishBoundTerms(std::vector<BoundTerm> terms);

}  // namespace protobuf_c_iter

#endif  // PROTOBUF_C_ITER_PLUGIN_BOUND_H_
