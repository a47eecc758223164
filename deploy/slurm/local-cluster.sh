#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine, for CI and for trying
# the job-array scripts without a cluster: munged, slurmctld and slurmd on
# the local host, one partition `debug` with all cores.
#
#   deploy/slurm/local-cluster.sh start   # install (Debian: slurm-wlm, munge) if needed, configure, start
#   deploy/slurm/local-cluster.sh env     # prints `export SLURM_CONF=...` for sbatch/squeue/sinfo
#   deploy/slurm/local-cluster.sh stop    # stops the daemons this script started (by their PIDs)
#
# Needs root (the daemons run as root, munged as `munge`). Everything it
# writes lives under $WOUNDSIM_SLURM_DIR (default /tmp/woundsim-slurm),
# except the Debian packages and /run/munge; nothing in /etc is changed.
set -euo pipefail

DIR=${WOUNDSIM_SLURM_DIR:-/tmp/woundsim-slurm}
CONF=$DIR/slurm.conf

log() { printf 'local-cluster: %s\n' "$*" >&2; }

install_packages() {
  if command -v slurmctld >/dev/null && command -v munged >/dev/null && command -v sbatch >/dev/null; then
    return
  fi
  command -v apt-get >/dev/null || { log "no slurmctld/munged and no apt-get to install them"; exit 1; }
  log "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq slurm-wlm munge >/dev/null
}

start_munge() {
  mkdir -p "$DIR/munge" /run/munge
  local key=$DIR/munge/munge.key
  if [ ! -s "$key" ]; then
    head -c 1024 /dev/urandom > "$key"
  fi
  chown -R munge:munge "$DIR/munge" /run/munge
  chmod 700 "$DIR/munge"
  chmod 400 "$key"
  # munged refuses group/world-writable parents of its files; /tmp is sticky, which it accepts.
  su -s /bin/sh munge -c "/usr/sbin/munged --key-file=$key --socket=/run/munge/munge.socket.2 \
    --pid-file=$DIR/munge/munged.pid --log-file=$DIR/munge/munged.log --seed-file=$DIR/munge/munged.seed --force"
  for _ in $(seq 50); do
    [ -s "$DIR/munge/munged.pid" ] && munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return
    sleep 0.1
  done
  log "munged did not come up; see $DIR/munge/munged.log"
  exit 1
}

write_conf() {
  local host cpus mem
  host=$(hostname -s)
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))
  mkdir -p "$DIR/spool/ctld" "$DIR/spool/d"
  cat > "$CONF" <<CONF
ClusterName=woundsim-local
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$DIR/spool/ctld
SlurmdSpoolDir=$DIR/spool/d
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SchedulerType=sched/backfill
MpiDefault=none
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
JobCompType=jobcomp/none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
  [ "$(id -u)" = 0 ] || { log "needs root"; exit 1; }
  install_packages
  mkdir -p "$DIR"
  start_munge
  write_conf
  export SLURM_CONF=$CONF
  /usr/sbin/slurmctld -f "$CONF"
  /usr/sbin/slurmd -f "$CONF"
  for _ in $(seq 100); do
    if sinfo -h -o '%t' 2>/dev/null | grep -qx 'idle'; then
      log "up: $(sinfo -h -o '%P %D %t %C')"
      return
    fi
    sleep 0.2
  done
  log "the node did not become idle; see $DIR/slurmctld.log and $DIR/slurmd.log"
  sinfo >&2 || true
  exit 1
}

stop() {
  local pids=() pid
  for pidfile in "$DIR/slurmd.pid" "$DIR/slurmctld.pid" "$DIR/munge/munged.pid"; do
    if [ -s "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null && pids+=("$pid")
      rm -f "$pidfile"
    fi
  done
  # slurmctld takes a few seconds to save its state and exit: wait, so that
  # a `start` right after finds its ports free.
  for _ in $(seq 100); do
    local alive=0
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null && alive=1
    done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  log "stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  env) echo "export SLURM_CONF=$CONF" ;;
  *) echo "usage: $0 start|env|stop" >&2; exit 2 ;;
esac
