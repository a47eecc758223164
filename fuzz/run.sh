#!/usr/bin/env bash
# Runs every fuzz target in turn for SECONDS each (default 600, ten
# minutes), after refreshing the seed corpus and the dictionary, and prints
# one line per target: executions, executions per second, the coverage
# counters and the outcome. Logs go to fuzz/logs/<target>.log; a crash's
# input to fuzz/artifacts/<target>/. Exits 1 if any target crashed.
#
# Without a nightly toolchain it builds with the stable one and
# RUSTC_BOOTSTRAP=1 (cargo-fuzz needs nightly's -Z flags).
#
# Usage: fuzz/run.sh [SECONDS] [TARGET ...]
#   (targets: scenario scenario_file dice merge baseline bestiary
#    import_5etools import_open5e import_foundry import_dndbeyond)
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
cd "$(dirname "$fuzz")"

seconds="${1:-600}"
[[ $# -gt 0 ]] && shift
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(scenario scenario_file dice merge baseline bestiary import_5etools import_open5e import_foundry import_dndbeyond)
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [SECONDS] [TARGET ...]" >&2
  exit 2
fi

toolchain=(+nightly)
if ! rustup run nightly true > /dev/null 2>&1; then
  toolchain=()
  export RUSTC_BOOTSTRAP=1
fi

"$fuzz/seed-corpus.sh" > /dev/null
cargo "${toolchain[@]}" fuzz build

mkdir -p "$fuzz/logs"
tmp="${TMPDIR:-/tmp}"
[[ -d /dev/shm && -w /dev/shm ]] && tmp=/dev/shm
failed=0
for target in "${targets[@]}"; do
  args=(-timeout=10 "-max_total_time=$seconds")
  [[ "$target" == scenario* ]] && args+=("-dict=$fuzz/scenario.dict")
  [[ "$target" == import_* ]] && args+=("-dict=$fuzz/import.dict")
  log="$fuzz/logs/$target.log"
  # stdin closed: a crafted state's scenario may name /dev/stdin.
  if TMPDIR="$tmp" cargo "${toolchain[@]}" fuzz run "$target" -- "${args[@]}" > "$log" 2>&1 < /dev/null; then
    outcome="no crash"
  else
    outcome="CRASH: see $log and fuzz/artifacts/$target/"
    failed=1
  fi
  # The last status line: `#RUNS DONE cov: C ft: F corp: ... exec/s: E ...`.
  last="$(grep -aE '^#[0-9]+' "$log" | tail -n 1)"
  runs="$(sed -E 's/^#([0-9]+).*/\1/' <<< "$last")"
  stat() { grep -oE "$1: [0-9]+" <<< "$last" | grep -oE '[0-9]+$' || echo '?'; }
  printf '%-14s %10s runs  %6s exec/s  cov %6s  ft %6s  %s\n' \
    "$target" "$runs" "$(stat exec/s)" "$(stat cov)" "$(stat ft)" "$outcome"
done
exit "$failed"
