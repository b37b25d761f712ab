// The race's report: a console reporter that also keeps each benchmark's
// median (and spread), then writes the Markdown tables and the SVG chart.
#ifndef PROTOBUF_C_ITER_BENCH_REPORT_H_
#define PROTOBUF_C_ITER_BENCH_REPORT_H_

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

#include "inputs.h"

namespace pbci_bench {

// A benchmark family: one decoder. Benchmarks are named "<id>/<input>".
struct Family {
  const char* id;
  const char* title;
};
// The decoders in the report's column order (the seed's order, then upb's
// when the bench has it, iter last).
const std::vector<Family>& Decoders();
// Not a decoder: x__iter_unpacked_size alone, reported as a share of iter.
extern const Family kIterSize;

// What the report says about where the numbers come from.
struct Environment {
  std::string date;        // UTC
  std::string machine;     // CPU model, cores, clock, caches
  std::string os;          // kernel
  std::string compilers;   // C and C++ compilers and build flags
  std::string libraries;   // protobuf-c, libprotobuf, Google Benchmark, ours
  std::string method;      // repetitions, minimum time, interleaving
};

// Collects results in either of two methods:
//  - one Google Benchmark run with repetitions: each benchmark's median
//    and coefficient of variation as Google Benchmark aggregates them;
//  - rounds (set_rounds): RunSpecifiedBenchmarks once per input per round,
//    without repetitions, so that the decoders compared on an input run
//    within about a second of each other; each round adds one sample per
//    benchmark, rates are medians over the rounds and every ratio is the
//    median of the rounds' ratios (paired: a machine that drifts between
//    fast and slow phases moves both sides of a ratio together).
class RaceReporter : public benchmark::ConsoleReporter {
 public:
  // Rounds mode, `rounds` runs of every benchmark (call before any run).
  void set_rounds(int rounds) { rounds_ = rounds; }

  // The console header once, not once per RunSpecifiedBenchmarks.
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;

  // Rounds mode from earlier runs instead of running: appends the rounds of
  // a run's raw.json (written by Write, for the same inputs and decoders),
  // as if they had run here. bench/run.sh runs the race once per code
  // placement (bench/placements.sh) and reports them together, so that no
  // ratio rests on one link of the code. Fails, saying why, on a file it
  // cannot read or one without a sample per round for every benchmark.
  bool LoadSamples(const std::string& path, std::string* error);

  // True when a benchmark stopped on an error (a decode that failed).
  bool failed() const;

  // Writes `dir`/report.md (tables) and `dir`/chart.svg, and in rounds
  // mode `dir`/raw.json (every sample). Fails when a benchmark errored or a
  // decoder/input pair has no result (in rounds mode: not one per round).
  bool Write(const std::string& dir, const std::vector<Input>& inputs,
             const Environment& env, std::string* error) const;

 private:
  struct Result {
    double items_per_second = 0;  // the median over repetitions
    double cv = -1;               // coefficient of variation, if repeated
    bool has_median = false;
    bool error = false;
    std::vector<double> samples;  // rounds mode: items per second, by round
  };
  // rounds mode: the median over rounds of a / b, each round's pair.
  double PairedRatio(const Result& a, const Result& b) const;
  // The rate of sizing then decoding (size, then unpack, one call each) over
  // other's: in rounds mode, the median of the rounds' ratios.
  double SizedRatio(const Result& unpack, const Result& size,
                    const Result& other) const;
  bool WriteSamples(const std::string& path) const;

  // Keyed by the benchmark's name, "<family>/<input>".
  std::map<std::string, Result> results_;
  int repetitions_ = 1;
  int rounds_ = 0;
  int runs_loaded_ = 0;     // raw.json files behind the samples (LoadSamples)
  int rounds_per_run_ = 0;  // their rounds each, 0 when they differ
  bool context_reported_ = false;
};

// How the targets table shows a ratio that misses `target`: two decimals,
// or as many more as it takes to show it below (1.297 as "1.297x", not
// "1.30x").
std::string MissedRatio(double ratio, double target);

}  // namespace pbci_bench

#endif  // PROTOBUF_C_ITER_BENCH_REPORT_H_
