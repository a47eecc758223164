#!/usr/bin/env bash
# CI check of the Slurm scripts on a real Slurm: starts a single-node cluster
# on this machine (local-cluster.sh), runs one shipped scenario of each type
# on one machine, runs the same scenarios as a 4-task shard array plus the
# afterok merge job (submit.sh --wait), and requires `diff -r` of the two
# report folders to be empty. Prints the job ids and timings; stops the
# cluster on the way out, on failure too.
#
#   WOUNDSIM=target/release/woundsim deploy/slurm/ci-test.sh
#
# Exit status: 0 the folders are identical; 1 they differ, a job failed or
# the cluster did not start; 2 bad usage (no WOUNDSIM binary); 77 this
# machine cannot run the local cluster (not root and no passwordless sudo,
# or Slurm is not installed and there is no apt-get to install it), so the
# check was not made.
#
# WOUNDSIM_CI_SHARDS (default 4) and WOUNDSIM_CI_TRIALS (default 200000)
# change the shard count and the trials per variant; WOUNDSIM_SLURM_DIR is
# passed on to local-cluster.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
SKIP=77
scenarios=(death-saves lingering-injuries festering-wounds amputation combat-goblin-ambush)
shards=${WOUNDSIM_CI_SHARDS:-4}
trials=${WOUNDSIM_CI_TRIALS:-200000}

log() { printf 'ci-test: %s\n' "$*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

if [ -z "${WOUNDSIM:-}" ]; then
  log "set WOUNDSIM to a built woundsim binary (e.g. WOUNDSIM=target/release/woundsim $0)"
  exit 2
fi
if [ ! -x "$WOUNDSIM" ] || [ -d "$WOUNDSIM" ]; then
  log "WOUNDSIM=$WOUNDSIM is not an executable file"
  exit 2
fi
woundsim="$(cd "$(dirname "$WOUNDSIM")" && pwd)/$(basename "$WOUNDSIM")"

# The cluster's daemons need root: rerun as root through passwordless sudo,
# or say why the check cannot be made here.
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    log "not root: rerunning under sudo"
    exec sudo -n env WOUNDSIM="$woundsim" WOUNDSIM_CI_SHARDS="$shards" WOUNDSIM_CI_TRIALS="$trials" \
      ${WOUNDSIM_SLURM_DIR:+WOUNDSIM_SLURM_DIR="$WOUNDSIM_SLURM_DIR"} PATH="$PATH" bash "$0" "$@"
  fi
  log "cannot run Slurm here: the local cluster needs root (slurmctld, slurmd, munged) and this is uid $(id -u) without passwordless sudo (exit $SKIP: not checked)"
  exit "$SKIP"
fi
if ! { command -v slurmctld && command -v slurmd && command -v munged && command -v sbatch; } >/dev/null 2>&1 &&
  ! command -v apt-get >/dev/null 2>&1; then
  log "cannot run Slurm here: slurm-wlm and munge are not installed and there is no apt-get to install them (exit $SKIP: not checked)"
  exit "$SKIP"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/woundsim-slurm-ci.XXXXXX")
started=0
status=1
finish() {
  trap - EXIT
  if [ "$status" -ne 0 ]; then
    for f in "$work"/woundsim-*.out; do
      [ -e "$f" ] || continue
      log "--- $(basename "$f")"
      tail -n 20 "$f" >&2 || true
    done
  fi
  if [ "$started" = 1 ]; then
    "$here/local-cluster.sh" stop || true
  fi
  rm -rf "$work"
  if [ "$status" -eq 0 ]; then log "passed"; else log "FAILED"; fi
  exit "$status"
}
trap finish EXIT
trap 'exit 1' INT TERM HUP

t_all=$(now)
t=$(now)
started=1
"$here/local-cluster.sh" start
eval "$("$here/local-cluster.sh" env)"
export SLURM_CONF
log "cluster up in $(since "$t")"

t=$(now)
"$woundsim" run "${scenarios[@]}" --trials "$trials" --reproducible -q --out "$work/single"
log "one machine: ${scenarios[*]}, $trials trials each, in $(since "$t")"

# Job logs (woundsim-shard-*.out, woundsim-merge-*.out) land in the
# submission directory.
cd "$work"
t=$(now)
submit_status=0
WOUNDSIM="$woundsim" "$here/submit.sh" --wait --merge-opt --reproducible --merge-opt -q \
  "$shards" "${scenarios[0]}" "$work/states" "$work/merged" "${scenarios[@]:1}" --trials "$trials" \
  | tee "$work/submit.log" || submit_status=$?
log "shard array + merge: $(since "$t") from submission to the merge job's end"

array=$(sed -n 's/^shard array: job \([0-9]*\).*/\1/p' "$work/submit.log")
merge=$(sed -n 's/^merge: job \([0-9]*\).*/\1/p' "$work/submit.log")
for job in $array $merge; do
  # One line per job (per array task): id, state, exit code, times.
  scontrol -o show job "$job" 2>/dev/null | tr ' ' '\n' |
    awk -F= '/^(JobId|ArrayJobId|ArrayTaskId|JobName|JobState|ExitCode|RunTime|StartTime|EndTime)=/ {
               if ($1 == "JobId" && line != "") { print line; line = "" }
               line = line (line == "" ? "" : " ") $0 }
             END { if (line != "") print line }' |
    sed 's/^/ci-test: job: /' >&2 || true
done

if [ "$submit_status" -ne 0 ] || [ -z "$array" ] || [ -z "$merge" ]; then
  log "the shard array or the merge job failed (submit.sh exit status $submit_status)"
  exit 1
fi
states=$(find "$work/states" -name "shard-*-of-$shards.state" | wc -l)
if [ "$states" -ne "$shards" ]; then
  log "expected $shards shard states in $work/states, found $states"
  exit 1
fi
if ! diff -r "$work/single" "$work/merged" >"$work/diff.txt" 2>&1; then
  log "the merged reports differ from the one-machine run:"
  head -n 50 "$work/diff.txt" >&2
  exit 1
fi
log "diff -r single merged: empty ($(find "$work/single" -type f | wc -l) files)"
log "total $(since "$t_all")"
status=0
