// pbci_bench: protobuf-c-iter against protobuf-c (malloc and a linear
// allocator), libprotobuf (new message, arena, reused message) and, when the
// build has it, upb's fasttable decoder, on the same inputs, in one run. See
// bench/README.md.
//
//   pbci_bench [--datasets=DIR] [--report_dir=DIR] [--verify_only]
//              [--rounds=N | --samples_from=RAW[,RAW...]]
//              [Google Benchmark flags]
//
// --rounds=N runs every benchmark N times, a round at a time, each input's
// decoders back to back (report.h); without it, one Google Benchmark run
// (use --benchmark_repetitions). --samples_from runs nothing: it reports
// the rounds of earlier runs' raw.json files together (bench/run.sh: one
// run per code placement) into --report_dir.
//
// Every input is decoded by every decoder and compared before anything is
// timed (verify.h); a decoder that fails aborts the run.
#include <benchmark/benchmark.h>
#include <google/protobuf/stubs/common.h>
#include <protobuf-c-iter/protobuf-c-iter.h>
#include <sys/utsname.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "decoders.h"
#include "inputs.h"
#include "report.h"
#include "verify.h"

namespace pbci_bench {
namespace {

template <class D>
void Race(benchmark::State& state, const Input* in) {
  D decoder(in->codec);
  const auto* data = reinterpret_cast<const uint8_t*>(in->bytes.data());
  const size_t len = in->bytes.size();
  for (auto _ : state) {
    if (!decoder.Decode(data, len)) {
      state.SkipWithError("decode failed");
      break;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(len));
}

void RegisterAll(const std::vector<Input>& inputs) {
  using Fn = void (*)(benchmark::State&, const Input*);
  // By family id (report.h's Decoders()).
  const std::map<std::string, Fn> races = {
      {"protobuf_c_malloc", Race<ProtobufCMallocDecoder>},
      {"protobuf_c_linear", Race<ProtobufCLinearDecoder>},
      {"libprotobuf", Race<LibprotobufDecoder>},
      {"libprotobuf_arena", Race<LibprotobufArenaDecoder>},
      {"libprotobuf_reuse", Race<LibprotobufReuseDecoder>},
#ifdef PBCI_BENCH_HAVE_UPB
      {"upb", Race<UpbPlainDecoder>},
      {"upb_fast", Race<UpbDecoder>},
      {"upb_fast_alias", Race<UpbAliasDecoder>},
#endif
      {"iter_alias", Race<IterAliasDecoder>},
      {"iter", Race<IterDecoder>},
      {kIterSize.id, Race<IterSizeDecoder>},
  };
  std::vector<Family> families = Decoders();
  families.push_back(kIterSize);
  for (const Input& in : inputs) {
    for (const Family& family : families) {
      benchmark::RegisterBenchmark(
          (std::string(family.id) + "/" + in.name).c_str(), races.at(family.id),
          &in);
    }
  }
}

std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown CPU";
}

Environment Describe(const std::string& benchmark_flags) {
  Environment env;
  char date[64];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  env.date = date;
  const benchmark::CPUInfo& cpu = benchmark::CPUInfo::Get();
  env.machine = CpuModel() + ", " + std::to_string(cpu.num_cpus) + " CPUs at " +
                std::to_string(static_cast<long>(cpu.cycles_per_second / 1e6)) + " MHz";
  for (const auto& cache : cpu.caches) {
    if (cache.type == "Instruction") continue;
    env.machine += ", L" + std::to_string(cache.level) + " " +
                   std::to_string(cache.size / 1024) + " KiB";
  }
  struct utsname u;
  if (uname(&u) == 0) env.os = std::string(u.sysname) + " " + u.release + " " + u.machine;
  env.compilers = "C: " PBCI_BENCH_C_COMPILER ", C++: " PBCI_BENCH_CXX_COMPILER
                  ", build type " PBCI_BENCH_BUILD_TYPE " (" PBCI_BENCH_FLAGS ")";
  env.libraries = std::string("protobuf-c ") + protobuf_c_version() + ", libprotobuf " +
                  google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION) +
                  ", Google Benchmark " PBCI_BENCH_BENCHMARK_VERSION ", protobuf-c-iter " +
                  protobuf_c_iter_version();
#ifdef PBCI_BENCH_HAVE_UPB
  env.libraries += ", " PBCI_BENCH_UPB_BUILD;
#endif
  env.method = "Google Benchmark, CPU time, flags `" + benchmark_flags + "`";
  return env;
}

int Main(int argc, char** argv) {
  std::string datasets = PBCI_BENCH_DATASETS;
  std::string report_dir;
  bool verify_only = false;
  int rounds = 0;
  std::vector<std::string> samples_from;
  std::string benchmark_flags;
  std::vector<char*> args = {argv[0]};
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    if (arg.rfind("--datasets=", 0) == 0) {
      datasets = arg.substr(11);
    } else if (arg.rfind("--report_dir=", 0) == 0) {
      report_dir = arg.substr(13);
    } else if (arg == "--verify_only") {
      verify_only = true;
    } else if (arg.rfind("--samples_from=", 0) == 0) {
      std::istringstream files(arg.substr(15));
      for (std::string file; std::getline(files, file, ',');)
        samples_from.push_back(file);
    } else if (arg.rfind("--rounds=", 0) == 0) {
      char* rest = nullptr;
      const long n = std::strtol(arg.c_str() + 9, &rest, 10);
      if (rest == arg.c_str() + 9 || *rest != '\0' || n < 1 || n > 1000) {
        std::fprintf(stderr, "pbci_bench: --rounds wants a number from 1 to 1000: %s\n",
                     arg.c_str());
        return 2;
      }
      rounds = static_cast<int>(n);
    } else {
      // The timing flags, for the report (not where it writes files).
      if (arg.rfind("--benchmark_", 0) == 0 && arg.rfind("--benchmark_out", 0) != 0) {
        benchmark_flags += (benchmark_flags.empty() ? "" : " ") + arg;
      }
      args.push_back(argv[i]);
    }
  }
  if (!samples_from.empty() && (rounds > 0 || report_dir.empty())) {
    std::fprintf(
        stderr,
        "pbci_bench: --samples_from wants --report_dir, and no --rounds\n");
    return 2;
  }
  if (rounds > 0) {
    // Google Benchmark takes these from the command line or, as defaults,
    // from environment variables of the same names in upper case.
    static const char* const kRoundsSet[] = {"repetitions", "filter",
                                             "enable_random_interleaving", "out"};
    for (const char* flag : kRoundsSet) {
      std::string env = std::string("BENCHMARK_") + flag;
      for (char& c : env) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      std::string given = std::getenv(env.c_str()) != nullptr ? env : "";
      for (size_t i = 1; i < args.size() && given.empty(); i++) {
        if (std::string(args[i]).rfind(std::string("--benchmark_") + flag, 0) == 0) given = args[i];
      }
      if (!given.empty()) {
        std::fprintf(stderr,
                     "pbci_bench: %s does not go with --rounds (each round runs every "
                     "benchmark once, each input's decoders in random order, and the "
                     "samples go to the report directory's raw.json)\n",
                     given.c_str());
        return 2;
      }
    }
    // Shuffles the decoders of the input that each RunSpecifiedBenchmarks
    // call below runs.
    args.push_back(const_cast<char*>("--benchmark_enable_random_interleaving=true"));
    benchmark_flags = "--rounds=" + std::to_string(rounds) +
                      (benchmark_flags.empty() ? "" : " ") + benchmark_flags;
  }
  int bench_argc = static_cast<int>(args.size());
  benchmark::Initialize(&bench_argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(bench_argc, args.data())) return 2;

