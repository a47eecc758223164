#!/usr/bin/env bash
# Submits a sharded woundsim run to Slurm: an array of N shard tasks and a
# merge job that starts only if all of them succeed.
#
#   deploy/slurm/submit.sh N SCENARIO STATE_DIR OUT_DIR [woundsim run options...]
#   deploy/slurm/submit.sh --wait N ...     # block until the merge job ends; exit with its status
#   deploy/slurm/submit.sh --merge-opt --reproducible --merge-opt -q N ...
#
# --merge-opt ARG (repeatable) passes ARG to `woundsim merge` (through
# merge.sbatch), one argument each time: `--merge-opt --state-out
# --merge-opt all.state` for an option with a value. The run options go to
# every shard's `woundsim run`; they may name further scenarios
# (`... OUT_DIR amputation --trials 1000000`), which the shards run too.
#
# WOUNDSIM (default: `woundsim` on PATH) names the binary the jobs run;
# give an absolute path when the compute nodes do not share your PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage="usage: $0 [--wait] [--merge-opt ARG]... N SCENARIO STATE_DIR OUT_DIR [woundsim run options...]"
wait_flag=()
merge_opts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --wait)
      wait_flag=(--wait)
      shift
      ;;
    --merge-opt)
      if [ $# -lt 2 ]; then
        echo "--merge-opt needs an argument" >&2
        echo "$usage" >&2
        exit 2
      fi
      merge_opts+=("$2")
      shift 2
      ;;
    *) break ;;
  esac
done
if [ $# -lt 4 ]; then
  echo "$usage" >&2
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
# With --wait, sbatch exits with the merge job's status (non-zero too when
# a shard failed and Slurm cancelled the merge): report the job, then that.
status=0
merge=$(sbatch --parsable --export=ALL "${wait_flag[@]}" --dependency="afterok:$array" \
  --kill-on-invalid-dep=yes "$here/merge.sbatch" "$states" "$out" "${merge_opts[@]}") || status=$?
merge=${merge%%;*}
if [ -z "$merge" ]; then
  echo "merge: not submitted (sbatch exit status $status)" >&2
  exit "$(( status == 0 ? 1 : status ))"
fi
echo "merge: job $merge"
if [ "$status" -ne 0 ]; then
  echo "merge: job $merge did not succeed (sbatch exit status $status)" >&2
fi
exit "$status"
