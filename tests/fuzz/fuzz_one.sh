# Sourced by run.sh and run32.sh: their arguments, and one target's run.

# [SECONDS] [TARGET...] into $seconds (default 60) and $targets (default
# the four schemas' targets, and those in $extra_targets).
fuzz_args() {
  seconds=${1:-60}
  shift || true
  targets=("$@")
  [[ ${#targets[@]} -gt 0 ]] ||
    targets=(scalars2 scalars3 defaults merge ${extra_targets[@]+"${extra_targets[@]}"})
}

#   fuzz_one TARGET BIN SECONDS DICT OUT CORPUS...
# Replays tests/fuzz/regressions/TARGET (every input that ever found a bug
# must pass), then fuzzes for SECONDS on the CORPUS folders (at least one;
# the first keeps what it finds; missing ones are created empty). Its log is OUT/BIN's name.log, crashes OUT/crashes/TARGET-*.
# Exits the script on a finding.
fuzz_one() {
  local t=$1 bin=$2 seconds=$3 dict=$4 out=$5
  shift 5
  local name regressions log status=0
  name=$(basename "$bin")
  regressions=$(dirname "${BASH_SOURCE[0]}")/regressions/$t
  if compgen -G "$regressions/*" >/dev/null; then
    echo "== $name: regression inputs"
    "$bin" -runs=0 "$regressions"/*
  fi
  mkdir -p "$@" "$out/crashes"
  echo "== $name: fuzzing for ${seconds}s"
  log=$out/$name.log
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -dict="$dict" -artifact_prefix="$out/crashes/$t-" -print_final_stats=1 \
    "$@" >"$log" 2>&1 || status=$?
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" |
    sed "s/^/$name: /" || true
  if [[ $status -ne 0 ]]; then
    tail -n 40 "$log" >&2
    echo "$name failed (exit $status); crash inputs: $out/crashes/" >&2
    exit 1
  fi
}