  std::vector<Input> inputs;
  std::string error;
  if (!GeneratedInputs(PBCI_BENCH_DESCRIPTOR_SET, &inputs, &error) ||
      (!datasets.empty() && !DatasetInputs(datasets, &inputs, &error))) {
    std::fprintf(stderr, "pbci_bench: %s\n", error.c_str());
    return 1;
  }
  for (const Input& in : inputs) {
    std::string mismatch = Verify(in);
    if (!mismatch.empty()) {
      std::fprintf(stderr, "pbci_bench: input %s (%s): %s\n", in.name.c_str(),
                   in.origin.c_str(), mismatch.c_str());
      return 1;
    }
  }
  error = VerifyUpbFasttable(inputs);
  if (!error.empty()) {
    std::fprintf(stderr, "pbci_bench: %s\n", error.c_str());
    return 1;
  }
  std::printf("verified: %zu inputs, every decoder accepts each with equal content\n",
              inputs.size());
  if (verify_only) return 0;

  RegisterAll(inputs);
  RaceReporter reporter;
  for (const std::string& file : samples_from) {
    if (!reporter.LoadSamples(file, &error)) {
      std::fprintf(stderr, "pbci_bench: %s\n", error.c_str());
      return 1;
    }
  }
  if (rounds > 0) {
    reporter.set_rounds(rounds);
    std::mt19937 rng(std::random_device{}());
    std::vector<size_t> order(inputs.size());
    std::iota(order.begin(), order.end(), size_t{0});
    for (int round = 0; round < rounds && !reporter.failed(); round++) {
      std::shuffle(order.begin(), order.end(), rng);
      for (size_t i : order) {
        // Input names are [a-z0-9_]: nothing to escape.
        benchmark::RunSpecifiedBenchmarks(&reporter, "^[a-z_]+/" + inputs[i].name + "$");
        if (reporter.failed()) break;
      }
    }
  } else if (samples_from.empty()) {
    benchmark::RunSpecifiedBenchmarks(&reporter);
  }
  benchmark::Shutdown();
  if (reporter.failed()) {
    std::fprintf(stderr, "pbci_bench: a benchmark failed (see above)\n");
    return 1;
  }
  if (!report_dir.empty()) {
    if (!reporter.Write(report_dir, inputs, Describe(benchmark_flags), &error)) {
      std::fprintf(stderr, "pbci_bench: %s\n", error.c_str());
      return 1;
    }
    std::printf("report written to %s/report.md and %s/chart.svg\n", report_dir.c_str(),
                report_dir.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace pbci_bench

int main(int argc, char** argv) { return pbci_bench::Main(argc, argv); }
