#!/usr/bin/env bash
# Publishes a report of bench/run.sh: between the bench-report markers,
# docs/benchmark.md gets the whole report and README.md the speed-up table
# cut to its headline columns and a line naming the targets the run misses
# (both with the chart); between README's bench-headline markers, one
# sentence of each headline column's range.
#   bench/publish.sh REPORT.md [ROOT]     (ROOT: the tree to write into)
set -euo pipefail
report=$1
root=${2:-$(cd "$(dirname "$0")/.." && pwd)}
[[ -f $report ]] || { echo "publish: no report $report" >&2; exit 1; }

# Replaces what lies between the lines <!-- $1:begin --> and <!-- $1:end -->
# of file $2 with the output of the command after them.
replace_between_markers() {
  local begin="<!-- $1:begin -->" end="<!-- $1:end -->" file=$2 tmp body
  shift 2
  if ! grep -qxF "$begin" "$file" || ! grep -qxF "$end" "$file"; then
    echo "publish: $file lacks the lines $begin and $end" >&2
    exit 1
  fi
  tmp=$(mktemp)
  body=$(mktemp)
  "$@" > "$body"
  awk -v begin="$begin" -v end="$end" -v body="$body" '
    $0 == begin { print; while ((getline line < body) > 0) print line; skip = 1; next }
    $0 == end   { skip = 0 }
    !skip' "$file" > "$tmp"
  cat "$tmp" > "$file"
  rm -f "$tmp" "$body"
  echo "publish: $file updated from $report"
}
full_report() {
  cat "$report"
  echo
  echo "![bench chart](../bench/results/chart.svg)"
}
# The speed-up table's input column and those named here, in this order
# (a decoder the run lacks, upb without its sources, is left out).
headline() {
  awk -F' *[|] *' -v want='vs protobuf-c malloc|vs protobuf-c linear|vs libprotobuf reuse|vs upb fasttable|iter GB/s' '
    BEGIN { n = split(want, names, "[|]") }
    /^[|] input [|] vs / && !done {
      for (i = 2; i < NF; i++) col[$i] = i
      cols[++k] = 2
      for (j = 1; j <= n; j++) if (names[j] in col) cols[++k] = col[names[j]]
      intable = 1
    }
    intable && !/^[|]/ { intable = 0; done = 1 }
    intable {
      line = "|"
      for (j = 1; j <= k; j++) line = line " " $cols[j] " |"
      print line
    }' "$report"
  missed_targets
  echo
  echo "Measured by \`bench/run.sh\` on $(sed -n 's/^- Machine: //p' "$report");"
  echo "the whole report, with rates, upb's aliasing mode and code size, is in"
  echo "[docs/benchmark.md](docs/benchmark.md)."
  echo
  echo "![bench chart](bench/results/chart.svg)"
}
# The targets the run misses, from the report's targets table, under the
# table: its ratios are rounded to two decimals (1.299x shows as 1.30x), so
# a reader must not have to open the whole report to learn that a row falls
# short. Nothing when the report has no such table or every target is met.
missed_targets() {
  awk -F' *[|] *' '
    /^[|] target [|] met [|] missed [|]/ { intable = 1; next }
    intable && /^[|] *-/ { next }
    intable && !/^[|]/ { intable = 0 }
    intable && $4 != "none" { list = list (list == "" ? "" : "; ") $2 ": " $4 }
    END {
      if (list != "") {
        print ""
        print "Short of the project'"'"'s targets in this run: " list "."
      }
    }' "$report"
}
# README's opening sentence on speed: each headline column's range over the
# inputs.
ranges() {
  awk -F' *[|] *' '
    function add(name, text) {
      if (!(name in col)) return
      lo = ""; hi = ""; wins = 0
      for (r = 1; r <= rows; r++) {
        v = cell[r, col[name]] + 0
        if (lo == "" || v < lo) lo = v
        if (hi == "" || v > hi) hi = v
        wins += v >= 1
      }
      # Below 1, two decimals: 0.98 is not "1.0" as fast.
      parts[++np] = sprintf(lo < 1 ? "%.2f-%.1fx %s" : "%.1f-%.1fx %s", lo, hi, text)
      if (name == "vs upb fasttable") parts[np] = parts[np] sprintf(" (faster on %d of %d)", wins, rows)
    }
    /^[|] input [|] vs / && !done { for (i = 2; i < NF; i++) col[$i] = i; intable = 1; next }
    intable && /^[|] *-/ { next }
    intable && !/^[|]/ { intable = 0; done = 1 }
    intable { rows++; for (i = 2; i < NF; i++) cell[rows, i] = $i }
    END {
      add("vs protobuf-c malloc", "as fast as protobuf-c with malloc")
      add("vs protobuf-c linear", "with a bump allocator")
      add("vs libprotobuf reuse", "as fast as libprotobuf reusing one message")
      add("vs upb fasttable", "as fast as upb'"'"'s fasttable decoder")
      line = "On the bench'"'"'s " rows " inputs it decodes "
      for (p = 1; p <= np; p++) line = line (p == 1 ? "" : p == np ? ", and " : ", ") parts[p]
      print line "."
    }' "$report"
}
replace_between_markers bench-report "$root/docs/benchmark.md" full_report
replace_between_markers bench-report "$root/README.md" headline
replace_between_markers bench-headline "$root/README.md" ranges
