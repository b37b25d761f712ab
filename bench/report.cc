#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#ifdef PBCI_BENCH_HAVE_UPB
#include "upb_shim.h"
#endif

namespace pbci_bench {

const std::vector<Family>& Decoders() {
  static const std::vector<Family> decoders = {
      {"protobuf_c_malloc", "protobuf-c malloc"},
      {"protobuf_c_linear", "protobuf-c linear"},
      {"libprotobuf", "libprotobuf"},
      {"libprotobuf_arena", "libprotobuf arena"},
      {"libprotobuf_reuse", "libprotobuf reuse"},
#ifdef PBCI_BENCH_HAVE_UPB
      {"upb", "upb"},
      {"upb_fast", "upb fasttable"},
      {"upb_fast_alias", "upb fasttable alias"},
#endif
      {"iter_alias", "iter alias bytes"},
      {"iter", "iter"},
  };
  return decoders;
}
const Family kIterSize = {"iter_size", "iter unpacked_size"};

namespace {

std::string Fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// Three significant digits, as the seed's table.
std::string Rate(double per_second) {
  double m = per_second / 1e6;
  if (m >= 100) return Fmt("%.0f", m);
  if (m >= 10) return Fmt("%.1f", m);
  if (m >= 1) return Fmt("%.2f", m);
  return Fmt("%.3f", m);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The highest rate of a benchmark's rounds: its least disturbed one.
double Fastest(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

// Standard deviation over mean, with Bessel's correction, as Google
// Benchmark's "cv" aggregate.
double CoefficientOfVariation(const std::vector<double>& v) {
  if (v.size() < 2) return -1;
  double mean = 0, squares = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  for (double x : v) squares += (x - mean) * (x - mean);
  return std::sqrt(squares / static_cast<double>(v.size() - 1)) / mean;
}

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

// Whether messages of type `d` can hold bytes (protoc-c's bytes fields,
// string_as_bytes included), which iter's PROTOBUF_C_ITER_ALIAS_BYTES
// aliases: the inputs its aliasing target is for.
bool CanAlias(const ProtobufCMessageDescriptor* d,
              std::set<const ProtobufCMessageDescriptor*>* seen) {
  if (!seen->insert(d).second) return false;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor& f = d->fields[i];
    if (f.type == PROTOBUF_C_TYPE_BYTES) return true;
    if (f.type == PROTOBUF_C_TYPE_MESSAGE &&
        CanAlias(static_cast<const ProtobufCMessageDescriptor*>(f.descriptor),
                 seen)) {
      return true;
    }
  }
  return false;
}

// One of issue 21's targets: iter's ratio over a decoder (`ratios`, by
// input) must reach `at least` on the inputs `applies` selects.
struct Target {
  std::string what;
  double at_least;
  std::vector<double> ratios;
  std::vector<bool> applies;
};

// The targets table: how many inputs meet each, and the ratios that miss.
std::string TargetsTable(const std::vector<Input>& inputs,
                         const std::vector<Target>& targets) {
  std::ostringstream md;
  md << "\n**Targets** (issue 21): where iter's paired ratio reaches each, and "
        "where it "
        "falls short\n\n| target | met | missed |\n|---|--:|---|\n";
  for (const Target& t : targets) {
    size_t applies = 0, met = 0;
    std::string missed;
    for (size_t i = 0; i < inputs.size(); i++) {
      if (!t.applies[i]) continue;
      applies++;
      if (t.ratios[i] >= t.at_least) {
        met++;
      } else {
        missed += (missed.empty() ? "" : ", ") + inputs[i].name + " " +
                  MissedRatio(t.ratios[i], t.at_least);
      }
    }
    md << "| " << t.what << " | " << met << " of " << applies << " | "
       << (missed.empty() ? "none" : missed) << " |\n";
  }
  return md.str();
}

// One bar per decoder per input, on a log scale: the rates span three
// orders of magnitude, from 7 KB messages to 54-byte ones.
std::string Chart(const std::vector<Input>& inputs, const std::vector<std::vector<double>>& rates,
                  const Environment& env) {
  // By decoder id; the legend takes six a line.
  static const std::map<std::string, const char*> kColors = {
      {"protobuf_c_malloc", "#9e9e9e"}, {"protobuf_c_linear", "#616161"},
      {"libprotobuf", "#90caf9"},       {"libprotobuf_arena", "#42a5f5"},
      {"libprotobuf_reuse", "#1565c0"}, {"upb", "#c5e1a5"},
      {"upb_fast", "#81c784"},          {"upb_fast_alias", "#2e7d32"},
      {"iter_alias", "#ffb74d"},        {"iter", "#e65100"}};
  const std::vector<Family>& decoders = Decoders();
  const int n_dec = static_cast<int>(decoders.size());
  const size_t iter = decoders.size() - 1;
  const int legend_lines = (n_dec + 5) / 6;
  const int label_w = 150, plot_w = 620, bar_h = 9, group_gap = 12,
            top = 64 + 14 * legend_lines;
  double lo = 1e300, hi = 0;
  for (const auto& row : rates) {
    for (double r : row) {
      lo = std::min(lo, r / 1e6);
      hi = std::max(hi, r / 1e6);
    }
  }
  const double lo_exp = std::floor(std::log10(lo)), hi_exp = std::ceil(std::log10(hi));
  auto x = [&](double m) {
    return label_w + plot_w * (std::log10(m) - lo_exp) / (hi_exp - lo_exp);
  };
  const int group_h = n_dec * bar_h + group_gap;
  const int height = top + static_cast<int>(inputs.size()) * group_h + 40;
  const int width = label_w + plot_w + 70;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
      << height << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"18\" font-size=\"14\" font-weight=\"bold\">"
      << "Millions of unpacks per second (log scale; higher is better)</text>\n"
      << "<text x=\"10\" y=\"34\" fill=\"#555\">" << Escape(env.machine) << "; "
      << Escape(env.date) << "</text>\n";
  for (int i = 0; i < n_dec; i++) {
    const int lx = 10 + (i % 6) * 128, ly = 46 + (i / 6) * 14;
    svg << "<rect x=\"" << lx << "\" y=\"" << ly
        << "\" width=\"10\" height=\"10\" fill=\"" << kColors.at(decoders[i].id)
        << "\"/><text x=\"" << lx + 14 << "\" y=\"" << ly + 9 << "\">"
        << decoders[i].title << "</text>\n";
  }
  for (double e = lo_exp; e <= hi_exp; e++) {
    double gx = x(std::pow(10.0, e));
    svg << "<line x1=\"" << gx << "\" y1=\"" << top - 6 << "\" x2=\"" << gx << "\" y2=\""
        << height - 30 << "\" stroke=\"#ddd\"/>\n"
        << "<text x=\"" << gx << "\" y=\"" << height - 16 << "\" text-anchor=\"middle\">"
        << Fmt("%g", std::pow(10.0, e)) << "</text>\n";
  }
  for (size_t i = 0; i < inputs.size(); i++) {
    const int gy = top + static_cast<int>(i) * group_h;
    svg << "<text x=\"" << label_w - 8 << "\" y=\"" << gy + n_dec * bar_h / 2 + 4
        << "\" text-anchor=\"end\">" << Escape(inputs[i].name) << "</text>\n";
    for (int d = 0; d < n_dec; d++) {
      const double m = rates[i][d] / 1e6;
      const int y = gy + d * bar_h;
      svg << "<rect x=\"" << label_w << "\" y=\"" << y << "\" width=\""
          << std::max(1.0, x(m) - label_w) << "\" height=\"" << bar_h - 1
          << "\" fill=\"" << kColors.at(decoders[d].id) << "\"><title>"
          << decoders[d].title << ": " << Rate(rates[i][d])
          << " M/s</title></rect>\n";
      if (d == static_cast<int>(iter)) {
        svg << "<text x=\"" << x(m) + 4 << "\" y=\"" << y + bar_h - 1 << "\" font-size=\"9\">"
            << Rate(rates[i][d]) << "</text>\n";
      }
    }
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace

bool RaceReporter::ReportContext(const Context& context) {
  if (context_reported_) return true;
  context_reported_ = true;
  return ConsoleReporter::ReportContext(context);
}

void RaceReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    Result& r = results_[run.run_name.function_name];
    if (run.error_occurred) {
      r.error = true;
      continue;
    }
    auto rate = run.counters.find("items_per_second");
    if (rate == run.counters.end()) continue;
    if (rounds_ > 0) {
      if (run.run_type == Run::RT_Iteration) r.samples.push_back(rate->second.value);
    } else if (run.run_type == Run::RT_Iteration) {
      // Kept only when not repeated: then there is no median.
      if (!r.has_median) r.items_per_second = rate->second.value;
    } else if (run.aggregate_name == "median") {
      r.items_per_second = rate->second.value;
      r.has_median = true;
      repetitions_ = static_cast<int>(run.repetitions);
    } else if (run.aggregate_name == "cv") {
      r.cv = rate->second.value;
    }
  }
  ConsoleReporter::ReportRuns(runs);
}

bool RaceReporter::failed() const {
  for (const auto& [name, result] : results_) {
    if (result.error) return true;
  }
  return false;
}

double RaceReporter::SizedRatio(const Result& unpack, const Result& size,
                                const Result& other) const {
  // Rates per round: one call of each takes 1/unpack + 1/size seconds.
  auto sized = [](double unpack_rate, double size_rate) {
    return 1 / (1 / unpack_rate + 1 / size_rate);
  };
  if (rounds_ == 0) {
    return sized(unpack.items_per_second, size.items_per_second) /
           other.items_per_second;
  }
  std::vector<double> ratios;
  for (size_t k = 0; k < unpack.samples.size(); k++) {
    ratios.push_back(sized(unpack.samples[k], size.samples[k]) /
                     other.samples[k]);
  }
  return Median(ratios);
}

double RaceReporter::PairedRatio(const Result& a, const Result& b) const {
  std::vector<double> ratios;
  for (size_t k = 0; k < a.samples.size(); k++) ratios.push_back(a.samples[k] / b.samples[k]);
  return Median(ratios);
}

bool RaceReporter::LoadSamples(const std::string& path, std::string* error) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string raw = text.str();
  // WriteSamples' layout: "rounds": N, then "name": [rate, ...] per
  // benchmark, each on its own line.
  const std::string rounds_key = "\"rounds\": ", name_start = "\n    \"";
  const size_t at = raw.find(rounds_key);
  const int rounds = at == std::string::npos
                         ? 0
                         : std::atoi(raw.c_str() + at + rounds_key.size());
  if (!in || rounds <= 0) {
    *error = "cannot read the rounds of " + path;
    return false;
  }
  size_t pos = raw.find("\"items_per_second\"");
  size_t benchmarks = 0;
  while (pos != std::string::npos) {
    const size_t open = raw.find(name_start, pos);
    if (open == std::string::npos) break;
    const size_t name_at = open + name_start.size();
    const size_t name_end = raw.find('"', name_at);
    const size_t list = raw.find('[', name_end);
    const size_t close = raw.find(']', list);
    if (name_end == std::string::npos || list == std::string::npos ||
        close == std::string::npos) {
      break;
    }
    const std::string name = raw.substr(name_at, name_end - name_at);
    std::vector<double>& samples = results_[name].samples;
    const size_t before = samples.size();
    std::istringstream values(raw.substr(list + 1, close - list - 1));
    for (std::string value; std::getline(values, value, ',');) {
      samples.push_back(std::strtod(value.c_str(), nullptr));
    }
    if (samples.size() - before != static_cast<size_t>(rounds)) {
      *error = path + ": " + name + " has " +
               std::to_string(samples.size() - before) + " samples for " +
               std::to_string(rounds) + " rounds";
      return false;
    }
    benchmarks++;
    pos = close;
  }
  if (benchmarks == 0) {
    *error = "no samples in " + path;
    return false;
  }
  // The report says how many rounds each run gave when they all gave as many.
  rounds_per_run_ = runs_loaded_ == 0 || rounds_per_run_ == rounds ? rounds : 0;
  rounds_ += rounds;
  runs_loaded_++;
  return true;
}

// Every sample, for a look at the spread: {"rounds": R, "items_per_second":
// {"<family>/<input>": [one per round], ...}}.
bool RaceReporter::WriteSamples(const std::string& path) const {
  std::ofstream out(path);
  out << "{\n  \"rounds\": " << rounds_ << ",\n  \"items_per_second\": {";
  const char* sep = "\n";
  for (const auto& [name, result] : results_) {
    out << sep << "    \"" << name << "\": [";
    for (size_t k = 0; k < result.samples.size(); k++) {
      out << (k ? ", " : "") << Fmt("%.6g", result.samples[k]);
    }
    out << "]";
    sep = ",\n";
  }
  out << "\n  }\n}\n";
  return static_cast<bool>(out);
}

bool RaceReporter::Write(const std::string& dir, const std::vector<Input>& inputs,
                         const Environment& env, std::string* error) const {
  // rates[input][decoder]: medians; speedups[input][decoder]: iter's rate
  // over the decoder's; size_shares[input]: iter_size's time over iter's.
  const std::vector<Family>& decoders = Decoders();
  const size_t n_dec = decoders.size(), iter = n_dec - 1;
  // The decoders iter races: all but its own variants (iter_*).
  std::vector<size_t> others;
  for (size_t d = 0; d < iter; d++) {
    if (std::string(decoders[d].id).rfind("iter", 0) != 0) others.push_back(d);
  }
  // Pairs with a target of their own (issue 21): iter against upb's
  // fasttable, each copying or aliasing bytes.
  std::vector<std::pair<size_t, size_t>> pairs;
  auto index_of = [&](const char* id) {
    for (size_t d = 0; d < n_dec; d++) {
      if (std::string(decoders[d].id) == id) return d;
    }
    return n_dec;
  };
  if (index_of("upb_fast") < n_dec) {
    pairs = {{iter, index_of("upb_fast")},
             {index_of("iter_alias"), index_of("upb_fast_alias")}};
  }
  std::vector<std::vector<double>> rates(inputs.size(),
                                         std::vector<double>(n_dec));
  std::vector<std::vector<double>> speedups(inputs.size(),
                                            std::vector<double>(n_dec));
  std::vector<std::vector<double>> pair_ratios(
      inputs.size(), std::vector<double>(pairs.size()));
  // In rounds: the same pairs' fastest rounds, a over b.
  std::vector<std::vector<double>> pair_best(inputs.size(),
                                             std::vector<double>(pairs.size()));
  std::vector<double> size_shares(inputs.size());
  // sized_vs_arena[input]: iter_size then iter (a caller that sizes its
  // buffer exactly first) against libprotobuf with a fresh arena.
  const size_t arena = index_of("libprotobuf_arena");
  std::vector<double> sized_vs_arena(inputs.size());
  std::string worst_cv_name;
  double worst_cv = -1;
  auto find = [&](const std::string& name) -> const Result* {
    auto it = results_.find(name);
    const bool complete =
        it != results_.end() && !it->second.error &&
        (rounds_ > 0 ? it->second.samples.size() == static_cast<size_t>(rounds_)
                     : it->second.items_per_second > 0);
    if (!complete) {
      *error = "no result for " + name +
               (it == results_.end() ? ""
                : it->second.error   ? " (it failed)"
                : rounds_ > 0        ? " in every round"
                                     : "");
      return nullptr;
    }
    const double cv = rounds_ > 0 ? CoefficientOfVariation(it->second.samples) : it->second.cv;
    if (cv > worst_cv) {
      worst_cv = cv;
      worst_cv_name = name;
    }
    return &it->second;
  };
  auto rate = [&](const Result& r) {
    return rounds_ > 0 ? Median(r.samples) : r.items_per_second;
  };
  // a's rate over b's: in rounds, paired round by round.
  auto ratio = [&](const Result& a, const Result& b) {
    return rounds_ > 0 ? PairedRatio(a, b) : rate(a) / rate(b);
  };
  for (size_t i = 0; i < inputs.size(); i++) {
    std::vector<const Result*> row(n_dec);
    for (size_t d = 0; d < n_dec; d++) {
      row[d] = find(std::string(decoders[d].id) + "/" + inputs[i].name);
      if (row[d] == nullptr) return false;
      rates[i][d] = rate(*row[d]);
    }
    const Result* size = find(std::string(kIterSize.id) + "/" + inputs[i].name);
    if (size == nullptr) return false;
    for (size_t d : others) speedups[i][d] = ratio(*row[iter], *row[d]);
    for (size_t k = 0; k < pairs.size(); k++) {
      pair_ratios[i][k] = ratio(*row[pairs[k].first], *row[pairs[k].second]);
      if (rounds_ > 0) {
        pair_best[i][k] = Fastest(row[pairs[k].first]->samples) /
                          Fastest(row[pairs[k].second]->samples);
      }
    }
    size_shares[i] = ratio(*row[iter], *size);
    sized_vs_arena[i] = SizedRatio(*row[iter], *size, *row[arena]);
  }

  std::ostringstream md;
  md << "Measured " << env.date << " by `bench/run.sh`, all decoders in "
     << (runs_loaded_ > 1
             ? "each of " + std::to_string(runs_loaded_) +
                   " runs, one per placement of the code and data (bench/README.md)"
             : std::string("one run"))
     << ".\n\n"
     << "- Machine: " << env.machine << "; " << env.os << "\n"
     << "- Compilers: " << env.compilers << "\n"
     << "- Libraries: " << env.libraries << "\n"
     << "- Method: " << env.method;
  if (rounds_ > 0) {
    md << "; " << rounds_ << " rounds";
    if (runs_loaded_ > 1) {
      md << " ("
         << (rounds_per_run_ > 0 ? std::to_string(rounds_per_run_) + " in each"
                                 : std::string("shared out over each"))
         << " of " << runs_loaded_
         << " links of the code, each with its own pads of code ahead of "
            "all else and of read-only data after it: bench/placements.sh)";
    }
    md << ", each running the inputs in random order and, for an input, "
          "every decoder once in random order; each rate is the median over "
          "the rounds and each ratio the median of the rounds' ratios";
  } else {
    md << "; each number is the median of " << repetitions_ << " repetition"
       << (repetitions_ == 1 ? "" : "s");
  }
  if (worst_cv >= 0) {
    md << " (largest coefficient of variation: " << Fmt("%.1f", worst_cv * 100) << "%, "
       << worst_cv_name << ")";
  }
  md << ".\n\n**Millions of unpacks per second** (higher is better)\n\n| input | bytes |";
  for (const Family& f : decoders) md << " " << f.title << " |";
  md << "\n|---|--:|";
  for (size_t d = 0; d < n_dec; d++) md << "--:|";
  md << "\n";
  for (size_t i = 0; i < inputs.size(); i++) {
    md << "| " << inputs[i].name << " | " << inputs[i].bytes.size() << " |";
    for (size_t d = 0; d < n_dec; d++) {
      md << (d == iter ? " **" : " ") << Rate(rates[i][d])
         << (d == iter ? "** |" : " |");
    }
    md << "\n";
  }
  md << "\n**iter's speed-up over each decoder** (its rate divided by theirs"
     << (rounds_ > 0 ? ", per round; the median" : "")
     << "), iter's "
        "throughput, what `x__iter_unpacked_size` costs as a share of a full "
        "`x__iter_unpack`, and both together (a buffer sized exactly, then the "
        "decode) against libprotobuf with a fresh arena per message\n\n| input "
        "|";
  for (size_t d : others) md << " vs " << decoders[d].title << " |";
  md << " iter GB/s | unpacked_size / unpack | unpacked_size + unpack vs "
     << decoders[arena].title << " |\n|---|";
  for (size_t d = 0; d < others.size() + 3; d++) md << "--:|";
  md << "\n";
  for (size_t i = 0; i < inputs.size(); i++) {
    md << "| " << inputs[i].name << " |";
    for (size_t d : others) md << " " << Fmt("%.2f", speedups[i][d]) << "x |";
    md << " "
       << Fmt("%.2f", rates[i][iter] *
                          static_cast<double>(inputs[i].bytes.size()) / 1e9)
       << " | " << Fmt("%.0f", 100 * size_shares[i]) << "% | "
       << Fmt("%.2f", sized_vs_arena[i]) << "x |\n";
  }
  if (!pairs.empty()) {
    md << "\n**Against upb's fasttable**: iter's rate over upb's, copying "
          "bytes and "
          "aliasing them (PROTOBUF_C_ITER_ALIAS_BYTES against "
          "kUpb_DecodeOption_AliasString; "
          "iter still copies strings, which protoc-c's structs hold "
          "NUL-terminated)"
       << (rounds_ > 0
               ? ", per round; the median. Then the ratio of the fastest "
                 "rounds: "
                 "slow phases of a shared machine only add time, and cost iter "
                 "more than upb (bench/README.md)"
               : "")
       << "\n\n| input |";
    const size_t columns = pairs.size() * (rounds_ > 0 ? 2 : 1);
    for (size_t c = 0; c < columns; c++) {
      const auto& [a, b] = pairs[c % pairs.size()];
      md << " " << decoders[a].title << " / " << decoders[b].title
         << (c < pairs.size() ? "" : ", fastest rounds") << " |";
    }
    md << "\n|---|";
    for (size_t c = 0; c < columns; c++) md << "--:|";
    md << "\n";
    for (size_t i = 0; i < inputs.size(); i++) {
      md << "| " << inputs[i].name << " |";
      for (size_t c = 0; c < columns; c++) {
        const size_t k = c % pairs.size();
        md << " "
           << Fmt("%.2f",
                  c < pairs.size() ? pair_ratios[i][k] : pair_best[i][k])
           << "x |";
      }
      md << "\n";
    }
  }
  std::vector<Target> targets;
  auto speedup_target = [&](const char* id, const std::string& what,
                            double at_least) {
    const size_t d = index_of(id);
    if (d == n_dec) return;
    Target t{what, at_least, {}, std::vector<bool>(inputs.size(), true)};
    for (size_t i = 0; i < inputs.size(); i++)
      t.ratios.push_back(speedups[i][d]);
    targets.push_back(t);
  };
  speedup_target("upb_fast", "iter >= 1.3x upb fasttable", 1.3);
  if (!pairs.empty()) {
    Target t{"iter alias bytes >= 1.0x upb fasttable alias (inputs with bytes)",
             1.0,
             {},
             {}};
    for (size_t i = 0; i < inputs.size(); i++) {
      std::set<const ProtobufCMessageDescriptor*> seen;
      t.ratios.push_back(pair_ratios[i][1]);
      t.applies.push_back(CanAlias(inputs[i].codec.pbc, &seen));
    }
    targets.push_back(t);
  }
  speedup_target("libprotobuf_reuse", "iter >= 1.5x libprotobuf reuse", 1.5);
  speedup_target("protobuf_c_linear", "iter >= 3x protobuf-c linear", 3.0);
  speedup_target("protobuf_c_malloc", "iter >= 5x protobuf-c malloc", 5.0);
  targets.push_back(Target{"unpacked_size + unpack >= 1.5x libprotobuf arena",
                           1.5, sized_vs_arena,
                           std::vector<bool>(inputs.size(), true)});
  md << TargetsTable(inputs, targets);
  md << "\nInputs: ";
  for (size_t i = 0; i < inputs.size(); i++) {
    md << (i ? "; " : "") << "`" << inputs[i].name << "` ("
       << inputs[i].codec.pbc->name << ", " << inputs[i].origin;
#ifdef PBCI_BENCH_HAVE_UPB
    // Fasttable is live for a type whose table's mask is not 255 (the
    // verifier refuses to race one that is).
    md << ", upb fast-path mask "
       << pbci_upb_table_mask(pbci_upb_table(
              inputs[i].codec.cpp->GetDescriptor()->full_name().c_str()));
#endif
    md << ")";
  }
  md << ".\n";

  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream report(dir + "/report.md");
  report << md.str();
  std::ofstream chart(dir + "/chart.svg");
  chart << Chart(inputs, rates, env);
  if (!report || !chart || (rounds_ > 0 && !WriteSamples(dir + "/raw.json"))) {
    *error = "cannot write the report into " + dir;
    return false;
  }
  return true;
}

std::string MissedRatio(double ratio, double target) {
  std::string shown;
  for (const char* format : {"%.2f", "%.3f", "%.4f", "%.6f"}) {
    shown = Fmt(format, ratio);
    if (std::strtod(shown.c_str(), nullptr) < target) break;
  }
  return shown + "x";
}

}  // namespace pbci_bench
