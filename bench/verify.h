// The check that keeps the race honest: before anything is timed, every
// decoder decodes every input, and all must succeed with the same content.
// (The original iter-unpack benchmark timed a decoder on the wrong schema
// for half its iterations; this makes that impossible.)
#ifndef PROTOBUF_C_ITER_BENCH_VERIFY_H_
#define PROTOBUF_C_ITER_BENCH_VERIFY_H_

#include <string>
#include <vector>

#include "inputs.h"

namespace pbci_bench {

// "" when every decoder accepts `in` and all agree; otherwise what failed.
// Agreement: each decoder's content, twice decoded with the same decoder
// object (as the timing loop reuses it), equals libprotobuf's parse of the
// input (google::protobuf::util::MessageDifferencer: fields, map entries,
// unknown fields); iter's struct has the input's type, as many unknown
// fields as protobuf-c's, and re-packs to the same bytes;
// x__iter_unpacked_size equals the bytes x__iter_unpack used. With upb in the
// race, its decoders (upb_fast, upb_fast_alias) are checked too, re-encoded
// by upb.
std::string Verify(const Input& in);

// With upb in the race: fails unless fasttable is live (a fast-path mask
// other than 255) for at least one input's type.
std::string VerifyUpbFasttable(const std::vector<Input>& inputs);

}  // namespace pbci_bench

#endif  // PROTOBUF_C_ITER_BENCH_VERIFY_H_
