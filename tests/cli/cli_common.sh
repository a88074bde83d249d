# Shared setup and helpers of the CLI test scripts. Each script starts with
#   source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"
# (its arguments: <hagoromo binary> <source dir> [part]) and ends with `finish`.
# Sets hagoromo (absolute path), src (absolute), work (a temporary folder, removed at exit)
# and the counters.
hagoromo=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
# The script's part, its optional 3rd argument (ctest runs a long script as one test per
# part): `if in_part <name>; then ... fi` runs a block in that part, or always without one.
part=${3:-all}
in_part() { [[ $part == all || $part == "$1" ]]; }

# finish: the summary line; the script's exit status is 0 only when no case failed.
finish() {
  echo "$passes passed, $failures failed"
  [[ $failures -eq 0 ]]
}

pass() { passes=$((passes + 1)); }
failed() { echo "FAIL: $*"; failures=$((failures + 1)); }

check() {  # check <description> <expected exit> <expected text in stderr|-> -- command...
  local what=$1 expected=$2 text=$3
  shift 4
  local out rc
  out=$("$@" 2>&1 >/dev/null)
  rc=$?
  # Under ASan, LeakSanitizer's own stop-the-world tracer sometimes crashes at exit after a
  # correct run ("Tracer caught signal 11", google/sanitizers#1353); CI once saw it twice in
  # a row on one case: such a case runs up to three more times.
  local attempt
  for attempt in 2 3 4; do
    [[ $rc -ne $expected && $out == *"LeakSanitizer has encountered a fatal error"* ]] || break
    echo "note: $what: LeakSanitizer's tracer crashed at exit; attempt $attempt"
    out=$("$@" 2>&1 >/dev/null)
    rc=$?
  done
  if [[ $rc -ne $expected ]]; then
    failed "$what: exit $rc, expected $expected; stderr: $out"
  elif [[ $text != - && $out != *"$text"* ]]; then
    failed "$what: stderr lacks '$text': $out"
  else
    echo "ok: $what"
    pass
  fi
}

# check_quick: check() with the command given 5 s: a hang (or a run that takes long to
# refuse) fails the case instead of stalling the suite.
check_quick() {  # check_quick <description> <expected exit> <expected text|-> -- command...
  local what=$1 expected=$2 text=$3
  shift 4
  check "$what" "$expected" "$text" -- timeout 5 "$@"
}

# nothing_left <folder> <what>: the folder is gone or empty (no partial outputs, no staging
# folders, no temporary files).
nothing_left() {
  if [[ -z "$(ls -A "$1" 2>/dev/null)" ]]; then pass; else failed "$2 left files: $(ls -A "$1" | head -5 | tr '\n' ' ')"; fi
}

is_png() { [[ $(head -c 8 "$1" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]]; }
