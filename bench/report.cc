#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace pbci_bench {

const Family kDecoders[6] = {
    {"protobuf_c_malloc", "protobuf-c malloc"},
    {"protobuf_c_linear", "protobuf-c linear"},
    {"libprotobuf", "libprotobuf"},
    {"libprotobuf_arena", "libprotobuf arena"},
    {"libprotobuf_reuse", "libprotobuf reuse"},
    {"iter", "iter"},
};
const Family kIterSize = {"iter_size", "iter unpacked_size"};

namespace {

constexpr size_t kIter = 5;  // index of iter in kDecoders

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

// One bar per decoder per input, on a log scale: the rates span three
// orders of magnitude, from 7 KB messages to 54-byte ones.
std::string Chart(const std::vector<Input>& inputs, const std::vector<std::vector<double>>& rates,
                  const Environment& env) {
  static const char* const kColors[6] = {"#9e9e9e", "#616161", "#90caf9",
                                         "#42a5f5", "#1565c0", "#e65100"};
  const int label_w = 150, plot_w = 620, bar_h = 9, group_gap = 12, top = 78;
  const int n_dec = 6;
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
    int lx = 10 + i * 128;
    svg << "<rect x=\"" << lx << "\" y=\"46\" width=\"10\" height=\"10\" fill=\"" << kColors[i]
        << "\"/><text x=\"" << lx + 14 << "\" y=\"55\">" << kDecoders[i].title << "</text>\n";
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
          << std::max(1.0, x(m) - label_w) << "\" height=\"" << bar_h - 1 << "\" fill=\""
          << kColors[d] << "\"><title>" << kDecoders[d].title << ": " << Rate(rates[i][d])
          << " M/s</title></rect>\n";
      if (d == static_cast<int>(kIter)) {
        svg << "<text x=\"" << x(m) + 4 << "\" y=\"" << y + bar_h - 1 << "\" font-size=\"9\">"
            << Rate(rates[i][d]) << "</text>\n";
      }
    }
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace

void RaceReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    Result& r = results_[run.run_name.function_name];
    if (run.error_occurred) {
      r.error = true;
      continue;
    }
    auto rate = run.counters.find("items_per_second");
    if (rate == run.counters.end()) continue;
    if (run.run_type == Run::RT_Iteration) {
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

bool RaceReporter::Write(const std::string& dir, const std::vector<Input>& inputs,
                         const Environment& env, std::string* error) const {
  // rates[input][decoder]; size_rate[input] for iter_size.
  std::vector<std::vector<double>> rates(inputs.size(), std::vector<double>(6));
  std::vector<double> size_rates(inputs.size());
  std::string worst_cv_name;
  double worst_cv = -1;
  auto find = [&](const std::string& name, double* out) {
    auto it = results_.find(name);
    if (it == results_.end() || it->second.error || it->second.items_per_second <= 0) {
      *error = "no result for " + name + (it != results_.end() && it->second.error
                                              ? " (it failed)" : "");
      return false;
    }
    *out = it->second.items_per_second;
    if (it->second.cv > worst_cv) {
      worst_cv = it->second.cv;
      worst_cv_name = name;
    }
    return true;
  };
  for (size_t i = 0; i < inputs.size(); i++) {
    for (size_t d = 0; d < 6; d++) {
      if (!find(std::string(kDecoders[d].id) + "/" + inputs[i].name, &rates[i][d])) return false;
    }
    if (!find(std::string(kIterSize.id) + "/" + inputs[i].name, &size_rates[i])) return false;
  }

  std::ostringstream md;
  md << "Measured " << env.date << " by `bench/run.sh`, all decoders in one run.\n\n"
     << "- Machine: " << env.machine << "; " << env.os << "\n"
     << "- Compilers: " << env.compilers << "\n"
     << "- Libraries: " << env.libraries << "\n"
     << "- Method: " << env.method << "; each number is the median of " << repetitions_
     << " repetition" << (repetitions_ == 1 ? "" : "s");
  if (worst_cv >= 0) {
    md << " (largest coefficient of variation: " << Fmt("%.1f", worst_cv * 100) << "%, "
       << worst_cv_name << ")";
  }
  md << ".\n\n**Millions of unpacks per second** (higher is better)\n\n| input | bytes |";
  for (const Family& f : kDecoders) md << " " << f.title << " |";
  md << "\n|---|--:|";
  for (size_t d = 0; d < 6; d++) md << "--:|";
  md << "\n";
  for (size_t i = 0; i < inputs.size(); i++) {
    md << "| " << inputs[i].name << " | " << inputs[i].bytes.size() << " |";
    for (size_t d = 0; d < 6; d++) {
      md << (d == kIter ? " **" : " ") << Rate(rates[i][d]) << (d == kIter ? "** |" : " |");
    }
    md << "\n";
  }
  md << "\n**iter's speed-up over each decoder** (its rate divided by theirs), iter's "
        "throughput, and what `x__iter_unpacked_size` costs as a share of a full "
        "`x__iter_unpack`\n\n| input |";
  for (size_t d = 0; d < kIter; d++) md << " vs " << kDecoders[d].title << " |";
  md << " iter GB/s | unpacked_size / unpack |\n|---|";
  for (size_t d = 0; d < kIter + 2; d++) md << "--:|";
  md << "\n";
  for (size_t i = 0; i < inputs.size(); i++) {
    md << "| " << inputs[i].name << " |";
    for (size_t d = 0; d < kIter; d++) md << " " << Fmt("%.2f", rates[i][kIter] / rates[i][d]) << "x |";
    md << " " << Fmt("%.2f", rates[i][kIter] * static_cast<double>(inputs[i].bytes.size()) / 1e9)
       << " | " << Fmt("%.0f", 100 * rates[i][kIter] / size_rates[i]) << "% |\n";
  }
  md << "\nInputs: ";
  for (size_t i = 0; i < inputs.size(); i++) {
    md << (i ? "; " : "") << "`" << inputs[i].name << "` (" << inputs[i].codec.pbc->name << ", "
       << inputs[i].origin << ")";
  }
  md << ".\n";

  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream report(dir + "/report.md");
  report << md.str();
  std::ofstream chart(dir + "/chart.svg");
  chart << Chart(inputs, rates, env);
  if (!report || !chart) {
    *error = "cannot write the report into " + dir;
    return false;
  }
  return true;
}

}  // namespace pbci_bench
