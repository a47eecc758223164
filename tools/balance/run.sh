#!/usr/bin/env bash
# Run the balance harness and print its markdown tables.
#
#   WOUNDSIM=target/release/woundsim tools/balance/run.sh [OUT]
#
# WOUNDSIM  the binary to measure (default: `woundsim` on PATH)
# TRIALS    trials per variant (default 2000: a 95% interval of about
#           +-2.2 points at 50%)
# SEED      the seed of every scenario (default 20261205, as in the files)
# THREADS   worker threads (default 1; the figures do not depend on it)
# DETAIL    budget variants to comment on (default L08-moderate,L14-moderate)
# OUT       the output folder (default: a new temporary folder), also $1
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WOUNDSIM="${WOUNDSIM:-woundsim}"
TRIALS="${TRIALS:-2000}"
SEED="${SEED:-20261205}"
THREADS="${THREADS:-1}"
DETAIL="${DETAIL:-L08-moderate,L14-moderate}"
OUT="${1:-${OUT:-$(mktemp -d -t woundsim-balance.XXXXXX)}}"
WOUNDSIM="$(command -v "$WOUNDSIM")"
export WOUNDSIM

start=$(date +%s.%N)
"$WOUNDSIM" run \
  "$here/lone-casters.toml" \
  "$here/budgets-t1-t2.toml" "$here/budgets-t3.toml" "$here/budgets-t4.toml" \
  "$here/damage-race.toml" \
  --trials "$TRIALS" --seed "$SEED" --threads "$THREADS" --out "$OUT" --quiet
end=$(date +%s.%N)

echo "## Balance harness"
echo
echo "- binary: \`$WOUNDSIM\` ($("$WOUNDSIM" --version 2>/dev/null || echo 'version unknown'))"
echo "- trials per variant: $TRIALS; seed: $SEED; threads: $THREADS"
echo "- run wall time: $(python3 -c "print(f'{$end - $start:.1f}')") s; output: $OUT"
echo
python3 "$here/table.py" "$OUT" --detail "$DETAIL"
