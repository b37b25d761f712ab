#!/usr/bin/env bash
# docs.check: the documentation says what the tree holds.
#   - every relative link in README.md, docs/*.md and bench/README.md names a
#     file that exists, and its #anchor (if any) a heading of that file;
#   - every code block after a `<!-- from: PATH -->` line is made of lines of
#     PATH (an example or test source), so README's snippets are code that
#     builds and runs;
#   - the Quick start's commands are executable scripts of the tree, and CI
#     (.ci/run) runs its test command;
#   - every x__iter_* function the pages name is one the plugin generates (in
#     the golden header of a test proto);
#   - README's and docs/benchmark.md's benchmark sections are what
#     bench/publish.sh writes from the committed report, whose tables name
#     each row once.
#   tests/docs/check.sh [SOURCE_DIR]
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root" || exit 2
pages=(README.md docs/*.md bench/README.md)
failures=0
fail() {
  echo "docs.check: $*" >&2
  failures=$((failures + 1))
}

# GitHub's anchor for each heading of markdown file $1, one a line: lower
# case, punctuation but '-' and '_' dropped, spaces as '-'.
anchors() {
  grep -E '^#{1,6} ' "$1" | sed -E 's/^#+ +//' | tr 'A-Z' 'a-z' |
    sed -E 's/[^a-z0-9 _-]//g; s/ /-/g'
}

# Links: [text](target), skipping code blocks and absolute URLs.
for page in "${pages[@]}"; do
  dir=$(dirname "$page")
  while IFS= read -r target; do
    path=${target%%#*}
    anchor=
    [[ $target == *'#'* ]] && anchor=${target#*#}
    if [[ -z $path ]]; then
      file=$page
    else
      file=$dir/$path
      if [[ ! -e $file ]]; then
        fail "$page: link to $target: no $file"
        continue
      fi
    fi
    if [[ -n $anchor ]]; then
      if [[ $file != *.md ]]; then
        fail "$page: link to $target: an anchor into a file that is not markdown"
      elif ! anchors "$file" | grep -qxF "$anchor"; then
        fail "$page: link to $target: no heading '#$anchor' in $file"
      fi
    fi
  done < <(awk '/^```/ { code = !code; next } !code' "$page" |
             grep -oE '\]\([^)[:space:]]+\)' | sed -E 's/^\]\((.*)\)$/\1/' |
             grep -vE '^[a-z]+:')
done

# Snippets: each line of the block after `<!-- from: PATH -->` is a line of
# PATH (trailing blanks aside).
for page in "${pages[@]}"; do
  while IFS=$'\t' read -r source lineno; do
    if [[ ! -f $source ]]; then
      fail "$page:$lineno: snippet from $source: no such file"
      continue
    fi
    missing=$(awk -v start="$lineno" 'NR > start && /^```/ { if (open) exit; open = 1; next }
                                      open' "$page" | sed -E 's/[[:space:]]+$//' |
                grep -v '^$' | grep -vxF -f <(sed -E 's/[[:space:]]+$//' "$source"))
    [[ -z $missing ]] ||
      fail "$page:$lineno: snippet lines not in $source:"$'\n'"$missing"
  done < <(grep -nE '^<!-- from: [^ ]+ -->$' "$page" |
             sed -E 's/^([0-9]+):<!-- from: ([^ ]+) -->$/\2\t\1/')
done

# The Quick start: its block's commands are executable scripts here, and CI
# runs the last of them (the tests).
quick=$(awk '/^## Quick start/ { in_section = 1; next }
             in_section && /^## / { exit }
             in_section && /^```/ { if (open) exit; open = 1; next }
             in_section && open' README.md)
if [[ -z $quick ]]; then
  fail "README.md: no commands under '## Quick start'"
else
  while IFS= read -r command; do
    [[ -x ${command%% *} ]] || fail "README.md: Quick start command '$command' is not an executable script of the tree"
  done <<< "$quick"
  test_command=$(tail -n 1 <<< "$quick")
  grep -qxE "(\./)?${test_command}" .ci/run ||
    fail "README.md: .ci/run does not run the Quick start's test command '$test_command'"
fi

# Generated function names: x__iter_NAME in the pages, defined for some
# message of the golden headers.
for name in $(cat "${pages[@]}" | grep -oE '\bx__iter_[a-z_]+' | sort -u); do
  suffix=${name#x__iter_}
  grep -qE "[a-z0-9_]__iter_${suffix}\b" tests/golden/*.pb-iter.h tests/golden/*.pb-iter.c ||
    fail "$name is named in the docs, but no golden file defines a *__iter_${suffix}"
done

# The published benchmark: README's speed-ups and docs/benchmark.md are what
# bench/publish.sh writes from the committed bench/results/report.md.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/docs"
cp README.md "$scratch/" && cp docs/benchmark.md "$scratch/docs/"
if ! bench/publish.sh bench/results/report.md "$scratch" > /dev/null; then
  fail "bench/publish.sh failed on bench/results/report.md"
else
  for page in README.md docs/benchmark.md; do
    cmp -s "$page" "$scratch/$page" ||
      fail "$page is not what bench/publish.sh writes from bench/results/report.md (run it)"
  done
  # Regression (CodeSizeTableListedStaleObjects): bench/run.sh took every
  # object under its build directory, so a directory an earlier build
  # layout had filled listed schemas two and three times.
  repeated=$(awk -F'|' '!/^[|]/ { table++; next }
                        !/^[|]-/ { if (seen[table, $2]++) print $2 }' \
               bench/results/report.md)
  [[ -z $repeated ]] ||
    fail "bench/results/report.md: rows repeated within a table:"$'\n'"$repeated"
  grep -qE "^On the bench's [0-9]+ inputs it decodes [0-9.]+-[0-9.]+x" README.md ||
    fail "README.md: no speed-up sentence between the bench-headline markers"
  grep -qE '^[|] input [|] vs protobuf-c malloc [|]' README.md ||
    fail "README.md: no speed-up table between the bench-report markers"
  # Regression (ReadmeRoundedAMissedTargetUp): README's table showed
  # rtb_bid_request's 1.299x as 1.30x, the target's figure, and said
  # nothing of the report's missed targets.
  missed=$(awk -F' *[|] *' '/^[|] target [|] met [|] missed [|]/ { t = 1; next }
                            t && /^[|] *-/ { next }
                            t && !/^[|]/ { t = 0 }
                            t && $4 != "none" { n++ }
                            END { print n + 0 }' bench/results/report.md)
  if ((missed > 0)); then
    grep -qE "^Short of the project's targets in this run: .+x\.$" README.md ||
      fail "README.md: the report misses $missed target(s), but README does not say which"
  fi
fi

if ((failures > 0)); then
  echo "docs.check: $failures problem(s)" >&2
  exit 1
fi
echo "docs.check: ${#pages[@]} pages: links, snippets, Quick start and function names agree with the tree"
