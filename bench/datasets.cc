// The shared dataset files as bench inputs, when the build found them
// (PBCI_BENCH_HAVE_DATASETS): read in place, never copied. Only protoc-c's
// headers here: the seed's schemas have no package, so their C and C++
// names collide.
#include "inputs.h"

#ifdef PBCI_BENCH_HAVE_DATASETS
#include "benchmark_message1_proto2.pb-iter.h"
#include "benchmark_message1_proto3.pb-iter.h"
#include "ssrtb_v6.pb-iter.h"
#include "test.pb-iter.h"
#endif

namespace pbci_bench {

bool DatasetInputs(const std::string& dir, std::vector<Input>* out, std::string* error) {
#ifdef PBCI_BENCH_HAVE_DATASETS
  const Input files[] = {
      {"seed_uint32", "seed/messages/BENCMARK_UINT32_DATA_1.bin",
       PBCI_BENCH_CODEC(benchmark_uint32), ""},
      {"seed_fixed32", "seed/messages/BENCMARK_FIXED32_DATA_1.bin",
       PBCI_BENCH_CODEC(benchmark_fixed32), ""},
      {"seed_fixed64", "seed/messages/BENCMARK_FIXED64_DATA_1.bin",
       PBCI_BENCH_CODEC(benchmark_fixed64), ""},
      {"seed_string", "seed/messages/BENCMARK_STRING_DATA_1.bin",
       PBCI_BENCH_CODEC(benchmark_string), ""},
      {"seed_openx", "seed/messages/OPENX_1.bin", PBCI_BENCH_CODEC(bid_request),
       ""},
      {"gm1_proto2", "google_message1/google_message1_proto2.payload0.bin",
       PBCI_BENCH_CODEC(benchmarks__proto2__google_message1),
       ""},
      {"gm1_proto3", "google_message1/google_message1_proto3.payload0.bin",
       PBCI_BENCH_CODEC(benchmarks__proto3__google_message1),
       ""},
  };
  for (const Input& file : files) {
    Input in = file;
    in.origin = "datasets/" + file.origin;
    if (!ReadFile(dir + "/" + file.origin, &in.bytes)) {
      *error = "cannot read " + dir + "/" + file.origin;
      return false;
    }
    out->push_back(in);
  }
#else
  (void)dir;
  (void)out;
  (void)error;
#endif
  return true;
}

}  // namespace pbci_bench
