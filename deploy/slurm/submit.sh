#!/usr/bin/env bash
# Submits a sharded woundsim run to Slurm: an array of N shard tasks and a
# merge job that starts only if all of them succeed.
#
#   deploy/slurm/submit.sh N SCENARIO STATE_DIR OUT_DIR [woundsim run options...]
#   deploy/slurm/submit.sh --wait N ...     # block until the merge job ends; exit with its status
#
# WOUNDSIM (default: `woundsim` on PATH) names the binary the jobs run;
# give an absolute path when the compute nodes do not share your PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
wait_flag=()
if [ "${1:-}" = "--wait" ]; then
  wait_flag=(--wait)
  shift
fi
if [ $# -lt 4 ]; then
  echo "usage: $0 [--wait] N SCENARIO STATE_DIR OUT_DIR [woundsim run options...]" >&2
  exit 2
fi
n=$1
scenario=$2
states=$3
out=$4
shift 4
if ! [[ "$n" =~ ^[1-9][0-9]*$ ]]; then
  echo "N must be a positive whole number, got '$n'" >&2
  exit 2
fi
export WOUNDSIM="${WOUNDSIM:-woundsim}"
array=$(sbatch --parsable --export=ALL --array="0-$((n - 1))" \
  "$here/shards.sbatch" "$scenario" "$states" "$@")
array=${array%%;*}
echo "shard array: job $array ($n tasks)"
merge=$(sbatch --parsable --export=ALL "${wait_flag[@]}" --dependency="afterok:$array" \
  --kill-on-invalid-dep=yes "$here/merge.sbatch" "$states" "$out")
echo "merge: job ${merge%%;*}"
